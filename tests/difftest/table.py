"""The generator's vocabulary: one row per statement it may write. A new op is one row here.

A row is ``(label, template, operands)``. ``operands`` names what fills ``{a}``, ``{b}``:
``f`` a floating tensor, ``t`` any tensor, ``g`` a floating tensor that requires grad. Other
placeholders are drawn per use: ``{d}`` a dim of ``{a}`` (negative ones too), ``{i}`` a small
index, ``{n}`` a small size, ``{shape}`` a shape with ``{a}``'s number of elements, ``{perm}`` a
permutation of ``{a}``'s dims, ``{c}`` a Python number, ``{mask}`` a bool tensor shaped like
``{a}``, ``{idx}`` a list of valid indices along dim 0. The generator runs every candidate in real
PyTorch and keeps it only if it runs (a ``MISTAKES`` row is kept only if it raises), so a row
never needs to describe its shape rules.

Rows of ``tests/op_table.py`` (the op table behind gradcheck) are drawn too, inlined by
``optable_rows.py``, with fresh leaves of the row's shapes and domain: a row added there is
generated here without any change.
"""

UNARY = [
    ("neg", "-{a}", "f"), ("abs", "{a}.abs()", "f"), ("exp", "torch.exp({a})", "f"),
    ("log", "{a}.log()", "f"), ("log1p", "torch.log1p({a})", "f"), ("sqrt", "{a}.sqrt()", "f"),
    ("sin", "torch.sin({a})", "f"), ("cos", "{a}.cos()", "f"), ("tan", "{a}.tan()", "f"),
    ("tanh", "torch.tanh({a})", "f"), ("sigmoid", "{a}.sigmoid()", "f"),
    ("relu", "torch.relu({a})", "f"), ("reciprocal", "{a}.reciprocal()", "f"),
    ("square", "torch.square({a})", "f"), ("sign", "{a}.sign()", "f"), ("floor", "{a}.floor()", "f"),
    ("ceil", "torch.ceil({a})", "f"), ("round", "{a}.round()", "f"), ("trunc", "torch.trunc({a})", "f"),
    ("clamp", "{a}.clamp(-0.5, 0.5)", "f"), ("clamp_min", "torch.clamp({a}, min=0.0)", "f"),
    ("clamp_max", "{a}.clamp(max={c})", "f"), ("pow_int", "{a} ** 2", "f"), ("pow_3", "{a} ** 3", "f"),
    ("pow_half", "{a} ** 0.5", "f"), ("pow_neg", "{a} ** -1", "f"), ("pow_zero", "{a} ** 0", "f"),
    ("rpow", "2 ** {a}", "f"), ("pow_self", "{a}.abs() ** {a}", "f"), ("add_scalar", "{a} + {c}", "t"),
    ("rsub_scalar", "{c} - {a}", "t"), ("mul_scalar", "{a} * {c}", "t"), ("div_scalar", "{a} / {c}", "t"),
    ("rdiv_scalar", "1 / {a}", "t"), ("int_pow", "3 ** {a}", "t"), ("floordiv", "{a} // 2", "t"),
    ("remainder", "{a} % 2", "t"), ("softmax", "torch.softmax({a}, dim={d})", "t"),
    ("log_softmax", "{a}.log_softmax({d})", "t"), ("cumsum", "{a}.cumsum({d})", "t"),
    ("clone", "{a}.clone()", "t"), ("detach", "{a}.detach()", "t"), ("double", "{a}.double()", "t"),
    ("float", "{a}.float()", "t"), ("to_f64", "{a}.to(torch.float64)", "t"), ("long", "{a}.long()", "t"),
    ("bool", "{a}.bool()", "t"), ("contiguous", "{a}.contiguous()", "t"), ("gt0", "{a} > 0", "t"),
    ("eq_self", "{a} == {a}", "t"), ("isnan", "torch.isnan({a})", "t"), ("not", "~({a} > 0)", "t"),
    ("requires_grad_", "{a}.detach().requires_grad_()", "f"),
]

BINARY = [
    ("add", "{a} + {b}", "tt"), ("sub", "{a} - {b}", "tt"), ("mul", "{a} * {b}", "tt"),
    ("div", "{a} / {b}", "tt"), ("pow", "{a} ** {b}", "tt"), ("add_alpha", "torch.add({a}, {b}, alpha=2)", "tt"),
    ("maximum", "torch.maximum({a}, {b})", "tt"), ("minimum", "{a}.minimum({b})", "tt"),
    ("where", "torch.where({a} > 0, {a}, {b})", "tt"), ("where_scalar", "torch.where({a} > {b}, {a}, 0.0)", "tt"),
    ("matmul", "{a} @ {b}", "ff"), ("matmul_fn", "torch.matmul({a}, {b})", "ff"), ("lt", "{a} < {b}", "tt"),
    ("cat", "torch.cat([{a}, {b}], dim={d})", "tt"), ("stack", "torch.stack([{a}, {b}])", "tt"),
    ("cat_self", "torch.cat([{a}, {a}])", "t"), ("stack_self", "torch.stack([{a}, {a}], dim={d})", "t"),
    ("lerp", "{a}.lerp({b}, 0.25)", "ff"), ("addcmul", "{a}.addcmul({b}, {b}, value=0.5)", "ff"),
    ("masked_fill", "{a}.masked_fill({b} > 0, {c})", "tt"), ("expand_as", "{a}.expand_as({b})", "tt"),
    ("type_as", "{a}.type_as({b})", "tt"), ("mul_self", "{a} * {a}", "t"), ("sub_self", "{a} - {a}", "t"),
]

VIEWS = [
    ("view_flat", "{a}.view(-1)", "t"), ("view", "{a}.view({shape})", "t"), ("reshape", "{a}.reshape({shape})", "t"),
    ("reshape_t", "{a}.t().reshape(-1)", "t"), ("transpose", "{a}.transpose(0, {d})", "t"),
    ("permute", "{a}.permute({perm})", "t"), ("t", "{a}.t()", "t"), ("T", "{a}.mT", "t"),
    ("expand", "{a}.expand(2, *{a}.shape)", "t"), ("expand_1", "{a}.unsqueeze(0).expand({n}, *{a}.shape)", "t"),
    ("squeeze", "{a}.squeeze()", "t"), ("squeeze_d", "{a}.squeeze({d})", "t"),
    ("unsqueeze", "{a}.unsqueeze({d})", "t"), ("unsqueeze_end", "torch.unsqueeze({a}, -1)", "t"),
    ("narrow", "{a}.narrow({d}, {i}, 1)", "t"), ("select", "{a}.select({d}, {i})", "t"),
    ("slice", "{a}[{i}:]", "t"), ("slice_step", "{a}[::2]", "t"), ("slice_neg", "{a}[..., -1:]", "t"),
    ("ellipsis", "{a}[..., {i}]", "t"), ("none", "{a}[None]", "t"), ("flatten", "{a}.flatten()", "t"),
    ("flip", "{a}.flip({d})", "t"), ("unbind", "{a}.unbind({d})[{i}]", "t"), ("split", "{a}.split(1, {d})[0]", "t"),
    ("chunk", "torch.chunk({a}, 2)[-1]", "t"), ("view_as", "{a}.view_as({a})", "t"),
    ("diag_view", "{a}.unsqueeze(-1).expand(*{a}.shape, 2).sum(-1)", "t"),
]

INDEXING = [
    ("index_int", "{a}[{i}]", "t"), ("index_neg", "{a}[-1]", "t"), ("index_2", "{a}[{i}, 0]", "t"),
    ("fancy_list", "{a}[{idx}]", "t"), ("fancy_tensor", "{a}[torch.tensor({idx})]", "t"),
    ("fancy_pair", "{a}[{idx}, {idx}]", "t"), ("bool_mask", "{a}[{mask}]", "t"),
    ("self_mask", "{a}[{a} > 0]", "t"), ("mixed", "{a}[:, {idx}]", "t"), ("index_select", "{a}.index_select(0, torch.tensor({idx}))", "t"),
    ("gather", "{a}.gather({d}, torch.zeros_like({a}, dtype=torch.long))", "t"),
    ("masked_select", "torch.masked_select({a}, {mask})", "t"),
]

REDUCTIONS = [
    ("sum", "{a}.sum()", "t"), ("sum_d", "{a}.sum({d})", "t"), ("sum_keep", "torch.sum({a}, {d}, keepdim=True)", "t"),
    ("mean", "{a}.mean()", "t"), ("mean_d", "{a}.mean({d}, keepdim=True)", "t"), ("prod", "{a}.prod()", "t"),
    ("prod_d", "torch.prod({a}, {d})", "t"), ("max", "{a}.max()", "t"), ("max_d", "{a}.max({d}).values", "t"),
    ("max_d_idx", "{a}.max({d}, keepdim=True)[1]", "t"), ("min", "torch.min({a})", "t"),
    ("min_d", "{a}.min(dim={d})[0]", "t"), ("amax", "{a}.amax({d})", "t"), ("amin", "torch.amin({a}, {d})", "t"),
    ("argmax", "{a}.argmax()", "t"), ("var", "{a}.var()", "t"), ("var_d", "{a}.var({d}, unbiased=False)", "t"),
    ("std", "{a}.std()", "t"), ("std_d", "torch.std({a}, {d}, keepdim=True)", "t"), ("norm", "{a}.norm()", "t"),
    ("norm_1", "{a}.norm(p=1)", "t"), ("logsumexp", "{a}.logsumexp({d})", "t"), ("all", "{a}.all()", "t"),
    ("any_d", "{a}.any({d})", "t"), ("count_nonzero", "torch.count_nonzero({a})", "t"),
]

# In place: ``{a}`` is written. On a leaf that requires grad the generator wraps the statement in
# ``torch.no_grad()``; on anything else it runs as written (and may be refused, as in PyTorch).
INPLACE = [
    ("add_", "{a}.add_({b})", "tt"), ("sub_", "{a}.sub_({b}, alpha=2)", "tt"), ("mul_", "{a}.mul_({b})", "tt"),
    ("div_", "{a}.div_({b})", "tt"), ("mul_scalar_", "{a}.mul_({c})", "t"), ("add_scalar_", "{a} += {c}", "t"),
    ("clamp_", "{a}.clamp_(-1, 1)", "t"), ("relu_", "{a}.relu_()", "t"), ("zero_", "{a}.zero_()", "t"),
    ("fill_", "{a}.fill_({c})", "t"), ("copy_", "{a}.copy_({b})", "tt"), ("exp_", "{a}.exp_()", "t"),
    ("sigmoid_", "{a}.sigmoid_()", "t"), ("pow_", "{a}.pow_(2)", "t"), ("neg_", "{a}.neg_()", "t"),
    ("masked_fill_", "{a}.masked_fill_({mask}, {c})", "t"), ("sqrt_", "{a}.sqrt_()", "t"),
    ("setitem_int", "{a}[{i}] = {c}", "t"), ("setitem_tensor", "{a}[{i}] = {b}", "tt"),
    ("setitem_slice", "{a}[{i}:] = {b}", "tt"), ("setitem_mask", "{a}[{mask}] = {c}", "t"),
    ("setitem_fancy", "{a}[{idx}] = {c}", "t"), ("setitem_all", "{a}[...] = {b}", "tt"),
    ("view_mul_", "{a}.view(-1).mul_({c})", "t"), ("select_add_", "{a}[{i}].add_({b})", "tt"),
    ("transpose_add_", "{a}.t().add_({b})", "tt"), ("unsqueeze_", "{a}.unsqueeze_(0)", "t"),
    ("detach_add_", "{a}.detach().add_(1)", "t"), ("data_mul_", "{a}.data.mul_(2)", "t"),
]

# Plain statements that make no new variable.
EFFECTS = [
    ("retain_grad", "{a}.retain_grad()", "g"),
    ("hook_print", "{a}.register_hook(lambda g: print('hook {a}', g.dtype, g.tolist()))", "g"),
    ("hook_scale", "{a}.register_hook(lambda g: g * 2)", "g"),
    ("hook_none", "{a}.register_hook(lambda g: None)", "g"),
    ("repr", "print(repr({a}))", "t"), ("item", "print({a}.sum().item())", "t"),
    ("size", "print({a}.shape, {a}.dim(), {a}.numel(), {a}.is_contiguous())", "t"),
    ("requires_grad_", "{a}.requires_grad_()", "t"), ("grad_attr", "print({a}.grad)", "t"),
    ("next_fns", "print({a}.grad_fn.next_functions[0][0].next_functions if {a}.grad_fn else None)", "t"),
]

# Deliberate mistakes: a row is kept only when PyTorch raises on it.
MISTAKES = [
    ("bad_broadcast", "{a} + torch.ones(7)", "t"), ("bad_matmul", "{a} @ torch.ones(5, 1)", "t"),
    ("bad_view", "{a}.view(7, -1)", "t"), ("bad_index", "{a}[9]", "t"), ("bad_dim", "{a}.sum(5)", "t"),
    ("bad_cat", "torch.cat([{a}, torch.ones(4, 5)])", "t"), ("leaf_inplace", "{a}.mul_(2)", "g"),
    ("int_requires_grad", "torch.tensor([1, 2]).requires_grad_()", "t"),
    ("bad_backward", "{a}.backward()", "g"), ("long_add_float_", "{a}.long().add_(0.5)", "t"),
    ("bool_sub", "{a}.bool() - {a}.bool()", "t"), ("float_index", "{a}[torch.tensor([0.0])]", "t"),
    ("expand_bad", "{a}.expand(3, 3, 3)", "t"), ("permute_bad", "{a}.permute(0, 0)", "t"),
    ("mask_bad", "{a}[torch.tensor([True, False, True, True, False])]", "t"),
    ("grad_no_rg", "torch.autograd.grad({a}.sum(), [torch.ones(2)])", "t"),
    ("select_0dim", "{a}.sum()[0]", "t"), ("std_int", "{a}.long().std()", "t"),
    ("softmax_int", "{a}.long().softmax(0)", "t"), ("overlap_inplace", "{a}.add_({a}.flip(0))", "t"),
]

KINDS = {"unary": UNARY, "binary": BINARY, "view": VIEWS, "index": INDEXING, "reduce": REDUCTIONS,
         "inplace": INPLACE, "effect": EFFECTS}
# How often each kind is drawn; "optable" draws a row of tests/op_table.py, "no_grad" a block.
WEIGHTS = {"unary": 16, "binary": 16, "view": 14, "index": 10, "reduce": 10, "inplace": 12,
           "effect": 8, "optable": 8, "no_grad": 4}

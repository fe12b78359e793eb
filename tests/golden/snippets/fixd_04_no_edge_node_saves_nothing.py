import torch

# A view made under no_grad of a leaf that requires grad has no edge: an op on it alone saves no
# input (PyTorch saves one only for a gradient it computes), so a later in-place write of the leaf
# or a second backward does not raise there; a saved output, or a save for a real edge, still does.
v0 = torch.tensor([[[-0.4, -1.39, 1.92]], [[2.7, 0.0, -0.26]]], requires_grad=True)
w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
with torch.no_grad():
    v1 = v0.expand(2, *v0.shape)
v2 = v1 * v1
v3 = v1.exp()
v4 = v1 * w
v5 = v1 * v1
print([[f and f.name() for f, _ in t.grad_fn.next_functions] for t in (v2, v3, v4)])
with torch.no_grad():
    v0.pow_(2)
for name, t in (("v2", v2), ("v2 again", v2), ("v3", v3), ("v4", v4)):
    try:
        (t ** 0).sum().backward()
        print(name, "ran", w.grad)
    except RuntimeError as e:
        print(name, e)
(v5 ** 0).sum().backward()
(v5 ** 0).sum().backward()
print("twice", v0.grad)

# a product or quotient with such a view saves what only the other operand's gradient reads
v0 = torch.tensor([1.5, -2.0], requires_grad=True)
w = torch.tensor([0.5, 4.0], requires_grad=True)
with torch.no_grad():
    v1 = v0.view(2)
outs = [v1 * w, w * v1, w / v1, v1 / w, v1 * 3]
with torch.no_grad():
    w.mul_(2)
for k, t in enumerate(outs):
    print(k, [f and f.name() for f, _ in t.grad_fn.next_functions], t.grad_fn._saved_self is None)
    try:
        t.sum().backward()
        print(k, "ran", w.grad)
    except RuntimeError as e:
        print(k, e)

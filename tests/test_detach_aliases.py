"""A tensor remembers its detach() aliases weakly (``_note_alias``) so that a write through it
regenerates the aliases' views; the list is swept of dead aliases at each doubling, so it stays
short when aliases die and costs no sweep per detach while many live."""
import gc

import autograd_py as torch


def test_every_live_alias_sees_a_write_however_many_there_are():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    aliases = [x.detach().requires_grad_() for _ in range(40)]
    for _ in range(100):
        x.detach()  # dead at once: swept as the list grows
    views = [a.squeeze() for a in aliases]
    with torch.no_grad():
        x.mul_(2)
    assert all(type(v.grad_fn).__name__ == "AsStridedBackward0" and v._version == 1 for v in views)
    assert all(v.grad_fn.next_functions[0][0].variable is a for v, a in zip(views, aliases))
    assert len(x._aliases) < 2 * (40 + 8)


def test_dead_aliases_do_not_pile_up():
    x = torch.tensor([1.0, 2.0])
    for _ in range(1000):
        x.detach()
    assert len(x._aliases) <= 8
    leaves = []
    for _ in range(1000):  # leaves kept alive by their AccumulateGrad until a collection
        leaf = x.detach().requires_grad_()
        (leaf * 2).sum().backward()
        leaves.append(leaf) if len(leaves) < 3 else None
    del leaf
    gc.collect()
    before = len(x._aliases)
    while len(x._aliases) >= before:  # up to the next doubling, whose sweep leaves the live ones
        before = len(x._aliases)
        x.detach()
    assert len(x._aliases) == 3 + 1 and before < 1000

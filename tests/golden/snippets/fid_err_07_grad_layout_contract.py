import torch


def twice(name, make, change):
    # Backward twice into a leaf whose shape or strides changed in place after the graph was built.
    try:
        v = make()
        y = (v.tan() ** 2).sum()
        with torch.no_grad():
            change(v)
        y.backward(retain_graph=True)
        print(name, tuple(v.grad.shape), v.grad.stride(), v.stride())
        y.backward()
        print(name, tuple(v.grad.shape), v.grad.stride())
    except Exception as e:
        print(name, type(e).__name__, e)


torch.set_warn_always(True)
# The first gradient is copied into the leaf's sizes and strides (clone_obey_contract) unless it
# already obeys them; adding the second into it warns when they disagree (a size-1 dim of stride 0).
twice("empty unsqueeze_", lambda: torch.tensor([], requires_grad=True), lambda v: v.unsqueeze_(0))
twice("empty 2-D unsqueeze_(0)", lambda: torch.ones(2, 0, requires_grad=True), lambda v: v.unsqueeze_(0))
twice("empty 2-D unsqueeze_(1)", lambda: torch.ones(2, 0, requires_grad=True), lambda v: v.unsqueeze_(1))
twice("unsqueeze_(0)", lambda: torch.tensor([1.0, 2.0, 3.0], requires_grad=True), lambda v: v.unsqueeze_(0))
twice("unsqueeze_(1)", lambda: torch.tensor([1.0, 2.0, 3.0], requires_grad=True), lambda v: v.unsqueeze_(1))
twice("t_", lambda: torch.ones(3, 3, requires_grad=True), lambda v: v.t_())
twice("transposed leaf", lambda: torch.ones(3, 2).t().requires_grad_(), lambda v: None)
twice("expanded leaf", lambda: torch.ones(3, 1).expand(3, 2).requires_grad_(), lambda v: None)
print(torch.zeros(2, 0).stride(), torch.zeros(0, 2).unsqueeze(1).stride(), torch.zeros(3).unsqueeze(1).stride())
torch.set_warn_always(False)  # the golden test runs snippets in one process: leave it as found

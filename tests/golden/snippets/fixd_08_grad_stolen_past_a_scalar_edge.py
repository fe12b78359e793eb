import torch

# A gradient that AddBackward0 also hands to its scalar's empty edge is still the buffer's only
# holder: AccumulateGrad keeps it as is (its shape and version), not a copy in the leaf's new shape.
for make in (lambda t: t + 0, lambda t: t - 1, lambda t: 2 + t, lambda t: t * 1):
    v0 = torch.tensor([[-1.18]], requires_grad=True)
    v4 = make(v0)
    with torch.no_grad():
        v0.unsqueeze_(0)
    loss = (v4.mT ** 2).sum()
    loss.backward(retain_graph=True)
    print(tuple(v0.grad.shape), v0.grad._version, v0.grad)
    loss.backward()
    print(tuple(v0.grad.shape), v0.grad._version, v0.grad)

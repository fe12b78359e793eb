# Nested saved_tensors_hooks: only the innermost pair applies; outputs are packed with their grad_fn
import torch


def hooks(tag):
    def pack(x):
        print("pack", tag, x)
        return x

    def unpack(x):
        print("unpack", tag, x)
        return x

    return pack, unpack


a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(*hooks("outer")):
    y = a.exp()
    with torch.autograd.graph.saved_tensors_hooks(*hooks("inner")):
        z = y * a
        s = z.sigmoid()
    w = a * 2
    t = torch.ones(3) * torch.ones(3)
with torch.no_grad(), torch.autograd.graph.saved_tensors_hooks(*hooks("no_grad")):
    n = a * a
print("-- backward")
(s.sum() + w.sum()).backward()
print(a.grad)

import torch

# A leaf's AccumulateGrad takes the leaf's shape when made; PyTorch holds it weakly, so a hook
# (on the leaf) does not keep it alive across an unrecorded unsqueeze_, while a graph does.
for hook in (None, "pre", "post"):
    v0 = torch.arange(6.0, requires_grad=True)
    if hook == "pre":
        v0.register_hook(lambda g: None)
    elif hook == "post":
        v0.register_post_accumulate_grad_hook(lambda t: print("post", tuple(t.grad.shape)))
    with torch.no_grad():
        v0.unsqueeze_(0)
    v1 = v0.squeeze(-2)
    g, = torch.autograd.grad((v1 * v1).sum(), [v0], create_graph=True)
    print(hook, tuple(g.shape), g.grad_fn.name(), g.grad_fn.next_functions[0][0].name())
    (v1 * v1).sum().backward()
    print(tuple(v0.grad.shape))

v0 = torch.arange(6.0, requires_grad=True)
v0.register_hook(lambda g: g * 2)
y = v0 * 2  # the graph holds the accumulator made for shape (6,)
with torch.no_grad():
    v0.unsqueeze_(0)
v1 = v0.squeeze(-2)
print(tuple(torch.autograd.grad((v1 * v1).sum(), [v0])[0].shape))
with torch.no_grad():
    v0.squeeze_(0)
del y, v1
with torch.no_grad():
    v0.t_()
    v0.unsqueeze_(1)
v1 = v0.squeeze(1)
print(torch.autograd.grad(v1.sum(), [v0])[0])

# Hooks on graph nodes (grad_fn): register_hook and register_prehook
import torch

torch.manual_seed(3)
a = torch.randn(3, requires_grad=True)
b = a.clone()
print(isinstance(b.grad_fn, torch.autograd.graph.Node))
print(b.grad_fn.name())
print(type(b.grad_fn))


def node_hook(grad_inputs, grad_outputs):
    print("hook: grad_inputs", grad_inputs)
    print("hook: grad_outputs", grad_outputs)


def node_prehook(grad_outputs):
    print("prehook:", grad_outputs)
    return (grad_outputs[0] * 2,)


y = b * 3
h1 = y.grad_fn.register_hook(node_hook)
h2 = y.grad_fn.register_prehook(node_prehook)
y.sum().backward(retain_graph=True)
print(a.grad)

h1.remove()
h2.remove()
a.grad = None
y.sum().backward()
print(a.grad)

z = (a * a).sum()
z.grad_fn.register_hook(lambda gi, go: (gi[0] * 0,))
z.backward()
print(a.grad)
print(z.grad_fn.next_functions)

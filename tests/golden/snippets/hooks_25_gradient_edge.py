# get_gradient_edge: autograd.grad accepts the edge where a tensor's gradient is computed
import torch
x = torch.tensor([1.,2.], requires_grad=True)
y = x * 2
edge = torch.autograd.graph.get_gradient_edge(y)
print(edge)
z = y * 3
print(torch.autograd.grad(z.sum(), edge, retain_graph=True))
print(torch.autograd.grad(z.sum(), [edge, x], retain_graph=True))
e2 = torch.autograd.graph.get_gradient_edge(x); print(e2, e2.node is y.grad_fn.next_functions[0][0])
print(torch.autograd.grad(z.sum(), e2, retain_graph=True))
try: torch.autograd.graph.get_gradient_edge(torch.ones(2))
except RuntimeError as e: print(e)
print(type(edge), isinstance(edge, tuple), edge.node.name(), edge.output_nr)

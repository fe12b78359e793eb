# Gradients of gradients through conv and pooling (create_graph=True)
import torch
import torch.nn.functional as F

x = torch.linspace(-1, 1, 2 * 3 * 6 * 6).view(2, 3, 6, 6).requires_grad_()
w = torch.linspace(-0.5, 0.7, 4 * 3 * 3 * 3).view(4, 3, 3, 3).requires_grad_()
b = torch.tensor([0.1, -0.2, 0.3, 0.0], requires_grad=True)
y = F.conv2d(x, w, b, stride=2, padding=1)
print(y.grad_fn, y.grad_fn.next_functions)
print(y.grad_fn._saved_stride, y.grad_fn._saved_padding, y.grad_fn._saved_dilation, y.grad_fn._saved_groups,
      y.grad_fn._saved_transposed, y.grad_fn._saved_output_padding, y.grad_fn._saved_bias_sym_sizes_opt)
loss = (y ** 2).sum()
gx, gw, gb = torch.autograd.grad(loss, (x, w, b), create_graph=True)
print(gx.grad_fn, gw.grad_fn, gb.grad_fn)
print(gx.grad_fn.next_functions)
print(gw[1, 2])
print(gb)
penalty = gx.pow(2).sum() + gw.pow(2).sum()
penalty.backward()
print(w.grad[0, 0])
print(x.grad[1, 2, :2])
print(b.grad)

x2 = torch.tensor([[[[1., 3., 2., 0.], [4., 2., 5., 1.], [0., 1., 2., 3.], [1., 1., 0., 2.]]]], requires_grad=True)
m = F.max_pool2d(x2 * x2, 2)
g, = torch.autograd.grad(m.sum(), x2, create_graph=True)
print(g)
print(g.grad_fn)
g.sum().backward()
print(x2.grad)

a = F.avg_pool2d(x2, 2, stride=1)
g, = torch.autograd.grad((a ** 2).sum(), x2, create_graph=True)
print(g.grad_fn, g.grad_fn.next_functions[0][0])
x2.grad = None
g.sum().backward()
print(x2.grad)

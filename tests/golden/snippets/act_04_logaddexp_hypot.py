# Stable log-sum of probabilities, distances and unit conversions, with their gradients
import torch

log_p = torch.tensor([-1000.0, -2.5, 0.3, 80.0], requires_grad=True)
log_q = torch.tensor([-1000.0, -0.5, 0.3, -80.0], requires_grad=True)
s = torch.logaddexp(log_p, log_q)
print(s, s.grad_fn.name())
s.sum().backward()
print(log_p.grad, log_q.grad)
print(torch.logaddexp2(torch.tensor([1.0, 3.0]), torch.tensor([1.0, 0.0])))

dx = torch.tensor([[3.0], [1.0]], requires_grad=True)
dy = torch.tensor([4.0, 0.5, 0.0], requires_grad=True)
dist = torch.hypot(dx, dy)
dist.sum().backward()
print(dist, dx.grad, dy.grad)

angles = torch.tensor([0.0, 30.0, 90.0, 180.0], requires_grad=True)
rad = torch.deg2rad(angles)
print(rad, torch.rad2deg(rad).detach(), torch.sin(rad))
torch.sin(rad).sum().backward()
print(angles.grad)

t = torch.linspace(-2, 2, 9, requires_grad=True)
y = torch.sinc(t)
y.sum().backward()
print(y, t.grad)
print(torch.exp2(torch.tensor([0.5, 10.0])), torch.nan_to_num(torch.tensor([float("nan"), float("-inf"), 2.0])))
torch.logaddexp(log_p, 1.0)

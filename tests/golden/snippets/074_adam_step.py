import torch

w = torch.tensor([[0.5, -0.5], [1.0, 2.0]], requires_grad=True)
opt = torch.optim.Adam([w], lr=0.01)
x = torch.tensor([1.0, 2.0])
for step in range(3):
    opt.zero_grad()
    loss = (w @ x).pow(2).mean()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 5))
print(w)
print(w.grad is None)

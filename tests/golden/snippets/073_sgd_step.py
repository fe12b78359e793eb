import torch

w = torch.tensor([1.0, -2.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
for step in range(3):
    opt.zero_grad()
    loss = ((w - torch.tensor([3.0, 1.0])) ** 2).sum()
    loss.backward()
    opt.step()
    print(step, loss.item(), w)
print(w.grad)
opt = torch.optim.SGD([w], lr=0.1, momentum=0.9)
for step in range(2):
    opt.zero_grad()
    (w ** 2).sum().backward()
    opt.step()
    print(w)

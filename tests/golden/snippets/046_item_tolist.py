import torch

x = torch.tensor(0.1)
print(x.item(), type(x.item()).__name__)
print(torch.tensor(3).item(), torch.tensor(True).item())
print(torch.tensor([[1.5, 2.0], [3.0, 4.25]]).tolist())
print(torch.tensor([1, 2]).tolist(), torch.tensor(2.5).tolist())
w = torch.tensor(2.0, requires_grad=True)
loss = w * 3
print(loss.item(), float(loss), int(torch.tensor(7.9)))
print(torch.tensor([1 / 3]).item())
torch.tensor([1.0, 2.0]).item()

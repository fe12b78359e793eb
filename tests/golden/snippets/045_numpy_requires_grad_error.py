import torch

x = torch.tensor([1.5, 2.5], requires_grad=True)
print(x.detach().numpy())
print(torch.tensor([[1, 2], [3, 4]]).numpy())
print((x * 2).detach().numpy().tolist())
x.numpy()

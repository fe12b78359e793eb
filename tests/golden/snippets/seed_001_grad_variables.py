# Seed note 001: grad_variables is the deprecated name of grad_tensors.
import torch

x = torch.tensor([1., 2.], requires_grad=True)
z = x * 3
torch.autograd.backward(z, grad_variables=torch.tensor([1., 0.5]))
print(x.grad)

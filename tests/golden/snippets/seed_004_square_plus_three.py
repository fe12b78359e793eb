# Seed note 004: z = x**2 + 3 (the note claims MulBackward0; we print the truth).
import torch

x = torch.tensor(2.0, requires_grad=True)
y = x ** 2
z = y + 3
print(z)
z.backward()
print(x.grad)

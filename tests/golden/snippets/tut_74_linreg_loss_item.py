# Linear regression with nn.Linear, printing every digit of loss.item(), as many blog posts do
# (mse_loss's sum order, its backward and SGD's fused update all show in the last digits)
import torch
import torch.nn as nn

torch.manual_seed(42)
X = torch.randn(100, 1)
y = 3 * X + 2 + 0.1 * torch.randn(100, 1)

model = nn.Linear(1, 1)
criterion = nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.5)

for epoch in range(60):
    optimizer.zero_grad()
    loss = criterion(model(X), y)
    loss.backward()
    optimizer.step()
    if epoch % 10 == 0:
        print(f"Epoch {epoch}, Loss: {loss.item()}")
        print("  grad:", model.weight.grad.item(), model.bias.grad.item())

print("w =", model.weight.item(), "b =", model.bias.item())

# A small training loop with the device boilerplate, inference-mode evaluation and a checkpoint.
import io

import torch
from torch import nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
X = torch.linspace(-1, 1, 8).reshape(-1, 1).to(device)
Y = 3 * X + 0.5
model = nn.Linear(1, 1).to(device)
with torch.no_grad():
    model.weight.fill_(0.0)
    model.bias.fill_(0.0)
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
loss_fn = nn.MSELoss()
best, checkpoint = float("inf"), io.BytesIO()
for epoch in range(5):
    model.train()
    loss = loss_fn(model(X), Y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    model.eval()
    with torch.inference_mode():
        val = loss_fn(model(X), Y).item()
    if val < best:
        best = val
        checkpoint.seek(0)
        checkpoint.truncate()
        torch.save({"epoch": epoch, "model": model.state_dict(), "optim": optimizer.state_dict()}, checkpoint)
    print(f"epoch {epoch}: train {loss.item():.6f} val {val:.6f}")

checkpoint.seek(0)
state = torch.load(checkpoint)
print(state["epoch"], sorted(state["model"]), sorted(state["optim"]))
restored = nn.Linear(1, 1)
restored.load_state_dict(state["model"])
print(restored.weight, restored.bias)

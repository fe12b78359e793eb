# log1p, logsigmoid, softplus and BCE-with-logits on float32 take SLEEF's vectorised log1p (not
# correctly rounded), 32 values a step: a logistic model's loss.item() shows every digit.
import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.randn(64, 3)
y = (torch.rand(64, 1) > 0.5).float()
model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.5)
loss_fn = nn.BCEWithLogitsLoss()
for step in range(5):
    loss = loss_fn(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item())
z = torch.randn(40) * 3
print(torch.log1p(z.abs()).tolist())
print(nn.functional.logsigmoid(z).tolist())
print(nn.functional.softplus(z).tolist())

# Code written for a GPU, run on a CPU-only machine
import torch

x = torch.ones(2, 2)
try:
    x = x.cuda()
except (AssertionError, RuntimeError) as e:
    print(type(e).__name__, e)
print(x.device)

try:
    torch.zeros(3, device="cuda")
except (AssertionError, RuntimeError) as e:
    print(type(e).__name__, e)

try:
    torch.nn.Linear(2, 2).cuda()
except (AssertionError, RuntimeError) as e:
    print(type(e).__name__, e)

print(torch.device("cuda:0"), torch.device("cuda", 1), torch.device("cpu"))
print(torch.device("cuda:0").type, torch.device("cuda:0").index)
if torch.cuda.is_available():
    x = x.to("cuda")
print(x.to("cpu") is x, x.cpu() is x)
y = x.to("cuda")

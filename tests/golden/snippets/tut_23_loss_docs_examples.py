# The examples of the loss-function docs, with random inputs
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
# CrossEntropyLoss, class indices
loss = nn.CrossEntropyLoss()
input = torch.randn(3, 5, requires_grad=True)
target = torch.empty(3, dtype=torch.long).random_(5)
output = loss(input, target)
output.backward()
print(target, output)
print(input.grad)

# CrossEntropyLoss, class probabilities
input = torch.randn(3, 5, requires_grad=True)
target = torch.randn(3, 5).softmax(dim=1)
output = loss(input, target)
print(output)

# NLLLoss after LogSoftmax
m = nn.LogSoftmax(dim=1)
nll = nn.NLLLoss()
input = torch.randn(3, 5, requires_grad=True)
target = torch.tensor([1, 0, 4])
output = nll(m(input), target)
output.backward()
print(output, input.grad[0])

# BCELoss after Sigmoid, and BCEWithLogitsLoss
m = nn.Sigmoid()
bce = nn.BCELoss()
input = torch.randn(3, requires_grad=True)
target = torch.empty(3).random_(2)
print(target, bce(m(input), target))
print(nn.BCEWithLogitsLoss()(input, target))

# MSELoss / L1Loss / SmoothL1Loss
input = torch.randn(3, 5, requires_grad=True)
target = torch.randn(3, 5)
print(nn.MSELoss()(input, target), nn.L1Loss()(input, target), nn.SmoothL1Loss()(input, target))
print(F.cross_entropy(torch.randn(3, 5), torch.randint(5, (3,), dtype=torch.int64)))

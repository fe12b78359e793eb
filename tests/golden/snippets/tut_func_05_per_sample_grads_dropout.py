# The functorch per-sample-gradients notebook's CNN (conv2d, max_pool2d,
# dropout) in eval mode, with grad_and_value under vmap; small sizes.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, vmap, grad, grad_and_value
torch.manual_seed(0)

class SimpleCNN(nn.Module):
    def __init__(self):
        super(SimpleCNN, self).__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, 1)
        self.conv2 = nn.Conv2d(8, 16, 3, 1)
        self.dropout1 = nn.Dropout(0.25)
        self.dropout2 = nn.Dropout(0.5)
        self.fc1 = nn.Linear(64, 32)
        self.fc2 = nn.Linear(32, 10)

    def forward(self, x):
        x = self.conv1(x)
        x = F.relu(x)
        x = self.conv2(x)
        x = F.relu(x)
        x = F.max_pool2d(x, 2)
        x = self.dropout1(x)
        x = torch.flatten(x, 1)
        x = self.fc1(x)
        x = F.relu(x)
        x = self.dropout2(x)
        x = self.fc2(x)
        output = F.log_softmax(x, dim=1)
        return output

model = SimpleCNN()
model.eval()
data = torch.randn(6, 1, 8, 8)
targets = torch.randint(10, (6,))

params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}

def compute_loss(params, buffers, sample, target):
    predictions = functional_call(model, (params, buffers), (sample.unsqueeze(0),))
    return F.nll_loss(predictions, target.unsqueeze(0))

grads, losses = vmap(grad_and_value(compute_loss), in_dims=(None, None, 0, 0))(params, buffers, data, targets)
print(losses)
print(grads['fc2.bias'][0])
print(grads['conv2.weight'].shape, grads['conv2.weight'][1, 0, 0])

for i in range(6):
    model.zero_grad()
    out = model(data[i:i + 1])
    F.nll_loss(out, targets[i:i + 1]).backward()
    assert torch.allclose(model.conv1.weight.grad, grads['conv1.weight'][i], atol=1e-6)
print("per-sample gradients match")

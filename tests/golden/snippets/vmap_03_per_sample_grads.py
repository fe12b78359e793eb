import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, grad, vmap

# The "Per-sample-gradients" tutorial (torch.func), on a small MLP
torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 8)
        self.fc2 = nn.Linear(8, 3)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


model = Net()
batch_size = 5
data = torch.randn(batch_size, 6)
targets = torch.randint(3, (batch_size,))

params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}


def compute_loss(params, buffers, sample, target):
    batch = sample.unsqueeze(0)
    targets = target.unsqueeze(0)
    predictions = functional_call(model, (params, buffers), (batch,))
    return F.cross_entropy(predictions, targets)


ft_compute_grad = grad(compute_loss)
ft_compute_sample_grad = vmap(ft_compute_grad, in_dims=(None, None, 0, 0))
ft_per_sample_grads = ft_compute_sample_grad(params, buffers, data, targets)
for name, g in ft_per_sample_grads.items():
    print(name, g.shape)
print(ft_per_sample_grads["fc2.bias"])

# the same, one sample at a time, with plain autograd
def loop_grads():
    out = []
    for i in range(batch_size):
        model.zero_grad()
        loss = F.cross_entropy(model(data[i:i + 1]), targets[i:i + 1])
        loss.backward()
        out.append(model.fc2.bias.grad.clone())
    return torch.stack(out)
print(torch.allclose(loop_grads(), ft_per_sample_grads["fc2.bias"], atol=1e-6))

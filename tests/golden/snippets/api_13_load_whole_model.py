# torch.load of a whole pickled model: refused by default since PyTorch 2.6.
import io

import torch
from torch import nn

model = nn.Linear(2, 1)
buffer = io.BytesIO()
torch.save(model, buffer)
buffer.seek(0)
restored = torch.load(buffer, weights_only=False)
print(restored)
print(torch.equal(restored.weight, model.weight), restored.weight.requires_grad)
buffer.seek(0)
torch.load(buffer)

# "Save and Load the Model": state_dict round trip through torch.save / torch.load
import os
import tempfile

import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
print(model.state_dict().keys())

with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, 'model_weights.pth')
    torch.save(model.state_dict(), path)

    model2 = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
    x = torch.randn(2, 3)
    print(torch.equal(model(x), model2(x)))
    print(model2.load_state_dict(torch.load(path, weights_only=True)))
    model2.eval()
    print(torch.equal(model(x), model2(x)))

    t_path = os.path.join(tmp, 'tensors.pt')
    torch.save({'w': torch.arange(3.0), 'step': 10}, t_path)
    ckpt = torch.load(t_path, map_location=torch.device('cpu'))
    print(ckpt)
print(model2[0].weight)

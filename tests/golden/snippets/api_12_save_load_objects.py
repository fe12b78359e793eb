# torch.save of tensors, views and plain Python objects (a checkpoint dict).
import io

import torch
from torch import nn

x = torch.arange(6.0).reshape(2, 3)
row = x[1]
checkpoint = {"epoch": 7, "loss": 0.125, "tags": ["a", "b"], "x": x, "row": row,
              "w": torch.ones(2, requires_grad=True), "p": nn.Parameter(torch.zeros(2)),
              "ints": torch.tensor([1, 2], dtype=torch.int32), "dtype": torch.float64, "size": x.shape}
buffer = io.BytesIO()
torch.save(checkpoint, buffer)
buffer.seek(0)
loaded = torch.load(buffer)
print(sorted(loaded))
print(loaded["epoch"], loaded["loss"], loaded["tags"], loaded["dtype"], loaded["size"])
print(loaded["w"], loaded["w"].is_leaf)
print(loaded["p"])
print(loaded["ints"])
loaded["row"][0] = 100.0  # the view still shares memory with x
print(loaded["x"])
print(x)

# Inference tensors have no version counter, and cannot be changed in place outside inference mode.
import torch

with torch.inference_mode():
    t = torch.zeros(3)
    t.add_(1)
    print(t)

try:
    print(t._version)
except RuntimeError as e:
    print(e)

normal = torch.zeros(3)
with torch.inference_mode():
    normal.add_(1)
print(normal, normal._version, normal.is_inference())

try:
    t.mul_(2)
except RuntimeError as e:
    print(e)
print(t)
t[0] = 5.0

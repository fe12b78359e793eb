# Turning an inference tensor into a trainable leaf.
import torch

with torch.inference_mode():
    w = torch.ones(2)

try:
    w.requires_grad_()
except RuntimeError as e:
    print(e)

w2 = w.clone().requires_grad_()
(w2 * 3).sum().backward()
print(w2.grad, w2.is_inference())
w.requires_grad = True

# Using an inference tensor in a computation autograd records.
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.inference_mode():
    features = torch.tensor([3.0, 4.0]) * 2

print(features)
print((w + features).grad_fn)  # add saves nothing for backward
safe = features.clone()
loss = (w * safe).sum()
loss.backward()
print(w.grad)
loss = (w * features).sum()

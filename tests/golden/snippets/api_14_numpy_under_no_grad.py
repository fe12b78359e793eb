# .numpy() on a tensor that requires grad: refused while grad mode is on.
import torch

w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
print(w.detach().numpy())
with torch.no_grad():
    print(w.numpy())
print(w.numpy(force=True))
loss = (w ** 2).sum()
loss.backward()
print(w.grad.numpy())
with torch.inference_mode():
    print(w.numpy())
print(w.numpy())

# inference_mode as a decorator, and inference_mode(False) inside it.
import torch


@torch.inference_mode()
def predict(w, x):
    return w * x


@torch.inference_mode
def predict_bare(w, x):
    return w * x


w = torch.tensor([1.5, -2.0], requires_grad=True)
x = torch.tensor([2.0, 3.0])
y = predict(w, x)
print(y, y.requires_grad, y.is_inference())
print(predict_bare(w, x).is_inference(), predict.__name__)

with torch.inference_mode():
    with torch.inference_mode(mode=False):
        z = w * x
        print(torch.is_inference_mode_enabled(), z.requires_grad, z.is_inference())
        print(z.grad_fn)
with torch.no_grad():
    with torch.inference_mode(False):
        print(torch.is_grad_enabled())

# disable_saved_tensors_hooks: forbid saved-tensor hooks in a region
import torch

message = "saved tensors default hooks are disabled"
with torch.autograd.graph.disable_saved_tensors_hooks(message):
    a = torch.ones(2, requires_grad=True)
    b = a * a
    b.sum().backward()
    print(a.grad)
    try:
        with torch.autograd.graph.saved_tensors_hooks(lambda x: x, lambda x: x):
            pass
    except RuntimeError as e:
        print(type(e).__name__, e)

with torch.autograd.graph.saved_tensors_hooks(lambda x: x, lambda x: x):
    c = a * 3
print("hooks allowed again")
with torch.autograd.graph.disable_saved_tensors_hooks("no hooks inside my_layer"):
    with torch.autograd.graph.saved_tensors_hooks(lambda x: x, lambda x: x):
        pass

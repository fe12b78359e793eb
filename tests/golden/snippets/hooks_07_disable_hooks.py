# disable_saved_tensors_hooks: entering saved-tensor hooks inside it raises its message
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
message = "saved tensors default hooks are disabled"
with torch.autograd.graph.disable_saved_tensors_hooks(message):
    print(a * a)
    try:
        with torch.autograd.graph.save_on_cpu():
            pass
    except RuntimeError as e:
        print(type(e).__name__, e)
    with torch.autograd.graph.disable_saved_tensors_hooks("inner message"):
        try:
            with torch.autograd.graph.saved_tensors_hooks(lambda x: x, lambda x: x):
                pass
        except RuntimeError as e:
            print(type(e).__name__, e)
    try:
        with torch.autograd.graph.saved_tensors_hooks(lambda x: x, lambda x: x):
            pass
    except RuntimeError as e:
        print(type(e).__name__, e)
with torch.autograd.graph.saved_tensors_hooks(lambda x: x, lambda x: x):
    print("hooks work again")
with torch.autograd.graph.saved_tensors_hooks(lambda x: x, lambda x: x):
    with torch.autograd.graph.disable_saved_tensors_hooks("cannot disable while hooks are active"):
        pass

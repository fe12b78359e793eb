import torch

# at::index reads its input's grad_fn before the kernel checks the indices: a multi-output view
# whose base was written since raises its view error first; an int index out of range (checked
# while the key is parsed) still raises before it.
v2 = torch.tensor([[-0.056, -1.008, 0.642], [-1.056, 1.058, -0.27], [0.002, -1.085, 1.963]], requires_grad=True)
v3 = v2.split(2)[0]
with torch.no_grad():
    v2.sqrt_()
for key in (torch.tensor([0.0]), torch.tensor([5]), (0, torch.tensor([7])), 9, (slice(None), [0, 1])):
    try:
        print(v3[key])
    except (RuntimeError, IndexError) as e:
        print(type(e).__name__, e)
with torch.no_grad():
    print(v3[torch.tensor([1])])

import torch

# register_hook reads grad_fn when the first hook comes: a multi-output view whose base was written
# since raises its view error then (and not for a second hook).
v0 = torch.tensor([[[2.88, -2.65, -0.91]], [[0.5, -1.46, -2.66]]], requires_grad=True)
v1 = v0.split(1, 1)[0]
with torch.no_grad():
    v0[[-1, 1]] = -1.5
for k in range(2):
    try:
        v1.register_hook(lambda g: print('hook v1', g.tolist()))
        print(k, "registered")
    except RuntimeError as e:
        print(k, e)


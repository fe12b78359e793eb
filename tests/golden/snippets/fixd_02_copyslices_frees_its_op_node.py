import torch

# A CopySlices drops its op's node once backward is done with it (no retain_graph): the view node
# that node's edge kept alive dies, so an output saved on the view is named after its own op.
for retain in (False, True):
    v1 = torch.tensor([1.62, 2.75, -1.85], dtype=torch.float64, requires_grad=True)
    v3 = (v1 * v1).sum()
    v4 = v3.view(-1)
    v4.sqrt_()
    v4[torch.tensor([False])] = 0
    loss = torch.clamp(v3, min=0.0) ** 2
    try:
        loss.backward(retain_graph=retain)
    except RuntimeError as e:
        print(e)
    try:
        loss.backward()
    except RuntimeError as e:
        print(e)

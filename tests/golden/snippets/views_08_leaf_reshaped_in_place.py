# A leaf reshaped in place under no_grad (unsqueeze_, squeeze_, t_) after it was used: its gradient is
# stored as is when it obeys the leaf's layout, else copied into the leaf's shape (PyTorch's
# AccumulateGrad with clone_obey_contract), which can fail as copy_ does.
import warnings

import torch

warnings.filterwarnings("ignore", message="Using backward\\(\\) with create_graph")  # warned once per process
for op in ["unsqueeze_(0)", "t_()", "squeeze_()", "unsqueeze_(1)"]:
    for create in [False, True]:
        x = torch.ones(1, 3, requires_grad=True) if op == "squeeze_()" else torch.ones(2, 3, requires_grad=True) if op == "t_()" else torch.ones(3, requires_grad=True)
        y = (x * 2)
        with torch.no_grad():
            eval("x." + op)
        try:
            y.sum().backward(create_graph=create)
            print(op, create, tuple(x.grad.shape), x.grad.tolist(), type(x.grad.grad_fn).__name__ if x.grad.grad_fn else None)
        except RuntimeError as e:
            print(op, create, e)

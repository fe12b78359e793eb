# The TypeErrors PyTorch gives for malformed factory calls.
import torch

calls = ["torch.zeros()", "torch.zeros(2, 3.0)", "torch.zeros('a')", "torch.zeros(size=2)",
         "torch.zeros((2,), (3,))", "torch.ones(2, foo=1)", "torch.full(2, 3.)", "torch.full((2,))",
         "torch.arange(start=1)", "torch.arange('a')", "torch.tensor()", "torch.tensor([1, 2], torch.float64)",
         "torch.eye('a')", "torch.zeros(2, dtype='float')", "torch.zeros(2, requires_grad=1)",
         "torch.ones(None)", "torch.ones(2.0)", "torch.full((2,), fill_value='a')"]
for call in calls:
    try:
        eval(call)
    except TypeError as e:
        print(call, "->", e)
for call in ["torch.arange(0, 5, 0)", "torch.arange(5, 0)", "torch.linspace(0, 1, -1)", "torch.eye(-1)",
             "torch.zeros(-1)", "torch.ones((2, -3))"]:
    try:
        eval(call)
    except RuntimeError as e:
        print(call, "->", e)
torch.linspace(0, 1)

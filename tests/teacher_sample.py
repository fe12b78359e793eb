"""The example both plugins' builds must keep intact, character for character."""
import textwrap

# Everything a listing may garble: powers, dunders, <, &, a tab, Chinese comments, a quote.
CODE = textwrap.dedent('''\
    import torch

    class Square:
        def __init__(self, p):
        \tself.p = p  # a tab before self

    x = torch.tensor(2.0, requires_grad=True)
    y = x ** Square(2).p  # 平方
    print(y < 5, y > 3 & True, "x's grad:")
    y.backward()
    print(x.grad)  # 梯度 = 2x
''')
OPTIONS = "# autograd: show=grads autorun"

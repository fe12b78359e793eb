import torch

a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0, requires_grad=True)
loss = ((a * b + a) ** 2).sqrt()
todo = [(loss.grad_fn, 0)]
while todo:
    fn, depth = todo.pop()
    print("  " * depth + type(fn).__name__)
    for nxt, _ in reversed(fn.next_functions):
        if nxt is not None:
            todo.append((nxt, depth + 1))
print(loss)

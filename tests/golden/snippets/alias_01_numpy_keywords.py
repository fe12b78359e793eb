# NumPy's keyword names on PyTorch ops: axis= for dim=, keepdims= for keepdim=
import torch

x = torch.tensor([[1., 5., 2.], [4., 3., 6.]], requires_grad=True)
counts = x.exp()
probs = counts / counts.sum(1, keepdims=True)
print(probs)
print(torch.sum(x, dim=0, keepdims=True))
print(x.mean(axis=0), x.amax(axis=1, keepdims=True))
print(x.max(axis=1, keepdims=True))
print(torch.min(x, axis=0))
print(x.argmax(axis=1), x.argmin(axis=0, keepdims=True))
print(x.std(axis=0, keepdims=True), x.var(axis=1))
print(x.prod(axis=1), x.cumsum(axis=1), x.logsumexp(axis=1, keepdims=True))
print((x > 2).all(axis=1), (x > 2).any(axis=0, keepdims=True))
print(torch.cat([x, x], axis=0).shape, torch.stack([x, x], axis=2).shape)
print(x.unsqueeze(axis=0).shape, x.unsqueeze(axis=0).squeeze(axis=0).shape)
print(x.select(axis=1, index=2), x.index_select(axis=1, index=torch.tensor([0, 2])))
print(x.softmax(axis=1))
print(torch.sum(a=x), torch.mean(input=x, axis=1))
probs.log().mean(axis=0).sum().backward()
print(x.grad)
for call in (lambda: x.sum(dim=0, axis=1), lambda: x.sum(0, keepdim=True, keepdims=True),
             lambda: torch.nn.functional.softmax(x, axis=0)):
    try:
        call()
    except TypeError as e:
        print(type(e).__name__, e)

# Explicit generators, as in Karpathy's makemore lectures
import torch

g = torch.Generator().manual_seed(2147483647)
p = torch.rand(3, generator=g)
p = p / p.sum()
print(p)
print(torch.multinomial(p, num_samples=20, replacement=True, generator=g))

g = torch.Generator().manual_seed(2147483647)
W = torch.randn((5, 5), generator=g, requires_grad=True)
print(W)
print(g.initial_seed())

# a tiny bigram "language model" trained for a few steps
xs = torch.tensor([0, 1, 2, 3, 1])
ys = torch.tensor([1, 2, 3, 4, 0])
for k in range(5):
    xenc = torch.nn.functional.one_hot(xs, num_classes=5).float()
    logits = xenc @ W
    counts = logits.exp()
    probs = counts / counts.sum(1, keepdims=True)
    loss = -probs[torch.arange(5), ys].log().mean()
    W.grad = None
    loss.backward()
    W.data += -10 * W.grad
    print(k, loss.item())

for i in range(3):
    out = []
    ix = 0
    while True:
        pr = (W[ix].exp() / W[ix].exp().sum()).detach()
        ix = torch.multinomial(pr, num_samples=1, replacement=True, generator=g).item()
        out.append(ix)
        if ix == 0 or len(out) >= 8:
            break
    print(out)

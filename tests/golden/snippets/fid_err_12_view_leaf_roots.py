import torch


# backward() from a view without history: it has an edge only once given requires_grad_() itself.
def t(name, f):
    try:
        f(); print(name, 'ok')
    except Exception as e:
        print(name, type(e).__name__, e)
x = torch.ones(3, requires_grad=True)
with torch.no_grad():
    v = x.view(3)
t('nograd view', lambda: v.backward(torch.ones(3)))
print(x.grad, v.grad)
v0 = torch.tensor(-1.15, dtype=torch.float64)
v2 = v0.unsqueeze(0).expand(3)
v2.requires_grad_()
t('own rg view', lambda: v2.backward(torch.full_like(v2, 0.5)))
print(v2.grad)
b = torch.ones(3)
u = b[1:]
b.requires_grad_()
t('base rg later', lambda: u.backward(torch.ones(2)))
u.requires_grad_()
t('base rg later + own', lambda: u.backward(torch.ones(2)))
print(b.grad, u.grad)
t('grad()', lambda: torch.autograd.grad(v2 * 1, [v2], torch.ones(3, dtype=torch.float64)))

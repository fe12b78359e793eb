# bernoulli, multinomial and the in-place samplers from the docs
import torch

torch.manual_seed(0)
a = torch.empty(3, 3).uniform_(0, 1)
print(a)
print(torch.bernoulli(a))
print(torch.bernoulli(torch.ones(3, 3)))
print(torch.bernoulli(torch.zeros(3, 3)))

weights = torch.tensor([0, 10, 3, 0], dtype=torch.float)
print(torch.multinomial(weights, 2))
print(torch.multinomial(weights, 4, replacement=True))

t = torch.empty(2, 3)
print(t.normal_(mean=0, std=0.5))
print(t.uniform_(-1, 1))
print(t.random_(0, 10))
print(t.bernoulli_(0.3))
print(torch.zeros(5).bernoulli_(torch.tensor([0.1, 0.9, 0.5, 0.5, 1.0])))
print(torch.empty(4, dtype=torch.int64).random_(100))

# 从零开始的模型参数（d2l 3.6 softmax 回归、4.2 多层感知机）
import torch
from torch import nn

torch.manual_seed(0)
num_inputs, num_outputs, num_hiddens = 6, 3, 4

W = torch.normal(0, 0.01, size=(num_inputs, num_outputs), requires_grad=True)
b = torch.zeros(num_outputs, requires_grad=True)
print(W)
print(b)

W1 = nn.Parameter(torch.randn(num_inputs, num_hiddens, requires_grad=True) * 0.01)
b1 = nn.Parameter(torch.zeros(num_hiddens, requires_grad=True))
W2 = nn.Parameter(torch.randn(num_hiddens, num_outputs, requires_grad=True) * 0.01)
b2 = nn.Parameter(torch.zeros(num_outputs, requires_grad=True))
print(W1)


def relu(X):
    a = torch.zeros_like(X)
    return torch.max(X, a)


def softmax(X):
    X_exp = torch.exp(X)
    partition = X_exp.sum(1, keepdim=True)
    return X_exp / partition  # 这里应用了广播机制


X = torch.normal(0, 1, (2, 5))
X_prob = softmax(X)
print(X_prob, X_prob.sum(1))

X = torch.rand(2, num_inputs)
H = relu(X @ W1 + b1)
out = H @ W2 + b2
print(out)
out.sum().backward()
print(b2.grad)

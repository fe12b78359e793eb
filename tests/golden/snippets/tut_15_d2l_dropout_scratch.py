# 暂退法（Dropout）从零开始实现（改编自 d2l 4.6 节）
import torch


def dropout_layer(X, dropout):
    assert 0 <= dropout <= 1
    # 在本情况中，所有元素都被丢弃
    if dropout == 1:
        return torch.zeros_like(X)
    # 在本情况中，所有元素都被保留
    if dropout == 0:
        return X
    mask = (torch.rand(X.shape) > dropout).float()
    return mask * X / (1.0 - dropout)


torch.manual_seed(2)
X = torch.arange(16, dtype=torch.float32).reshape((2, 8))
print(X)
print(dropout_layer(X, 0.))
print(dropout_layer(X, 0.5))
print(dropout_layer(X, 1.))

W = torch.normal(0, 0.01, size=(8, 2), requires_grad=True)
H = dropout_layer(X @ W, 0.5)
H.sum().backward()
print(W.grad)

# nn.init from the docs: kaiming / xavier with gains
import torch
import torch.nn as nn

torch.manual_seed(0)
w = torch.empty(3, 5)
print(nn.init.calculate_gain('relu'), nn.init.calculate_gain('tanh'))
print(nn.init.calculate_gain('leaky_relu', 0.2))
nn.init.kaiming_normal_(w, mode='fan_out', nonlinearity='relu')
print(w)
nn.init.kaiming_uniform_(w, a=0, mode='fan_in', nonlinearity='relu')
print(w)
nn.init.xavier_uniform_(w, gain=nn.init.calculate_gain('relu'))
print(w)
nn.init.xavier_normal_(w)
print(w)
nn.init.trunc_normal_(w, std=0.02)
print(w)
nn.init.eye_(w)
print(w)
print(w.requires_grad)

layer = nn.Linear(5, 3)
nn.init.kaiming_normal_(layer.weight, nonlinearity='relu')
nn.init.constant_(layer.bias, 0.1)
print(layer.weight)
print(layer.bias)

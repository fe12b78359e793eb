# Module forward hooks: inspect activations
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
activation = {}


def get_activation(name):
    def hook(model, input, output):
        activation[name] = output.detach()
    return hook


h1 = model[0].register_forward_hook(get_activation('fc1'))
h2 = model[1].register_forward_hook(get_activation('relu'))


def pre_hook(module, args):
    print('pre-hook sees input of shape', args[0].shape)


h3 = model[2].register_forward_pre_hook(pre_hook)
x = torch.randn(2, 4)
out = model(x)
print(activation['fc1'])
print(activation['relu'])
print(out)

for h in (h1, h2, h3):
    h.remove()
activation.clear()
model(x)
print(activation)


def double_output(module, input, output):
    return output * 2


model[2].register_forward_hook(double_output)
print(torch.allclose(model(x), out * 2))

# Saved tensors tutorial, last part: saving tensors to disk in pack hooks, files deleted with the graph
import os
import tempfile
import uuid

import torch
import torch.nn as nn

tmp_dir_obj = tempfile.TemporaryDirectory()
tmp_dir = tmp_dir_obj.name


def pack_hook(tensor):
    name = os.path.join(tmp_dir, str(uuid.uuid4()))
    torch.save(tensor, name)
    return name


def unpack_hook(name):
    tensor = torch.load(name)
    os.remove(name)
    return tensor


x = torch.ones(5, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = x.pow(2)
print(y.grad_fn._saved_self)
try:
    print(y.grad_fn._saved_self)
    print("Double access succeeded!")
except FileNotFoundError:
    print("Double access failed!")


class SelfDeletingTempFile:
    def __init__(self):
        self.name = os.path.join(tmp_dir, str(uuid.uuid4()))

    def __del__(self):
        os.remove(self.name)


def pack_hook(tensor):
    temp_file = SelfDeletingTempFile()
    torch.save(tensor, temp_file.name)
    return temp_file


def unpack_hook(temp_file):
    return torch.load(temp_file.name)


x = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = x.pow(2)
print(y.grad_fn._saved_self, y.grad_fn._saved_self)
print("files before backward:", len(os.listdir(tmp_dir)))
y.sum().backward()
print("files after backward:", len(os.listdir(tmp_dir)), x.grad)

SAVE_ON_DISK_THRESHOLD = 1000


def pack_hook(x):
    if x.numel() < SAVE_ON_DISK_THRESHOLD:
        return x
    temp_file = SelfDeletingTempFile()
    torch.save(x, temp_file.name)
    return temp_file


def unpack_hook(tensor_or_sctf):
    if isinstance(tensor_or_sctf, torch.Tensor):
        return tensor_or_sctf
    return torch.load(tensor_or_sctf.name)


class SaveToDisk(nn.Module):
    def __init__(self, module):
        super().__init__()
        self.module = module

    def forward(self, *args, **kwargs):
        with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
            return self.module(*args, **kwargs)


class Scale(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.full((40, 40), 0.5))

    def forward(self, x):
        return self.w * x


net = nn.DataParallel(SaveToDisk(Scale()))
print(net)
out = net(torch.ones(40, 40))
print("files while the graph lives:", len(os.listdir(tmp_dir)))
out.sum().backward()
print("files after backward:", len(os.listdir(tmp_dir)), net.module.module.w.grad.sum())
tmp_dir_obj.cleanup()

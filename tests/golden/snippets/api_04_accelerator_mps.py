# Picking the best available device the modern way, and the default device.
import torch

print(torch.accelerator.is_available(), torch.accelerator.current_accelerator())
print(torch.backends.mps.is_available(), torch.backends.mps.is_built())
print(torch.backends.cudnn.is_available(), torch.backends.cudnn.enabled)

if torch.cuda.is_available():
    device = "cuda"
elif torch.backends.mps.is_available():
    device = "mps"
else:
    device = "cpu"
print(f"Using {device} device")

device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
print(device)

print(torch.get_default_device())
torch.set_default_device("cpu")
print(torch.get_default_device(), torch.zeros(2).device)
torch.set_default_device(None)
print(torch.get_default_device())
torch.accelerator.current_device_index()

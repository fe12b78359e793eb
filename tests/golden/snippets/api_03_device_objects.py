# torch.device: parsing, printing and comparing.
import torch

cpu = torch.device("cpu")
print(cpu, repr(cpu), type(cpu))
print(torch.device("cuda"), repr(torch.device("cuda:1")), torch.device("cuda", 1))
print(torch.device("cpu", 0), torch.device("cpu", 0) == cpu, torch.device("cuda", 0) == torch.device("cuda:0"))
print(cpu == torch.device("cpu"), cpu == "cpu", cpu != torch.device("cpu"))
print({torch.device("cpu"): "host"}[cpu])
print(torch.device(type="cuda", index=2), torch.device(cpu))
print(torch.ones(1).device == cpu, str(torch.ones(1).device) == "cpu")

for spec in ("gpu", "cuda:x", "cuda:-1", ""):
    try:
        torch.device(spec)
    except RuntimeError as e:
        print("RuntimeError", e)
torch.device("cpu", "0")

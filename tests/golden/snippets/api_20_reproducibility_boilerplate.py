# The seeding boilerplate of many tutorials; the CUDA calls are harmless without CUDA.
import torch

torch.manual_seed(42)
torch.cuda.manual_seed(42)
torch.cuda.manual_seed_all(42)
torch.backends.cudnn.deterministic = True
torch.backends.cudnn.benchmark = False
print(torch.backends.cudnn.deterministic, torch.backends.cudnn.benchmark)
print(torch.cuda.is_initialized(), torch.cuda.memory_allocated(), torch.cuda.empty_cache())
torch.cuda.synchronize()

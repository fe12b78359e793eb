# What a CPU-only build says when code insists on CUDA.
import torch

x = torch.ones(2, 3)
for attempt in (lambda: x.cuda(), lambda: x.to("cuda"), lambda: x.to("cuda:0"),
                lambda: torch.ones(2, device=torch.device("cuda")), lambda: torch.cuda.current_device(),
                lambda: x.cuda(0), lambda: x.to(1), lambda: x.to("mps")):
    try:
        attempt()
    except (AssertionError, RuntimeError) as e:
        print(type(e).__name__, e)

print(torch.cuda.is_available(), torch.cuda.device_count())
y = torch.zeros(2, 3, device="cuda")

import torch

x = torch.arange(6.0, requires_grad=True)
m = x.view(2, 3)
ops = {
    "x.view(2, 3)": m, "x.reshape(3, 2)": x.reshape(3, 2),
    "m.t()": m.t(), "m.transpose(0, 1)": m.transpose(0, 1),
    "m.permute(1, 0)": m.permute(1, 0), "m[0]": m[0], "m[:, 1:]": m[:, 1:],
    "x[[0, 2]]": x[[0, 2]], "x[x > 2]": x[x > 2],
    "x.unsqueeze(0)": x.unsqueeze(0), "m[None].squeeze(0)": m[None].squeeze(0),
    "x[:1].expand(3)": x[:1].expand(3), "x.repeat(2)": x.repeat(2),
    "torch.cat": torch.cat([x, x]), "torch.stack": torch.stack([x, x]),
    "x.clone()": x.clone(), "x.flatten()": m.flatten(),
    "m.contiguous()": m.t().contiguous(),
}
for src, t in ops.items():
    print(f"{src:20s}", t.grad_fn.name())

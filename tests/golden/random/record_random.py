"""Record ``random.json``: what real PyTorch 2.13 prints for every case of ``cases.py``.

Usage (needs torch; from the repository root)::

    python tests/golden/random/record_random.py

The file is sorted and compact, so re-recording an unchanged torch gives identical bytes.
"""
import json
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import cases  # noqa: E402


def main():
    import torch
    if not torch.__version__.startswith("2.13.0"):
        raise SystemExit(f"expected torch 2.13.0, found {torch.__version__}")
    if torch.backends.cpu.get_cpu_capability() not in ("AVX2", "AVX512"):
        raise SystemExit("record on an x86 CPU with AVX2: randn's kernel differs elsewhere")
    torch.set_num_threads(1)
    data = {"torch": torch.__version__, "samplers": {}, "groups": {}}
    for key, spec in cases.sampler_keys():
        data["samplers"][key] = cases.run_sampler(torch, spec)
    for name in cases.GROUPS:
        data["groups"][name] = cases.run_group(torch, name)
    out = HERE / "random.json"
    out.write_text(json.dumps(data, sort_keys=True, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {out} ({out.stat().st_size // 1024} KiB, {len(data['samplers'])} sampler cases)")


if __name__ == "__main__":
    main()

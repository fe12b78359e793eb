"""Record the scenarios of ``norm_cases.py`` from real PyTorch into ``values.json``.

Usage (torch==2.13.0 installed, from the repository root)::

    python tests/normalization/record.py

Each value is stored as its dtype's name and a flat list of Python floats (exact for float32 and
float64), with its shape.
"""
import json
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def main():
    import torch

    import norm_cases as cases
    assert torch.__version__.startswith("2.13.0"), torch.__version__
    out = {}
    for fn in cases.EXACT + cases.CLOSE + cases.NEAR:
        out[fn.__name__] = {k: {"dtype": str(v.dtype).replace("torch.", ""), "shape": list(v.shape),
                                "values": v.detach().reshape(-1).tolist()} for k, v in fn(torch).items()}
    # one line per recorded tensor keeps diffs readable
    lines = [f"{json.dumps(case)}: {{" + ",\n".join(f"{json.dumps(k)}: {json.dumps(v, sort_keys=True)}"
                                                for k, v in sorted(values.items())) + "}"
             for case, values in sorted(out.items())]
    (HERE / "values.json").write_text("{\n" + ",\n".join(lines) + "\n}\n")


if __name__ == "__main__":
    main()

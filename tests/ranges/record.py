"""Record ``arange``/``linspace``/``logspace`` from real PyTorch, bit for bit, into ``values.json``.

Usage (torch==2.13.0 installed, from the repository root)::

    python tests/ranges/record.py

Each case is ``[function, args, kwargs(dtype name), values]``; values are stored as the base64 of
their little-endian bytes, so the test can demand exact equality, bit for bit.
"""
import base64
import json
import pathlib
import random

HERE = pathlib.Path(__file__).resolve().parent


def cases():
    """The calls to record: tutorial favourites, then seeded random ones of every length regime."""
    rng = random.Random(0)
    out = [("arange", [0, 1, 0.1], "float32"), ("arange", [0, 1, 0.1], "float64"), ("arange", [-1, 1, 0.01], None),
           ("arange", [0, 3, 0.1], None), ("arange", [1, 2.5, 0.5], None), ("arange", [10], None),
           ("arange", [10, 0, -3], None), ("arange", [-5, 5, 0.7], "float64"), ("arange", [0, 5, 1.5], "int64"),
           ("arange", [0, 1000, 0.37], "float32"), ("arange", [0.0, 3, 0.001], "float32"),
           ("linspace", [-1, 1, 7], None), ("linspace", [-1, 1, 7], "float64"), ("linspace", [0, 1, 11], None),
           ("linspace", [0, 10, 5], "int64"), ("linspace", [-7, 13, 9], "int64"), ("linspace", [0, 1, 1], None),
           ("linspace", [3.3, -2.2, 100], None), ("linspace", [-5, 5, 1000], "float64"),
           ("logspace", [-2, 2, 5], None), ("logspace", [0, 3, 4], None), ("logspace", [-10, 10, 21], "float64"),
           ("logspace", [0.1, 2.7, 50], None)]
    for _ in range(120):
        dtype = rng.choice(["float32", "float64", None])
        a = round(rng.uniform(-20, 20), rng.choice([0, 1, 2, 6]))
        step = rng.choice([0.1, 0.01, 0.3, 0.25, 1 / 3, round(rng.uniform(0.001, 2), 4)])
        n = rng.choice([3, 9, 17, 40, 200, 600])
        forward = rng.random() < 0.8
        out.append(("arange", [a, a + step * n, step] if forward else [a + step * n, a, -step], dtype))
        b = round(rng.uniform(-50, 50), rng.choice([0, 1, 3, 7]))
        out.append(("linspace", [a, b, rng.choice([2, 3, 5, 7, 10, 33, 100, 257])], dtype))
    for _ in range(20):
        out.append(("logspace", [round(rng.uniform(-5, 5), 2), round(rng.uniform(-5, 5), 2), rng.randint(2, 60)],
                    rng.choice(["float32", "float64", None])))
        out.append(("linspace", [rng.randint(-100, 100), rng.randint(-100, 100), rng.randint(2, 50)], "int64"))
    return out


def encode(tensor):
    return base64.b64encode(tensor.numpy().astype(tensor.numpy().dtype.newbyteorder("<")).tobytes()).decode()


def main():
    import torch

    assert torch.__version__.startswith("2.13.0"), torch.__version__
    records = []
    for fn, args, dtype in cases():
        kwargs = {} if dtype is None else {"dtype": getattr(torch, dtype)}
        values = getattr(torch, fn)(*args, **kwargs)
        records.append({"fn": fn, "args": args, "dtype": dtype, "result_dtype": str(values.dtype),
                        "values": encode(values)})
    text = json.dumps({"torch_version": torch.__version__, "cases": records}, indent=0)
    (HERE / "values.json").write_text(text + "\n", encoding="utf-8")
    print(f"recorded {len(records)} cases")


if __name__ == "__main__":
    main()

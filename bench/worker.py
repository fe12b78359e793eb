"""One framework in its own process, timing batches on request; and the client that drives it.

Each framework runs in a separate Python process that imports only it (and NumPy), as a real
program would. That matters for the garbage collector: a full collection walks every object
alive, and torch alone brings ~150k of them, which in a shared process would be charged to
the pure-Python frameworks whose graphs have reference cycles (~75 ms per full collection here
against ~3 ms with autograd_py alone, as in a Pyodide page).

Protocol: one JSON object per line. The worker first sends ``{"version": ...}`` or
``{"na": reason}``; then answers ``{"cmd": "prepare", "row": ..., "workload": ...,
"min_time": ...}`` with ``{"error": ..., "calls": ...}`` or ``{"na": ...}``, and
``{"cmd": "batch"}`` with ``{"elapsed": ..., "gc": ...}``, until ``{"cmd": "quit"}``.
"""
import os

for _var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "VECLIB_MAXIMUM_THREADS",
             "NUMEXPR_NUM_THREADS"):
    os.environ[_var] = "1"

import json  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

HERE = Path(__file__).resolve().parent

# glibc returns freed memory at the top of the heap to the OS and then page-faults it back in;
# with arrays of 0.8 MB freed and re-allocated every step (W2) that churn alone doubled a
# standalone process's time, depending on unrelated allocations (importing torch hid it).
# WebAssembly memory never shrinks, so a Pyodide page never pays it: keep 64 MB of slack at the
# top of every worker's heap, the same for all frameworks (``--no-malloc-pad`` turns this off).
MALLOC_TOP_PAD = 64 << 20


def first_line(exc):
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}".rstrip(": ")


class WorkerClient:
    """The parent's handle on one framework's worker process."""

    def __init__(self, name, malloc_top_pad=MALLOC_TOP_PAD):
        self.name = name
        env = dict(os.environ)
        if malloc_top_pad:
            env.setdefault("MALLOC_TOP_PAD_", str(malloc_top_pad))
        self._proc = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), name],
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                      bufsize=1, env=env)
        hello = self._receive()
        self.version = hello.get("version")
        self.na = hello.get("na")

    def _receive(self):
        line = self._proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the {self.name} worker exited (exit code {self._proc.wait()})")
        return json.loads(line)

    def request(self, **message):
        self._proc.stdin.write(json.dumps(message) + "\n")
        self._proc.stdin.flush()
        return self._receive()

    def close(self):
        if self._proc.poll() is None:
            try:
                self.request(cmd="quit")
            except (RuntimeError, OSError):
                pass
        self._proc.wait(timeout=30)


def _serve(name, channel):
    sys.path[:0] = [str(HERE), str(HERE.parent)]  # the bench modules, and autograd_py from this checkout
    import problems
    import timing
    from frameworks import FRAMEWORKS

    def send(obj):
        channel.write(json.dumps(obj) + "\n")
        channel.flush()

    framework = next(fw for fw in FRAMEWORKS if fw.name == name)
    try:
        loaded = framework.load()
    except ImportError as exc:
        send({"na": f"not installed ({first_line(exc)})"})
        return
    send({"version": loaded["version"]})
    run = calls = None
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["cmd"] == "quit":
            send({})
            return
        if msg["cmd"] == "prepare":
            run = None
            data = problems.make_data(msg["workload"])
            try:
                fn, to_numpy = loaded["workloads"][msg["row"]](data)
                error = problems.max_error(to_numpy(fn()), problems.reference(msg["workload"], data))
                calls = timing.calls_per_batch(fn, msg["min_time"])
            except problems.NotAvailable as exc:
                send({"na": str(exc)})
            except Exception as exc:  # a framework failing on a workload is reported, not fatal
                send({"na": first_line(exc)})
            else:
                run = fn
                send({"error": error, "calls": calls})
        elif msg["cmd"] == "batch":
            elapsed, gc_seconds = timing.time_batch(run, calls)
            send({"elapsed": elapsed, "gc": gc_seconds})


if __name__ == "__main__":
    # Only the protocol may reach the parent through stdout; anything a library prints goes to stderr.
    _channel = sys.stdout
    sys.stdout = sys.stderr
    _serve(sys.argv[1], _channel)

"""Talk to the two worker processes (real PyTorch and autograd_py), one subprocess each."""
import json
import pathlib
import subprocess
import sys
import threading

WORKER = pathlib.Path(__file__).resolve().parent / "worker.py"
ROOT = WORKER.parent.parent.parent
CRASH = "WorkerCrash"


def crashed(out):
    """Whether a capture is a worker's hard crash (a segfault in PyTorch, say)."""
    return bool(out) and out[0].startswith(CRASH)


class Worker:
    """One ``worker.py`` subprocess running programs in ``mode`` (``"torch"`` or ``"ag"``)."""

    def __init__(self, mode):
        self.mode = mode
        self.proc = None
        self.start()

    def start(self):
        self.proc = subprocess.Popen([sys.executable, str(WORKER), self.mode], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, cwd=ROOT, bufsize=1)

    def send(self, blocks):
        self._write({"id": 0, "blocks": blocks})

    def _write(self, request):
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()

    def _read(self):
        line = self.proc.stdout.readline()
        if line:
            return json.loads(line)
        code = self.proc.wait()  # the worker died (a hard crash): start a new one
        self.start()
        return {"crash": code}

    def receive(self, blocks):
        answer = self._read()
        if "crash" in answer:
            return [f"{CRASH} exit code {answer['crash']}"] * len(blocks)
        return answer["out"]

    def generate(self, seed):
        """The blocks of program ``seed`` (torch mode), or None when PyTorch crashed making it."""
        self._write({"id": 0, "generate": seed})
        return self._read().get("blocks")

    def run(self, blocks):
        self.send(blocks)
        return self.receive(blocks)

    def run_all(self, programs):
        return [self.run(blocks) for blocks in programs]

    def close(self):
        self.proc.stdin.close()
        code = self.proc.wait()
        if code:
            raise RuntimeError(f"{self.mode} worker exited with {code}")


class Pair:
    """Both backends side by side; each program runs in both at once (two processes, two cores)."""

    def __init__(self):
        self.torch = Worker("torch")
        self.ag = Worker("ag")

    def run(self, blocks):
        self.torch.send(blocks)
        self.ag.send(blocks)
        return self.torch.receive(blocks), self.ag.receive(blocks)

    def run_all(self, programs):
        results = {}

        def go(worker):
            results[worker.mode] = worker.run_all(programs)

        threads = [threading.Thread(target=go, args=(w,)) for w in (self.torch, self.ag)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return results["torch"], results["ag"]

    def close(self):
        self.torch.close()
        self.ag.close()

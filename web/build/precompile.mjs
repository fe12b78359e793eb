// Adds Pyodide's bytecode to the autograd_py wheel, so the browser imports it
// without compiling its sources first (compiling them took ~230 ms of a ~300 ms
// install in the worker).
//
// Usage: node web/build/precompile.mjs WHEEL
// Rewrites WHEEL in place: each autograd_py/**/x.py gains autograd_py/**/__pycache__/
// x.<cache_tag>.pyc, compiled by the Python of web/node_modules/pyodide (the
// same Pyodide as the site's, so the bytecode is the one its import system
// accepts), and RECORD lists them. The .pyc files are "unchecked-hash" ones:
// Python uses them without looking at the source's timestamp, which unpacking
// a zip does not keep. Prints a one-line JSON summary on stdout.
import { loadPyodide } from "pyodide";
import { readFileSync, writeFileSync } from "node:fs";

const wheelPath = process.argv[2];
if (!wheelPath) {
  console.error("usage: node precompile.mjs WHEEL");
  process.exit(2);
}

const pyodide = await loadPyodide({ stdout: () => {}, stderr: (line) => console.error(line) });
pyodide.FS.writeFile("/tmp/in.whl", new Uint8Array(readFileSync(wheelPath)));
const summary = pyodide.runPython(`
import base64, hashlib, importlib.util, io, json, sys, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

def digest(data):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()

source = zipfile.ZipFile("/tmp/in.whl")
members = [(info, source.read(info)) for info in source.infolist()]
record_name = next(info.filename for info, _ in members if info.filename.endswith(".dist-info/RECORD"))
added = []
for info, data in members:
    name = info.filename
    if not name.endswith(".py") or ".dist-info/" in name:
        continue
    code = compile(data, name, "exec", dont_inherit=True)
    pyc = _code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False)
    folder, _, file = name.rpartition("/")
    added.append((f"{folder}/__pycache__/{file[:-3]}.{sys.implementation.cache_tag}.pyc", bytes(pyc)))

out = io.BytesIO()
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as wheel:
    for info, data in members:
        if info.filename == record_name:
            lines = [line for line in data.decode().splitlines() if line]
            lines += [f"{name},{digest(pyc)},{len(pyc)}" for name, pyc in added]
            data = ("\\n".join(lines) + "\\n").encode()
        wheel.writestr(info, data)
    for name, pyc in added:
        wheel.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), pyc, zipfile.ZIP_DEFLATED)
open("/tmp/out.whl", "wb").write(out.getvalue())
json.dumps({"pyc": len(added), "cache_tag": sys.implementation.cache_tag, "bytes": len(out.getvalue())})
`);
writeFileSync(wheelPath, pyodide.FS.readFile("/tmp/out.whl"));
console.log(summary);

// Adds Pyodide's bytecode of the standard-library modules the playground's
// start-up imports to the site's python_stdlib.zip, so the browser imports them
// without compiling their sources first.
//
// Pyodide 0.27 ships its standard library as sources only. Starting it imports
// about 150 of those modules (zipfile, tarfile, email, importlib.metadata and
// pickle while it loads NumPy's wheel; json, ast, inspect, ... for the
// playground), and compiling them took about 1 s of a ~2.5 s start in Node:
// more than everything the playground adds to a bare Pyodide + NumPy load.
//
// Usage: node web/build/precompile_stdlib.mjs PYODIDE_DIR WHEEL
//   PYODIDE_DIR  the site's pyodide/ folder (runtime, lock and NumPy's wheel);
//                its python_stdlib.zip is rewritten in place
//   WHEEL        the playground's autograd_py wheel
// The modules are found by running the worker's start-up here (runtime.js:
// NumPy, autograd_py.playground, a Session) and a first run of a snippet, so
// the list follows the code instead of being kept by hand. Every member of the
// original zip stays, with the same content; each of those modules gains an
// "unchecked-hash" .pyc beside its source (x.py -> x.pyc, the place zipimport
// looks first). Sources stay, for tracebacks and inspect. Prints a one-line JSON
// summary on stdout.
import { loadPyodide } from "pyodide";
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";

const [pyodideDir, wheelPath] = process.argv.slice(2).map((p) => p && resolve(p));
if (!pyodideDir || !wheelPath) {
  console.error("usage: node precompile_stdlib.mjs PYODIDE_DIR WHEEL");
  process.exit(2);
}

// A first run touches what a learner's first Run does: autograd, a module, an
// optimizer, printing, and a traceback.
const FIRST_RUN = `
import torch
import torch.nn as nn
x = torch.randn(3, requires_grad=True)
model = nn.Linear(3, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loss = (model(x) ** 2).sum()
loss.backward()
opt.step()
print(x.grad, loss.item())
loss.backward()
`;

// The npm package's copy of the runtime (the site's is byte-identical; under web/,
// whose package.json makes .js files ES modules, Node could not load it), with
// NumPy's wheel from the site's folder, found through its lock.
const lock = JSON.parse(readFileSync(`${pyodideDir}/pyodide-lock.json`, "utf8"));
const pyodide = await loadPyodide({ stdout: () => {}, stderr: (line) => console.error(line) });
await pyodide.loadPackage(`${pyodideDir}/${lock.packages.numpy.file_name}`, { messageCallback: () => {} });
pyodide.runPython("import numpy");
pyodide.unpackArchive(new Uint8Array(readFileSync(wheelPath)), "wheel");
const session = pyodide.pyimport("autograd_py.playground").Session.callKwargs({ on_output: () => {}, timeline: true });
session.run_json(FIRST_RUN);
session.destroy();

const summary = pyodide.runPython(`
import importlib.util, io, json, sys, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

stdlib = next(p for p in sys.path if p.endswith(".zip"))
prefix = stdlib + "/"
wanted = {m.__file__[len(prefix):] for m in list(sys.modules.values())
          if (getattr(m, "__file__", None) or "").startswith(prefix)}

source = zipfile.ZipFile(stdlib)
members = [(info, source.read(info)) for info in source.infolist()]
out = io.BytesIO()
compiled = 0
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
    for info, data in members:
        archive.writestr(info, data)
    for info, data in members:
        if info.filename not in wanted:
            continue
        code = compile(data, info.filename, "exec", dont_inherit=True)
        pyc = _code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False)
        member = zipfile.ZipInfo(info.filename[:-3] + ".pyc", date_time=(1980, 1, 1, 0, 0, 0))
        archive.writestr(member, bytes(pyc), zipfile.ZIP_DEFLATED)
        compiled += 1
open("/tmp/stdlib.zip", "wb").write(out.getvalue())
json.dumps({"pyc": compiled, "bytes": len(out.getvalue()), "modules": sorted(wanted)})
`);
writeFileSync(`${pyodideDir}/python_stdlib.zip`, pyodide.FS.readFile("/tmp/stdlib.zip"));
console.log(summary);

// Bundles the page entry and the worker entry with esbuild's JS API.
//
// Usage: node web/build/bundle.mjs --src web/src --out web/dist [--no-minify]
// Writes one self-contained <out>/<name> per entry below (with a linked source
// map) and prints a one-line JSON summary of the written files on stdout.
import { build } from "esbuild";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

// Each entry is loaded by a fixed relative URL, so each is bundled on its own, and
// written flat as <out>/<name> whatever folder of src/ its source lives in.
// ESM where the loader allows it; "iife" for classic scripts.
const ENTRIES = [
  { name: "boot.js", src: "app/boot.js", format: "iife" }, // the page's first, blocking script: starts Python early
  { name: "main.js", src: "app/main.js", format: "esm" }, // the playground page
  { name: "worker.js", src: "runtime/worker.js", format: "esm" }, // module Web Worker owning Pyodide
  { name: "embed.js", src: "embed/embed.js", format: "iife" }, // the host page's <script src=".../embed.js">
  { name: "embed_frame.js", src: "embed/embed_frame.js", format: "esm" }, // embed.html, one example in compact mode
  { name: "shared_worker.js", src: "runtime/shared_worker.js", format: "esm" }, // module SharedWorker: one Pyodide for a page's embeds
  { name: "shared_port.js", src: "runtime/shared_port.js", format: "esm" }, // shared_port.html, the SharedWorker's owner
  { name: "sw.js", src: "offline/sw.js", format: "iife" }, // service worker keeping the offline copy (classic, for portability)
];
// Resolve packages from web/node_modules even for sources outside web/.
const NODE_MODULES = fileURLToPath(new URL("../node_modules", import.meta.url));

const { values } = parseArgs({
  options: {
    src: { type: "string" },
    out: { type: "string" },
    "no-minify": { type: "boolean", default: false },
  },
});
if (!values.src || !values.out) {
  console.error("usage: node bundle.mjs --src DIR --out DIR [--no-minify]");
  process.exit(2);
}
const srcDir = path.resolve(values.src);
const outDir = path.resolve(values.out);

const missing = ENTRIES.map(({ src }) => path.join(srcDir, src)).filter((file) => !existsSync(file));
if (missing.length) {
  console.error(missing.map((file) => `${file} missing`).join("\n"));
  process.exit(1);
}

const common = {
  outdir: outDir,
  entryNames: "[name]",
  bundle: true,
  // Module workers and top-level await need a modern browser anyway.
  target: ["es2022"],
  platform: "browser",
  minify: !values["no-minify"],
  sourcemap: "linked",
  // Each entry gets its own self-contained file: the worker must not share
  // chunks with the page, and both are loaded by fixed relative URLs.
  splitting: false,
  metafile: true,
  logLevel: "warning",
  absWorkingDir: srcDir,
  nodePaths: [NODE_MODULES],
};

let results;
try {
  results = await Promise.all(ENTRIES.map(({ src, format }) =>
    build({ ...common, format, entryPoints: [path.join(srcDir, src)] })));
} catch {
  // esbuild has already printed the errors with their source locations.
  process.exit(1);
}

const outputs = results.flatMap((result) => Object.entries(result.metafile.outputs)).map(([file, info]) => ({
  file: path.relative(outDir, path.resolve(srcDir, file)),
  bytes: info.bytes,
}));
const warnings = results.reduce((sum, result) => sum + result.warnings.length, 0);
console.log(JSON.stringify({ outputs, warnings }));

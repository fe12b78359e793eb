"""The recorded corpus: programs with PyTorch 2.13's output, gzipped JSON, byte-identical per seed."""
import gzip
import io
import json
import pathlib

HERE = pathlib.Path(__file__).resolve().parent
CORPUS = HERE / "corpus.json.gz"
KNOWN = HERE / "known_divergences.json"
CORPUS_SEED = 2026
CORPUS_SIZE = 2000


def write_corpus(entries, torch_version, seed, path=CORPUS):
    """Write ``entries`` (dicts with ``id``, ``blocks``, ``out``) so the same input gives the same bytes."""
    doc = {"torch_version": torch_version, "seed": seed, "programs": entries}
    text = json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    raw = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as f:
        f.write(text.encode("utf-8"))
    path.write_bytes(raw.getvalue())


def read_corpus(path=CORPUS):
    return json.loads(gzip.decompress(path.read_bytes()).decode("utf-8"))


def read_known(path=KNOWN):
    """``{program id: group name}`` of corpus programs that still diverge (the to-do list)."""
    if not path.exists():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))


def write_known(known, path=KNOWN):
    path.write_text(json.dumps(dict(sorted(known.items())), indent=1, ensure_ascii=False) + "\n",
                    encoding="utf-8")


def group_name(divergence):
    """The name a corpus divergence is listed under (no shrinking: it must work without torch)."""
    return f"{divergence.category}: {divergence.detail} @ {divergence.label}"

#!/usr/bin/env bash
# Set up a fresh Debian machine (pip install -e ., npm ci, Pyodide assets),
# build the site into web/dist/ and serve it on http://127.0.0.1:$PORT/.
# Usage: [PORT=8000] bash scripts/serve.sh [build_site.py flags, e.g. --no-minify]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source web/build/setup_env.sh

PORT="${PORT:-8000}"
ensure_node
ensure_python_install "."
ensure_node_modules
build_site "$@"

echo "Playground: http://127.0.0.1:${PORT}/"
exec "$PYTHON" -m http.server --bind 127.0.0.1 -d web/dist "$PORT"

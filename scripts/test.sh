#!/usr/bin/env bash
# Set up everything the tests need (Chromium, pip install -e '.[test]', npm ci,
# the built site in web/dist/), then run pytest over tests/.
# Usage: bash scripts/test.sh [pytest args, e.g. -x -q tests/test_site_build.py]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source web/build/setup_env.sh

ensure_chromium
ensure_node
ensure_python_install ".[test]"
ensure_node_modules
build_site

set +e
"$PYTHON" -m pytest "$@"
status=$?
set -e
if [ "$status" -eq 5 ]; then
  echo "test.sh: pytest collected no tests; that is a failure here" >&2
  exit 1
fi
exit "$status"

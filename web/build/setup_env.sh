# Shared set-up steps for scripts/serve.sh and scripts/test.sh.
#
# Source it from the repository root.  Every step is idempotent and skips work
# already done, so a second run costs a few seconds: apt only when a program is
# missing, pip only when pyproject.toml (or the checkout, or the interpreter)
# changed, npm ci only when web/package-lock.json changed.

PYTHON="${PYTHON:-$(command -v python3 || command -v python)}"
STAMP_DIR="${AUTOGRAD_PLAYGROUND_CACHE:-$HOME/.cache/autograd-playground}/stamps"
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore
export npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false

log() { echo "setup: $*" >&2; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

_apt_updated=""
apt_install() {
  if [ -z "$_apt_updated" ]; then
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q
    _apt_updated=1
  fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@"
}

ensure_chromium() {
  if [ -x /usr/bin/chromium ]; then return; fi
  log "installing Debian chromium for the browser tests"
  apt_install chromium
}

ensure_node() {
  if command -v node >/dev/null && command -v npm >/dev/null; then return; fi
  log "installing Node.js and npm"
  apt_install nodejs npm
}

sha256_of() { "$PYTHON" -c 'import hashlib,sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())'; }

# ensure_python_install SPEC: `pip install -e SPEC` unless the same install is
# already in place (same pyproject, checkout path, interpreter and SPEC).
ensure_python_install() {
  local spec="$1" repo key stamp check
  repo="$(pwd -P)"
  key="$({ cat pyproject.toml; echo "$repo"; "$PYTHON" -c 'import sys; print(sys.executable, sys.version)'; echo "$spec"; } | sha256_of)"
  stamp="$STAMP_DIR/pip-$key"
  # The package must resolve to this checkout (an editable install of another
  # clone would test the wrong code), and the test tools must be importable.
  check='import importlib.util as u, os, sys
spec = u.find_spec("autograd_py")
here = os.path.realpath(os.path.join(sys.argv[2], "autograd_py"))
ok = spec is not None and any(os.path.realpath(p) == here for p in spec.submodule_search_locations or [])
tools = ["pytest", "hypothesis", "playwright", "pytest_playwright"] if "[test]" in sys.argv[1] else []
sys.exit(0 if ok and all(u.find_spec(t) for t in tools) else 1)'
  # Checked from / because from the repo root autograd_py always imports.
  if [ -f "$stamp" ] && (cd / && "$PYTHON" -c "$check" "$spec" "$repo" 2>/dev/null); then
    return
  fi
  log "pip install -e '$spec'"
  "$PYTHON" -m pip install -q -e "$spec"
  mkdir -p "$STAMP_DIR" && touch "$stamp"
}

# npm ci when web/node_modules is missing or was installed from another lockfile.
ensure_node_modules() {
  local want have stamp=web/node_modules/.autograd-playground-lock.sha256
  want="$(sha256_of < web/package-lock.json)"
  have="$(cat "$stamp" 2>/dev/null || true)"
  if [ "$want" = "$have" ] && [ -d web/node_modules/pyodide ] && [ -d web/node_modules/esbuild ]; then
    return
  fi
  log "npm ci --prefix web"
  npm ci --prefix web --loglevel=error
  echo "$want" > "$stamp"
}

build_site() {
  "$PYTHON" web/build/build_site.py "$@"
}

#!/usr/bin/env bash
# Installs everything the project needs into ./.venv on a fresh Debian machine (idempotent).
#   bash tools/install.sh            -> package + notebook extras (JupyterLab, Voila)
#   bash tools/install.sh test       -> also the test, browser and hub extras, Debian chromium and postgresql
#   bash tools/install.sh hub        -> the package, notebook and hub extras, configurable-http-proxy (npm)
# WARGAMES_PIP_NO_COMPILE=1: pip does not byte-compile what it installs (.ci/run compiles it on both cores while
# its linters run, instead of on one core here)
set -euo pipefail
cd "$(dirname "$0")/.."
export PIP_DISABLE_PIP_VERSION_CHECK=1
want=${1:-notebook}
sudo_() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else "$@"; fi; }

if ! python3 -c 'import venv, ensurepip' 2>/dev/null; then
  echo "== installing python3-venv (Debian)"
  sudo_ apt-get update -qq && sudo_ env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv python3-pip >/dev/null
fi
[ -x .venv/bin/python ] || python3 -m venv .venv
extras="notebook"
[ "$want" = test ] && extras="notebook,test,browser,hub"
[ "$want" = hub ] && extras="notebook,hub"
nocompile=""
[ "${WARGAMES_PIP_NO_COMPILE:-0}" = 1 ] && nocompile="--no-compile"
.venv/bin/pip install -q $nocompile -c ci/constraints.txt -e ".[${extras}]" 2>&1 | grep -v "is ignored: it is neither" || true
.venv/bin/python -c "import wargames" || { echo "install failed"; exit 1; }
# JupyterLab settings for a class (share/jupyter/lab/settings/overrides.d): widget state saved with a notebook, so a
# reopened notebook shows its last maps and widgets instead of "Error displaying widget"; no news pop-up.
mkdir -p .venv/share/jupyter/lab/settings/overrides.d
cp share/jupyter/lab/settings/overrides.d/wargames.json .venv/share/jupyter/lab/settings/overrides.d/

if [ "$want" = test ] && [ "${SKIP_BROWSER:-0}" != 1 ] && ! command -v chromium >/dev/null 2>&1; then
  echo "== installing Debian chromium for the browser tests"
  (sudo_ apt-get update -qq && sudo_ env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null) \
    || echo "chromium could not be installed: the browser tests will be skipped"
fi

# the class hub (issue #32 item 5): configurable-http-proxy from npm into hub/node_modules, and for the tests a
# PostgreSQL server (Debian's package) for the class store; what cannot be installed makes its tests skip
if [ "$want" = test ] || [ "$want" = hub ]; then
  if [ ! -x hub/node_modules/.bin/configurable-http-proxy ] && ! command -v configurable-http-proxy >/dev/null 2>&1; then
    if ! command -v npm >/dev/null 2>&1; then
      echo "== installing Debian npm for configurable-http-proxy"
      (sudo_ apt-get update -qq && sudo_ env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >/dev/null) || true
    fi
    echo "== installing configurable-http-proxy (npm) into hub/node_modules"
    (cd hub && npm install --no-audit --no-fund --silent --no-save configurable-http-proxy@5.3.0 >/dev/null) \
      || echo "configurable-http-proxy could not be installed: the hub test will be skipped"
  fi
fi
if [ "$want" = test ] && ! command -v initdb >/dev/null 2>&1 && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  echo "== installing Debian postgresql for the class store's PostgreSQL tests"
  (sudo_ apt-get update -qq && sudo_ env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null) \
    || echo "postgresql could not be installed: the store's PostgreSQL tests will be skipped"
fi

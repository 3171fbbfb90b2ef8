#!/usr/bin/env bash
# Installs everything the project needs into ./.venv on a fresh Debian machine (idempotent).
#   bash tools/install.sh            -> package + notebook extras (JupyterLab, Voila)
#   bash tools/install.sh test       -> also the test and browser extras, and Debian chromium
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
[ "$want" = test ] && extras="notebook,test,browser"
.venv/bin/pip install -q -c ci/constraints.txt -e ".[${extras}]" 2>&1 | grep -v "is ignored: it is neither" || true
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

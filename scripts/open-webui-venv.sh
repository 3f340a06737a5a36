#!/usr/bin/env bash
# Makes (or reuses) the Python virtual environment with Open WebUI 0.12.4 that the end-to-end test
# tests/open-webui.e2e.ts drives (npx vitest run --config vitest.open-webui.config.ts), and prints
# its path on stdout (pip's output goes to stderr).
#
# A slim install, from PyPI only: the open-webui wheel without its dependencies, then the exact
# package set of scripts/open-webui-requirements.txt (no torch, no CUDA: about 1.2 GB, 2-3 minutes
# the first time). Run again, it checks the environment is complete and does nothing more.
#
#   OPEN_WEBUI_VENV     where the environment goes (default ~/.cache/debatt/open-webui-0.12.4)
#   OPEN_WEBUI_PYTHON   the Python to build it with (default: python3.11, python3.12 or python3,
#                       the first that is 3.11.5 or later and not 3.13: Open WebUI 0.12.4 asks for
#                       3.11 or 3.12, and the pinned soupsieve for 3.11.5 or later)
set -euo pipefail

OPEN_WEBUI_VERSION=0.12.4
# The wheel's sha256 on PyPI, so that the same file is installed everywhere.
OPEN_WEBUI_SHA256=02e9caba96234db3fa17a92e56163b3f7f2b8ca8227fa886b85c178d696483f6
PIP_VERSION=26.3

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
requirements="$here/open-webui-requirements.txt"
venv=${OPEN_WEBUI_VENV:-$HOME/.cache/debatt/open-webui-$OPEN_WEBUI_VERSION}
marker="$venv/.debatt-open-webui-ready"

die() {
  echo "open-webui-venv.sh: $*" >&2
  exit 1
}

[[ -f "$requirements" ]] || die "missing $requirements"

# What the environment is made of; the marker holds it once an install completed.
want="open-webui==$OPEN_WEBUI_VERSION sha256:$OPEN_WEBUI_SHA256 pip==$PIP_VERSION requirements:$(sha256sum "$requirements" | cut -d' ' -f1)"
if [[ -x "$venv/bin/open-webui" && -f "$marker" && "$(cat "$marker")" == "$want" ]]; then
  echo "open-webui-venv.sh: $venv is complete (open-webui $OPEN_WEBUI_VERSION)" >&2
  echo "$venv"
  exit 0
fi

# A Python that Open WebUI 0.12.4 and the pinned set install on (>=3.11.5,<3.13).
fits() { "$1" -c 'import sys; sys.exit(0 if (3, 11, 5) <= sys.version_info[:3] < (3, 13) else 1)' >/dev/null 2>&1; }
python=""
if [[ -n "${OPEN_WEBUI_PYTHON:-}" ]]; then
  fits "$OPEN_WEBUI_PYTHON" || die "OPEN_WEBUI_PYTHON=$OPEN_WEBUI_PYTHON is not a working Python 3.11 (3.11.5 or later) or 3.12"
  python=$OPEN_WEBUI_PYTHON
else
  for candidate in python3.11 python3.12 python3; do
    if command -v "$candidate" >/dev/null 2>&1 && fits "$candidate"; then
      python=$candidate
      break
    fi
  done
fi
[[ -n "$python" ]] || die "Open WebUI $OPEN_WEBUI_VERSION needs Python 3.11 (3.11.5 or later) or 3.12, and none was found (tried python3.11, python3.12, python3).
Install one (e.g. pyenv install 3.12; Debian 12's python3 is 3.11.2, too old for the pinned set), or name it in OPEN_WEBUI_PYTHON."

# A venv that exists but was made by another Python version cannot be reused.
if [[ -x "$venv/bin/python" ]] && ! fits "$venv/bin/python"; then
  die "$venv holds a Python that is not 3.11.5+ or 3.12; remove it (rm -rf '$venv') and run this again"
fi

start=$(date +%s)
echo "open-webui-venv.sh: installing Open WebUI $OPEN_WEBUI_VERSION into $venv with $("$python" --version 2>&1)" >&2
if [[ ! -x "$venv/bin/python" ]]; then
  mkdir -p "$(dirname "$venv")"
  "$python" -m venv "$venv" >&2 || die "could not make a venv with $python (on Debian/Ubuntu its venv module is a package of its own, python3.X-venv)"
fi
rm -f "$marker"
pip=("$venv/bin/python" -m pip --disable-pip-version-check)
"${pip[@]}" install "pip==$PIP_VERSION" >&2
# The wheel alone: its declared dependencies would pull torch with CUDA (7 GB).
"${pip[@]}" install --no-deps --require-hashes -r /dev/stdin >&2 <<EOF
open-webui==$OPEN_WEBUI_VERSION --hash=sha256:$OPEN_WEBUI_SHA256
EOF
# Then the pinned slim set. pip ends with a "dependency conflicts" note naming the packages left
# out on purpose (torch, transformers, …): it is expected.
"${pip[@]}" install -r "$requirements" >&2
# A smoke check: the packages the server imports at start are there.
"$venv/bin/python" -c 'import open_webui, fastapi, uvicorn, socketio, chromadb, pydub' >&2 ||
  die "the install in $venv is incomplete: Open WebUI's modules do not import"

echo "$want" >"$marker"
echo "open-webui-venv.sh: done in $(($(date +%s) - start)) s" >&2
echo "$venv"

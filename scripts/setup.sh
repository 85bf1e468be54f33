#!/usr/bin/env bash
# Sets up the Python environment in .venv (idempotent). Usage: scripts/setup.sh [test]
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
extra=""
[ "${1:-}" = "test" ] && extra="[test]"
stamp=".venv/.installed${extra}"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  .venv/bin/pip install --quiet --disable-pip-version-check -e ".${extra}"
  # `parlour serve` runs under -OO -X no_debug_ranges (app/cli.py), whose byte code pip does not
  # write; where nothing may write it at run time (PYTHONDONTWRITEBYTECODE) every start would
  # compile FastAPI, SQLAlchemy and the rest from source. A few of the standard library's test
  # files are not Python 3 on purpose: those stay uncompiled, as in the image.
  .venv/bin/python -OO -X no_debug_ranges -m compileall -q -j 0 \
    "$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_path("stdlib"))')" \
    "$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_path("purelib"))')" >/dev/null 2>&1 || true
  touch "$stamp"
fi
.venv/bin/python -OO -X no_debug_ranges -m compileall -q -j 0 app engines >/dev/null

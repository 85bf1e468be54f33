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
  touch "$stamp"
fi

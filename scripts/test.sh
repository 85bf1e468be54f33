#!/usr/bin/env bash
# Sets everything up and runs the whole test suite: lint, engines and server on SQLite and a
# real PostgreSQL (a private server the tests start, or TEST_DATABASE_URL's), then the
# real-browser tests in Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)

need_apt=()
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need_apt+=(postgresql)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "Installing ${need_apt[*]}…"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi
bash scripts/setup.sh test

.venv/bin/ruff check .
.venv/bin/mypy
# Browser tests and asyncio tests cannot share one pytest process: two runs.
.venv/bin/pytest -m "not e2e" -q -p no:cacheprovider "$@"
.venv/bin/pytest -m e2e -q -p no:cacheprovider "$@"
echo "Test suite finished in $(( $(date +%s) - started )) s."

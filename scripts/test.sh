#!/usr/bin/env bash
# Sets everything up and runs the whole test suite: lint, engines and server on SQLite and a
# real PostgreSQL (started here), then the real-browser tests in Chromium.
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

# A private PostgreSQL server for the tests, stopped on exit.
PGBIN=$(dirname "$(ls /usr/lib/postgresql/*/bin/initdb | sort -V | tail -1)")
PGPORT=${PGPORT:-54329}
RUN=$(mktemp -d)
chmod 755 "$RUN"
mkdir "$RUN/pg"
as_pg=()
if [ "$(id -u)" -eq 0 ]; then chown postgres:postgres "$RUN/pg"; as_pg=(runuser -u postgres --); fi
"${as_pg[@]}" "$PGBIN/initdb" -D "$RUN/pg/data" -U postgres --auth=trust -E UTF8 --no-locale >/dev/null
"${as_pg[@]}" "$PGBIN/pg_ctl" -D "$RUN/pg/data" -l "$RUN/pg/log" -w \
  -o "-p $PGPORT -k $RUN/pg -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null
cleanup() { "${as_pg[@]}" "$PGBIN/pg_ctl" -D "$RUN/pg/data" -m fast -w stop >/dev/null 2>&1 || true; rm -rf "$RUN"; }
trap cleanup EXIT
"${as_pg[@]}" "$PGBIN/createdb" -h 127.0.0.1 -p "$PGPORT" -U postgres parlour_test
export TEST_DATABASE_URL="postgresql+psycopg://postgres@127.0.0.1:$PGPORT/parlour_test"

.venv/bin/ruff check .
.venv/bin/mypy
# Browser tests and asyncio tests cannot share one pytest process: two runs.
.venv/bin/pytest -m "not e2e" -q -p no:cacheprovider "$@"
.venv/bin/pytest -m e2e -q -p no:cacheprovider "$@"
echo "Test suite finished in $(( $(date +%s) - started )) s."

#!/usr/bin/env bash
# Sets everything up and serves Parlour on SQLite at http://127.0.0.1:8000 (override with
# HOST, PORT, DATABASE_URL, PUBLIC_URL).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/parlour serve

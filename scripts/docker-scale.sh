#!/usr/bin/env bash
# Runs the compose file as a host with more players than one process would: three Parlour
# replicas behind the proxy on one PostgreSQL, then checks them as players meet them
# (scripts/scale_smoke.py): websockets through the proxy spread over the replicas, a move made
# through one replica shown at once to seats on the others, a rolling restart (SIGTERM to each
# replica in turn) under play with no move lost, seat tokens kept out of the proxy's access log.
# By hand, not in CI (it needs Docker and compose). Leaves nothing behind but the built images.
#   bash scripts/docker-scale.sh            (REPLICAS=3 PORT=18090 by default)
#   bash scripts/docker-scale.sh upgrade    the zero-downtime upgrade rehearsed instead: a new image
#        (the same code, built with another label: a distinct image id), then, while the load client
#        plays 12 tables through the proxy, scripts/docker-upgrade.sh replaces the replicas one at a
#        time; the moves stored must be the moves answered, and the proxy's answers are counted.
set -euo pipefail
cd "$(dirname "$0")/.."
MODE=${1:-smoke}
NAME=${COMPOSE_PROJECT_NAME:-parlour-scale}
REPLICAS=${REPLICAS:-3}
PORT=${PORT:-18090}
TOKEN=scale-smoke-$RANDOM$RANDOM
PY=python3
[ -x .venv/bin/python ] && PY=.venv/bin/python   # needs the websockets package
# exported: scripts/docker-upgrade.sh (run by the upgrade mode) must see the stack's own settings
export COMPOSE_PROJECT_NAME=$NAME PORT TOKEN STATS_TOKEN=$TOKEN
compose() { docker compose "$@"; }
cleanup() { compose down -v >/dev/null 2>&1 || true; }
trap cleanup EXIT
say() { printf '\n== %s\n' "$*"; }

say "build and start $REPLICAS replicas behind the proxy"
compose build -q parlour
started=$(date +%s)
compose up -d --scale parlour="$REPLICAS" >/dev/null 2>&1
for _ in $(seq 1 120); do
  curl -fsS "http://127.0.0.1:$PORT/readyz" >/dev/null 2>&1 && break
  sleep 1
done
curl -fsS "http://127.0.0.1:$PORT/readyz"; echo
echo "ready through the proxy after $(( $(date +%s) - started )) s"
compose ps --format '{{.Name}}: {{.Status}}'

replicas=()
for c in $(compose ps -q parlour); do
  name=$(docker inspect -f '{{.Name}}' "$c"); name=${name#/}
  ip=$(docker inspect -f '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}' "$c")
  replicas+=("$name=$ip:8000")
done

if [ "$MODE" = upgrade ]; then
  image=$(docker inspect -f '{{.Config.Image}}' "$(compose ps -q parlour | head -n1)")
  old_id=$(docker image inspect -f '{{.Id}}' "$image")
  say "a new image: the same code, built again with another label"
  docker build -q --label "org.opencontainers.image.revision=upgrade-rehearsal-$(date +%s)" -t "$image" . >/dev/null
  new_id=$(docker image inspect -f '{{.Id}}' "$image")
  echo "$image: ${old_id:7:12} -> ${new_id:7:12}"
  [ "$old_id" != "$new_id" ] || { echo "the new image is the old one" >&2; exit 1; }
  say "the upgrade under play, through the proxy"
  "$PY" scripts/scale_smoke.py upgrade "http://127.0.0.1:$PORT"
  for c in $(compose ps -q parlour); do
    [ "$(docker inspect -f '{{.Image}}' "$c")" = "$new_id" ] || { echo "a replica still runs the old image" >&2; exit 1; }
  done
  say "all good"
  exit 0
fi

say "players through the proxy"
"$PY" scripts/scale_smoke.py "http://127.0.0.1:$PORT" "$TOKEN" "${replicas[@]}"

say "the proxy's access log"
log=$(compose logs proxy 2>&1)
echo "$(grep -c '"uri"' <<<"$log") requests logged; seat paths as: $(grep -o '"uri":"/[a-z/]*seats\?/[^"/]*' <<<"$log" | sort -u | tr '\n' ' ')"
if grep -Eo '"uri":"[^"]*/seats?/[A-Za-z0-9_-]{16,}' <<<"$log"; then
  echo "a seat token reached the proxy's access log" >&2; exit 1
fi
say "all good"

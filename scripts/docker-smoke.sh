#!/usr/bin/env bash
# Builds the image and tries it as a host would (by hand, not in CI; needs Docker and compose):
#   1. the image alone on SQLite in a named volume: healthy (ready), a game founded and a move
#      played, `parlour migrate` and `parlour backup` inside the image, a restart keeps the move;
#   2. a host folder owned by root mounted on /data: a clear message, not a crash;
#   3. compose (Parlour behind its proxy) with PostgreSQL: invitation links follow the request's
#      address through the proxy, a pg_dump backup
#      in the db container, and after `docker compose restart db` the next requests are answered,
#      not 500.
# Usage: bash scripts/docker-smoke.sh        (leaves nothing behind but the built images)
set -euo pipefail
cd "$(dirname "$0")/.."
NAME=parlour-smoke
PORT=${PORT:-18080}
BASE="http://127.0.0.1:$PORT"
tmp=$(mktemp -d)
cleanup() {
  docker rm -f "$NAME" "$NAME-root" >/dev/null 2>&1 || true
  docker volume rm "$NAME-data" >/dev/null 2>&1 || true
  PORT=$PORT docker compose -p "$NAME" down -v >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT
say() { printf '\n== %s\n' "$*"; }

wait_healthy() {  # url, seconds: ready for players (the database at this release's schema)
  for _ in $(seq 1 "$2"); do
    curl -fsS "$1/readyz" >/dev/null 2>&1 && return 0
    sleep 1
  done
  echo "not healthy after $2 s" >&2
  return 1
}

# A table of two, started, one move played; prints "code token seq".
play_one() {
  python3 - "$1" <<'PY'
import json, sys, urllib.request
base = sys.argv[1]
def call(method, path, body=None):
    req = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode(),
                                 headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.load(r)
game = call("GET", "/api/games")["games"][0]["id"]
t = call("POST", "/api/tables", {"game": game, "name": "Ada", "options": {}})
assert t["invite_url"].startswith(base), t["invite_url"]
tokens = [t["seat_token"]] + [call("POST", f"/api/tables/{t['code']}/join", {"name": n})["seat_token"]
                             for n in ("Bob", "Cy")[:call("GET", "/api/games")["games"][0]["min_seats"] - 1]]
call("POST", f"/api/seats/{tokens[0]}/start")
for tok in tokens:
    moves = call("GET", f"/api/seats/{tok}/moves")
    if moves["moves"]:
        done = call("POST", f"/api/seats/{tok}/moves", {"seq": moves["seq"], "move": moves["moves"][0]})
        print(t["code"], tok, done["seq"])
        break
PY
}

say "build"
docker build -q -t "$NAME" . >/dev/null

say "the image alone, SQLite in a named volume"
docker run -d --name "$NAME" -p "$PORT:8000" -v "$NAME-data:/data" "$NAME" >/dev/null
started=$(date +%s)
wait_healthy "$BASE" 60
for _ in $(seq 1 40); do
  [ "$(docker inspect -f '{{.State.Health.Status}}' "$NAME")" = healthy ] && break
  sleep 1
done
echo "health check: $(docker inspect -f '{{.State.Health.Status}}' "$NAME") after $(( $(date +%s) - started )) s"
read -r code token seq < <(play_one "$BASE")
echo "table $code at seq $seq"
docker exec "$NAME" parlour migrate
docker exec "$NAME" parlour backup /data/smoke.backup
docker restart "$NAME" >/dev/null
wait_healthy "$BASE" 60
after=$(curl -fsS "$BASE/api/tables/$code" | python3 -c 'import json,sys; print(json.load(sys.stdin)["seq"])')
[ "$after" = "$seq" ] || { echo "after a restart the table is at seq $after, not $seq" >&2; exit 1; }
echo "after a restart: still at seq $after"
docker rm -f "$NAME" >/dev/null

say "a host folder owned by root on /data"
mkdir "$tmp/data"
set +e
out=$(docker run --name "$NAME-root" -v "$tmp/data:/data" "$NAME" 2>&1); rc=$?
set -e
echo "$out" | tail -2
[ $rc -ne 0 ] && echo "$out" | grep -q "chown 10001" || { echo "no clear message (exit $rc)" >&2; exit 1; }

say "compose with PostgreSQL"
PORT=$PORT docker compose -p "$NAME" up -d --build >/dev/null 2>&1
# compose publishes the proxy on $PORT; Parlour answers behind it
wait_healthy "$BASE" 120
read -r code token seq < <(play_one "$BASE")
echo "table $code at seq $seq (invitation links follow the request's address)"
docker compose -p "$NAME" exec -T db pg_dump -U parlour -Fc parlour > "$tmp/parlour.dump"
[ -s "$tmp/parlour.dump" ] || { echo "pg_dump in the db container wrote nothing" >&2; exit 1; }
echo "pg_dump backup: $(wc -c < "$tmp/parlour.dump") bytes"
docker compose -p "$NAME" restart db >/dev/null 2>&1
for _ in $(seq 1 30); do
  [ "$(docker inspect -f '{{.State.Health.Status}}' "$NAME-db-1")" = healthy ] && break
  sleep 1
done
statuses=""
for _ in 1 2 3 4 5 6; do
  statuses+="$(curl -s -o /dev/null -w '%{http_code}' "$BASE/api/tables/$code") "
  statuses+="$(curl -s -o /dev/null -w '%{http_code}' "$BASE/api/seats/$token") "
done
echo "requests after the database restarted: $statuses"
case "$statuses" in *500*) echo "a request failed after the database restarted" >&2; exit 1 ;; esac
read -r _ _ seq2 < <(play_one "$BASE")
echo "a new table plays after the restart (seq $seq2)"
say "all good"

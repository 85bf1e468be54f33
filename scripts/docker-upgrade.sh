#!/usr/bin/env bash
# Upgrades the Parlour replicas of a running compose stack to a new image without a moment with
# fewer replicas serving: the new image is built (or was pulled), the database migrated once,
# then for each old replica in turn a new one is started beside it, waited for until its /readyz
# answers 200, and only then the old one is stopped (SIGTERM: it finishes the moves it has in
# hand, closes its sockets with 1012 and the pages reconnect through the proxy to another
# replica) and removed. Run it where you run `docker compose` for the stack (the folder of
# docker-compose.yml and its .env; COMPOSE_PROJECT_NAME, COMPOSE_FILE as compose reads them).
#
#   bash scripts/docker-upgrade.sh             # build the new image from this checkout, then roll
#   BUILD=0 bash scripts/docker-upgrade.sh     # the new image is already there (docker compose pull)
#
# Exit status 0: every replica runs the new image; 1: stopped, with the old replicas left serving
# (a new replica that is not ready in READY_TIMEOUT s is removed again).
set -euo pipefail
SERVICE=${SERVICE:-parlour}
BUILD=${BUILD:-1}
READY_TIMEOUT=${READY_TIMEOUT:-120}
SETTLE=${SETTLE:-2}          # s between a new replica's ready and the old one's stop (the proxy looks up names each second)
STOP_TIMEOUT=${STOP_TIMEOUT:-15}
dc() { docker compose "$@"; }
say() { printf '== %s\n' "$*"; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

old=$(dc ps -q "$SERVICE")
n=$(wc -w <<<"$old")
if [ "$n" -eq 0 ]; then
  echo "docker-upgrade: no running $SERVICE replica; start the stack first (docker compose up -d)" >&2
  exit 1
fi
image=$(docker inspect -f '{{.Config.Image}}' $(head -n1 <<<"$old"))
if [ "$BUILD" = 1 ]; then
  say "build $image"
  dc build -q "$SERVICE"
fi
new_id=$(docker image inspect -f '{{.Id}}' "$image")
todo=()
for c in $old; do
  [ "$(docker inspect -f '{{.Image}}' "$c")" = "$new_id" ] || todo+=("$c")
done
if [ ${#todo[@]} -eq 0 ]; then
  echo "docker-upgrade: all $n replica(s) already run $image (${new_id:7:12})"
  exit 0
fi
say "upgrade ${#todo[@]} of $n replicas to $image (${new_id:7:12})"

say "migrate once, with the new image"
dc run --rm --no-deps -T "$SERVICE" parlour migrate

ready() {
  docker exec "$1" python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/readyz', timeout=3)" \
    >/dev/null 2>&1
}
started=$(now)
for c in "${todo[@]}"; do
  name=$(docker inspect -f '{{.Name}}' "$c"); name=${name#/}
  t=$(now)
  before=$(dc ps -q "$SERVICE" | sort)
  dc up -d --no-deps --no-recreate --scale "$SERVICE=$((n + 1))" "$SERVICE" 2>/dev/null
  fresh=$(comm -13 <(echo "$before") <(dc ps -q "$SERVICE" | sort) | head -n1)
  if [ -z "$fresh" ]; then
    echo "docker-upgrade: compose started no new replica beside $name" >&2
    exit 1
  fi
  fresh_name=$(docker inspect -f '{{.Name}}' "$fresh"); fresh_name=${fresh_name#/}
  until ready "$fresh"; do
    if [ "$(awk -v a="$t" -v b="$(now)" -v l="$READY_TIMEOUT" 'BEGIN { print (b - a > l) }')" = 1 ]; then
      echo "docker-upgrade: $fresh_name not ready after $READY_TIMEOUT s; removed, the old replicas serve on" >&2
      docker logs --tail 30 "$fresh" >&2 || true
      docker rm -f "$fresh" >/dev/null
      exit 1
    fi
    sleep 0.5
  done
  took_ready=$(since "$t")
  sleep "$SETTLE"
  s=$(now)
  docker stop -t "$STOP_TIMEOUT" "$c" >/dev/null
  took_stop=$(since "$s")
  docker rm "$c" >/dev/null
  echo "$name -> $fresh_name: new one ready in $took_ready s, old one stopped in $took_stop s"
done
say "all $n replica(s) on $image (${new_id:7:12}) after $(since "$started") s"
dc ps --format '{{.Name}}: {{.Status}}' "$SERVICE"

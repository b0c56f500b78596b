#!/usr/bin/env bash
# View counting benchmark: the real server pinned to core 0, wrk pinned to core 1, on
# GET /api/version, and GET /api/raw/:slug and GET /api/paste/:slug of an unlimited paste. Pass one or more
# checkouts of Cubby to compare them in the same run: bench/view_counting.sh OLD_DIR NEW_DIR
set -euo pipefail
DURATION="${DURATION:-10}"
PORT="${PORT:-18787}"
for dir in "$@"; do
  data="$(mktemp -d)"
  cd "$dir"
  DATA_DIR="$data" PORT="$PORT" HOST=127.0.0.1 ADMIN_USERNAME=admin \
    ADMIN_PASSWORD=bench-admin-pw SWEEP_INTERVAL_MS=0 taskset -c 0 deno run -A main.ts \
    >"$data/server.log" 2>&1 &
  pid=$!
  cd - >/dev/null
  until curl -sf "http://127.0.0.1:$PORT/api/version" >/dev/null; do sleep 0.2; done
  token="$(curl -sf -H 'content-type: application/json' \
    -d '{"username":"admin","password":"bench-admin-pw"}' \
    "http://127.0.0.1:$PORT/api/admin/login" | sed -E 's/.*"token":"([^"]+)".*/\1/')"
  slug="$(curl -sf -H 'content-type: application/json' -H "authorization: Bearer $token" \
    -d '{"content":"# hello\nA paste of a few hundred bytes for the view benchmark.\n"}' \
    "http://127.0.0.1:$PORT/api/paste" | sed -E 's/.*"slug":"([^"]+)".*/\1/')"
  # /api/version touches no KV: a reference row from the same run.
  for case in "version /api/version" "raw /api/raw/$slug" "json /api/paste/$slug"; do
    read -r name path <<<"$case"
    url="http://127.0.0.1:$PORT$path"
    taskset -c 1 wrk -t1 -c32 -d1s "$url" >/dev/null
    rps="$(taskset -c 1 wrk -t1 -c32 -d"${DURATION}s" --latency "$url" |
      awk '/Requests\/sec/ {r=$2} / 99%/ {p=$2} /Non-2xx/ {e=$NF} END {print r, "p99", p, "non2xx", e+0}')"
    echo "$dir $name $rps"
  done
  kill -TERM $pid
  wait $pid 2>/dev/null || true
  rm -rf "$data"
done

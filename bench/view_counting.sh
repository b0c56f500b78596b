#!/usr/bin/env bash
# View counting and create benchmark: the real server pinned to core 0, wrk pinned to core 1, on
# GET /api/version (no KV), GET /api/raw/:slug and GET /api/paste/:slug of an unlimited paste, and
# POST /api/paste with an API key. Besides requests/s it prints the server's CPU time (all its
# threads, utime + stime from /proc) per request, which other work on a shared machine changes far
# less than throughput. Pass one or more checkouts of Cubby to compare them in the same run
# (passing them twice alternates them): bench/view_counting.sh OLD_DIR NEW_DIR OLD_DIR NEW_DIR
set -euo pipefail
DURATION="${DURATION:-10}"
PORT="${PORT:-18787}"
CASES="${CASES:-version raw json create}"
TICK="$(getconf CLK_TCK)"
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
for dir in "$@"; do
  data="$(mktemp -d)"
  (cd "$dir" && DATA_DIR="$data" PORT="$PORT" HOST=127.0.0.1 ADMIN_USERNAME=admin \
    ADMIN_PASSWORD=bench-admin-pw SWEEP_INTERVAL_MS=0 exec taskset -c 0 deno run -A main.ts \
    >"$data/server.log" 2>&1) &
  pid=$!
  until curl -sf "http://127.0.0.1:$PORT/api/version" >/dev/null; do sleep 0.2; done
  token="$(curl -sf -H 'content-type: application/json' \
    -d '{"username":"admin","password":"bench-admin-pw"}' \
    "http://127.0.0.1:$PORT/api/admin/login" | sed -E 's/.*"token":"([^"]+)".*/\1/')"
  key="$(curl -sf -H 'content-type: application/json' -H "authorization: Bearer $token" \
    -d '{"name":"bench","permissions":{"text":true}}' \
    "http://127.0.0.1:$PORT/api/admin/api-keys" | sed -E 's/.*"key":"([^"]+)".*/\1/')"
  text="# Benchmark paste\n\n$(printf 'Cubby keeps text and files for you. %.0s' $(seq 30))"
  slug="$(curl -sf -H 'content-type: application/json' -H "authorization: ApiKey $key" \
    -d "{\"content\":\"$text\"}" \
    "http://127.0.0.1:$PORT/api/paste" | sed -E 's/.*"slug":"([^"]+)".*/\1/')"
  cat >"$data/create.lua" <<LUA
wrk.method = "POST"
wrk.body = '{"content":"Benchmark paste from wrk: hello, Cubby!"}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "ApiKey $key"
LUA
  for name in $CASES; do
    script=()
    case "$name" in
      version) path=/api/version ;;
      raw) path="/api/raw/$slug" ;;
      json) path="/api/paste/$slug" ;;
      create) path=/api/paste script=(-s "$data/create.lua") ;;
      *) echo "unknown case $name" >&2; exit 1 ;;
    esac
    url="http://127.0.0.1:$PORT$path"
    taskset -c 1 wrk -t1 -c32 -d1s "${script[@]}" "$url" >/dev/null
    before="$(cpu_ticks "$pid")"
    out="$(taskset -c 1 wrk -t1 -c32 -d"${DURATION}s" --latency "${script[@]}" "$url")"
    after="$(cpu_ticks "$pid")"
    echo "$out" | awk -v dir="$dir" -v name="$name" -v ticks=$((after - before)) -v hz="$TICK" '
      /requests in/ {n = $1}
      /Requests\/sec/ {r = $2}
      / 99%/ {p = $2}
      /Non-2xx/ {e = $NF}
      END {printf "%s %s %s req/s p99 %s non2xx %d cpu_us_per_req %.1f\n", dir, name, r, p, e, ticks * 1e6 / hz / n}'
  done
  kill -TERM "$pid"
  wait "$pid" 2>/dev/null || true
  rm -rf "$data"
done

#!/usr/bin/env bash
# Load benchmark of the local server (docs/PERFORMANCE.md, "How each figure is measured"): builds jump-forms
# in release, starts `jump-forms serve` on a free loopback port with a fresh database,
# registers a user, then runs wrk at 64 connections against, one after the other:
#
#   health   GET /health                            the trivial route of the same binary
#   read     POST /entity                           a record read with a valid access token
#   refresh  POST /oauth/refresh_access_token       chained signed refreshes (each rotates the token)
#   signin   POST /oauth/auth_native_traditional    bcrypt verify at the configured cost + a token
#
#   scripts/bench-server.sh
#   BENCH_DURATION=30s BENCH_CONNECTIONS=64 BENCH_BCRYPT_COST=10 scripts/bench-server.sh
#   BENCH_BIN=/tmp/other/.build/release BENCH_PROJECT=/tmp/other scripts/bench-server.sh   # another build
#   BENCH_PERF=refresh BENCH_PERF_OUT=/tmp/refresh.data scripts/bench-server.sh   # perf profile of one run
#   BENCH_TRAITS=Mimalloc scripts/bench-server.sh   # built with mimalloc (Debian: libmimalloc-dev)
#   BENCH_ROUNDS=3 BENCH_DURATION=10s scripts/bench-server.sh   # health/read/refresh interleaved 3 times, medians
#   BENCH_HASH_QUEUE= BENCH_BIN=/tmp/old/.build/release scripts/bench-server.sh   # a build without server.passwordHashQueue (default: the connection count)
#   scripts/bench-server.sh --database postgres   # the server on PostgreSQL: a private cluster (Debian's postgresql) made for the run
#   scripts/bench-server.sh --database both       # SQLite, then PostgreSQL, one summary after the other (one build)
#
# --database sqlite (the default) serves from a SQLite file; postgres from a database of a
# private PostgreSQL cluster (initdb and pg_ctl in the temporary folder, on a free loopback port,
# fsync on; as root it runs as the postgres user), stopped at the end.
#
# The refresh run needs live sessions to spare: BENCH_SESSIONS (default 128) is raised to twice
# the connection count (rounded up to a multiple of the wrk threads) when it is lower.
#
# Needs wrk (Debian: apt-get install wrk) and curl. The build goes to .build-bench (or
# $BENCH_SCRATCH); the server's database and logs to a temporary folder, removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

engine=sqlite
while [ $# -gt 0 ]; do
  case $1 in
    --database) engine=${2:-}; shift 2 ;;
    *) echo "usage: scripts/bench-server.sh [--database sqlite|postgres|both]" >&2; exit 2 ;;
  esac
done
case $engine in
  sqlite | postgres) ;;
  both)
    "$0" --database sqlite
    # The same binary for the second run.
    BENCH_BIN=${BENCH_BIN:-$(swift build --package-path Benchmarks -c release --static-swift-stdlib --scratch-path "${BENCH_SCRATCH:-.build-bench}" --show-bin-path)} \
      "$0" --database postgres
    exit ;;
  *) echo "--database takes sqlite, postgres or both, not '$engine'" >&2; exit 2 ;;
esac

scratch=${BENCH_SCRATCH:-.build-bench}
duration=${BENCH_DURATION:-20s}
connections=${BENCH_CONNECTIONS:-64}
threads=${BENCH_THREADS:-2}
cost=${BENCH_BCRYPT_COST:-10}
sessions=${BENCH_SESSIONS:-128}
rounds=${BENCH_ROUNDS:-1}   # health, read and refresh this many times, interleaved; the summary takes medians
# The system allocator unless BENCH_TRAITS names package traits (BENCH_TRAITS=Mimalloc: mimalloc,
# as the figures in docs/PERFORMANCE.md up to the trait's introduction were measured).
# Through the Benchmarks package, as scripts/bench.sh builds, so both share one release build.
build_flags=(--package-path Benchmarks -c release --static-swift-stdlib --scratch-path "$scratch")
[ -z "${BENCH_TRAITS:-}" ] || build_flags+=(--traits "$BENCH_TRAITS")

# Each wrk thread deals its share of the sessions to its connections, and a connection takes
# its next token from its thread's queue. A token is lost when a refresh is refused or when wrk
# builds a request again (after a write it had to retry): with no token to spare, that
# connection would starve for the rest of the run. So at least two sessions per connection.
if [ "$sessions" -lt $((2 * connections)) ]; then sessions=$((2 * connections)); fi
sessions=$(( (sessions + threads - 1) / threads * threads ))

command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 2; }
command -v curl >/dev/null || { echo "curl is not installed" >&2; exit 2; }

if [ -n "${BENCH_BIN:-}" ]; then
  bin=$BENCH_BIN        # a folder holding a jump-forms binary built elsewhere (e.g. another commit)
  build="the binary in BENCH_BIN=$bin (built elsewhere: check it is a release build)"
else
  swift build "${build_flags[@]}" --product jump-forms
  bin=$(swift build "${build_flags[@]}" --show-bin-path)
  build="release build of this checkout ($bin, traits: ${BENCH_TRAITS:-none, the system allocator})"
fi
[ -x "$bin/jump-forms" ] || { echo "no jump-forms binary in $bin" >&2; exit 2; }

work=$(mktemp -d)
server_pid=""
pg_ctl=""
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
cleanup() {
  if [ -n "$server_pid" ]; then kill -TERM "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  if [ -n "$pg_ctl" ]; then as_postgres "$pg_ctl" -D "$work/pg/data" -m fast -w stop > /dev/null 2>&1 || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# The database: the SQLite file, or a database of a private PostgreSQL cluster.
database_args=(--db "$work/bench.sqlite")
if [ "$engine" = postgres ]; then
  pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2> /dev/null | sort -V | tail -1)
  [ -x "$pg_bin/initdb" ] || { echo "PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 2; }
  mkdir "$work/pg"
  if [ "$(id -u)" = 0 ]; then chmod 711 "$work"; chown postgres "$work/pg"; fi
  pg_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  as_postgres "$pg_bin/initdb" -D "$work/pg/data" -U postgres --auth=trust -E UTF8 --locale=C > /dev/null
  as_postgres "$pg_bin/pg_ctl" -D "$work/pg/data" -l "$work/pg/log" -w \
    -o "-p $pg_port -k $work/pg -c listen_addresses=127.0.0.1 -c max_connections=200" start > /dev/null
  pg_ctl="$pg_bin/pg_ctl"
  as_postgres "$pg_bin/createdb" -h 127.0.0.1 -p "$pg_port" -U postgres bench
  database_args=(--database "postgres://postgres@127.0.0.1:$pg_port/bench?sslmode=disable")
fi

# A copy of the example project with the bcrypt cost of the run.
source=${BENCH_PROJECT:-.}   # where jump.yaml, flows/ and locales/ come from (another checkout's, with BENCH_BIN)
cp -R "$source/flows" "$source/locales" "$work/"
cp identities.yaml "$work/"
{ cat "$source/jump.yaml"; printf 'server:\n  bcryptCost: %s\n' "$cost"
  # Every connection may sign in at once: a password-hash queue for all of them (else the
  # server answers the overflow 510/503 at once). BENCH_HASH_QUEUE= (empty) leaves the key out,
  # for builds that predate it.
  hash_queue=${BENCH_HASH_QUEUE-$connections}
  [ -z "$hash_queue" ] || printf '  passwordHashQueue: %s\n' "$hash_queue"; } > "$work/jump.yaml"
client_id=localdev0123456789abcdefghijklmn

"$bin/jump-forms" serve --config "$work/jump.yaml" --port 0 "${database_args[@]}" --db "$work/bench.sqlite" > "$work/serve.out" 2> "$work/serve.err" &
server_pid=$!
url=""
for _ in $(seq 1 200); do
  url=$(sed -n 's/^jump-forms serving flow .* at \(http:[^ ]*\)$/\1/p' "$work/serve.out")
  [ -n "$url" ] && break
  sleep 0.05
done
[ -n "$url" ] || { echo "the server did not start:" >&2; cat "$work/serve.err" >&2; exit 1; }

secret=0123456789abcdef0123456789abcdef01234567
common="client_id=$client_id&locale=en-US&flow=standard&flow_version=2024-01-15.1&redirect_uri=https%3A%2F%2Fexample.com%2Fcb&response_type=token"
password="correct+horse+battery"
registration="$common&form=registrationForm&emailAddress=bench%40example.com&displayName=bench_user&firstName=Bench&lastName=User&newPassword=$password&newPasswordConfirm=$password&optIn=false&refresh_secret=$secret"
signin_body="$common&form=signInForm&signInEmailAddress=bench%40example.com&currentPassword=$password&refresh_secret=$secret"

token_of() { sed -n 's/.*"access_token":"\([0-9a-f]*\)".*/\1/p'; echo; }   # answers end without a newline
access_token=$(curl -sS -X POST --data "$registration" "$url/oauth/register_native_traditional" | token_of)
[ -n "$access_token" ] || { echo "registration failed" >&2; exit 1; }

# Sessions for the refresh chains: one sign-in each, all with the same refresh secret. A refresh
# run rotates every token it uses, so each round signs in afresh.
sign_in_sessions() {
  : > "$work/tokens"
  for _ in $(seq 1 "$sessions"); do
    curl -sS -X POST --data "$signin_body" "$url/oauth/auth_native_traditional" | token_of >> "$work/tokens"
  done
  got=$(grep -c . "$work/tokens" || true)
  [ "$got" -eq "$sessions" ] || { echo "sign-ins for the refresh sessions failed ($got of $sessions)" >&2; tail -3 "$work/serve.err" >&2; exit 1; }
}

echo "== machine"
echo "date:     $(date -u +%Y-%m-%dT%H:%MZ)"
echo "cpu:      $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//') x $(nproc) cores (server and wrk share them)"
echo "kernel:   $(uname -sr)"
echo "swift:    $(swift --version 2>&1 | head -1)"
echo "wrk:      $(wrk -v 2>&1 | head -1)"
echo "binary:   $build"
if [ "$engine" = postgres ]; then
  echo "server:   $url, PostgreSQL $("$pg_bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$pg_port (data on $(df -T "$work" | awk 'NR==2 {print $2}'), fsync on), bcrypt cost $cost"
else
  echo "server:   $url, SQLite database on $(df -T "$work" | awk 'NR==2 {print $2}'), bcrypt cost $cost"
fi
echo "run:      wrk -t$threads -c$connections -d$duration --timeout 10s, one endpoint after the other, $rounds round(s); $sessions refresh sessions"
echo

export BENCH_LUA_DIR="$root/scripts/bench-server" BENCH_CLIENT_ID="$client_id" BENCH_ACCESS_TOKEN="$access_token"
export BENCH_REFRESH_SECRET="$secret" BENCH_TOKENS_FILE="$work/tokens" BENCH_THREADS="$threads" BENCH_SIGNIN_BODY="$signin_body"
results="$work/results"
: > "$results"
ticks=$(getconf CLK_TCK)
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }   # user + system time of a process
run_endpoint() {   # run_endpoint NAME ROUND
  local name=$1 round=$2
  echo "== $name (round $round)"
  [ "$name" = refresh ] && sign_in_sessions
  before=$(cpu_ticks "$server_pid")
  perf_pid=""
  if [ "${BENCH_PERF:-}" = "$name" ] && [ "$round" = 1 ]; then   # BENCH_PERF=read: a perf profile of the server during that run
    perf record -F 2000 -g -p "$server_pid" -o "${BENCH_PERF_OUT:-perf-$name.data}" > /dev/null 2>&1 &
    perf_pid=$!
  fi
  /usr/bin/time -f "WRKCPU %U %S" -o "$work/wrk-time" \
    wrk -t"$threads" -c"$connections" -d"$duration" --timeout 10s -s "scripts/bench-server/$name.lua" "$url" > "$work/wrk-out"
  after=$(cpu_ticks "$server_pid")
  if [ -n "$perf_pid" ]; then kill -INT "$perf_pid"; wait "$perf_pid" || true; fi
  grep -E '^(RESULT|FIRST|  Socket)' "$work/wrk-out" || true
  requests=$(sed -n 's/^RESULT [a-z]* requests=\([0-9]*\).*/\1/p' "$work/wrk-out")
  read -r _ wrk_user wrk_system < "$work/wrk-time"
  # CPU per request: the server's (from /proc) and wrk's own (it shares the two cores).
  awk -v name="$name" -v t="$ticks" -v b="$before" -v a="$after" -v r="$requests" -v wu="$wrk_user" -v ws="$wrk_system" \
    'BEGIN { printf "CPU %s server_us_per_request=%.1f wrk_us_per_request=%.1f\n", name, (a - b) / t * 1e6 / r, (wu + ws) * 1e6 / r }' |
    tee /dev/stderr | sed "s/\$/ round=$round/" >> "$results"
  grep '^RESULT' "$work/wrk-out" | sed "s/\$/ round=$round/" >> "$results"
  sleep 1
}
for round in $(seq 1 "$rounds"); do
  for name in health read refresh; do run_endpoint "$name" "$round"; done
done
run_endpoint signin 1

echo
echo "== summary ($engine; accepted requests per second; latency of all requests; medians of $rounds round(s))"
printf '%-8s %10s %9s %9s %9s %8s %10s %12s %10s\n' endpoint "req/s" "p50 ms" "p99 ms" "max ms" failed "vs /health" "server us/req" "wrk us/req"
# The share of /health is taken round by round (each endpoint against the health run just
# before it), then the median of the rounds; the other columns are medians of the rounds.
awk '
  function median(list,    n, a, i, j, t) {
    n = split(list, a, " "); for (i = 1; i <= n; i++) a[i] += 0
    for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  { delete v; for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
  /^CPU/ { server[$2] = server[$2] " " v["server_us_per_request"]; client[$2] = client[$2] " " v["wrk_us_per_request"] }
  /^RESULT/ {
    name = $2; if (!(name in seen)) { seen[name] = 1; order[++count] = name }
    rps[name] = rps[name] " " v["ok_per_s"]; p50[name] = p50[name] " " v["p50_ms"]; p99[name] = p99[name] " " v["p99_ms"]
    mx[name] = mx[name] " " v["max_ms"]; failed[name] += v["failed"] + v["socket_errors"]
    if (name == "health") health[v["round"]] = v["ok_per_s"]
    if (v["round"] in health) share[name] = share[name] " " 100 * v["ok_per_s"] / health[v["round"]]
  }
  END {
    for (k = 1; k <= count; k++) {
      name = order[k]
      printf "%-8s %10.0f %9.2f %9.2f %9.2f %8d %9.0f%% %12.1f %10.1f\n", name, median(rps[name]), median(p50[name]), median(p99[name]),
        median(mx[name]), failed[name], median(share[name]), median(server[name]), median(client[name])
      if (name != "health" && split(share[name], rounds_of, " ") > 1) {
        list = ""; for (i = 1; i <= split(share[name], rounds_of, " "); i++) list = list sprintf(" %.0f%%", rounds_of[i])
        printf "%-8s rounds:%s\n", "", list
      }
    }
  }' "$results"

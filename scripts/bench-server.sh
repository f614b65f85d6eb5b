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
#   BENCH_ENDPOINTS="health refresh" scripts/bench-server.sh   # only these endpoints (default: health read refresh signin)
#   BENCH_RATE=2000 BENCH_ENDPOINTS="read refresh" scripts/bench-server.sh   # a fixed offered load (requests/s), not as fast as answered
#   BENCH_HASH_QUEUE= BENCH_BIN=/tmp/old/.build/release scripts/bench-server.sh   # a build without server.passwordHashQueue (default: the connection count)
#   scripts/bench-server.sh --database postgres   # the server on PostgreSQL: a private cluster (Debian's postgresql) made for the run
#   scripts/bench-server.sh --database both       # SQLite, then PostgreSQL, one summary after the other (one build)
#   scripts/bench-server.sh --database postgres --instances both   # one, then two `serve` processes on one database
#
# --database sqlite (the default) serves from a SQLite file; postgres from a database of a
# private PostgreSQL cluster (initdb and pg_ctl in the temporary folder, on a free loopback port,
# fsync on; as root it runs as the postgres user), stopped at the end.
#
# --instances 2 starts two `serve` processes on the one database and splits the load: two wrk
# processes at once, each with half the connections and threads (at least one) against its own
# instance. A summary line adds both runs' requests; its latencies are the worse of the two, and
# a line under it gives each instance's p99. --instances both: one, then two (one build).
#
# Besides throughput and latency, each run reads the servers' /metrics before and after: the
# database statements (round trips) per request of the endpoint's route and the share of
# requests whose database lease waited for a connection (above 100%: a request of two leases
# that both waited), and the CPU per request from /proc of the servers and of PostgreSQL (its
# postmaster and backends; 0 on SQLite, which works in the server's threads): what predicts
# how the load scales on more cores.
#
# BENCH_RATE=N offers about N requests a second over all the connections (each waits a random
# 0.5-1.5 times connections / N seconds between an answer and its next request): latency at a
# load the server can take, where the default runs measure it at saturation, where 64
# connections queue (mean latency = connections / throughput). The achieved rate is printed;
# with a rate the "vs /health" column compares two offered loads and says nothing.
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
instances=1
while [ $# -gt 0 ]; do
  case $1 in
    --database) engine=${2:-}; shift 2 ;;
    --instances) instances=${2:-}; shift 2 ;;
    *) echo "usage: scripts/bench-server.sh [--database sqlite|postgres|both] [--instances 1|2|both]" >&2; exit 2 ;;
  esac
done
case $instances in
  1 | 2) ;;
  both) ;;
  *) echo "--instances takes 1, 2 or both, not '$instances'" >&2; exit 2 ;;
esac
case $engine in
  sqlite | postgres) ;;
  both) ;;
  *) echo "--database takes sqlite, postgres or both, not '$engine'" >&2; exit 2 ;;
esac
if [ "$engine" = both ] || [ "$instances" = both ]; then
  [ "$engine" = both ] && engines="sqlite postgres" || engines=$engine
  [ "$instances" = both ] && counts="1 2" || counts=$instances
  first=1
  for one_engine in $engines; do
    for count in $counts; do
      if [ "$first" = 1 ]; then
        "$0" --database "$one_engine" --instances "$count"
        first=0
      else
        # The same binary for the later runs.
        BENCH_BIN=${BENCH_BIN:-$(swift build --package-path Benchmarks -c release --static-swift-stdlib --scratch-path "${BENCH_SCRATCH:-.build-bench}" --show-bin-path)} \
          "$0" --database "$one_engine" --instances "$count"
      fi
    done
  done
  exit
fi

scratch=${BENCH_SCRATCH:-.build-bench}
duration=${BENCH_DURATION:-20s}
connections=${BENCH_CONNECTIONS:-64}
threads=${BENCH_THREADS:-2}
cost=${BENCH_BCRYPT_COST:-10}
sessions=${BENCH_SESSIONS:-128}
rate=${BENCH_RATE:-}
[[ -z $rate || $rate =~ ^[1-9][0-9]*$ ]] || { echo "BENCH_RATE takes a number of requests a second, not '$rate'" >&2; exit 2; }
rounds=${BENCH_ROUNDS:-1}   # health, read and refresh this many times, interleaved; the summary takes medians
endpoints=" ${BENCH_ENDPOINTS:-health read refresh signin} "   # the endpoints run (signin once, after the rounds)
for name in $endpoints; do
  case $name in health | read | refresh | signin) ;; *) echo "BENCH_ENDPOINTS: no endpoint '$name' (health, read, refresh, signin)" >&2; exit 2 ;; esac
done
# The system allocator unless BENCH_TRAITS names package traits (BENCH_TRAITS=Mimalloc: mimalloc,
# as the figures in docs/PERFORMANCE.md up to the trait's introduction were measured).
# Through the Benchmarks package, as scripts/bench.sh builds, so both share one release build.
build_flags=(--package-path Benchmarks -c release --static-swift-stdlib --scratch-path "$scratch")
[ -z "${BENCH_TRAITS:-}" ] || build_flags+=(--traits "$BENCH_TRAITS")

# Each wrk thread deals its share of the sessions to its connections, and a connection takes
# its next token from its thread's queue. A token is lost when a refresh is refused or when wrk
# builds a request again (after a write it had to retry): with no token to spare, that
# connection would starve for the rest of the run. So at least two sessions per connection.
# With two instances each wrk gets half the connections, half the threads and half the sessions.
wrk_connections=$((connections / instances))
wrk_threads=$((threads / instances)); [ "$wrk_threads" -ge 1 ] || wrk_threads=1
if [ "$sessions" -lt $((2 * connections)) ]; then sessions=$((2 * connections)); fi
deal=$((wrk_threads * instances))
sessions=$(( (sessions + deal - 1) / deal * deal ))

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
server_pids=()
pg_ctl=""
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
cleanup() {
  for pid in "${server_pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
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

# The instances, one after the other (the first migrates the database), on one database and
# one key file (`--db` names the key's place also on PostgreSQL).
urls=()
for instance in $(seq 1 "$instances"); do
  "$bin/jump-forms" serve --config "$work/jump.yaml" --port 0 "${database_args[@]}" --db "$work/bench.sqlite" \
    > "$work/serve$instance.out" 2> "$work/serve$instance.err" &
  server_pids+=($!)
  url=""
  for _ in $(seq 1 200); do
    url=$(sed -n 's/^jump-forms serving flow .* at \(http:[^ ]*\)$/\1/p' "$work/serve$instance.out")
    [ -n "$url" ] && break
    sleep 0.05
  done
  [ -n "$url" ] || { echo "the server did not start:" >&2; cat "$work/serve$instance.err" >&2; exit 1; }
  urls+=("$url")
done
url=${urls[0]}

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
  [ "$got" -eq "$sessions" ] || { echo "sign-ins for the refresh sessions failed ($got of $sessions)" >&2; tail -3 "$work/serve1.err" >&2; exit 1; }
  # Each instance's wrk gets its own share (two chains never rotate the same token).
  for instance in $(seq 1 "$instances"); do
    awk -v n="$instances" -v i="$instance" 'NF && (NR - 1) % n == i - 1' "$work/tokens" > "$work/tokens$instance"
  done
}

echo "== machine"
echo "date:     $(date -u +%Y-%m-%dT%H:%MZ)"
echo "cpu:      $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//') x $(nproc) cores (server and wrk share them)"
echo "kernel:   $(uname -sr)"
echo "swift:    $(swift --version 2>&1 | head -1)"
echo "wrk:      $(wrk -v 2>&1 | head -1)"
echo "binary:   $build"
echo "servers:  $instances instance(s): ${urls[*]}"
if [ "$engine" = postgres ]; then
  echo "server:   $url, PostgreSQL $("$pg_bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$pg_port (data on $(df -T "$work" | awk 'NR==2 {print $2}'), fsync on), bcrypt cost $cost"
else
  echo "server:   $url, SQLite database on $(df -T "$work" | awk 'NR==2 {print $2}'), bcrypt cost $cost"
fi
if [ "$instances" = 1 ]; then
  echo "run:      wrk -t$threads -c$connections -d$duration --timeout 10s, one endpoint after the other, $rounds round(s); $sessions refresh sessions"
else
  echo "run:      $instances x wrk -t$wrk_threads -c$wrk_connections -d$duration --timeout 10s at once (one per instance), one endpoint after the other, $rounds round(s); $sessions refresh sessions"
fi
[ -z "$rate" ] || echo "load:     about $rate requests/s offered (BENCH_RATE), not as fast as answered"
echo

if [ -n "$rate" ]; then export BENCH_PERIOD_MS=$(awk -v c="$connections" -v r="$rate" 'BEGIN { printf "%.3f", c * 1000 / r }'); else unset BENCH_PERIOD_MS; fi
export BENCH_LUA_DIR="$root/scripts/bench-server" BENCH_CLIENT_ID="$client_id" BENCH_ACCESS_TOKEN="$access_token"
export BENCH_REFRESH_SECRET="$secret" BENCH_THREADS="$wrk_threads" BENCH_SIGNIN_BODY="$signin_body"
results="$work/results"
: > "$results"
ticks=$(getconf CLK_TCK)
cpu_ticks() { for pid in "${server_pids[@]}"; do awk '{ print $14 + $15 }' "/proc/$pid/stat"; done | awk '{ t += $1 } END { print t }'; }   # user + system time of the servers
# PostgreSQL's CPU (the postmaster and its backends), 0 on SQLite (whose work is in the server's).
database_ticks() {
  [ "$engine" = postgres ] || { echo 0; return; }
  postmaster=$(head -1 "$work/pg/data/postmaster.pid")
  for pid in "$postmaster" $(pgrep -P "$postmaster"); do cat "/proc/$pid/stat" 2>/dev/null; done |
    sed 's/^.*) //' | awk '{ t += $12 + $13 } END { print t + 0 }'
}
# The route an endpoint's requests count under in /metrics.
route_of() { case $1 in health) echo /health ;; read) echo /entity ;; refresh) echo /oauth/refresh_access_token ;; signin) echo /oauth/auth_native_traditional ;; esac; }
# From the servers' /metrics, summed: the route's requests answered, the statements they sent
# (-1 when the binary does not count them) and the database leases that waited for a connection.
database_totals() {
  for one in "${urls[@]}"; do curl -sS "$one/metrics"; done | awk -v route="$1" '
    BEGIN { statements = -1 }
    index($0, "jump_http_requests_total{route=\"" route "\",") == 1 { requests += $NF }
    index($0, "jump_database_queries_total{route=\"" route "\"}") == 1 { statements += $NF + (statements < 0) }
    index($0, "jump_database_pool_waits_total ") == 1 { waits += $NF }
    END { printf "%d %d %d\n", requests, statements, waits }'
}
run_endpoint() {   # run_endpoint NAME ROUND
  local name=$1 round=$2
  echo "== $name (round $round)"
  [ "$name" = refresh ] && sign_in_sessions
  route=$(route_of "$name")
  read -r requests_before statements_before waits_before < <(database_totals "$route")
  before=$(cpu_ticks)
  database_before=$(database_ticks)
  perf_pid=""
  if [ "${BENCH_PERF:-}" = "$name" ] && [ "$round" = 1 ]; then   # BENCH_PERF=read: a perf profile of the (first) server during that run
    perf record -F 2000 -g -p "${server_pids[0]}" -o "${BENCH_PERF_OUT:-perf-$name.data}" > /dev/null 2>&1 &
    perf_pid=$!
  fi
  wrk_pids=()
  for instance in $(seq 1 "$instances"); do
    BENCH_TOKENS_FILE="$work/tokens$instance" /usr/bin/time -f "WRKCPU %U %S" -o "$work/wrk-time$instance" \
      wrk -t"$wrk_threads" -c"$wrk_connections" -d"$duration" --timeout 10s -s "scripts/bench-server/$name.lua" "${urls[$((instance - 1))]}" \
      > "$work/wrk-out$instance" &
    wrk_pids+=($!)
  done
  for pid in "${wrk_pids[@]}"; do wait "$pid"; done
  after=$(cpu_ticks)
  database_after=$(database_ticks)
  if [ -n "$perf_pid" ]; then kill -INT "$perf_pid"; wait "$perf_pid" || true; fi
  read -r requests_after statements_after waits_after < <(database_totals "$route")
  for instance in $(seq 1 "$instances"); do
    [ "$instances" = 1 ] || echo "instance $instance:"
    grep -E '^(RESULT|FIRST|  Socket)' "$work/wrk-out$instance" || true
  done
  # One RESULT line for the run: requests and throughput added, latencies the worse instance's
  # (and each instance's p99, p99s_ms).
  cat "$work"/wrk-out[0-9]* | awk '/^RESULT/ {
      name = $2; for (i = 3; i <= NF; i++) { split($i, kv, "="); k = kv[1]; x = kv[2] + 0
        if (k ~ /^(requests|ok|failed|socket_errors|ok_per_s)$/) sum[k] += x; else if (!(k in worst) || x > worst[k]) worst[k] = x }
      p99s = p99s (p99s == "" ? "" : ",") sprintf("%.2f", worst_of_line($0)) }
    function worst_of_line(line,    m) { match(line, /p99_ms=[0-9.]+/); return substr(line, RSTART + 7, RLENGTH - 7) }
    END { printf "RESULT %s requests=%d ok=%d failed=%d socket_errors=%d seconds=%.1f ok_per_s=%.0f p50_ms=%.2f p90_ms=%.2f p99_ms=%.2f max_ms=%.2f p99s_ms=%s\n",
      name, sum["requests"], sum["ok"], sum["failed"], sum["socket_errors"], worst["seconds"], sum["ok_per_s"], worst["p50_ms"], worst["p90_ms"],
      worst["p99_ms"], worst["max_ms"], p99s }' > "$work/result"
  requests=$(sed -n 's/^RESULT [a-z]* requests=\([0-9]*\).*/\1/p' "$work/result")
  wrk_cpu=$(cat "$work"/wrk-time[0-9]* | awk '{ t += $2 + $3 } END { print t }')
  # CPU per request: the servers' (from /proc) and wrk's own (it shares the two cores); the
  # database statements per request of the route and the share of leases that waited.
  awk -v name="$name" -v t="$ticks" -v b="$before" -v a="$after" -v r="$requests" -v w="$wrk_cpu" \
    -v db_cpu=$((database_after - database_before)) -v rq=$((requests_after - requests_before)) -v sb="$statements_before" -v sa="$statements_after" -v wq=$((waits_after - waits_before)) \
    'BEGIN { printf "CPU %s server_us_per_request=%.1f wrk_us_per_request=%.1f postgres_us_per_request=%.1f db_per_request=%s pool_waits_per_request=%s\n", name,
      (a - b) / t * 1e6 / r, w * 1e6 / r, db_cpu / t * 1e6 / r, (sa < 0 || rq == 0) ? "-1" : sprintf("%.2f", (sa - (sb < 0 ? 0 : sb)) / rq), rq == 0 ? "-1" : sprintf("%.3f", wq / rq) }' > "$work/cpu"
  # Shown on stderr as it is measured (not `tee /dev/stderr`: reopening stderr truncates a file
  # that stdout and stderr both go to, `> log 2>&1`, losing what the run printed before).
  cat "$work/cpu" >&2
  sed "s/\$/ round=$round/" "$work/cpu" >> "$results"
  sed "s/\$/ round=$round/" "$work/result" >> "$results"
  sleep 1
}
for round in $(seq 1 "$rounds"); do
  for name in health read refresh; do
    if [[ $endpoints == *" $name "* ]]; then run_endpoint "$name" "$round"; fi
  done
done
if [[ $endpoints == *" signin "* ]]; then run_endpoint signin 1; fi

echo
echo "== summary ($engine, $instances instance(s); accepted requests per second; latency of all requests; medians of $rounds round(s))"
[ "$instances" = 1 ] || echo "(req/s: both instances added; latencies: the worse instance's; server us/req: both servers' CPU)"
printf '%-8s %10s %9s %9s %9s %8s %10s %13s %10s %8s %7s %9s\n' endpoint "req/s" "p50 ms" "p99 ms" "max ms" failed "vs /health" "server us/req" "wrk us/req" "pg us/req" "db/req" "waited %"
# The share of /health is taken round by round (each endpoint against the health run just
# before it), then the median of the rounds; the other columns are medians of the rounds.
awk '
  function median(list,    n, a, i, j, t) {
    n = split(list, a, " "); for (i = 1; i <= n; i++) a[i] += 0
    for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  { delete v; for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
  /^CPU/ {
    server[$2] = server[$2] " " v["server_us_per_request"]; client[$2] = client[$2] " " v["wrk_us_per_request"]
    db[$2] = db[$2] " " v["db_per_request"]; pg[$2] = pg[$2] " " v["postgres_us_per_request"]; waited[$2] = waited[$2] " " 100 * v["pool_waits_per_request"]
  }
  /^RESULT/ {
    name = $2; if (!(name in seen)) { seen[name] = 1; order[++count] = name }
    if (v["p99s_ms"] ~ /,/) p99s[name] = p99s[name] " " v["p99s_ms"]
    rps[name] = rps[name] " " v["ok_per_s"]; p50[name] = p50[name] " " v["p50_ms"]; p99[name] = p99[name] " " v["p99_ms"]
    mx[name] = mx[name] " " v["max_ms"]; failed[name] += v["failed"] + v["socket_errors"]
    if (name == "health") health[v["round"]] = v["ok_per_s"]
    if (v["round"] in health) share[name] = share[name] " " 100 * v["ok_per_s"] / health[v["round"]]
  }
  END {
    for (k = 1; k <= count; k++) {
      name = order[k]
      d = median(db[name]); w = median(waited[name])
      printf "%-8s %10.0f %9.2f %9.2f %9.2f %8d %9.0f%% %13.1f %10.1f %8.1f %7s %9s\n", name, median(rps[name]), median(p50[name]), median(p99[name]),
        median(mx[name]), failed[name], median(share[name]), median(server[name]), median(client[name]), median(pg[name]),
        d < 0 ? "-" : sprintf("%.2f", d), w < 0 ? "-" : sprintf("%.1f", w)
      if (name in p99s) printf "%-8s p99 ms by instance, round by round:%s\n", "", p99s[name]
      if (name != "health" && split(share[name], rounds_of, " ") > 1) {
        list = ""; for (i = 1; i <= split(share[name], rounds_of, " "); i++) list = list sprintf(" %.0f%%", rounds_of[i])
        printf "%-8s rounds:%s\n", "", list
      }
    }
  }' "$results"

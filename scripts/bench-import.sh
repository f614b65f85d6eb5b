#!/usr/bin/env bash
# Benchmark of `jump-forms users import` (docs/PERFORMANCE.md, "users import"): generates a
# JSON Lines file of Capture records with bcrypt password objects (a few fixed hashes: an
# import never hashes, so their cost does not matter), imports it into a fresh SQLite database
# and, when PostgreSQL is installed, into a fresh database of a private cluster (initdb and
# pg_ctl in a temporary folder, as the tests' PostgresCluster does). Prints the wall time,
# records per second and the peak RSS (GNU time's "Maximum resident set size") of each run.
#
#   scripts/bench-import.sh                                   # 100,000 records, SQLite then PostgreSQL
#   BENCH_RECORDS=250000 BENCH_PAD=4000 scripts/bench-import.sh   # ~1 GB file: memory flat in file size
#   BENCH_ENGINES=sqlite scripts/bench-import.sh              # SQLite only
#   BENCH_BIN=/tmp/other/.build/release scripts/bench-import.sh   # a binary built elsewhere
#
# BENCH_PAD adds that many characters of aboutMe to each record (default 0: ~540 bytes a record).
# The build goes to .build-bench (or $BENCH_SCRATCH), as scripts/bench-server.sh builds; the
# data, databases and cluster to a temporary folder, removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

records=${BENCH_RECORDS:-100000}
pad=${BENCH_PAD:-0}
engines=${BENCH_ENGINES:-sqlite postgres}
scratch=${BENCH_SCRATCH:-.build-bench}
build_flags=(--package-path Benchmarks -c release --static-swift-stdlib --scratch-path "$scratch")

[ -x /usr/bin/time ] || { echo "GNU time is not installed (apt-get install time)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "python3 is not installed" >&2; exit 2; }

if [ -n "${BENCH_BIN:-}" ]; then
  bin=$BENCH_BIN
else
  swift build "${build_flags[@]}" --product jump-forms
  bin=$(swift build "${build_flags[@]}" --show-bin-path)
fi
[ -x "$bin/jump-forms" ] || { echo "no jump-forms binary in $bin" >&2; exit 2; }

work=$(mktemp -d /tmp/jump-bench-import.XXXXXX)
cluster_started=
cleanup() {
  if [ -n "$cluster_started" ]; then as_postgres "$pgbin/pg_ctl" -D "$work/pg/data" -m immediate -w stop >/dev/null 2>&1 || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# The records: Capture's shape as `users export` writes it (id, uuid, timestamps, a plural
# with element ids, an object, a bcrypt password object).
python3 - "$records" "$pad" "$work/users.jsonl" <<'PY'
import json, random, sys, uuid
count, pad, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
hashes = ["$2a$10$dmxWYU3X2JhWpuV4S4fGmuvJPnzavT13weMQvAcDi4OTcLU2xRsTC", "$2b$10$9PlvdKqPpPMUhmzpbdcT0eIbBZkEiYgqRW15fp1pDAQO82SjUo5Eu",
          "$2y$10$XvNQlvvIbLIV1TzQluo8LuoAV.FKcV2gzMN.X.eQvOiTnFsOrfQX2"]
rnd = random.Random(7)
with open(out, "w") as f:
    for i in range(1, count + 1):
        record = {"id": i, "uuid": str(uuid.UUID(int=rnd.getrandbits(128), version=4)),
                  "created": "2019-03-04 05:06:07.123456 +0000", "lastUpdated": "2023-01-02 03:04:05.000000 +0000",
                  "email": f"user{i}@example.com", "givenName": "Given", "familyName": "Family", "displayName": f"user_{i}",
                  "birthday": "1990-04-01", "primaryAddress": {"city": "Lyon", "country": "FR"},
                  "photos": [{"id": 1000000 + 2 * i, "type": "small", "value": "https://example.com/p.png"}],
                  "password": {"type": "password-bcrypt", "value": hashes[i % 3]}}
        if pad:
            record["aboutMe"] = "x" * pad
        f.write(json.dumps(record) + "\n")
PY
size=$(stat -c %s "$work/users.jsonl")
echo "file: $records records, $((size / 1000000)) MB ($work/users.jsonl)"
echo "binary: $bin/jump-forms; $(nproc) cores"

# One import: its summary, wall time, rate and peak RSS.
run_import() {
  local label=$1; shift
  /usr/bin/time -f "%e %M" -o "$work/time" "$bin/jump-forms" users import "$work/users.jsonl" \
    --config "$root/jump.yaml" --schema "$root/schemas/default-schema.json" "$@" >"$work/out" 2>"$work/err" || {
    cat "$work/out" "$work/err" >&2
    echo "$label: the import failed" >&2
    exit 1
  }
  read -r seconds kilobytes <"$work/time"
  echo "$label: $(head -1 "$work/out")"
  python3 -c "import sys; s=float(sys.argv[1]); print(f'$label: {s:.1f} s, {int(int(sys.argv[2])/s):,} records/s, peak RSS {int(sys.argv[3])//1024} MB')" \
    "$seconds" "$records" "$kilobytes"
}

for engine in $engines; do
  case $engine in
    sqlite)
      run_import "sqlite" --db "$work/capture.sqlite"
      # The same file again: every record skipped, nothing written.
      run_import "sqlite, again" --db "$work/capture.sqlite"
      ;;
    postgres)
      pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
      if [ -z "$pgbin" ] || [ ! -x "$pgbin/initdb" ]; then echo "postgres: not installed, skipped"; continue; fi
      as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
      mkdir -p "$work/pg"
      [ "$(id -u)" = 0 ] && chown postgres "$work/pg" && chmod 755 "$work"
      port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
      as_postgres "$pgbin/initdb" -D "$work/pg/data" -U postgres --auth=trust -E UTF8 --locale=C >/dev/null
      as_postgres "$pgbin/pg_ctl" -D "$work/pg/data" -l "$work/pg/log" -w -t 60 \
        -o "-p $port -k $work/pg -c listen_addresses=127.0.0.1 -c shared_buffers=128MB" start >/dev/null
      cluster_started=1
      as_postgres "$pgbin/createdb" -h 127.0.0.1 -p "$port" -U postgres capture
      run_import "postgres" --database "postgres://postgres@127.0.0.1:$port/capture?sslmode=disable" --db "$work/pg-key.sqlite"
      ;;
  esac
done

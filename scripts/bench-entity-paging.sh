#!/usr/bin/env bash
# The Entity API's paging on 1,000,000 records (docs/PERFORMANCE.md, "Entity API paging"):
# fills a SQLite store with N records (default 1,000,000; sqlite3's recursive CTE, after
# `jump-forms serve` made the schema), starts `jump-forms serve` on it with an owner client,
# then times pages of /entity.find as Janrain's data library asks for them (sort_on ["id"],
# filter "id > N", 1000 records) at the start, the middle and the end of the ids, and for
# comparison one filter on a JSON attribute (a scan of the table). FULL=1 also times a whole
# `jump-forms users export` of every record.
# Usage: scripts/bench-entity-paging.sh [N]   (needs a built .build/debug or release jump-forms, sqlite3, curl)
set -euo pipefail
count=${1:-1000000}
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${JUMP_FORMS:-$root/.build/release/jump-forms}
[ -x "$bin" ] || bin=$root/.build/debug/jump-forms
work=$(mktemp -d)
trap 'kill "${serve:-0}" 2>/dev/null || true; rm -rf "$work"' EXIT
cp -r "$root/flows" "$root/locales" "$root/identities.yaml" "$work/"
cat "$root/jump.yaml" > "$work/jump.yaml"
cat >> "$work/jump.yaml" <<'YAML'
server:
  bcryptCost: 4
  clients:
    - id: bench
      secret: ${BENCH_SECRET}
      features: [owner]
YAML
export BENCH_SECRET=bench-secret-0123456789
db=$work/capture.sqlite
port=$((20000 + RANDOM % 20000))

start_serve() {
  (cd "$work" && "$bin" serve --db "$db" --port "$port" > "$work/serve.log" 2>&1) &
  serve=$!
  for _ in $(seq 1 100); do
    curl -fs "http://127.0.0.1:$port/health" > /dev/null 2>&1 && return 0
    sleep 0.2
  done
  cat "$work/serve.log"; exit 1
}

start_serve
kill "$serve"; wait "$serve" 2>/dev/null || true

echo "filling $count records..."
t0=$(date +%s.%N)
sqlite3 "$db" <<SQL
PRAGMA journal_mode = WAL;
PRAGMA synchronous = OFF;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $count)
INSERT INTO users (id, uuid, email_normalized, email_key, password_hash, record, created, last_updated)
SELECT i, lower(hex(randomblob(16))), 'user' || i || '@example.com', 'user' || i || '@example.com', NULL,
  json_object('id', i, 'uuid', 'u' || i, 'email', 'user' || i || '@example.com', 'displayName', 'user ' || i,
    'givenName', 'Given', 'familyName', 'Family', 'created', '2025-06-15 10:30:00.000000 +0000',
    'lastUpdated', '2025-06-15 10:30:00.000000 +0000'),
  '2025-06-15 10:30:00.000000 +0000', '2025-06-15 10:30:00.000000 +0000'
FROM n;
SQL
t1=$(date +%s.%N)
echo "filled in $(echo "$t1 - $t0" | bc) s ($(du -h "$db" | cut -f1))"
start_serve

page() { # filter
  local out
  out=$(curl -s -o /dev/null -w '%{time_total}' "http://127.0.0.1:$port/entity.find" \
    --data-urlencode type_name=user --data-urlencode 'sort_on=["id"]' --data-urlencode max_results=1000 \
    --data-urlencode "filter=$1" --data-urlencode client_id=bench --data-urlencode "client_secret=$BENCH_SECRET")
  printf '%-40s %6.0f ms\n' "$1" "$(echo "$out * 1000" | bc)"
}
for run in 1 2; do
  echo "run $run: pages of 1000 (sort_on [\"id\"])"
  page "id > 0"
  page "id > $((count / 2))"
  page "id > $((count - 1000))"
  page "displayName = 'user $((count - 1))'"
done
if [ "${FULL:-0}" = 1 ]; then
  t0=$(date +%s.%N)
  "$bin" users export --from "http://127.0.0.1:$port" --client-id bench --client-secret-env BENCH_SECRET --out "$work/all.jsonl"
  t1=$(date +%s.%N)
  echo "users export of $(wc -l < "$work/all.jsonl") records: $(echo "$t1 - $t0" | bc) s"
fi

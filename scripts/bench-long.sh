#!/usr/bin/env bash
# The long-message corpus (docs/PERFORMANCE.md, "Users' worst files"), every figure side by side
# in one run:
#   1. builds jump-forms, jump-bench and yaml-event-walk in release (as scripts/bench.sh);
#   2. writes the corpus: `jump-bench locales generate --shape long` (10 flows of ~220 fields,
#      30 locales x 5,000 keys and a mistyped one, long plural/select messages, seeded defects),
#      and checks that `locales check` finds every seeded defect with its exact count;
#   3. hyperfine, BENCH_RUNS runs each: the libyaml event walk of the flows and locales against
#      `jump-forms lint` of the flows; `jump-forms locales check` against
#      scripts/locales-baseline.py;
#   4. peak memory (GNU time) of both commands against a tiny run, per YAML byte read.
#
#   scripts/bench-long.sh
#   BENCH_RUNS=20 scripts/bench-long.sh
#   BENCH_BIN=/tmp/other/.build-bench/release scripts/bench-long.sh   # binaries built elsewhere
#
# Needs hyperfine, GNU time and python3 with PyYAML built on libyaml. The corpus goes to
# .bench/locales-long (or $BENCH_OUT).
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=${BENCH_SCRATCH:-.build-bench}
runs=${BENCH_RUNS:-10}
out=${BENCH_OUT:-.bench/locales-long}
command -v hyperfine >/dev/null || { echo "hyperfine is not installed (apt-get install hyperfine)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "GNU time is not installed (apt-get install time)" >&2; exit 2; }
if [ -n "${BENCH_BIN:-}" ]; then
  bin=$BENCH_BIN
else
  build_flags=(--package-path Benchmarks -c release --static-swift-stdlib --scratch-path "$scratch")
  for product in jump-bench yaml-event-walk jump-forms; do swift build "${build_flags[@]}" --product "$product"; done
  bin=$(swift build "${build_flags[@]}" --show-bin-path)
fi

echo "== machine"
echo "date:    $(date -u +%Y-%m-%dT%H:%MZ)"
echo "cpu:     $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//') x $(nproc) cores"
echo "build:   $bin"
echo "load:    $(cut -d' ' -f1-3 /proc/loadavg) (1/5/15 min, before the run)"
echo

echo "== corpus"
rm -rf "$out"
"$bin/jump-bench" locales generate --shape long --out "$out"
yaml_bytes() { find "$@" -name '*.yaml' -type f -printf '%s\n' | awk '{ sum += $1 } END { print sum }'; }
lint_bytes=$(yaml_bytes "$out/flows" "$out/locales")
locale_bytes=$(yaml_bytes "$out/locales")
echo "YAML: flows + locales $lint_bytes bytes, locales $locale_bytes bytes"
echo

check=("$bin/jump-forms" locales check --config "$out/jump.yaml" --flows "$out/flows" --format json)
baseline=(python3 scripts/locales-baseline.py "$out/locales" --reference en-US --json)
walk=("$bin/yaml-event-walk" "$out/flows" "$out/locales")
lint=("$bin/jump-forms" lint "$out/flows")

echo "== findings (one run of each)"
"${check[@]}" > "$out/report.json" || true
"${baseline[@]}" > "$out/baseline.json" || true
"$bin/jump-bench" locales verify --out "$out" --report "$out/report.json" --baseline "$out/baseline.json"
echo

echo "== time, side by side (one hyperfine run, $runs runs of each command in turn; lint and check exit 1 on findings)"
json=$(mktemp)
hyperfine -N -i --warmup 2 --runs "$runs" --export-json "$json" \
  -n "yaml-event-walk" "${walk[*]}" -n "jump-forms lint" "${lint[*]}" \
  -n "jump-forms locales check" "${check[*]}" -n "locales-baseline.py" "${baseline[*]}" > /dev/null
python3 - "$json" <<'EOF'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
def line(name):
    x = r[name]
    spread = (x["max"] - x["min"]) / x["median"] * 100
    return "%-26s median %7.1f ms  min %7.1f  max %7.1f  (spread %.0f%% of the median)" % (name, x["median"] * 1e3, x["min"] * 1e3, x["max"] * 1e3, spread)
for name in r: print(line(name))
lint = r["jump-forms lint"]["median"] / r["yaml-event-walk"]["median"]
check = r["locales-baseline.py"]["median"] / r["jump-forms locales check"]["median"]
print("lint / walk:              %.2fx (goal <= 2x: %s)" % (lint, "met" if lint <= 2 else "MISSED"))
print("baseline / locales check: %.2fx faster (goal >= 5x: %s)" % (check, "met" if check >= 5 else "MISSED"))
EOF
rm -f "$json"
echo

echo "== peak memory above a tiny run, per YAML byte read (goal <= 4x)"
tiny=$out.tiny
rm -rf "$tiny"
"$bin/jump-bench" locales generate --shape long --out "$tiny" --keys 60 --defects 1 --flows 1 > /dev/null
peak_kib() { { /usr/bin/time -f '%M' "$@" 2>&1 >/dev/null || true; } | tail -1; }
report() {  # name, YAML bytes, large KiB, tiny KiB
  awk -v n="$1" -v b="$2" -v big="$3" -v small="$4" 'BEGIN {
    above = (big - small) * 1024
    printf "%-14s YAML %6.2f MB  peak %6.1f MiB  tiny %5.1f MiB  above tiny %6.1f MiB = %.2fx the YAML bytes (goal <= 4x)\n",
      n, b / 1e6, big / 1024, small / 1024, above / 1048576, above / b }'
}
report "lint" "$lint_bytes" "$(peak_kib "${lint[@]}")" "$(peak_kib "$bin/jump-forms" lint "$tiny/flows")"
report "locales check" "$locale_bytes" "$(peak_kib "${check[@]}")" \
  "$(peak_kib "$bin/jump-forms" locales check --config "$tiny/jump.yaml" --flows "$tiny/flows" --format json)"

#!/usr/bin/env bash
# Peak memory against the input (docs/PERFORMANCE.md, "How each figure is measured"): `jump-forms lint` of the load
# corpus (10 flows x 200 forms, 30 locales x 5,000 keys) and `jump-forms locales check` of the
# locale corpus (31 files x ~5,000 keys), each against a tiny run of the same command, as peak
# resident memory (GNU time's "Maximum resident set size"). The goal: the peak above the tiny run
# at most 4x the YAML bytes the command reads.
#
#   scripts/bench-memory.sh
#   BENCH_BIN=/tmp/other/.build-bench/release scripts/bench-memory.sh   # binaries built elsewhere
#
# Builds like scripts/bench.sh (release, into .build-bench or $BENCH_SCRATCH); corpora go to
# .bench/memory (git-ignored).
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=${BENCH_SCRATCH:-.build-bench}
out=.bench/memory
[ -x /usr/bin/time ] || { echo "GNU time is not installed (apt-get install time)" >&2; exit 2; }
if [ -n "${BENCH_BIN:-}" ]; then
  bin=$BENCH_BIN
else
  build_flags=(--package-path Benchmarks -c release --static-swift-stdlib --scratch-path "$scratch")
  for product in jump-bench jump-forms; do swift build "${build_flags[@]}" --product "$product"; done
  bin=$(swift build "${build_flags[@]}" --show-bin-path)
fi
rm -rf "$out" && mkdir -p "$out"
"$bin/jump-bench" generate --out "$out/large" >/dev/null
"$bin/jump-bench" generate --out "$out/tiny" --flows 1 --fields 10 --locales 1 --keys 50 >/dev/null
"$bin/jump-bench" locales generate --out "$out/locales" >/dev/null
mkdir -p "$out/tiny-locales" && cp locales/*.yaml "$out/tiny-locales/"

peak_kib() {  # peak resident KiB of a command (its output and exit status ignored: findings exit 1)
  { /usr/bin/time -f '%M' "$@" 2>&1 >/dev/null || true; } | tail -1
}
yaml_bytes() { find "$@" -name '*.yaml' -type f -printf '%s\n' | awk '{ sum += $1 } END { print sum }'; }
report() {  # name, YAML bytes, large command..., --, tiny command...
  local name=$1 bytes=$2; shift 2
  local large=() tiny=()
  while [ "$1" != "--" ]; do large+=("$1"); shift; done; shift
  tiny=("$@")
  local big small
  big=$(peak_kib "${large[@]}"); small=$(peak_kib "${tiny[@]}")
  awk -v n="$name" -v b="$bytes" -v big="$big" -v small="$small" 'BEGIN {
    above = (big - small) * 1024
    printf "%-14s YAML %6.2f MB  peak %6.1f MiB  tiny %5.1f MiB  above tiny %6.1f MiB = %.2fx the YAML bytes (goal <= 4x)\n",
      n, b / 1e6, big / 1024, small / 1024, above / 1048576, above / b }'
}
echo "build: $bin"
report "lint" "$(yaml_bytes "$out/large")" \
  "$bin/jump-forms" lint "$out/large/flows" -- "$bin/jump-forms" lint "$out/tiny/flows"
report "locales check" "$(yaml_bytes "$out/locales/locales")" \
  "$bin/jump-forms" locales check --locales "$out/locales/locales" -- "$bin/jump-forms" locales check --locales "$out/tiny-locales"

#!/usr/bin/env bash
# Builds the benchmarks in release and runs them all (docs/PERFORMANCE.md):
#   corpus generation + lint check, load + lint against the libyaml event walk, rule-engine
#   throughput, request-builder throughput (registration requests/s), `jump-forms --help`
#   cold start, the alias bomb; then, when hyperfine is
#   installed, the cold start and the whole-process lint again through hyperfine.
#
#   scripts/bench.sh            everything
#   BENCH_ITERATIONS=20 scripts/bench.sh
#   BENCH_TRAITS=Mimalloc scripts/bench.sh   # built with mimalloc (Debian: libmimalloc-dev)
#
# The corpus goes to .bench/corpus (git-ignored); the build, of the Benchmarks package (which
# builds jump-forms as its dependency), to .build-bench (or $BENCH_SCRATCH).
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=${BENCH_SCRATCH:-.build-bench}
iterations=${BENCH_ITERATIONS:-10}
runs=${BENCH_RUNS:-100}
# The system allocator unless BENCH_TRAITS names package traits (BENCH_TRAITS=Mimalloc: mimalloc,
# as the figures in docs/PERFORMANCE.md up to the trait's introduction were measured).
build_flags=(--package-path Benchmarks -c release --static-swift-stdlib --scratch-path "$scratch")
[ -z "${BENCH_TRAITS:-}" ] || build_flags+=(--traits "$BENCH_TRAITS")

# `swift build` honours only the last --product it is given: one call per product.
for product in jump-bench yaml-event-walk jump-forms; do
  swift build "${build_flags[@]}" --product "$product"
done
bin=$(swift build "${build_flags[@]}" --show-bin-path)

echo "== machine"
echo "date:    $(date -u +%Y-%m-%dT%H:%MZ)"
echo "cpu:     $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//') x $(nproc) cores"
echo "memory:  $(awk '/MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo)"
echo "kernel:  $(uname -sr)"
echo "swift:   $(swift --version 2>&1 | head -1)"
echo "traits:  ${BENCH_TRAITS:-none (the system allocator)}"
echo "libyaml: $(pkg-config --modversion yaml-0.1 2>/dev/null || echo unknown)"
echo "load:    $(cut -d' ' -f1-3 /proc/loadavg) (1/5/15 min, before the run)"
echo

"$bin/jump-bench" all --out .bench/corpus --walker "$bin/yaml-event-walk" --cli "$bin/jump-forms" \
  --iterations "$iterations" --runs "$runs"

if command -v taskset >/dev/null 2>&1; then
  echo
  echo "== load + lint on one core (taskset -c 0: jump-forms cannot use the second core)"
  taskset -c 0 "$bin/jump-bench" load --out .bench/corpus --walker "$bin/yaml-event-walk" --iterations "$iterations" --warmup 1
fi

if command -v hyperfine >/dev/null 2>&1; then
  echo
  echo "== hyperfine: cold start"
  json=$(mktemp)
  hyperfine -N --warmup 5 --runs "$runs" --export-json "$json" "$bin/jump-forms --help"
  # hyperfine prints the mean; the goal is on the median.
  python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
print("  median %.2f ms, min %.2f ms, max %.2f ms (hyperfine, %d runs; goal: median < 40 ms)" % (r["median"] * 1e3, r["min"] * 1e3, r["max"] * 1e3, len(r["times"])))' "$json" 2>/dev/null || true
  rm -f "$json"
  echo
  echo "== hyperfine: whole processes over the corpus (startup, output and exit included)"
  hyperfine -N --warmup 1 --runs 5 \
    "$bin/yaml-event-walk .bench/corpus/flows .bench/corpus/locales" \
    "$bin/jump-forms lint .bench/corpus/flows"
else
  echo
  echo "(hyperfine not installed: apt-get install -y hyperfine for the hyperfine figures)"
fi

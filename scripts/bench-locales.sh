#!/usr/bin/env bash
# The locale-check benchmark (docs/PERFORMANCE.md, "How each figure is measured"):
#   1. builds jump-forms and jump-bench in release;
#   2. writes the corpus: 30 locales x 5,000 keys with seeded defects of every kind
#      (.bench/locales, with expected.json holding the seeded counts);
#   3. runs `jump-forms locales check` and scripts/locales-baseline.py (PyYAML, yaml.CLoader) once
#      each and compares what they found with what was seeded;
#   4. times both side by side with hyperfine (BENCH_RUNS runs each, 2 warm-ups).
#
#   scripts/bench-locales.sh
#   BENCH_RUNS=20 scripts/bench-locales.sh
#   BENCH_TRAITS=Mimalloc scripts/bench-locales.sh   # built with mimalloc (Debian: libmimalloc-dev)
#   BENCH_BIN=/tmp/other/.build/release scripts/bench-locales.sh   # binaries built elsewhere, no build
#
# Needs python3 with PyYAML built against libyaml (pip install pyyaml) and hyperfine. The corpus
# goes to .bench/locales (or $BENCH_OUT), created with its parent folders.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=${BENCH_SCRATCH:-.build-bench-locales}
runs=${BENCH_RUNS:-10}
out=${BENCH_OUT:-.bench/locales}
# The system allocator unless BENCH_TRAITS names package traits (BENCH_TRAITS=Mimalloc: mimalloc,
# as the figures in docs/PERFORMANCE.md up to the trait's introduction were measured).
build_flags=(--package-path Benchmarks -c release --static-swift-stdlib --scratch-path "$scratch")
[ -z "${BENCH_TRAITS:-}" ] || build_flags+=(--traits "$BENCH_TRAITS")

command -v hyperfine >/dev/null || { echo "hyperfine is not installed (apt-get install hyperfine)" >&2; exit 2; }

if [ -n "${BENCH_BIN:-}" ]; then
  bin=$BENCH_BIN        # a folder holding jump-forms and jump-bench built elsewhere (e.g. another commit)
  for tool in jump-forms jump-bench; do
    [ -x "$bin/$tool" ] || { echo "BENCH_BIN=$bin has no $tool" >&2; exit 2; }
  done
else
  # `swift build` honours only the last --product it is given: one call per product.
  for product in jump-bench jump-forms; do
    swift build "${build_flags[@]}" --product "$product"
  done
  bin=$(swift build "${build_flags[@]}" --show-bin-path)
fi

python3 -c 'import yaml, sys; sys.exit(0 if yaml.__with_libyaml__ else "PyYAML without libyaml: pip install --force-reinstall pyyaml")'

echo "== machine"
echo "date:    $(date -u +%Y-%m-%dT%H:%MZ)"
echo "cpu:     $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//') x $(nproc) cores"
echo "swift:   $(swift --version 2>&1 | head -1)"
echo "build:   $bin"
[ -n "${BENCH_BIN:-}" ] || echo "traits:  ${BENCH_TRAITS:-none (the system allocator)}"
echo "python:  $(python3 --version 2>&1), PyYAML $(python3 -c 'import yaml; print(yaml.__version__)') with libyaml"
echo "load:    $(cut -d' ' -f1-3 /proc/loadavg) (1/5/15 min, before the run)"
echo

echo "== corpus"
rm -rf "$out"
"$bin/jump-bench" locales generate --out "$out"
echo

check=("$bin/jump-forms" locales check --config "$out/jump.yaml" --format json)
baseline=(python3 scripts/locales-baseline.py "$out/locales" --reference en-US --json)

echo "== findings (one run of each)"
JUMP_FORMS_TIMING=1 "${check[@]}" > "$out/report.json" || true
"${baseline[@]}" > "$out/baseline.json" || true
"$bin/jump-bench" locales verify --out "$out" --report "$out/report.json" --baseline "$out/baseline.json"
echo

echo "== time, side by side (hyperfine, $runs runs each; both exit 1 on findings)"
json=$(mktemp)
hyperfine -N -i --warmup 2 --runs "$runs" --export-json "$json" \
  -n "jump-forms locales check" "${check[*]}" \
  -n "locales-baseline.py (PyYAML CLoader)" "${baseline[*]}"
python3 - "$json" <<'EOF'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
ours, theirs = results[0], results[1]
def line(r):
    return "median %.1f ms, min %.1f ms, max %.1f ms" % (r["median"] * 1e3, r["min"] * 1e3, r["max"] * 1e3)
print("jump-forms locales check:  " + line(ours))
print("locales-baseline.py:       " + line(theirs))
print("ratio (medians):           %.2fx faster" % (theirs["median"] / ours["median"]))
print("goals: median <= 250 ms: %s; >= 5x faster: %s" % (
    "met" if ours["median"] <= 0.25 else "MISSED", "met" if theirs["median"] / ours["median"] >= 5 else "MISSED"))
EOF
rm -f "$json"

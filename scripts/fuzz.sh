#!/usr/bin/env bash
# libFuzzer runs of the fuzz targets (docs/PERFORMANCE.md, "Fuzzing").
#
#   scripts/fuzz.sh loader [RUNS]   fuzz-loader: YAMLReader + flow/locale/config decoding, lint
#   scripts/fuzz.sh icu [RUNS]      fuzz-icu: MessagePattern(parsing:) + MessageFormatter
#   scripts/fuzz.sh smoke           both, briefly (CI): FUZZ_SMOKE_RUNS (20000) runs each, -seed=1
#   scripts/fuzz.sh replay TARGET PATH...   a crash input through the plain (non-fuzzer) build
#
# RUNS defaults to 1,000,000 executions. Extra libFuzzer flags: FUZZ_FLAGS="-max_total_time=60".
# Built in release with -sanitize=fuzzer,address (FUZZ_SANITIZERS=fuzzer to drop ASan) and
# -D FUZZING, from the Benchmarks package, in .build-fuzz (or $FUZZ_SCRATCH). The growing corpus lives in fuzz-corpus/TARGET (git-ignored),
# seeded from flows/, locales/, jump.yaml and scripts/fuzz-seeds/; a crash is written to
# fuzz-corpus/artifacts/ and the script exits non-zero.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=${FUZZ_SCRATCH:-.build-fuzz}
sanitizers=${FUZZ_SANITIZERS:-fuzzer,address}
seeds=scripts/fuzz-seeds

build() {
  local product=$1
  # One product per call: `swift build` honours only the last --product.
  swift build --package-path Benchmarks -c release --scratch-path "$scratch" --product "$product" \
    -Xswiftc "-sanitize=$sanitizers" -Xswiftc -DFUZZING \
    -Xswiftc -enable-experimental-feature -Xswiftc Extern
}

# Seed folders for a target (libFuzzer reads every folder given; it writes to the first).
prepare() {
  local target=$1
  mkdir -p "fuzz-corpus/$target" "fuzz-corpus/artifacts" "fuzz-corpus/$target-seeds"
  case "$target" in
    loader)
      cp flows/*.yaml locales/*.yaml jump.yaml "$seeds"/loader/*.yaml "fuzz-corpus/$target-seeds/" 2>/dev/null || true
      ;;
    icu)
      cp "$seeds"/icu/* "fuzz-corpus/$target-seeds/"
      # Every message of the locale files that uses ICU syntax, one file each.
      local n=0
      while IFS= read -r message; do
        n=$((n + 1))
        printf '%s' "$message" > "fuzz-corpus/$target-seeds/locale-$n.txt"
      done < <(grep -h '{' locales/*.yaml Sources/JumpFormsLoader/Catalog/*.yaml 2>/dev/null \
               | sed -E "s/^[^:]*: *//; s/^'(.*)'\$/\\1/; s/^\"(.*)\"\$/\\1/" | head -500)
      ;;
  esac
}

run() {
  local target=$1 runs=$2
  local binary max_len dict
  binary=$(swift build --package-path Benchmarks -c release --scratch-path "$scratch" --show-bin-path)/fuzz-$target
  case "$target" in
    loader) max_len=8192; dict="$seeds/yaml.dict" ;;
    icu) max_len=1024; dict="$seeds/icu.dict" ;;
  esac
  prepare "$target"
  echo "== fuzz-$target: $runs runs"
  local start end status=0
  start=$(date +%s)
  # Standard input closed: an input naming /dev/stdin must not wait for a terminal.
  # SWIFT_BACKTRACE off: the Swift backtracer's memory reads trip ASan after a trap.
  SWIFT_BACKTRACE=enable=no "$binary" -runs="$runs" -max_len="$max_len" -dict="$dict" -timeout=10 -rss_limit_mb=4096 \
    -print_final_stats=1 -artifact_prefix="fuzz-corpus/artifacts/$target-" ${FUZZ_FLAGS:-} \
    "fuzz-corpus/$target" "fuzz-corpus/$target-seeds" </dev/null 2>"fuzz-corpus/$target.log" || status=$?
  end=$(date +%s)
  grep -E '^#[0-9]+[[:space:]]+(INITED|DONE)|stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb|^==[0-9]+==ERROR|^SUMMARY|Fatal error|Test unit written' \
    "fuzz-corpus/$target.log" || true
  echo "fuzz-$target: exit $status after $((end - start)) s (full log: fuzz-corpus/$target.log)"
  if [ "$status" -ne 0 ]; then
    echo "fuzz-$target: FAILED; reproduce with: scripts/fuzz.sh replay $target fuzz-corpus/artifacts/$target-*" >&2
    return "$status"
  fi
}

case "${1:-}" in
  loader|icu)
    build "fuzz-$1"
    run "$1" "${2:-1000000}"
    ;;
  smoke)
    runs=${FUZZ_SMOKE_RUNS:-20000}
    # A fixed seed: the same inputs on every CI run, so a red smoke is reproducible.
    export FUZZ_FLAGS="-seed=1 ${FUZZ_FLAGS:-}"
    build fuzz-loader
    build fuzz-icu
    status=0
    run loader "$runs" || status=$?
    run icu "$runs" || status=$?
    exit "$status"
    ;;
  replay)
    target=${2:?usage: scripts/fuzz.sh replay loader|icu PATH...}
    shift 2
    swift build --package-path Benchmarks --scratch-path .build-fuzz-replay --product "fuzz-$target"
    "$(swift build --package-path Benchmarks --scratch-path .build-fuzz-replay --show-bin-path)/fuzz-$target" "$@"
    ;;
  *)
    sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac

#!/usr/bin/env bash
# Formats the Swift sources with the toolchain's swift-format and the repository's .swift-format
# (4-space indent, 150 columns); generated tables (*.generated.swift), manifests and the golden
# sources of the tests (Fixtures/, golden/: what the generators write, byte for byte) are left as
# their generators and authors write them. `scripts/format.sh --lint` changes nothing and exits
# non-zero when a file is not formatted (CI runs it).
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.swift' | grep -v '\.generated\.swift$' | grep -v '/\?Package\.swift$' | grep -viE '/(fixtures|golden)/')
if [ "${1:-}" = "--lint" ]; then
  swift format lint --strict --parallel "${files[@]}"
else
  swift format format --in-place --parallel "${files[@]}"
fi

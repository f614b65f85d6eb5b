#!/usr/bin/env bash
# The first `swift build` of a fresh clone, and the same for the dependencies alone, one after
# the other (docs/PERFORMANCE.md, "Build time"). Run it on a quiet machine: both builds keep
# every core busy, so anything else running shows up in the figures.
#
#   scripts/bench-build.sh            # clones HEAD's repository into a temporary folder
#   BENCH_KEEP=1 scripts/bench-build.sh   # keeps the folder (its path is printed)
#
# The dependencies-only package has one empty executable target that depends on every product
# the project's non-test targets name (read from `swift package dump-package`), at the same
# version requirements, so the difference between the two builds is the project's own code.
# Needs python3 (to write that package's manifest) and GNU time.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
root=$PWD
work=$(mktemp -d /tmp/jump-bench-build.XXXXXX)
[ -n "${BENCH_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT

measure() { # label folder
    local label=$1 folder=$2
    echo "== $label ($(uptime | sed 's/.*load average: /load /'))" >&2
    (cd "$folder" && /usr/bin/time -f '%e %U %S' -o "$work/$label.time" swift build >"$work/$label.log" 2>&1) || {
        echo "bench-build: the $label build failed; its log: $work/$label.log" >&2
        BENCH_KEEP=1
        trap - EXIT
        exit 1
    }
    read -r wall user system <"$work/$label.time"
    printf '%-14s %8.1f s wall %8.1f s user %7.1f s system\n' "$label" "$wall" "$user" "$system"
}

git clone -q "$root" "$work/project"
swift package --package-path "$root" dump-package >"$work/manifest.json"
mkdir -p "$work/dependencies/Sources/dependencies"
echo 'print("dependencies")' >"$work/dependencies/Sources/dependencies/main.swift"
python3 - "$work/manifest.json" "$work/dependencies/Package.swift" <<'PY'
import json, sys

manifest = json.load(open(sys.argv[1]))
packages = []
for dependency in manifest["dependencies"]:
    source = dependency["sourceControl"][0]
    url = source["location"]["remote"][0]["urlString"]
    lower = source["requirement"]["range"][0]["lowerBound"]
    packages.append(f'        .package(url: "{url}", from: "{lower}"),')
products = []
for target in manifest["targets"]:
    if target["type"] == "test":
        continue
    for dependency in target["dependencies"]:
        if "product" in dependency:
            name, package = dependency["product"][0], dependency["product"][1]
            if (name, package) not in products:
                products.append((name, package))
used = {package for _, package in products}
packages = [line for line in packages if line.split('"')[1].rstrip("/").split("/")[-1] in used]
lines = [
    "// swift-tools-version: 6.1",
    "import PackageDescription",
    "",
    "let package = Package(",
    '    name: "dependencies",',
    "    platforms: [.macOS(.v15)],",
    "    dependencies: [",
    *packages,
    "    ],",
    "    targets: [",
    '        .executableTarget(name: "dependencies", dependencies: [',
    *[f'            .product(name: "{name}", package: "{package}"),' for name, package in products],
    "        ]),",
    "    ]",
    ")",
]
open(sys.argv[2], "w").write("\n".join(lines) + "\n")
PY

measure project "$work/project"
measure dependencies "$work/dependencies"
[ -z "${BENCH_KEEP:-}" ] || echo "kept: $work" >&2

// swift-tools-version: 6.1
import PackageDescription

/// The benchmarks, fuzz targets and the C walker of jump-forms (docs/PERFORMANCE.md), a package of
/// their own so that `swift build` of the project builds none of them. Build from the repository
/// root with `swift build --package-path Benchmarks` (scripts/bench.sh, scripts/fuzz.sh do).

/// mimalloc in jump-bench, on Linux with the `Mimalloc` trait only, as jump-forms with its own
/// (the root package's `CMimalloc` under a name of its own: target names are unique in a graph).
let mimalloc: Target.Dependency = .target(
    name: "CMimallocBench",
    condition: .when(platforms: [.linux], traits: ["Mimalloc"])
)

let package = Package(
    name: "jump-forms-benchmarks",
    platforms: [.macOS(.v15)],
    traits: [
        .trait(
            name: "Mimalloc",
            description: "Link mimalloc (Debian: libmimalloc-dev) into jump-bench, and jump-forms with the root package's trait."
        ),
    ],
    dependencies: [
        .package(
            name: "jump-forms",
            path: "..",
            traits: [.defaults, .trait(name: "Mimalloc", condition: .when(traits: ["Mimalloc"]))]
        ),
    ],
    targets: [
        .systemLibrary(name: "CMimallocBench", path: "Sources/CMimallocBench", providers: [.apt(["libmimalloc-dev"])]),
        // The baseline of the load benchmark: libyaml parse events only, no model (C).
        .executableTarget(
            name: "yaml-event-walk",
            linkerSettings: [.linkedLibrary("yaml")]
        ),
        // Corpus generator and benchmarks: load + lint, rule engine, request builder, cold start,
        // alias bomb, locale checks.
        .executableTarget(
            name: "jump-bench",
            dependencies: [
                .product(name: "JumpForms", package: "jump-forms"),
                .product(name: "JumpFormsLoader", package: "jump-forms"),
                .product(name: "JumpLocaleCheck", package: "jump-forms"),
                .product(name: "JumpCapture", package: "jump-forms"),
                .product(name: "JumpFiles", package: "jump-forms"),
                "DevToolSupport",
                mimalloc,
            ]
        ),
        // libFuzzer targets (`-sanitize=fuzzer -D FUZZING`); built plainly, they replay the
        // inputs named on their command line.
        .executableTarget(
            name: "fuzz-loader",
            dependencies: [
                .product(name: "JumpForms", package: "jump-forms"),
                .product(name: "JumpFormsLoader", package: "jump-forms"),
                .product(name: "JumpFiles", package: "jump-forms"),
                "DevToolSupport",
            ]
        ),
        .executableTarget(
            name: "fuzz-icu",
            dependencies: [.product(name: "JumpForms", package: "jump-forms"), "DevToolSupport"]
        ),
        // What jump-bench and the fuzz targets share: standard error, and the fuzz targets'
        // replay mode and libFuzzer entry.
        .target(name: "DevToolSupport", dependencies: [.product(name: "JumpFiles", package: "jump-forms")]),
        // The locale-check corpus checked against `jump-forms locales check` (the built jump-bench
        // and jump-forms: `swift build --package-path Benchmarks --product jump-forms` first).
        .testTarget(
            name: "BenchmarkTests",
            dependencies: [.product(name: "JumpLocaleCheck", package: "jump-forms")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

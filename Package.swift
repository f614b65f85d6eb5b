// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "jump-forms",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "JumpForms", targets: ["JumpForms"]),
        .library(name: "JumpFormsLoader", targets: ["JumpFormsLoader"]),
        .executable(name: "jump-forms", targets: ["jump-forms"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // The system libyaml (Debian: libyaml-dev). Only JumpFormsLoader imports it.
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        // The model: flows, forms, locales, ICU messages, CLDR plurals, the rule engine, lint.
        // Plain Sendable values; no YAML, no I/O.
        .target(
            name: "JumpForms",
            dependencies: [.product(name: "Logging", package: "swift-log")]
        ),
        // Reads flow, locale and client-config files: libyaml events -> located nodes -> model.
        .target(
            name: "JumpFormsLoader",
            dependencies: ["CYAML", "JumpForms"],
            exclude: ["Catalog"]
        ),
        // The commands of `jump-forms`, as a library so tests can drive them.
        .target(
            name: "JumpFormsCLI",
            dependencies: [
                "JumpForms",
                "JumpFormsLoader",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(name: "jump-forms", dependencies: ["JumpFormsCLI"]),

        // Golden files, repository paths and temporary folders for the test targets.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(
            name: "JumpFormsTests",
            dependencies: ["JumpForms", "TestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "JumpFormsLoaderTests",
            dependencies: ["JumpForms", "JumpFormsLoader", "TestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "JumpFormsCLITests",
            dependencies: ["JumpForms", "JumpFormsLoader", "JumpFormsCLI", "TestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// swift-tools-version: 6.1
import PackageDescription

/// mimalloc as the executables' allocator, on Linux with the `Mimalloc` trait only (see `CMimalloc`);
/// the libraries never depend on it.
let mimalloc: Target.Dependency = .target(
    name: "CMimalloc",
    condition: .when(platforms: [.linux], traits: ["Mimalloc"])
)

let package = Package(
    name: "jump-forms",
    // What the libraries need: Mutex (Synchronization) and String(validating:) came with these.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "JumpForms", targets: ["JumpForms"]),
        .library(name: "JumpDiagnostics", targets: ["JumpDiagnostics"]),
        .library(name: "JumpLocalization", targets: ["JumpLocalization"]),
        .library(name: "JumpFormsLoader", targets: ["JumpFormsLoader"]),
        .library(name: "JumpCapture", targets: ["JumpCapture"]),
        .library(name: "JumpCaptureNIO", targets: ["JumpCaptureNIO"]),
        .library(name: "JumpCaptureServer", targets: ["JumpCaptureServer"]),
        .library(name: "JumpWebPages", targets: ["JumpWebPages"]),
        .library(name: "JumpSchema", targets: ["JumpSchema"]),
        .library(name: "JumpLocaleCheck", targets: ["JumpLocaleCheck"]),
        .library(name: "JumpLocaleInterchange", targets: ["JumpLocaleInterchange"]),
        .library(name: "JumpFiles", targets: ["JumpFiles"]),
        .executable(name: "jump-forms", targets: ["jump-forms"]),
    ],
    traits: [
        .trait(
            name: "Mimalloc",
            description: "Link mimalloc (Debian: libmimalloc-dev) into jump-forms on Linux."
        ),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // SwiftNIO's own modules, which the server, its HTTP transport and their tests import
        // beside Hummingbird and AsyncHTTPClient (every target declares what it imports).
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        // The server's store: one query layer (SQLKit) over SQLite (the embedded default) and
        // PostgreSQL (many instances behind a load balancer).
        .package(url: "https://github.com/vapor/sql-kit", from: "3.36.0"),
        .package(url: "https://github.com/vapor/sqlite-kit", from: "4.5.2"),
        .package(url: "https://github.com/vapor/postgres-kit", from: "2.17.0"),
        .package(url: "https://github.com/vapor/async-kit", from: "1.22.0"),
        // `serve --tls`: the local CA and its leaf certificate (X509, P256 keys from swift-crypto),
        // served through Hummingbird's TLS support (swift-nio-ssl).
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        // The server's pages (hosted forms, the Engage dialog, the email pages): Mustache templates.
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        // `serve`'s `GET /metrics`: swift-metrics' types, made through a factory for a Prometheus
        // registry the server owns (nothing bootstrapped process-wide).
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        // mimalloc (Debian: libmimalloc-dev), opt-in: `swift build --traits Mimalloc` links it into
        // the executables, where its `malloc` is found before glibc's and serves the whole process
        // (README, "Requirements"). Without the trait nothing needs or links it.
        .systemLibrary(name: "CMimalloc", path: "Sources/CMimalloc", providers: [.apt(["libmimalloc-dev"])]),
        // The system libyaml (Debian: libyaml-dev). Only JumpFormsLoader imports it.
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        // The system zlib (Debian: zlib1g-dev): the local server gzips the flow documents it serves.
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        // Diagnostics: source locations, codes, suggestions and the caret renderer. No model.
        .target(name: "JumpDiagnostics"),
        // Localization: ICU MessageFormat, CLDR plurals, numbers and dates, locale matching,
        // message catalogs. Plain Sendable values; no YAML, no I/O.
        .target(name: "JumpLocalization", dependencies: ["JumpDiagnostics"]),
        // The model: flows, forms, the rule engine, the form session, lint. Plain Sendable
        // values; no YAML, no I/O. Re-exports JumpDiagnostics and JumpLocalization.
        .target(
            name: "JumpForms",
            dependencies: ["JumpDiagnostics", "JumpLocalization"]
        ),
        // Reads flow, locale and client-config files: libyaml events -> located nodes -> model.
        .target(
            name: "JumpFormsLoader",
            dependencies: ["CYAML", "JumpForms", "JumpFiles"],
            exclude: ["Catalog"]
        ),
        // The POSIX file utilities the libraries share: the whole-file reader, the atomic writer,
        // private files and folders, path text. No model.
        .target(name: "JumpFiles"),
        // The Capture/Engage protocol: request builders, response decoding, refresh signature,
        // session store, the URLSession transport, record changes. No SwiftNIO: apps build it.
        .target(
            name: "JumpCapture",
            dependencies: [
                "JumpForms",
                "JumpFiles",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The AsyncHTTPClient (SwiftNIO) transport and flow-document download, for servers and
        // the CLI.
        .target(
            name: "JumpCaptureNIO",
            dependencies: [
                "JumpCapture",
                "JumpForms",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // Capture entity-type schemas (JSON): located reading, the Swift user model generator,
        // and the flow's lint against its schema. Depends on the model (and JumpFiles to write).
        .target(
            name: "JumpSchema",
            dependencies: ["JumpForms", "JumpFiles"]
        ),
        // `jump-forms locales`: the checks of locale files (rules, baseline, JUnit, coverage,
        // pseudo-locales). Works on catalogs and flows the loader made; no YAML.
        .target(
            name: "JumpLocaleCheck",
            dependencies: ["JumpForms"]
        ),
        // Apple .strings and String Catalogs (.xcstrings), Android strings.xml: readers and
        // writers, and the ICU <-> printf placeholder mapping. No YAML.
        .target(
            name: "JumpLocaleInterchange",
            dependencies: ["JumpForms"]
        ),
        // The server's HTML pages: one layout, the hosted forms drawn from a FormModel, the Engage
        // dialog and the email pages, as Mustache templates compiled into the binary, and the
        // stylesheet. No HTTP: the server hands it values and serves what it renders.
        .target(
            name: "JumpWebPages",
            dependencies: ["JumpForms", "JumpLocalization", .product(name: "Mustache", package: "swift-mustache")]
        ),
        // A local Capture-compatible server and Engage double (Hummingbird 2; SQLKit over SQLite or PostgreSQL).
        .target(
            name: "JumpCaptureServer",
            dependencies: [
                "JumpForms",
                "JumpWebPages",
                "JumpCapture",
                "JumpCaptureNIO",
                "JumpSchema",
                "CZlib",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "AsyncKit", package: "async-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        // What `serve` serves HTTPS with: PEM files (`--tls-cert/--tls-key`) and the local CA of
        // `serve --tls` (X509, P256 keys from swift-crypto), made into the TLS configuration the
        // server takes. CLI support: the server itself needs none of it.
        .target(
            name: "JumpServerTLS",
            dependencies: [
                "JumpCapture",
                "JumpFiles",
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The commands of `jump-forms`, as a library so tests can drive them.
        .target(
            name: "JumpFormsCLI",
            dependencies: [
                "JumpForms",
                "JumpFiles",
                "JumpFormsLoader",
                "JumpCapture",
                "JumpCaptureNIO",
                "JumpCaptureServer",
                "JumpServerTLS",
                "JumpSchema",
                "JumpLocaleCheck",
                "JumpLocaleInterchange",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The command-line tool; with the Mimalloc trait, on Linux, it allocates with mimalloc.
        .executableTarget(name: "jump-forms", dependencies: ["JumpFormsCLI", mimalloc]),

        // Golden files, repository paths and temporary folders for the test targets.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // `jump-forms` run in the test process (`InProcess`), for the test targets of its commands.
        .target(name: "CLITestSupport", dependencies: ["JumpFormsCLI", "TestSupport"], path: "Tests/CLITestSupport"),
        .testTarget(
            name: "JumpFormsTests",
            dependencies: ["JumpForms", "JumpLocalization", "TestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "JumpFormsLoaderTests",
            dependencies: ["JumpForms", "JumpFormsLoader", "TestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "JumpCaptureTests",
            dependencies: [
                "JumpCapture", "JumpCaptureNIO", "JumpFiles", "JumpForms", "JumpFormsLoader", "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            exclude: ["Fixtures", "Golden"]
        ),
        .testTarget(
            name: "JumpSchemaTests",
            dependencies: ["JumpSchema", "JumpForms", "JumpFormsLoader", "JumpCapture", "TestSupport", "CLITestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "JumpLocaleCheckTests",
            dependencies: ["JumpLocaleCheck", "JumpForms", "JumpFormsLoader", "TestSupport", "CLITestSupport"],
            exclude: ["Golden"]
        ),
        .testTarget(
            name: "JumpLocaleInterchangeTests",
            dependencies: ["JumpLocaleInterchange", "JumpForms", "JumpFormsLoader", "TestSupport", "CLITestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "JumpFormsCLITests",
            dependencies: [
                "JumpForms", "JumpFormsLoader", "JumpFormsCLI", "JumpCapture", "TestSupport", "CLITestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                // The preview tests read the gallery over HTTP.
                "JumpCaptureServer", .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            exclude: ["Golden"]
        ),
        // End-to-end tests of the local server through the real transport, reliability (200
        // concurrent registrations, kill -9), the serve/outbox commands, and the database itself
        // (through the store's own statements), on SQLite or PostgreSQL (JUMP_TEST_DATABASE).
        .testTarget(
            name: "JumpCaptureServerTests",
            dependencies: [
                "JumpCaptureServer", "JumpServerTLS", "JumpCapture", "JumpCaptureNIO", "JumpForms", "JumpFormsLoader", "JumpSchema", "JumpWebPages",
                "TestSupport",
                "CLITestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            exclude: ["Fixtures", "Golden"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

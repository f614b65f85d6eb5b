// swift-tools-version: 6.2
import PackageDescription

/// App-style programs built on jump-forms as a library (README, "As a library"): a package of
/// its own that depends on the project by path, as an app's package would. Run them from the
/// repository root: `swift run --package-path Examples registration-app .` (jump.yaml, the
/// YAML flow and an in-process server) and `swift run --package-path Examples app-without-yaml .`
/// (JumpForms and JumpCapture alone; it starts the built `jump-forms serve`).
let package = Package(
    name: "jump-forms-examples",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "jump-forms", path: "..")
    ],
    targets: [
        .executableTarget(
            name: "registration-app",
            dependencies: [
                .product(name: "JumpForms", package: "jump-forms"),
                .product(name: "JumpCapture", package: "jump-forms"),
                // Reads jump.yaml and the YAML flow (an iOS app would read flow documents with
                // `DocumentFlow` instead), and runs the local server the app talks to.
                .product(name: "JumpFormsLoader", package: "jump-forms"),
                .product(name: "JumpCaptureServer", package: "jump-forms"),
            ]
        ),
        .executableTarget(
            name: "app-without-yaml",
            dependencies: [
                // What an iOS app links: no JumpFormsLoader (no YAML, no libyaml), no SwiftNIO.
                // Its Capture is `jump-forms serve`, started as a process of its own.
                .product(name: "JumpForms", package: "jump-forms"),
                .product(name: "JumpCapture", package: "jump-forms"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

import Foundation
import JumpForms
import Testing
import TestSupport

/// Package.swift is true: every target declares exactly the modules its sources import (its
/// targets and other packages' products, from `swift package describe --type json`), no more
/// and no fewer. A module imported but not declared builds today only because another
/// dependency happens to bring it; one declared but not imported costs build time for nothing.
@Suite(.timeLimit(.minutes(5))) struct ManifestTests {
    /// Modules of the toolchain and the platforms, which no manifest declares.
    static let systemModules: Set<String> = [
        "Foundation", "FoundationEssentials", "FoundationNetworking", "FoundationInternationalization", "Dispatch",
        "Synchronization", "Observation", "Testing", "XCTest", "Glibc", "Musl", "Darwin", "Android", "Bionic", "WinSDK",
        "ucrt", "Security", "os", "_Concurrency", "_StringProcessing"
    ]
    /// Dependencies that exist only under a package trait, which `describe` does not list:
    /// the executable links mimalloc with the `Mimalloc` trait (Package.swift).
    static let traitDependencies: [String: Set<String>] = ["jump-forms": ["CMimalloc"]]

    /// The modules a Swift file imports: `import X` and its attributed and kind-qualified forms
    /// (`@testable import X`, `public import X`, `import struct X.Y`), on lines of code, not in
    /// multi-line string literals (test sources hold Swift and Python programs as strings).
    static func imports(in source: String) -> Set<String> {
        var modules = Set<String>()
        var inMultilineString = false
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let delimiters = line.components(separatedBy: "\"\"\"").count - 1
            defer { if delimiters % 2 == 1 { inMultilineString.toggle() } }
            guard !inMultilineString else { continue }
            var words = line.split(separator: " ").filter { !$0.isEmpty }[...]
            while let first = words.first, first.hasPrefix("@") || ["public", "internal", "package", "private", "fileprivate"].contains(first) {
                words = words.dropFirst()
            }
            guard words.first == "import", words.count >= 2 else { continue }
            let kinds: Set<Substring> = ["struct", "class", "enum", "protocol", "typealias", "func", "var", "let"]
            let path = kinds.contains(words[words.startIndex + 1]) ? words.dropFirst(2).first : words.dropFirst().first
            if let module = path?.split(separator: ".").first { modules.insert(String(module)) }
        }
        return modules
    }

    /// For each Swift target of the description, what it imports but does not declare and what
    /// it declares but does not import.
    static func problems(in description: JSONValue, root: String) throws -> [String] {
        var problems: [String] = []
        for target in description["targets"]?.arrayValue ?? [] {
            guard target["module_type"]?.stringValue == "SwiftTarget", let name = target["name"]?.stringValue,
                let path = target["path"]?.stringValue
            else { continue }
            var imported = Set<String>()
            for source in target["sources"]?.arrayValue ?? [] {
                guard let file = source.stringValue else { continue }
                let text = try String(contentsOfFile: root + "/" + path + "/" + file, encoding: .utf8)
                imported.formUnion(imports(in: text))
            }
            imported.subtract(systemModules)
            imported.remove(target["c99name"]?.stringValue ?? name)
            let declared = Set(
                ((target["target_dependencies"]?.arrayValue ?? []) + (target["product_dependencies"]?.arrayValue ?? [])).compactMap(\.stringValue)
            ).union(traitDependencies[name] ?? [])
            for module in imported.subtracting(declared).sorted() { problems.append("\(name) imports \(module) without declaring it") }
            for module in declared.subtracting(imported).sorted() { problems.append("\(name) declares \(module) and never imports it") }
        }
        return problems
    }

    @Test func everyTargetDeclaresExactlyWhatItImports() async throws {
        let description = try await DescribedPackage.current()
        let problems = try Self.problems(in: description, root: Repository.root)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test func importsAreReadFromCodeOnly() {
        let source = """
            #if canImport(Glibc)
                import Glibc
            #endif
            @testable import JumpForms
            public import struct Crypto.SHA256
            let program = \"\"\"
                import Model
                \"\"\"
            // import Commented
            """
        #expect(Self.imports(in: source) == ["Glibc", "JumpForms", "Crypto"])
    }

    /// The check itself: an undeclared import and an unused declaration are both found.
    @Test func anUndeclaredImportAndAnUnusedDependencyAreFound() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("Sources/A/A.swift", "import Foundation\nimport Logging\nimport B\n")
        let description = try JSONValue.parse(
            Array(
                """
                {"targets": [{"name": "A", "c99name": "A", "module_type": "SwiftTarget", "path": "Sources/A", "sources": ["A.swift"],
                  "target_dependencies": ["B"], "product_dependencies": ["Crypto"]}]}
                """.utf8))
        #expect(
            try Self.problems(in: description, root: folder.path) == [
                "A imports Logging without declaring it", "A declares Crypto and never imports it"
            ])
    }
}

/// `swift package describe --type json` of the repository, read once for the suites that check
/// the manifest.
enum DescribedPackage {
    private static let described = Task<JSONValue, any Error> {
        let child = try ChildProcess("/usr/bin/env", ["swift", "package", "--ignore-lock", "describe", "--type", "json"], in: Repository.root)
        let termination = try await child.finish(timeout: 240)
        guard termination.code == 0 else { throw DescribeFailed(message: child.stderr) }
        let output = child.stdout
        // The JSON starts at the first line that opens an object (warnings may come before).
        guard let start = output.range(of: "\n{")?.lowerBound ?? (output.hasPrefix("{") ? output.startIndex : nil) else {
            throw DescribeFailed(message: "no JSON in: \(output.prefix(500))")
        }
        return try JSONValue.parse(Array(output[start...].utf8))
    }

    struct DescribeFailed: Error, CustomStringConvertible {
        let message: String
        var description: String { "swift package describe failed: \(message)" }
    }

    static func current() async throws -> JSONValue { try await described.value }
}

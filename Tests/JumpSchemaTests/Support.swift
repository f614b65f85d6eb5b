import Foundation
import JumpForms
import JumpSchema
import TestSupport

/// Fixtures of this target, and the repository's example schemas.
enum Fixtures {
    static let folder = "Tests/JumpSchemaTests/Fixtures"

    static func path(_ relative: String) -> String { Repository.path("\(folder)/\(relative)") }

    /// A schema that must load cleanly.
    static func schema(_ path: String) throws -> EntitySchema {
        let loaded = SchemaLoader.schema(path: path)
        guard let schema = loaded.value, loaded.diagnostics.isEmpty else {
            throw FixtureError(message: DiagnosticRenderer(sources: loaded.sources).render(loaded.diagnostics))
        }
        return schema
    }

    static var defaultSchema: EntitySchema {
        get throws { try schema(Repository.path("schemas/default-schema.json")) }
    }

    static var hostileSchema: EntitySchema {
        get throws { try schema(path("schemas/hostile-schema.json")) }
    }

    static func accessSchema(_ path: String, for schema: EntitySchema) throws -> AccessSchema {
        let loaded = SchemaLoader.accessSchema(path: path, schema: schema)
        guard let access = loaded.value, loaded.diagnostics.isEmpty else {
            throw FixtureError(message: DiagnosticRenderer(sources: loaded.sources).render(loaded.diagnostics))
        }
        return access
    }

    struct FixtureError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}

/// Runs a program and collects its exit status and output (through files, so a full pipe can
/// never block it).
struct ProgramRun {
    var status: Int32
    var stdout: String
    var stderr: String

    init(_ executable: String, _ arguments: [String], in directory: String) async throws {
        let child = try ChildProcess(executable, arguments, in: directory)
        let ended = try await child.finish(timeout: 600)
        status = ended.code
        stdout = child.stdout
        stderr = child.stderr
    }
}

/// The Swift compiler, to compile generated code: `SWIFT_EXEC`, `swiftc` on the PATH, the
/// `swiftc` next to the `swift` on the PATH (CI may put only `swift` there), or the usual
/// toolchain places.
enum Toolchain {
    static let swiftc: String? = {
        let environment = ProcessInfo.processInfo.environment
        let manager = FileManager.default
        var candidates: [String] = []
        if let exec = environment["SWIFT_EXEC"], !exec.isEmpty { candidates.append(exec) }
        let folders = (environment["PATH"] ?? "").split(separator: ":").map(String.init)
        candidates += folders.map { $0 + "/swiftc" }
        for folder in folders where manager.isExecutableFile(atPath: folder + "/swift") {
            let resolved = URL(fileURLWithPath: folder + "/swift").resolvingSymlinksInPath().deletingLastPathComponent().path
            candidates.append(resolved + "/swiftc")
        }
        candidates += ["/opt/swift/usr/bin/swiftc", "/usr/bin/swiftc"]
        return candidates.first { manager.isExecutableFile(atPath: $0) && !$0.hasSuffix("swift-frontend") }
    }()
}

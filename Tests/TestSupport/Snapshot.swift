import Foundation
import Testing

/// Golden files: compares text with a file next to the tests; `RECORD_SNAPSHOTS=1` rewrites it.
public enum Snapshot {
    public static var isRecording: Bool {
        ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1"
    }

    /// Checks `actual` against the golden file at `path` (recording it when asked or missing
    /// under recording). Returns true when they match.
    @discardableResult
    public static func check(_ actual: String, against path: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let url = URL(fileURLWithPath: path)
        if isRecording {
            try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? actual.write(to: url, atomically: true, encoding: .utf8)
            return true
        }
        guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
            Issue.record("golden file \(path) is missing; run with RECORD_SNAPSHOTS=1 to create it", sourceLocation: sourceLocation)
            return false
        }
        if expected != actual {
            Issue.record(
                "output differs from \(path) (RECORD_SNAPSHOTS=1 re-records)\n--- expected\n\(expected)\n--- actual\n\(actual)",
                sourceLocation: sourceLocation)
            return false
        }
        return true
    }
}

/// Paths inside the repository, found from this file's place.
public enum Repository {
    /// The repository root.
    public static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    public static func path(_ relative: String) -> String { root + "/" + relative }

    /// The sub-folders of a folder, sorted.
    public static func folders(in relative: String) -> [String] {
        let base = path(relative)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []
        return names.filter { name in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: base + "/" + name, isDirectory: &isDirectory) && isDirectory.boolValue
        }.sorted()
    }
}

/// A fresh temporary folder, removed by `remove()`.
public struct TemporaryFolder: Sendable {
    public let path: String

    public init(_ prefix: String = "jump-forms-test") throws {
        let base = FileManager.default.temporaryDirectory.path
        path = base + "/" + prefix + "-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    @discardableResult
    public func write(_ relative: String, _ text: String) throws -> String {
        try write(relative, Data(text.utf8))
    }

    @discardableResult
    public func write(_ relative: String, _ data: Data) throws -> String {
        let full = path + "/" + relative
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: full))
        return full
    }

    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// Runs a built executable of the package and collects what it printed.
public struct CommandResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String

    public init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }
}

public enum Executable {
    /// The folder of the built products (next to the test bundle).
    public static var productsFolder: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
    }

    /// Runs `name` (a product of this package) with `arguments` in `directory`, with the given
    /// environment added to a minimal one (no colour, no inherited JUMP_ variables), feeding
    /// `input` to standard input. Stops it after `timeout` seconds.
    public static func run(
        _ name: String, _ arguments: [String], in directory: String = Repository.root,
        environment: [String: String] = [:], input: String? = nil, timeout: Double = 60
    ) async throws -> CommandResult {
        var env = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory(), "LANG": "C.UTF-8"]
        env.merge(environment) { _, new in new }
        let child = try ChildProcess(productsFolder + "/" + name, arguments, in: directory, environment: env, input: input)
        let ended = try await child.finish(timeout: timeout)
        return CommandResult(status: ended.code, stdout: child.stdout, stderr: child.stderr)
    }
}

import Foundation
import JumpLocaleCheck
import Testing

/// The locale-check benchmark's corpus (scripts/bench-locales.sh): every rule seeded, and
/// `jump-forms locales check` finds each with its exact count. Runs the built `jump-bench` and
/// `jump-forms` (`swift build --package-path Benchmarks --product jump-forms` builds the latter).
@Suite struct LocalesCorpusTests {
    /// The folder of the built products (next to the test bundle).
    static let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path

    /// Runs a built product in `directory`, its output to files there (no pipe to fill); its
    /// status, standard output and standard error.
    func run(_ name: String, _ arguments: [String], in directory: String) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.products + "/" + name)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory(), "LANG": "C.UTF-8"]
        let stdoutPath = directory + "/.stdout"
        let stderrPath = directory + "/.stderr"
        FileManager.default.createFile(atPath: stdoutPath, contents: nil)
        FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: stdoutPath)
        process.standardError = FileHandle(forWritingAtPath: stderrPath)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return (
            process.terminationStatus, try String(contentsOfFile: stdoutPath, encoding: .utf8),
            try String(contentsOfFile: stderrPath, encoding: .utf8)
        )
    }

    @Test(arguments: ["short", "long"]) func theBenchmarkCorpusIsFoundExactly(shape: String) throws {
        // As scripts/bench-locales.sh runs it on a fresh clone: the corpus folder's parents do
        // not exist yet. A small corpus, every rule seeded, found with exact counts.
        let folder = FileManager.default.temporaryDirectory.path + "/jump-locales-bench-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = folder + "/.bench/locales"
        // The long shape (users' worst files): its fields over 3 flows, the check given them all.
        let shapeArguments = shape == "long" ? ["--shape", "long", "--flows", "3"] : []
        let generated = try run(
            "jump-bench", ["locales", "generate", "--out", out, "--keys", "400", "--defects", "2"] + shapeArguments, in: folder)
        #expect(generated.status == 0, "\(generated.stdout)\(generated.stderr)")
        if shape == "long" {
            #expect(generated.stdout.contains("3 flows") && generated.stdout.contains("long messages:"), "\(generated.stdout)")
        }
        let flows = shape == "long" ? ["--flows", out + "/flows"] : []
        let check = try run("jump-forms", ["locales", "check", "--config", out + "/jump.yaml", "--format", "json"] + flows, in: folder)
        #expect(check.status == 1, "\(check.stderr)")
        try Data(check.stdout.utf8).write(to: URL(fileURLWithPath: out + "/report.json"))
        let verified = try run("jump-bench", ["locales", "verify", "--out", out, "--report", out + "/report.json"], in: folder)
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
        for rule in LocaleRule.allCases {
            #expect(
                verified.stdout.contains("| `\(rule.rawValue)` | ") && !verified.stdout.contains("| `\(rule.rawValue)` | 0 |"),
                "\(rule.rawValue) is not seeded:\n\(verified.stdout)")
        }
    }
}

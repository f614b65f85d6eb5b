import Foundation
import JumpFormsCLI
import Testing
import TestSupport

/// `jump-forms` run in this process (`JumpFormsCommand.run(arguments:environment:)`): parsed
/// and run as the binary would, its output captured instead of printed. The working directory
/// is the test process's, the repository root, so commands that need another folder or read
/// standard input run as a child process (`Executable.run`).
public enum InProcess {
    /// The environment a child process gets from `Executable.run`, so both see the same.
    public static let environment = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory(), "LANG": "C.UTF-8"]

    public static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> CommandResult {
        try #require(
            FileManager.default.currentDirectoryPath == Repository.root,
            "in-process commands run in the repository root; run `swift test` there"
        )
        let outcome = await JumpFormsCommand.run(arguments: arguments, environment: Self.environment.merging(environment) { $1 })
        return CommandResult(status: outcome.status, stdout: outcome.stdout, stderr: outcome.stderr)
    }

    /// `jump-forms` with `arguments` in `directory`: in this process in the repository root
    /// without input, else as a child process.
    public static func run(
        _ arguments: [String], in directory: String, environment: [String: String] = [:], input: String?
    ) async throws -> CommandResult {
        if directory == Repository.root, input == nil { return try await run(arguments, environment: environment) }
        return try Executable.run("jump-forms", arguments, in: directory, environment: environment, input: input)
    }
}

import Foundation
import JumpFormsCLI
import Testing
import TestSupport

/// `jump-forms` run in this process (`JumpFormsCommand.run(arguments:environment:in:)`): parsed
/// and run as the binary would, in the folder given (the repository root unless told), its
/// output captured instead of printed. Only what reads standard input runs as a child process
/// (`Executable.run`); the tests of the binary itself (exit codes, signals, terminals) run it
/// with `Executable.run` or `ChildProcess` directly.
public enum InProcess {
    /// The environment a child process gets from `Executable.run`, so both see the same.
    public static let environment = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory(), "LANG": "C.UTF-8"]

    /// `jump-forms` with `arguments` in `directory` (an absolute path), in this process.
    public static func run(
        _ arguments: [String], in directory: String = Repository.root, environment: [String: String] = [:]
    ) async throws -> CommandResult {
        try #require(directory.hasPrefix("/"), "in-process commands run in an absolute folder, not '\(directory)'")
        let outcome = await JumpFormsCommand.run(
            arguments: arguments, environment: Self.environment.merging(environment) { $1 }, in: directory)
        return CommandResult(status: outcome.status, stdout: outcome.stdout, stderr: outcome.stderr)
    }

    /// `jump-forms` with `arguments` in `directory`: in this process without input, else as a
    /// child process reading `input` on standard input.
    public static func run(
        _ arguments: [String], in directory: String, environment: [String: String] = [:], input: String?
    ) async throws -> CommandResult {
        if input == nil { return try await run(arguments, in: directory, environment: environment) }
        return try await Executable.run("jump-forms", arguments, in: directory, environment: environment, input: input)
    }
}

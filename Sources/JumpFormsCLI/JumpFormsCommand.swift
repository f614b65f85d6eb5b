import ArgumentParser
import Dispatch
import Foundation
import JumpForms
import Logging

/// `jump-forms`: the root command.
public struct JumpFormsCommand: AsyncParsableCommand {
    public static let version = "0.1.0"

    public static let configuration = CommandConfiguration(
        commandName: "jump-forms",
        abstract: "Identity forms from YAML flow files: register and sign in from prompts, lint flows, run a local Capture server.",
        discussion: """
            Flows, locale files and jump.yaml are described in docs/flow-format.md; diagnostics in \
            docs/diagnostics.md. Colour is used on a terminal unless NO_COLOR is set.
            """,
        version: version,
        subcommands: [
            RegisterCommand.self, SignInCommand.self, WhoAmICommand.self, EditProfileCommand.self, ChangePasswordCommand.self,
            ForgotPasswordCommand.self, ResendVerificationCommand.self, RefreshCommand.self, LinkCommand.self, UnlinkCommand.self,
            SignOutCommand.self,
            InitCommand.self, LintCommand.self, LocalesCommand.self, GenerateCommand.self, ShowCommand.self, ValidateCommand.self,
            SchemaCommand.self,
            RequestCommand.self,
            ProvidersCommand.self,
            ServeCommand.self, PreviewCommand.self, OutboxCommand.self, ResetCommand.self, FlowCommand.self,
            FeedCommand.self,
            ShareCommand.self,
            DatabaseCommand.self,
            UsersCommand.self
        ]
    )

    public init() {}

    /// Parses the arguments, runs the command, and exits. Usage errors exit with status 2
    /// (ArgumentParser's default is 64), so every command shares one convention: 0 success,
    /// 1 the checked input has problems, 2 the command could not run as asked. A parse error
    /// shows the usage; an error a command meets while running shows just its message.
    /// Log lines (the server's, at `LOG_LEVEL`) go to standard error through
    /// the CLI's standard-error handler; the process bootstraps logging here, once.
    ///
    /// A synchronous command runs on the calling (main) thread; only an `AsyncParsableCommand`
    /// enters Swift concurrency, while the main thread serves the main queue. A synchronous
    /// command that waits for Dispatch work then holds no thread of the concurrency pool, which
    /// with one CPU would leave that work waiting for Dispatch to add a thread.
    public static func runMain(arguments: [String]? = nil) -> Never {
        LoggingSystem.bootstrap { label in StandardErrorLogHandler(label: label, metadataProvider: LoggingSystem.metadataProvider) }
        if let unknown = UnknownCommand.find(in: arguments ?? Array(CommandLine.arguments.dropFirst())) {
            Console.write(TerminalText.escaped(unknown.message, keepingLineBreaks: true), to: 2)
            exit(withError: ExitCode(2))
        }
        var command: any ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            if exitCode(for: error) == .validationFailure {
                Console.write(TerminalText.escaped(fullMessage(for: error), keepingLineBreaks: true) + "\n", to: 2)
                exit(withError: ExitCode(2))
            }
            exit(withError: error)
        }
        if let asyncCommand = command as? any AsyncParsableCommand {
            Task {
                var command = asyncCommand
                do {
                    try await command.run()
                    exit(withError: nil)
                } catch {
                    exit(after: error)
                }
            }
            dispatchMain()
        }
        do {
            try command.run()
            exit(withError: nil)
        } catch {
            exit(after: error)
        }
    }

    /// Exits after a command's error. An error's message may carry a server's or a file's text:
    /// printed escaped (`TerminalText`). `ExitCode` was explained already; help and version
    /// print as ArgumentParser prints them.
    private static func exit(after error: any Error) -> Never {
        let code = exitCode(for: error)
        if error is ExitCode || code == .success { exit(withError: error) }
        exit(withError: ExitCode(report(error)))
    }

    /// Writes a command's error to standard error and returns the exit status it gives.
    private static func report(_ error: any Error) -> Int32 {
        let code = exitCode(for: error)
        Console.write("Error: " + TerminalText.escaped(message(for: error), keepingLineBreaks: true) + "\n", to: 2)
        return code == .validationFailure ? 2 : code.rawValue
    }

    /// What a command line run in-process printed, and its exit status.
    public struct Outcome: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Runs a command line in this process, as `runMain` does, with `environment` in place of
    /// the process's and what it writes captured instead of printed; returns instead of exiting
    /// (tests, as ArgumentParser's own tests run commands). `directory` (an absolute path) is
    /// the command's working directory: relative paths in the arguments and in the files it
    /// reads resolve against it and `jump.yaml` is looked for there (`WorkingDirectory`); nil
    /// leaves the process's. Standard input is the process's: commands that read a terminal
    /// run as a child process instead.
    public static func run(arguments: [String], environment: [String: String], in directory: String? = nil) async -> Outcome {
        let capture = ConsoleCapture()
        let status = await Console.$capture.withValue(capture) {
            await Environment.$override.withValue(environment) {
                await WorkingDirectory.$override.withValue(directory) { await run(arguments: arguments) }
            }
        }
        return Outcome(status: status, stdout: capture.out, stderr: capture.err)
    }

    /// What a command line gave on the thread that parsed it: the finished run's status, or an
    /// async command still to run.
    private enum ParsedRun: @unchecked Sendable {  // the command is made on that thread and handed over once
        case finished(Int32)
        case asyncCommand(any AsyncParsableCommand)
    }

    /// `runMain` without the exit: help and version go to standard output; usage errors to
    /// standard error with status 2.
    ///
    /// Parsing, and a synchronous command, run on a thread of their own, as `runMain` runs them
    /// on the main thread. A debug build of ArgumentParser checks the whole command tree by
    /// reflection at each parse, and a synchronous command may wait for Dispatch work or a child
    /// process: on the concurrency pool's threads (two on this machine) either would stall every
    /// other task of the process, the servers' clients in the tests among them.
    private static func run(arguments: [String]) async -> Int32 {
        switch await onItsOwnThread({ parseAndRunSynchronously(arguments) }) {
        case .finished(let status):
            return status
        case .asyncCommand(var command):
            do {
                try await command.run()
                return 0
            } catch {
                return status(after: error)
            }
        }
    }

    private static func parseAndRunSynchronously(_ arguments: [String]) -> ParsedRun {
        if let unknown = UnknownCommand.find(in: arguments) {
            Console.write(TerminalText.escaped(unknown.message, keepingLineBreaks: true), to: 2)
            return .finished(2)
        }
        var command: any ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                Console.write(fullMessage(for: error) + "\n", to: 1)
                return .finished(0)
            }
            Console.write(TerminalText.escaped(fullMessage(for: error), keepingLineBreaks: true) + "\n", to: 2)
            return .finished(code == .validationFailure ? 2 : code.rawValue)
        }
        if let asyncCommand = command as? any AsyncParsableCommand { return .asyncCommand(asyncCommand) }
        do {
            try command.run()
            return .finished(0)
        } catch {
            return .finished(status(after: error))
        }
    }

    /// The exit status an error ends a run with, after writing what it says.
    private static func status(after error: any Error) -> Int32 {
        if let exit = error as? ExitCode { return exit.rawValue }
        if exitCode(for: error) == .success {
            Console.write(fullMessage(for: error) + "\n", to: 1)
            return 0
        }
        return report(error)
    }

    /// Runs `body` on a new thread with the caller's captured output, environment and working
    /// directory, and resumes the caller with its result.
    private static func onItsOwnThread<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
        let capture = Console.capture
        let environment = Environment.override
        let directory = WorkingDirectory.override
        return await withCheckedContinuation { continuation in
            Thread {
                let result = Console.$capture.withValue(capture) {
                    Environment.$override.withValue(environment) {
                        WorkingDirectory.$override.withValue(directory) { body() }
                    }
                }
                continuation.resume(returning: result)
            }.start()
        }
    }
}

import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child process started with `posix_spawn` and reaped with `waitpid` on its own pid.
///
/// Foundation's `Process` is not used in the tests: on Linux its exit monitoring can miss a
/// child that ends at once (`tmux new-session -d` does), leaving a zombie and a
/// `waitUntilExit()` that never returns; a CI run hung on it. Here every wait polls
/// `waitpid(pid, WNOHANG)` against a deadline, so no test can wait forever. Standard output
/// and standard error go to private files (no pipe can fill up and block the child); standard
/// input is a file with the given text, or `/dev/null`.
public final class ChildProcess: @unchecked Sendable {
    /// How a process ended: its exit status, or the signal that killed it.
    public struct Termination: Sendable, Equatable, CustomStringConvertible {
        public var status: Int32
        public var signaled: Bool
        /// The shell's `$?`: the status, or 128 + the signal.
        public var code: Int32 { signaled ? 128 + status : status }
        public var description: String { signaled ? "signal \(status)" : "exit \(status)" }
    }

    public struct SpawnError: Error, CustomStringConvertible {
        public var description: String
    }

    public let pid: pid_t
    public let command: String
    private let folder: String
    private let lock = NSLock()
    private var ended: Termination?

    /// Starts `executable` (an absolute path) with `arguments`. `environment` nil inherits this
    /// process's environment.
    public init(
        _ executable: String, _ arguments: [String], in directory: String? = nil,
        environment: [String: String]? = nil, input: String? = nil
    ) throws {
        command = ([executable] + arguments).joined(separator: " ")
        folder = NSTemporaryDirectory() + "/jump-child-" + UUID().uuidString
        guard mkdir(folder, 0o700) == 0 else {
            throw SpawnError(description: "cannot create \(folder): \(String(cString: strerror(errno)))")
        }
        let inputPath = folder + "/stdin"
        if let input {
            guard FileManager.default.createFile(atPath: inputPath, contents: Data(input.utf8)) else {
                throw SpawnError(description: "cannot write \(inputPath)")
            }
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input == nil ? "/dev/null" : inputPath, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, folder + "/stdout", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, folder + "/stderr", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        if let directory {
            guard let addChdir = Self.addChdir else {
                throw SpawnError(description: "posix_spawn_file_actions_addchdir_np is not available")
            }
            _ = addChdir(&actions, directory)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Default signal dispositions in the child (the test runner may ignore some).
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGPIPE, SIGHUP, SIGQUIT, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let variables = environment ?? ProcessInfo.processInfo.environment
        let envp = variables.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }

        var child = pid_t()
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard result == 0 else {
            try? FileManager.default.removeItem(atPath: folder)
            throw SpawnError(description: "cannot run \(executable): \(String(cString: strerror(result)))")
        }
        pid = child
    }

    deinit {
        if termination == nil {
            kill(pid, SIGKILL)
            reapBlocking()
        }
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// How it ended, or nil while it runs (never blocks).
    public var termination: Termination? {
        lock.lock()
        defer { lock.unlock() }
        if let ended { return ended }
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        guard result == pid else { return nil }
        ended = Self.decode(status)
        return ended
    }

    public var isRunning: Bool { termination == nil }

    /// Waits at most `timeout` seconds for it to end; nil if it still runs. The wait is a
    /// `Task.sleep` between polls: a test waiting for a child never holds one of the few
    /// threads Swift's concurrency runs every test's tasks on (two on a 2-core machine), so a
    /// long child (a compiler run) does not stall the other tests' servers and clients.
    @discardableResult
    public func wait(timeout: Double) async -> Termination? {
        let deadline = Date().addingTimeInterval(timeout)
        var pause = 1
        while true {
            if let termination { return termination }
            if Date() >= deadline { return nil }
            try? await Task.sleep(for: .milliseconds(pause))
            pause = min(pause * 2, 20)
        }
    }

    /// Waits for the end, blocking the calling thread; kills it after `timeout` seconds and
    /// throws. Only for commands that end in moments (tmux's, pg_ctl's) where the caller cannot
    /// be async: anything longer is `finish(timeout:)`.
    @discardableResult
    public func finishBlocking(timeout: Double) throws -> Termination {
        let deadline = Date().addingTimeInterval(timeout)
        var pause: UInt32 = 1_000
        while true {
            if let termination { return termination }
            if Date() >= deadline {
                kill9()
                throw TimeoutError(command: command)
            }
            usleep(pause)
            pause = min(pause * 2, 20_000)
        }
    }

    /// Sends a signal (if it still runs).
    public func signal(_ number: Int32) {
        if termination == nil { kill(pid, number) }
    }

    /// Kills it (SIGKILL) if it still runs and reaps it.
    @discardableResult
    public func kill9() -> Termination {
        if let termination { return termination }
        kill(pid, SIGKILL)
        reapBlocking()
        return termination ?? Termination(status: SIGKILL, signaled: true)
    }

    /// Waits for the end; kills it after `timeout` seconds and throws.
    @discardableResult
    public func finish(timeout: Double) async throws -> Termination {
        if let ended = await wait(timeout: timeout) { return ended }
        kill9()
        throw TimeoutError(command: command)
    }

    /// What it wrote to standard output so far.
    public var stdout: String { read("stdout") }
    /// What it wrote to standard error so far.
    public var stderr: String { read("stderr") }

    private func read(_ name: String) -> String {
        guard let data = FileManager.default.contents(atPath: folder + "/" + name) else { return "" }
        return String(decoding: data, as: UTF8.self)
    }

    private func reapBlocking() {
        lock.lock()
        defer { lock.unlock() }
        guard ended == nil else { return }
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, 0)
            if result == pid { ended = Self.decode(status); return }
            if result < 0, errno == EINTR { continue }
            return
        }
    }

    private typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    /// glibc's `posix_spawn_file_actions_addchdir_np` (2.29+), which the Swift Glibc module does
    /// not import.
    private static let addChdir: AddChdir? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addchdir_np") else { return nil }
        return unsafeBitCast(symbol, to: AddChdir.self)
    }()

    private static func decode(_ status: Int32) -> Termination {
        let signal = status & 0x7F
        return signal == 0
            ? Termination(status: (status >> 8) & 0xFF, signaled: false)
            : Termination(status: signal, signaled: true)
    }

    public struct TimeoutError: Error, CustomStringConvertible {
        public var command: String
        public var description: String { "'\(command)' did not finish in time" }
    }
}

import Foundation

/// A real terminal for prompt tests: a detached tmux session running one command, typed into
/// with `send-keys` and read with `capture-pane`. Every wait is bounded; `close()` kills it.
public final class TmuxSession: @unchecked Sendable {
    public let name: String

    /// Starts `command` (a shell command line) in a 120x40 terminal, in `directory`, with
    /// `environment` set. The command's exit status is printed as `EXIT=<status>` when it ends.
    public init(_ command: String, in directory: String, environment: [String: String] = [:]) throws {
        name = "jf-" + UUID().uuidString.prefix(8).lowercased()
        let exports = environment.sorted { $0.key < $1.key }.map { "export \($0.key)=\(Self.quote($0.value));" }.joined(separator: " ")
        let line = "cd \(Self.quote(directory)); \(exports) \(command); echo EXIT=$?; sleep 120"
        try Self.tmux(["new-session", "-d", "-s", name, "-x", "120", "-y", "40", "bash --norc --noprofile -c \(Self.quote(line))"])
    }

    static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    @discardableResult
    static func tmux(_ arguments: [String]) throws -> String {
        let child = try ChildProcess("/usr/bin/env", ["tmux"] + arguments)
        let ended = try child.finishBlocking(timeout: 15)
        guard ended == .init(status: 0, signaled: false) else {
            throw TmuxError(arguments: arguments, termination: ended, stderr: child.stderr)
        }
        return child.stdout
    }

    public struct TmuxError: Error, CustomStringConvertible {
        public var arguments: [String]
        public var termination: ChildProcess.Termination
        public var stderr: String
        public var description: String { "tmux \(arguments.joined(separator: " ")) ended with \(termination): \(stderr)" }
    }

    /// Types text (literally), then Enter unless `enter` is false.
    public func type(_ text: String, enter: Bool = true) throws {
        if !text.isEmpty { try Self.tmux(["send-keys", "-t", name, "-l", text]) }
        if enter { try Self.tmux(["send-keys", "-t", name, "Enter"]) }
    }

    /// Types several lines in one go (one tmux command, so they reach the terminal together):
    /// keys typed ahead of the prompts that will read them.
    public func typeAhead(_ lines: [String]) throws {
        var arguments: [String] = []
        for line in lines {
            if !arguments.isEmpty { arguments.append(";") }
            if !line.isEmpty { arguments += ["send-keys", "-t", name, "-l", line, ";"] }
            arguments += ["send-keys", "-t", name, "Enter"]
        }
        try Self.tmux(arguments)
    }

    /// Sends a key by tmux name (`C-c`, `Enter`).
    public func key(_ key: String) throws {
        try Self.tmux(["send-keys", "-t", name, key])
    }

    /// What the terminal shows now (the visible screen and its history).
    public func screen(escapes: Bool = false) throws -> String {
        try Self.tmux(["capture-pane", "-p", "-J", "-S", "-200"] + (escapes ? ["-e"] : []) + ["-t", name])
    }

    /// Waits until the screen contains `text`; returns the screen. Throws after `timeout` seconds.
    @discardableResult
    public func waitFor(_ text: String, timeout: Double = 20) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let shown = try screen()
            if shown.contains(text) { return shown }
            Thread.sleep(forTimeInterval: 0.1)
        }
        throw WaitError(text: text, screen: (try? screen()) ?? "")
    }

    /// Waits until the line the cursor waits on (the last line with text) is exactly `prompt`
    /// (trailing spaces aside): `Nom :` is not satisfied by `Nom d’affichage :`. Returns the screen.
    @discardableResult
    public func waitForPrompt(_ prompt: String, timeout: Double = 20) throws -> String {
        let wanted = Self.trimmingTrailingSpaces(prompt)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let shown = try screen()
            let last = shown.split(separator: "\n").map { Self.trimmingTrailingSpaces(String($0)) }.last { !$0.isEmpty }
            if last == wanted { return shown }
            Thread.sleep(forTimeInterval: 0.1)
        }
        throw WaitError(text: prompt, screen: (try? screen()) ?? "")
    }

    /// Waits for exactly `prompt` (see `waitForPrompt`), then types `text` and Enter.
    public func answer(_ prompt: String, _ text: String) throws {
        try waitForPrompt(prompt)
        try type(text)
    }

    static func trimmingTrailingSpaces(_ text: String) -> String {
        var text = text
        while text.last?.isWhitespace == true { text.removeLast() }
        return text
    }

    /// Waits for the command to end; returns its exit status.
    public func exitStatus(timeout: Double = 30) throws -> Int32 {
        let shown = try waitFor("EXIT=", timeout: timeout)
        guard let range = shown.range(of: "EXIT="), let status = Int32(shown[range.upperBound...].prefix { $0.isNumber }) else { return -1 }
        return status
    }

    public func close() {
        _ = try? Self.tmux(["kill-session", "-t", name])
    }

    public struct WaitError: Error, CustomStringConvertible {
        public var text: String
        public var screen: String
        public var description: String { "the terminal never showed '\(text)'; it shows:\n\(screen)" }
    }
}

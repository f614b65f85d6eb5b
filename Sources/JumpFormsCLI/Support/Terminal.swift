#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Lines in and out for the prompts. On a terminal, passwords are read with echo off (termios)
/// and Ctrl-C restores the terminal, says nothing was sent and exits with 130. When standard
/// input is not a terminal, `TERM=dumb` or `--plain`, it reads plain lines.
final class Terminal {
    let console: Console
    /// Whether standard input is a terminal we may drive (echo off for passwords).
    let isTTY: Bool
    private var pending: [UInt8] = []
    private var atEOF = false

    init(console: Console, plain: Bool, environment: [String: String]) {
        self.console = console
        self.isTTY = !plain && isatty(0) == 1 && environment["TERM"] != "dumb"
    }

    /// Writes without a line break (a prompt).
    func show(_ text: String) {
        console.out(text)
    }

    /// One line without its line break; nil at end of input. Without a terminal nothing echoes
    /// the answer, so a line break keeps each prompt on its own line.
    func readLine() -> String? {
        let line = readRawLine()
        if !isTTY { console.out("\n") }
        return line
    }

    private func readRawLine() -> String? {
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                var line = Array(pending[..<newline])
                pending.removeSubrange(...newline)
                if line.last == 0x0D { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            if atEOF {
                guard !pending.isEmpty else { return nil }
                defer { pending.removeAll() }
                return String(decoding: pending, as: UTF8.self)
            }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { atEOF = true } else { pending += buffer[0..<count] }
        }
    }

    /// A line typed with echo off (on a terminal); the line break the user typed is echoed.
    func readSecret() -> String? {
        guard isTTY else { return readLine() }
        var saved = termios()
        guard tcgetattr(0, &saved) == 0 else { return readLine() }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        quiet.c_lflag |= tcflag_t(ECHONL)
        InterruptGuard.savedTerminal = saved
        InterruptGuard.hasSavedTerminal = true
        tcsetattr(0, TCSAFLUSH, &quiet)
        defer {
            tcsetattr(0, TCSAFLUSH, &saved)
            InterruptGuard.hasSavedTerminal = false
        }
        return readRawLine()
    }
}

/// While prompts are open, Ctrl-C restores the terminal, prints that nothing was sent and
/// exits with 130. Everything the handler touches is prepared beforehand (async-signal-safe).
enum InterruptGuard {
    nonisolated(unsafe) static var savedTerminal = termios()
    nonisolated(unsafe) static var hasSavedTerminal = false
    nonisolated(unsafe) static var message: [UInt8] = []

    static func arm(message text: String) {
        message = Array(("\n" + text + "\n").utf8)
        signal(SIGINT, interruptHandler)
    }

    static func disarm() {
        signal(SIGINT, SIG_DFL)
    }
}

private func interruptHandler(_ signal: Int32) {
    if InterruptGuard.hasSavedTerminal {
        tcsetattr(0, TCSAFLUSH, &InterruptGuard.savedTerminal)
    }
    InterruptGuard.message.withUnsafeBytes { bytes in
        _ = write(2, bytes.baseAddress, bytes.count)
    }
    _exit(130)
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Lines in and out for the prompts. Prompts go to standard error, so standard output carries
/// only data. Whenever standard input is a terminal, passwords are read with echo off
/// (termios, whatever `TERM` or `--plain` say: those only turn colour off), and Ctrl-C
/// restores the terminal, says nothing was sent and exits with 130. When standard input is not
/// a terminal, it reads plain lines.
final class Terminal {
    let console: Console
    /// Whether standard input is a terminal (its echo is ours to turn off for passwords).
    let isTTY: Bool
    private var pending: [UInt8] = []
    private var atEOF = false

    init(console: Console) {
        self.console = console
        self.isTTY = isatty(0) == 1
    }

    /// Writes without a line break (a prompt), to standard error.
    func show(_ text: String) {
        console.err(text)
    }

    /// One line without its line break; nil at end of input. When standard input is not a
    /// terminal nothing echoes the answer, so a line break keeps each prompt on its own line.
    func readLine() -> String? {
        let line = readRawLine()
        if !isTTY { console.err("\n") }
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

    /// Shows `prompt` and reads a line typed without echo. Like getpass, echo goes off before
    /// the prompt is written, and without flushing: keys typed ahead are neither shown nor
    /// lost. The line break the user types is echoed (ECHONL).
    func readSecret(prompt: String) -> String? {
        var saved = termios()
        guard isTTY, tcgetattr(0, &saved) == 0 else {
            show(prompt)
            return readLine()
        }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        quiet.c_lflag |= tcflag_t(ECHONL)
        InterruptGuard.savedTerminal = saved
        InterruptGuard.hasSavedTerminal = true
        tcsetattr(0, TCSANOW, &quiet)
        defer {
            tcsetattr(0, TCSADRAIN, &saved)
            InterruptGuard.hasSavedTerminal = false
        }
        show(prompt)
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
        tcsetattr(0, TCSANOW, &InterruptGuard.savedTerminal)
    }
    InterruptGuard.message.withUnsafeBytes { bytes in
        _ = write(2, bytes.baseAddress, bytes.count)
    }
    _exit(130)
}

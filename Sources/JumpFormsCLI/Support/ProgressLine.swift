#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Synchronization

/// A progress line on standard error for long runs (`users import`, `users export`): drawn
/// only when standard error is a terminal and nothing captures it, at most ten times a second,
/// in place; `clear()` erases it, `finish(_:)` leaves a last state on the screen. The commands
/// say what the line holds; the pieces they build it from are here.
final class ProgressLine: Sendable {
    private struct State {
        var lastDrawn: ContinuousClock.Instant?
        var shown = false
    }

    let enabled: Bool
    private let start = ContinuousClock.now
    private let state = Mutex(State())

    /// On standard error when it is a terminal (and not captured by an in-process run).
    init() {
        enabled = Console.capture == nil && isatty(2) == 1
    }

    /// Draws `text`, unless the line was drawn less than 0.1 s ago (`urgent` draws anyway:
    /// news such as a retry).
    func show(_ text: @autoclosure () -> String, urgent: Bool = false) {
        guard enabled else { return }
        let now = ContinuousClock.now
        let draw = state.withLock { state in
            if !urgent, let last = state.lastDrawn, now - last < .milliseconds(100) { return false }
            state.lastDrawn = now
            state.shown = true
            return true
        }
        if draw { Console.write("\r" + Self.printable(text()) + "\u{1B}[K", to: 2) }
    }

    /// Erases the line, if it was drawn.
    func clear() {
        guard enabled else { return }
        let shown = state.withLock { state in
            defer { state.shown = false }
            return state.shown
        }
        if shown { Console.write("\r\u{1B}[K", to: 2) }
    }

    /// Draws `text` as the line's last state and ends the line, if it was drawn.
    func finish(_ text: @autoclosure () -> String) {
        guard enabled else { return }
        let shown = state.withLock { state in
            defer { state.shown = false }
            return state.shown
        }
        if shown { Console.write("\r" + Self.printable(text()) + "\u{1B}[K\n", to: 2) }
    }

    /// `count` a second since the line was made.
    func rate(_ count: Int) -> Int {
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return seconds > 0 ? Int(Double(count) / seconds) : 0
    }

    static let barWidth = 30

    /// `[#########.....................]  31%` for 0.31.
    static func bar(_ fraction: Double) -> String {
        let fraction = min(1, max(0, fraction))
        let filled = Int(fraction * Double(barWidth))
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: barWidth - filled) + "] "
            + "\(Int(fraction * 100))%"
    }

    /// `12.0 MB`.
    static func megabytes(_ bytes: Int64) -> String {
        let tenths = Int((Double(bytes) / 1_000_000 * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) MB"
    }

    /// `1,234,567`.
    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number))
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out += "," }
            out.append(digit)
        }
        return out
    }

    /// The line is redrawn in place: a control character in a server's words would move it.
    private static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Synchronization

/// A progress bar on standard error, for long runs (`users import`): records done, bytes of
/// the file (and a bar when its size is known), and the rate. Drawn only when standard error
/// is a terminal (`enabled`), at most ten times a second, on one line that `clear()` erases.
final class ProgressLine: Sendable {
    private struct State {
        var lastDrawn: ContinuousClock.Instant?
        var shown = false
    }

    let enabled: Bool
    /// The file's size in bytes (nil for standard input).
    let total: Int64?
    private let start = ContinuousClock.now
    private let state = Mutex(State())

    static let width = 30

    init(enabled: Bool, total: Int64?) {
        self.enabled = enabled
        self.total = total
    }

    func show(records: Int, bytes: Int64) {
        guard enabled else { return }
        let now = ContinuousClock.now
        let text: String? = state.withLock { state in
            if let last = state.lastDrawn, now - last < .milliseconds(100) { return nil }
            state.lastDrawn = now
            state.shown = true
            return Self.line(records: records, bytes: bytes, total: total, elapsed: now - start)
        }
        if let text { Console.write("\r" + text + "\u{1B}[K", to: 2) }
    }

    func clear() {
        guard enabled else { return }
        let shown = state.withLock { state in
            defer { state.shown = false }
            return state.shown
        }
        if shown { Console.write("\r\u{1B}[K", to: 2) }
    }

    /// `[#########.....................]  31% 12.0 MB of 38.7 MB  40,000 records  8,123/s`
    static func line(records: Int, bytes: Int64, total: Int64?, elapsed: Duration) -> String {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let rate = seconds > 0 ? Int(Double(records) / seconds) : 0
        var text = ""
        if let total, total > 0 {
            let fraction = min(1, Double(bytes) / Double(total))
            let filled = Int(fraction * Double(width))
            text += "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] "
            text += "\(Int(fraction * 100))% \(megabytes(bytes)) of \(megabytes(total))  "
        } else {
            text += "\(megabytes(bytes))  "
        }
        return text + "\(grouped(records)) records  \(grouped(rate))/s"
    }

    static func megabytes(_ bytes: Int64) -> String {
        let tenths = Int((Double(bytes) / 1_000_000 * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) MB"
    }

    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number))
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out += "," }
            out.append(digit)
        }
        return out
    }
}

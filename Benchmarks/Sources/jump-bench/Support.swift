#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import DevToolSupport
import JumpForms

/// Milliseconds on the monotonic clock.
func nowMilliseconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) * 1e3 + Double(spec.tv_nsec) / 1e6
}

/// Best, median, mean and worst of a list of timings.
struct Stats: Sendable {
    var samples: [Double]

    init(_ samples: [Double]) {
        self.samples = samples.sorted()
    }

    var best: Double { samples.first ?? .nan }
    var worst: Double { samples.last ?? .nan }
    var median: Double {
        guard !samples.isEmpty else { return .nan }
        let n = samples.count
        return n % 2 == 1 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2
    }
    var mean: Double { samples.isEmpty ? .nan : samples.reduce(0, +) / Double(samples.count) }
}

/// `value` with `digits` decimals (no Foundation formatting).
func fixed(_ value: Double, _ digits: Int = 2) -> String {
    guard value.isFinite else { return "n/a" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (abs(value) * scale).rounded()
    let whole = Int(rounded / scale)
    let fraction = Int(rounded - Double(whole) * scale)
    let sign = value < 0 && rounded != 0 ? "-" : ""
    guard digits > 0 else { return sign + String(whole) }
    let fractionText = String(fraction)
    return sign + String(whole) + "." + String(repeating: "0", count: digits - fractionText.count) + fractionText
}

/// 1234567 -> "1,234,567".
func grouped(_ value: Int) -> String {
    let digits = Array(String(abs(value)))
    var out = ""
    for (index, digit) in digits.enumerated() {
        if index > 0, (digits.count - index) % 3 == 0 { out += "," }
        out.append(digit)
    }
    return (value < 0 ? "-" : "") + out
}

func leftPad(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
}

func rightPad(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - text.count))
}

/// Runs a program, waits for it, returns its exit status and standard output.
/// Standard error is inherited; with `discardOutput` standard output goes to /dev/null.
@discardableResult
func run(_ program: String, _ arguments: [String], discardOutput: Bool = false) -> (status: Int32, output: String) {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var pipeEnds: [Int32] = [-1, -1]
    if discardOutput {
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    } else {
        guard pipe(&pipeEnds) == 0 else { return (-1, "") }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
    }
    let argv = ([program] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid = pid_t()
    let spawned = posix_spawn(&pid, program, &actions, nil, argv, environ)
    if !discardOutput { close(pipeEnds[1]) }
    guard spawned == 0 else {
        if !discardOutput { close(pipeEnds[0]) }
        printError("jump-bench: cannot run \(program): \(String(cString: strerror(spawned)))\n")
        return (-1, "")
    }
    var output: [UInt8] = []
    if !discardOutput {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(pipeEnds[0], $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            output += chunk[0..<count]
        }
        close(pipeEnds[0])
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    let exitStatus: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    return (exitStatus, String(decoding: output, as: UTF8.self))
}

/// Keeps results alive so the optimizer cannot drop the work that made them.
nonisolated(unsafe) var benchmarkSink = 0

/// Values kept until the process exits: a profile of the check then counts no freeing of the corpus.
nonisolated(unsafe) var keptUntilExit: [Any] = []

/// How the benchmarks print their figures: text for people, or one JSON object per benchmark
/// and line (`--format json`) for programs.
enum OutputFormat: String, Sendable {
    case text
    case json
}

/// The format of this run, set once from `--format` before any benchmark runs.
nonisolated(unsafe) var outputFormat = OutputFormat.text

/// Sets `outputFormat` from a `--format` value; exits with status 2 on an unknown one.
func setOutputFormat(_ value: String?, tool: String) {
    guard let value else { return }
    guard let format = OutputFormat(rawValue: value) else {
        printError("\(tool): --format must be text or json, not '\(value)'\n")
        exit(2)
    }
    outputFormat = format
}

/// Prints `text()` in text format, or `json()` as one line of compact JSON in JSON format.
func report(_ text: () -> Void, json: () -> JSONValue) {
    switch outputFormat {
    case .text: text()
    case .json: print(json().serialized())
    }
}

/// A figure as a JSON number with three decimals, or null when it is not finite.
func number(_ value: Double) -> JSONValue {
    value.isFinite ? .number(fixed(value, 3)) : .null
}

extension Stats {
    /// Best, median, mean and worst of the samples, and their count.
    var json: JSONValue {
        .object([
            ("samples", .integer(samples.count)), ("best", number(best)), ("median", number(median)),
            ("mean", number(mean)), ("worst", number(worst))
        ])
    }
}

extension Stats {
    /// Rates per round (higher is better): best is the highest, worst the lowest.
    var rateJSON: JSONValue {
        .object([
            ("rounds", .integer(samples.count)), ("best", number(worst)), ("median", number(median)),
            ("mean", number(mean)), ("worst", number(best))
        ])
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import JumpForms
import Logging

/// The CLI's log handler: one line per message on standard error, in swift-log's
/// `StreamLogHandler` layout (`<time> <level> <label>: <key=value ...> [<source>] <message>`).
///
/// Unlike `StreamLogHandler`, it formats metadata only when it writes a line. The server's HTTP
/// layer sets a request id on every request's logger; `StreamLogHandler` formats its metadata
/// again on every such change, which cost about 2% of every request's CPU for lines that the
/// server's default level (`warning`) never writes (docs/PERFORMANCE.md, "What the code keeps
/// for speed").
struct StandardErrorLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    init(label: String, metadataProvider: Logger.MetadataProvider?) {
        self.label = label
        self.metadataProvider = metadataProvider
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        Console.write(line(for: event, at: Self.timestamp()), to: 2)
    }

    /// The line written for `event`: the handler's metadata, then the provider's, then the
    /// event's own (later ones win), sorted by key.
    func line(for event: LogEvent, at time: String) -> String {
        var all = metadata
        if let provided = metadataProvider?.get() { all.merge(provided) { $1 } }
        if let explicit = event.metadata { all.merge(explicit) { $1 } }
        if let error = event.error {
            all["error.message"] = "\(error)"
            all["error.type"] = "\(String(reflecting: type(of: error)))"
        }
        var line = "\(time) \(event.level)\(label.isEmpty ? "" : " ")\(label):"
        for (key, value) in all.sorted(by: { $0.key < $1.key }) {
            line += " \(key)=\(value)"
        }
        line += " [\(event.source)] \(event.message)"
        // Messages and metadata carry what clients sent (an email, a header): escaped, so a
        // log line can neither drive the terminal nor forge another line.
        return TerminalText.escaped(line) + "\n"
    }

    /// Local time, ISO 8601 to the second with the UTC offset (as `StreamLogHandler` writes it).
    static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        guard localtime_r(&now, &parts) != nil else { return "<unknown>" }
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &parts)
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

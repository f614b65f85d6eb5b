#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import ArgumentParser
import JumpForms
import Logging

/// The CLI's log handler: one line per message on standard error, in swift-log's
/// `StreamLogHandler` layout (`<time> <level> <label>: <key=value ...> [<source>] <message>`),
/// or with `format: .json` (`serve --log-format json`) one JSON object a line: `time`, `level`,
/// `label`, `source`, `message`, then the metadata's keys (numbers as numbers).
///
/// Unlike `StreamLogHandler`, it formats metadata only when it writes a line. The server's HTTP
/// layer sets a request id on every request's logger; `StreamLogHandler` formats its metadata
/// again on every such change, which cost about 2% of every request's CPU for lines that the
/// server's default level (`warning`) never writes (docs/PERFORMANCE.md, "What the code keeps
/// for speed").
struct StandardErrorLogHandler: LogHandler {
    /// How lines are written: `text` (StreamLogHandler's layout) or `json` (one object a line,
    /// for log collectors).
    enum Format: String, CaseIterable, Sendable, ExpressibleByArgument {
        case text, json
    }

    let label: String
    var format: Format = .text
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    init(label: String, format: Format = .text, metadataProvider: Logger.MetadataProvider?) {
        self.label = label
        self.format = format
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
        if format == .json { return jsonLine(for: event, metadata: all, at: time) }
        var line = "\(time) \(event.level)\(label.isEmpty ? "" : " ")\(label):"
        for (key, value) in all.sorted(by: { $0.key < $1.key }) {
            line += " \(key)=\(value)"
        }
        line += " [\(event.source)] \(event.message)"
        // Messages and metadata carry what clients sent (an email, a header): escaped, so a
        // log line can neither drive the terminal nor forge another line.
        return TerminalText.escaped(line) + "\n"
    }

    /// One JSON object (control characters escaped by JSON, so a line cannot forge another).
    /// Metadata keys that would repeat the fixed fields are left out.
    func jsonLine(for event: LogEvent, metadata: Logger.Metadata, at time: String) -> String {
        var entries: [(key: String, value: JSONValue)] = [
            ("time", .string(time)), ("level", .string(event.level.rawValue)), ("label", .string(label)),
            ("source", .string(event.source)), ("message", .string("\(event.message)"))
        ]
        let fixed = Set(entries.map(\.key))
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) where !fixed.contains(key) {
            entries.append((key, Self.json(value)))
        }
        return JSONValue.object(entries).serialized() + "\n"
    }

    static func json(_ value: Logger.MetadataValue) -> JSONValue {
        switch value {
        case .string(let text): .string(text)
        case .stringConvertible(let value):
            if let number = value as? Int {
                .integer(number)
            } else if let number = value as? Double, number.isFinite {
                .number(String(number))
            } else {
                .string(value.description)
            }
        case .array(let values): .array(values.map(json))
        case .dictionary(let values): .object(values.sorted(by: { $0.key < $1.key }).map { ($0.key, json($0.value)) })
        }
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

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import ArgumentParser
import JumpCaptureServer
import JumpFiles
import JumpForms
import Synchronization

/// `jump-forms users import FILE`: Capture records (JSON Lines as `users export` writes them,
/// or dataload CSV) into the server's database, with their ids and password hashes.
struct UsersImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import user records (JSON Lines or Capture dataload CSV) into the server's database.",
        discussion: """
            Each record is checked against server.schema (else the flow's fields) as the entity calls \
            check writes; a refused record is named FILE:LINE: attribute: reason and the others are \
            imported, each whole or not at all. Capture's id, uuid, created, lastUpdated and plural \
            element ids are kept; a password is Capture's object {"type": "password-...", "value": ...}, \
            stored as it is and replaced by the server's own hash at the user's first sign-in. Values \
            the flow keeps unique (and the email) are compared as sign-up compares them. A record the \
            database holds already (the same uuid) is skipped (--on-conflict skip, the default), \
            replaced (update; a password set on this server since stays) or stops the import (fail). \
            Importing a file twice changes nothing. FILE - reads standard input. Exit status 1 when \
            a record was refused or the import stopped, 2 when it could not run. See docs/leaving-akamai.md.
            """
    )

    @Argument(help: ArgumentHelp("The records: a .jsonl or .csv file, or - for standard input.", valueName: "file"))
    var file: String

    @OptionGroup var project: ProjectOptions

    @OptionGroup var store: DatabaseOptions
    var database: String? { store.path }
    var databaseURL: String? { store.url }

    @Option(help: ArgumentHelp("The Capture entity-type schema (JSON) records follow (default: server.schema in jump.yaml).", valueName: "file"))
    var schema: String?

    @Flag(help: "Check every record against the schema and the database, and write nothing.")
    var dryRun = false

    @Option(help: "A record the database holds already (same uuid): skip, update or fail.")
    var onConflict: OnConflict = .skip

    @Option(help: ArgumentHelp("Write what became of every record (JSON Lines) to this file.", valueName: "file"))
    var report: String?

    @Option(help: "Output format of the summary: text or json.")
    var format: DataFormat = .text

    @Option(help: "The file's format: jsonl or csv (default: csv for a .csv file, else jsonl).")
    var inputFormat: InputFormat?

    enum OnConflict: String, ExpressibleByArgument, CaseIterable {
        case skip, update, fail
    }

    enum InputFormat: String, ExpressibleByArgument, CaseIterable {
        case jsonl, csv
    }

    func run() async throws {
        let console = Console()
        let environment = Environment.current
        let workspace = try project.load(console: console)
        var setup = try LocalServer.setup(
            workspace, databaseOverride: database, databaseURL: databaseURL, schemaOverride: schema, environment: environment, console: console)
        setup.identities = []
        var options = UserImportOptions(
            format: inputFormat.map { ImportFormat(rawValue: $0.rawValue)! } ?? ImportFormat.guess(path: file), dryRun: dryRun,
            onConflict: UserImportOptions.OnConflict(rawValue: onConflict.rawValue)!)
        options.batchSize = 1000

        let descriptor: Int32
        var size: Int64?
        if file == "-" {
            descriptor = 0
        } else {
            descriptor = open(WorkingDirectory.path(file), O_RDONLY)
            guard descriptor >= 0 else { throw ValidationError("cannot read \(file): \(String(cString: strerror(errno)))") }
            var info = stat()
            if fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG { size = Int64(info.st_size) }
        }
        let reportFile: ImportReportFile?
        if let report {
            guard let opened = ImportReportFile(path: WorkingDirectory.path(report)) else {
                if descriptor > 2 { close(descriptor) }
                throw ValidationError("cannot write \(report): \(String(cString: strerror(errno)))")
            }
            reportFile = opened
        } else {
            reportFile = nil
        }
        let logger = LocalServer.logger(label: "jump-forms.users-import", environment: environment, console: console)
        let importer: UserImport
        do {
            importer = try UserImport(setup: setup, options: options, logger: logger)
        } catch {
            if descriptor > 2 { close(descriptor) }
            console.err(escaping: "cannot open the database \(setup.database?.description ?? setup.databasePath): \(error)\n")
            throw ExitCode(2)
        }
        let shownFile = file == "-" ? "<stdin>" : file
        let bar = ProgressLine()
        // A dry run's outcomes arrive on the database's tasks: they write where this one does.
        let capture = Console.capture
        let summary: UserImportSummary
        do {
            summary = try await importer.run(
                descriptor: descriptor,
                progress: { [size] records, bytes in bar.show(Self.progress(records: records, bytes: bytes, of: size, rate: bar.rate(records))) },
                outcome: { outcome in
                    reportFile?.write(outcome)
                    if let refusal = outcome.refusal, outcome.kind == .refused || outcome.kind == .stopped {
                        bar.clear()
                        Console.$capture.withValue(capture) {
                            console.err(escaping: refusal.rendered(file: shownFile, line: outcome.line) + "\n")
                        }
                    }
                })
        } catch let error as ImportReadError {
            bar.clear()
            reportFile?.finish()
            console.err(escaping: "cannot read \(shownFile): \(error)\n")
            throw ExitCode(2)
        } catch {
            bar.clear()
            reportFile?.finish()
            console.err(escaping: "the import stopped: \(error) (the batches before were committed; run it again to go on)\n")
            throw ExitCode(2)
        }
        bar.clear()
        reportFile?.finish()
        switch format {
        case .text: console.out(escaping: Self.text(summary))
        case .json: console.out(Self.json(summary).serialized(pretty: true) + "\n")
        }
        if summary.count(.refused) > 0 || summary.stoppedAtLine != nil { throw ExitCode(1) }
    }

    /// The summary, in words: counts by outcome, then imported passwords by type.
    /// The progress line: `[#########.....................]  31% 12.0 MB of 38.7 MB  40,000 records  8,123/s`
    /// (the bar by bytes of the file, when its size is known).
    static func progress(records: Int, bytes: Int64, of size: Int64?, rate: Int) -> String {
        var text = ""
        if let size, size > 0 {
            text += ProgressLine.bar(Double(bytes) / Double(size)) + " \(ProgressLine.megabytes(bytes)) of \(ProgressLine.megabytes(size))  "
        } else {
            text += "\(ProgressLine.megabytes(bytes))  "
        }
        return text + "\(ProgressLine.grouped(records)) records  \(ProgressLine.grouped(rate))/s"
    }

    static func text(_ summary: UserImportSummary) -> String {
        var text = summary.dryRun ? "dry run (nothing was written): would import" : "imported"
        text +=
            " \(summary.count(.imported)), updated \(summary.count(.updated)), skipped \(summary.count(.skipped)), refused \(summary.count(.refused))"
        text += " of \(summary.records) records\n"
        if let line = summary.stoppedAtLine { text += "stopped at line \(line) (--on-conflict fail)\n" }
        // By count, most first; records without a password last.
        let types = summary.passwordTypes.filter { $0.key != "none" }.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        var parts = types.map { "\($0.key) \($0.value)" }
        if let none = summary.passwordTypes["none"] { parts.append("no password \(none)") }
        if !parts.isEmpty { text += "passwords: " + parts.joined(separator: ", ") + "\n" }
        if !summary.unreadPasswordTypes.isEmpty {
            text += "warning: the server does not check passwords of type \(summary.unreadPasswordTypes.sorted().joined(separator: ", ")): "
            text += "those users sign in after a password reset\n"
        }
        return text
    }

    static func json(_ summary: UserImportSummary) -> JSONValue {
        var entries: [(key: String, value: JSONValue)] = [("dryRun", .bool(summary.dryRun))]
        for kind in UserImportOutcome.Kind.allCases { entries.append((kind.rawValue, .integer(summary.count(kind)))) }
        entries.append(("records", .integer(summary.records)))
        entries.append(("stoppedAtLine", summary.stoppedAtLine.map { .integer($0) } ?? .null))
        entries.append(("passwordTypes", .object(summary.passwordTypes.sorted { $0.key < $1.key }.map { ($0.key, .integer($0.value)) })))
        entries.append(("unreadPasswordTypes", .array(summary.unreadPasswordTypes.sorted().map { .string($0) })))
        return .object(entries)
    }
}

/// `--report FILE`: one JSON line per record (line, outcome, id, uuid, and the attribute and
/// reason of a refusal), written as the import goes. Mode 0600: it names every record.
final class ImportReportFile: Sendable {
    private let state: Mutex<(descriptor: Int32, buffer: [UInt8])>

    init?(path: String) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { return nil }
        state = Mutex((descriptor, []))
    }

    func write(_ outcome: UserImportOutcome) {
        var entries: [(key: String, value: JSONValue)] = [("line", .integer(outcome.line)), ("outcome", .string(outcome.kind.rawValue))]
        if let id = outcome.id { entries.append(("id", .integer(Int(id)))) }
        if let uuid = outcome.uuid { entries.append(("uuid", .string(uuid))) }
        if let refusal = outcome.refusal {
            entries.append(("attribute", .string(refusal.attribute)))
            if let column = refusal.column { entries.append(("column", .integer(column))) }
            entries.append(("reason", .string(refusal.reason)))
        }
        let line = Array((JSONValue.object(entries).serialized() + "\n").utf8)
        state.withLock { state in
            state.buffer += line
            if state.buffer.count >= 1 << 16 { Self.flush(&state) }
        }
    }

    func finish() {
        state.withLock { state in
            Self.flush(&state)
            if state.descriptor >= 0 { close(state.descriptor) }
            state.descriptor = -1
        }
    }

    private static func flush(_ state: inout (descriptor: Int32, buffer: [UInt8])) {
        guard state.descriptor >= 0 else { return }
        var offset = 0
        while offset < state.buffer.count {
            let written = state.buffer[offset...].withUnsafeBytes { systemWrite(state.descriptor, $0.baseAddress!, $0.count) }
            if written < 0, errno == EINTR { continue }
            if written <= 0 { break }
            offset += written
        }
        state.buffer.removeAll(keepingCapacity: true)
    }
}

private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}

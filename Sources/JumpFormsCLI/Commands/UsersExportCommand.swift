import ArgumentParser
import Foundation
import JumpCapture
import JumpCaptureNIO
import JumpForms
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `jump-forms users export --from URL --client-id ID --client-secret-env NAME [--type user]
/// [--filter F] [--attributes A,...] --out FILE [--resume]`
struct UsersExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write every record of an entity type as one JSON line, paged by id through /entity.find.",
        discussion: """
            The calls are signed as Janrain's client libraries sign them (Date and Authorization: \
            Signature headers): the client secret, read from the environment variable NAME, is never \
            sent nor printed. The client needs direct_access; an owner client's export also carries \
            each record's password object. Records are asked for by id (sort_on ["id"], filter \
            "id > N"), so an export that stopped continues with --resume after the last whole line \
            of FILE (a line cut short is dropped first). 510 and HTTP 5xx answers, and no answer, \
            are tried again after a wait that doubles (1 s to 60 s, 8 tries). A progress line (count, \
            total, rate) is shown on a terminal. Exit status: 0 done, 1 the server refused, 2 usage \
            or I/O error.
            """
    )

    @Option(help: ArgumentHelp("The Capture server: https://<app>.janraincapture.com, or a jump-forms serve URL.", valueName: "url"))
    var from: String

    @Option(name: .customLong("client-id"), help: ArgumentHelp("The API client's id.", valueName: "id"))
    var clientID: String

    @Option(name: .customLong("client-secret-env"), help: ArgumentHelp("The environment variable holding the client's secret.", valueName: "name"))
    var clientSecretEnvironment: String

    @Option(name: .customLong("type"), help: ArgumentHelp("The entity type.", valueName: "name"))
    var typeName = "user"

    @Option(help: ArgumentHelp("Only records this Capture filter matches (id > N is added for paging).", valueName: "filter"))
    var filter: String?

    @Option(help: ArgumentHelp("Only these attributes, comma-separated (id is always written).", valueName: "a,b,..."))
    var attributes: String?

    @Option(help: ArgumentHelp("The file the JSON lines go to.", valueName: "file"))
    var out: String

    @Flag(help: "Continue the export in FILE after its last record.")
    var resume = false

    @Option(name: .customLong("page-size"), help: ArgumentHelp("Records per call (1...10000).", valueName: "n"))
    var pageSize = 1000

    func validate() throws {
        guard ServerURL(from) != nil else { throw ValidationError("--from: '\(from)' is not an http(s) URL") }
        guard (1...10_000).contains(pageSize) else { throw ValidationError("--page-size: from 1 to 10000, not \(pageSize)") }
    }

    func run() async throws {
        let console = Console()
        guard let secret = Environment.current[clientSecretEnvironment], !secret.isEmpty else {
            throw ValidationError("--client-secret-env: the environment variable \(clientSecretEnvironment) is not set (it holds the client secret)")
        }
        let client = EntityAPIClient(
            server: ServerURL(from)!, clientID: clientID, clientSecret: secret,
            transport: AsyncHTTPTransport(timeoutSeconds: 120, maximumAnswerSize: 256 << 20))
        let list = attributes.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }
        let export = UserExport(
            client: client, options: UserExport.Options(typeName: typeName, filter: filter, attributes: list, pageSize: pageSize))
        let path = WorkingDirectory.path(out)
        let file = try ExportFile(path: path, resume: resume)
        defer { file.close() }
        let line = ProgressLine()
        var progress = ExportProgress(already: file.lines)
        if resume, file.lastID != nil {
            progress.total = try await export.total()
        }
        let final: UserExport.Progress
        do {
            final = try await export.run(
                after: file.lastID, write: { lines in try file.append(lines) },
                progress: { update in
                    if let total = update.total { progress.total = total }
                    progress.written = update.written
                    progress.retrying = update.retrying
                    line.show(progress.text(rate: line.rate(update.written)), urgent: update.retrying != nil)
                })
        } catch let error as EntityAPIError {
            line.finish(progress.text(rate: line.rate(progress.written)))
            throw RefusedExport(message: error.description + resumeHint(file))
        }
        try file.sync()
        line.finish(progress.text(rate: line.rate(progress.written)))
        console.err(
            escaping:
                "exported \(final.written) record\(final.written == 1 ? "" : "s") to \(out)\(file.lines > 0 ? " (after \(file.lines) already there)" : "")\n"
        )
    }

    private func resumeHint(_ file: ExportFile) -> String {
        "; what was exported is in \(out): run again with --resume to continue"
    }
}

/// An export stopped by the server (exit status 1).
struct RefusedExport: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// The export's file: created (refusing one that exists, unless resuming), or, resumed, cut
/// after its last whole line, whose record's id the export continues after.
final class ExportFile {
    let descriptor: Int32
    /// The whole lines the file held when opened.
    let lines: Int
    let lastID: Int?

    init(path: String, resume: Bool) throws {
        if !resume {
            let created = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard created >= 0 else {
                if errno == EEXIST { throw ValidationError("\(path) exists: pass --resume to continue that export, or remove it") }
                throw ValidationError("cannot create \(path): \(String(cString: strerror(errno)))")
            }
            descriptor = created
            lines = 0
            lastID = nil
            return
        }
        let opened = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard opened >= 0 else { throw ValidationError("cannot open \(path): \(String(cString: strerror(errno)))") }
        descriptor = opened
        var info = stat()
        guard fstat(opened, &info) == 0 else { throw ValidationError("cannot read \(path): \(String(cString: strerror(errno)))") }
        let size = Int(info.st_size)
        var length = min(size, 1 << 16)
        var point: (keep: Int, lastID: Int?)?
        while true {
            let offset = size - length
            var tail = [UInt8](repeating: 0, count: length)
            let read = tail.withUnsafeMutableBytes { pread(opened, $0.baseAddress, length, off_t(offset)) }
            guard read == length else { throw ValidationError("cannot read \(path): \(String(cString: strerror(errno)))") }
            do {
                point = try UserExport.resumePoint(tail: tail, offset: offset)
            } catch {
                throw ValidationError("\(path): \(error)")
            }
            if point != nil || length == size { break }
            length = min(size, length * 2)
        }
        let keep = point?.keep ?? 0
        guard ftruncate(opened, off_t(keep)) == 0, lseek(opened, 0, SEEK_END) >= 0 else {
            throw ValidationError("cannot cut \(path) after its last whole line: \(String(cString: strerror(errno)))")
        }
        lastID = point?.lastID
        lines = try Self.countLines(opened, upTo: keep)
    }

    private static func countLines(_ descriptor: Int32, upTo size: Int) throws -> Int {
        var count = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset = 0
        while offset < size {
            let want = min(buffer.count, size - offset)
            let read = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, want, off_t(offset)) }
            guard read > 0 else { throw ValidationError("cannot read the export file: \(String(cString: strerror(errno)))") }
            for index in 0..<read where buffer[index] == UInt8(ascii: "\n") { count += 1 }
            offset += read
        }
        return count
    }

    func append(_ bytes: [UInt8]) throws {
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, bytes.count - written) }
            if result < 0 {
                if errno == EINTR { continue }
                throw ValidationError("cannot write the export file: \(String(cString: strerror(errno)))")
            }
            written += result
        }
    }

    func sync() throws {
        guard fsync(descriptor) == 0 else { throw ValidationError("cannot write the export file: \(String(cString: strerror(errno)))") }
    }

    func close() {
        #if canImport(Glibc)
            _ = Glibc.close(descriptor)
        #else
            _ = Darwin.close(descriptor)
        #endif
    }
}

/// What the progress line of an export says: the bar when the total is known, records
/// written of how many, the rate, and a retry under way.
struct ExportProgress {
    /// Records the file held before this run.
    let already: Int
    var total: Int?
    var written = 0
    var retrying: (attempt: Int, reason: String)?

    func text(rate: Int) -> String {
        let count = already + written
        var text = ""
        if let total, total > 0 { text += ProgressLine.bar(Double(count) / Double(total)) + " " }
        text += ProgressLine.grouped(count)
        if let total { text += " of " + ProgressLine.grouped(total) }
        text += " records  \(ProgressLine.grouped(rate))/s"
        if let retrying { text += "  (trying again, try \(retrying.attempt): \(retrying.reason))" }
        return text
    }
}

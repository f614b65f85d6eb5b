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
        var progress = ExportProgressLine(show: isatty(2) == 1, console: console, already: file.lines)
        if resume, file.lastID != nil {
            progress.total = try await export.total()
        }
        let final: UserExport.Progress
        do {
            final = try await export.run(
                after: file.lastID, write: { lines in try file.append(lines) }, progress: { progress.update($0) })
        } catch let error as EntityAPIError {
            progress.finish()
            throw RefusedExport(message: error.description + resumeHint(file))
        }
        try file.sync()
        progress.finish()
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

/// The progress line on standard error (a terminal only): records written, of how many, and
/// the rate; redrawn in place.
struct ExportProgressLine {
    let show: Bool
    let console: Console
    /// Records the file held before this run.
    let already: Int
    var total: Int?
    let started = ContinuousClock.now
    var drawn = false

    init(show: Bool, console: Console, already: Int) {
        self.show = show
        self.console = console
        self.already = already
    }

    mutating func update(_ progress: UserExport.Progress) {
        if let total = progress.total { self.total = total }
        guard show else { return }
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let rate = seconds > 0 ? Int(Double(progress.written) / seconds) : 0
        let count = already + progress.written
        var line = "\r\u{1B}[2K"
        if let total, total > 0 {
            let width = 24
            let filled = min(width, count * width / total)
            line += "[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] "
        }
        line += "\(count)"
        if let total { line += " / \(total)" }
        line += " records, \(rate)/s"
        if let retrying = progress.retrying {
            // The server's words, without control characters (the line is redrawn in place).
            let reason = String(String.UnicodeScalarView(retrying.reason.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
            line += " (trying again, try \(retrying.attempt): \(reason))"
        }
        console.err(line)
        drawn = true
    }

    mutating func finish() {
        if drawn { console.err("\n") }
        drawn = false
    }
}

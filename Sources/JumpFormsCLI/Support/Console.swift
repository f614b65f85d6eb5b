#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import JumpFiles
import JumpForms
import Synchronization

/// Where the CLI writes: standard output for data, standard error for diagnostics about the
/// run. Colour only on a terminal, never with `NO_COLOR` or `TERM=dumb`.
struct Console {
    let colorOut: Bool
    let colorErr: Bool

    init(colorOut: Bool, colorErr: Bool) {
        self.colorOut = colorOut
        self.colorErr = colorErr
    }

    init(environment: [String: String] = Environment.current) {
        let allowed = environment["NO_COLOR"].map(\.isEmpty) ?? true && environment["TERM"] != "dumb"
        let captured = Self.capture != nil
        colorOut = allowed && !captured && isatty(1) == 1
        colorErr = allowed && !captured && isatty(2) == 1
    }

    /// Where the CLI writes instead of file descriptors 1 and 2 inside `capturing` (tests).
    @TaskLocal static var capture: ConsoleCapture?

    func out(_ text: String) {
        Self.write(text, to: 1)
    }

    func err(_ text: String) {
        Self.write(text, to: 2)
    }

    /// Writes text from outside (a record, a server's message, an email) to standard output,
    /// its control characters escaped (`TerminalText`); line feeds stay line breaks.
    func out(escaping text: String) {
        Self.write(TerminalText.escaped(text, keepingLineBreaks: true), to: 1)
    }

    /// Writes text from outside to standard error, its control characters escaped.
    func err(escaping text: String) {
        Self.write(TerminalText.escaped(text, keepingLineBreaks: true), to: 2)
    }

    /// Writes all of `text` to a file descriptor, retrying short writes.
    static func write(_ text: String, to descriptor: Int32) {
        if let capture { return capture.append(text.utf8, to: descriptor) }
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { raw in
                systemWrite(descriptor, raw.baseAddress! + offset, raw.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }
}

extension Dictionary where Key == String, Value == MessageArgument {
    /// A message's arguments with their texts escaped (`TerminalText`). The message's own words
    /// come from the project's locale files and print as written (a pseudo-locale's bidi
    /// controls too); the emails, names and server texts that fill it in come from outside.
    var escapedForTerminal: [String: MessageArgument] {
        mapValues { argument in
            if case .string(let text) = argument { return .string(TerminalText.escaped(text)) }
            return argument
        }
    }
}

extension FieldMessages {
    /// A server's messages about a field, escaped for the terminal.
    var escapedForTerminal: FieldMessages {
        FieldMessages(field: TerminalText.escaped(field), messages: messages.map { TerminalText.escaped($0) })
    }
}

private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}

/// What a command run in-process wrote to standard output and error.
final class ConsoleCapture: Sendable {
    private let written = Mutex<(out: [UInt8], err: [UInt8])>(([], []))
    var out: String { written.withLock { String(decoding: $0.out, as: UTF8.self) } }
    var err: String { written.withLock { String(decoding: $0.err, as: UTF8.self) } }

    func append(_ bytes: some Sequence<UInt8>, to descriptor: Int32) {
        written.withLock { descriptor == 1 ? $0.out.append(contentsOf: bytes) : $0.err.append(contentsOf: bytes) }
    }
}

/// The folder a command works in: the one `JumpFormsCommand.run(arguments:environment:in:)`
/// was given, else the process's working directory. Relative paths of arguments and the files
/// a command finds by name (`jump.yaml`, `locales/`) are read from it: every path the CLI hands
/// to the file system or to a library goes through `path(_:)`, or the library is given the
/// folder (`ProjectLoader.directory`). Nothing changes the process's working directory.
enum WorkingDirectory {
    /// The folder given to an in-process run; nil in the binary.
    @TaskLocal static var override: String?

    /// `path` as the file system must see it: a relative path joined to the in-process run's
    /// folder; unchanged in the binary (the process's working directory applies).
    static func path(_ path: String) -> String {
        guard let override else { return path }
        return PathText.resolve(path, against: override)
    }

    /// `FileExists.file` of `path(_:)`.
    static func isFile(_ path: String) -> Bool { FileExists.file(Self.path(path)) }

    /// `FileExists.directory` of `path(_:)`.
    static func isDirectory(_ path: String) -> Bool { FileExists.directory(Self.path(path)) }

    /// `PathText.canonical` of `path(_:)`: two spellings of one file compare equal.
    static func canonical(_ path: String) -> String { PathText.canonical(Self.path(path)) }
}

/// The process environment as a dictionary.
enum Environment {
    /// The environment commands see in place of the process's (`Console.capturing`).
    @TaskLocal static var override: [String: String]?

    static var current: [String: String] {
        if let override { return override }
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            pointer += 1
        }
        return result
    }
}

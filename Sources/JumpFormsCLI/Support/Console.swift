#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import JumpForms

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
        colorOut = allowed && isatty(1) == 1
        colorErr = allowed && isatty(2) == 1
    }

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

/// The process environment as a dictionary.
enum Environment {
    static var current: [String: String] {
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

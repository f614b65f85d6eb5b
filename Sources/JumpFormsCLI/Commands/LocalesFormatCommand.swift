import ArgumentParser
import JumpForms

/// `jump-forms locales format`: a message playground for translators and tools.
struct LocalesFormatCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "format",
        abstract: "Format an ICU message for a locale, as the forms and ICU4C format it.",
        discussion: """
            jump-forms locales format '{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}' --locale en --arg n=2
            jump-forms locales format --jsonl < messages.jsonl

            An --arg value that reads as a number (12, -3.5, 1e3) is a number; an ISO 8601 date \
            (2024-01-15, 2024-01-15T10:00:00Z) serves date and time arguments; anything else is text.
            With --jsonl, each input line is {"message": ..., "locale": ..., "args": {...}} (optional \
            "timeZone"), numbers as JSON numbers and dates as ISO 8601 strings; each output line is \
            {"output": ...} or {"error": ...}, in order. Details: docs/locales.md.
            """
    )

    @Argument(help: ArgumentHelp("The ICU message (not with --jsonl).", valueName: "message"))
    var message: String?

    @Option(help: ArgumentHelp("The locale (BCP 47, as en-US or de-CH-u-cu-eur).", valueName: "tag"))
    var locale: String?

    @Option(name: .customLong("arg"), help: ArgumentHelp("An argument (repeat for more).", valueName: "name=value"))
    var arguments: [String] = []

    @Option(
        name: .customLong("time-zone"),
        help: ArgumentHelp("The zone dates and times are shown in: UTC (the default) or an offset such as +02:00.", valueName: "zone"))
    var timeZone: String?

    @Flag(help: "Read JSON lines from standard input and write one JSON line per input.")
    var jsonl = false

    func validate() throws {
        if jsonl {
            if message != nil || locale != nil || !arguments.isEmpty {
                throw ValidationError("--jsonl reads messages, locales and arguments from standard input; give no MESSAGE, --locale or --arg")
            }
        } else {
            guard message != nil else { throw ValidationError("give a MESSAGE to format, or --jsonl") }
            guard let locale else { throw ValidationError("give the --locale to format the message for (as en-US)") }
            if LocaleTag(locale) == nil { throw ValidationError("--locale '\(locale)' is not a BCP 47 locale tag (for example en-US)") }
            for argument in arguments where !argument.contains("=") || argument.hasPrefix("=") {
                throw ValidationError("--arg '\(argument)' must be name=value")
            }
        }
        if let timeZone, MessageTimeZone(timeZone) == nil {
            throw ValidationError("--time-zone '\(timeZone)' is not UTC or an offset such as +02:00 (named zones are not supported)")
        }
    }

    func run() throws {
        let console = Console()
        let zone = timeZone.flatMap(MessageTimeZone.init) ?? .utc
        if jsonl {
            while let line = readLine(strippingNewline: true) {
                if line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { continue }
                console.out(Self.formatLine(line, defaultZone: zone).serialized() + "\n")
            }
            return
        }
        var values: [String: MessageArgument] = [:]
        for argument in arguments {
            let equals = argument.firstIndex(of: "=")!
            values[String(argument[..<equals])] = Self.commandLineValue(String(argument[argument.index(after: equals)...]))
        }
        let source = message!
        let pattern: MessagePattern
        do {
            pattern = try MessagePattern(parsing: source)
        } catch {
            Self.reportSyntaxError(error, in: source, console: console)
            throw ExitCode(1)
        }
        do {
            let text = try MessageFormatter(localeTag: locale!, timeZone: zone).format(pattern, values)
            console.out(text + "\n")
        } catch {
            console.err("error: \(TerminalText.escaped(error.message))\n")
            throw ExitCode(1)
        }
    }

    /// A number for text that reads as one, else the text.
    static func commandLineValue(_ text: String) -> MessageArgument {
        if text.unicodeScalars.first.map({ ("0"..."9").contains($0) || $0 == "-" }) == true,
            MessageFormatter.readsAsNumber(text)
        {
            return .decimal(text)
        }
        return .string(text)
    }

    static func reportSyntaxError(_ error: MessageSyntaxError, in source: String, console: Console) {
        let file = "<message>"
        var line = 1, column = 1
        for (index, scalar) in source.unicodeScalars.enumerated() {
            if index == error.offset { break }
            if scalar == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        var sources = SourceFiles()
        sources.add(path: file, text: source)
        let diagnostic = Diagnostic(.localeICUSyntax, error.message, at: SourceLocation(file: file, line: line, column: column), hint: error.hint)
        console.err(DiagnosticRenderer(sources: sources, useColor: console.colorErr).render([diagnostic]))
    }

    /// One JSON line in, one out.
    static func formatLine(_ line: String, defaultZone: MessageTimeZone) -> JSONValue {
        func failure(_ message: String) -> JSONValue { .object([("error", .string(message))]) }
        let input: JSONValue
        do {
            input = try JSONValue.parse(line)
        } catch {
            return failure("not JSON: \(error.description)")
        }
        guard case .object = input else { return failure("each line must be a JSON object with \"message\", \"locale\" and \"args\"") }
        guard case .string(let message)? = input["message"] else { return failure("\"message\" must be a string") }
        guard case .string(let tag)? = input["locale"], LocaleTag(tag) != nil else {
            return failure("\"locale\" must be a BCP 47 locale tag (for example en-US)")
        }
        var zone = defaultZone
        if let given = input["timeZone"] {
            guard case .string(let text) = given, let parsed = MessageTimeZone(text) else {
                return failure("\"timeZone\" must be UTC or an offset such as +02:00")
            }
            zone = parsed
        }
        var values: [String: MessageArgument] = [:]
        switch input["args"] {
        case nil, .null?:
            break
        case .object(let entries)?:
            for (name, value) in entries {
                switch value {
                case .number(let text): values[name] = .decimal(text)
                case .string(let text): values[name] = .string(text)
                case .bool(let flag): values[name] = .string(flag ? "true" : "false")
                default: return failure("argument '\(name)' must be a number, a string or a boolean")
                }
            }
        default:
            return failure("\"args\" must be an object")
        }
        let pattern: MessagePattern
        do {
            pattern = try MessagePattern(parsing: message)
        } catch {
            return failure("syntax error at offset \(error.offset): \(error.message)")
        }
        do {
            return .object([("output", .string(try MessageFormatter(localeTag: tag, timeZone: zone).format(pattern, values)))])
        } catch {
            return failure(error.message)
        }
    }
}

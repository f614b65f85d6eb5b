import JumpForms
import Testing

/// `MessagePrinter` writes what parses back to the same message, and canonical messages as
/// they were written.
@Suite struct MessagePrinterTests {
    static let canonical = [
        "Plain text",
        "{label} is required.",
        "l'adresse e-mail de {label}",
        "{value, plural, one {{label} must be at least # character long.} other {{label} must be at least # characters long.}}",
        "{n, plural, offset:1 =0 {nobody} =1 {{name}} one {{name} and # other} other {{name} and # others}}",
        "{g, select, female {elle} male {il} other {iel}}",
        "{n, number} items, {n, number, integer}, {d, date, short}, {t, time}",
        "{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}",
        "Braces: '{ and }' quoted as one, an apostrophe ''{x} before an argument, '{literal}'",
        "{n, plural, other {'#' is a literal here, # is not}}",
        "{n, plural, other {{g, select, other {# stays text in a select}}}}",
        "ends with an apostrophe'"
    ]

    @Test(arguments: canonical)
    func canonicalMessagesPrintAsWritten(_ source: String) throws {
        let pattern = try MessagePattern(parsing: source)
        let printed = MessagePrinter().source(pattern.nodes)
        #expect(printed == source)
    }

    @Test func everyParsedMessagePrintsToTheSameTree() throws {
        let awkward = [
            "'{'quoted'}' text", "it''s", "'{a}'", "{ label }", "{n,plural,one{#}other{##}}", "a'}'b'{'c", "''{label}",
            "x'", "{n, plural, one {'} other {'#}}", "{a}'{b}'", "don't {x}", "{n, plural, other {''#''}}", "'''{'''"
        ]
        // Apostrophes, braces and `#` in every position, as text around an argument and in a plural case.
        var generated: [String] = []
        let pieces = ["'", "''", "{", "}", "#", "a", " "]
        for first in pieces {
            for second in pieces {
                generated.append(MessagePrinter.escape(first + second, inPlural: false, followedBySpecial: true) + "{x}")
                generated.append("{n, plural, other {" + MessagePrinter.escape(first + second, inPlural: true, followedBySpecial: true) + "}}")
            }
        }
        for source in awkward + generated {
            guard let pattern = try? MessagePattern(parsing: source) else { continue }
            let printed = MessagePrinter().source(pattern.nodes)
            let reparsed = try MessagePattern(parsing: printed)
            #expect(Self.strip(reparsed.nodes) == Self.strip(pattern.nodes), "\(source) printed as \(printed)")
        }
    }

    @Test func escapedTextReadsBackAsTheText() throws {
        for text in ["{", "}", "'", "''", "{}", "a'b", "'{'", "it's {fine}", "#", "'#'", "x'"] {
            for inPlural in [false, true] {
                let source =
                    inPlural
                    ? "{n, plural, other {" + MessagePrinter.escape(text, inPlural: true, followedBySpecial: true) + "}}"
                    : MessagePrinter.escape(text, inPlural: false, followedBySpecial: false)
                let pattern = try MessagePattern(parsing: source)
                var texts: [String] = []
                pattern.walk { if case .text(let value) = $0 { texts.append(value) } }
                #expect(texts.joined() == text, "\(text) escaped as \(source)")
            }
        }
    }

    @Test func hooksRewriteTextArgumentsAndPound() throws {
        let pattern = try MessagePattern(parsing: "{value, plural, one {{label}: # char} other {{label}: # chars}}")
        var printer = MessagePrinter()
        printer.transformText = { text, _ in text.uppercased() }
        printer.replaceArgument = { node, _ in if case .argument(let argument) = node { "%\(argument.name)" } else { nil } }
        printer.replacePound = { _ in "%d" }
        #expect(printer.source(pattern.nodes) == "{value, plural, one {%label: %d CHAR} other {%label: %d CHARS}}")
    }

    /// The tree without offsets (printing may move things).
    static func strip(_ nodes: [MessageNode]) -> String {
        nodes.map { node -> String in
            switch node {
            case .text(let text): "T(\(text))"
            case .pound: "#"
            case .argument(let argument): "A(\(argument.name),\(argument.kind),\(argument.style ?? ""))"
            case .number(let argument): "N(\(argument.name),\(argument.style))"
            case .plural(let plural):
                "P(\(plural.name),\(plural.isOrdinal),\(plural.pluralOffset),\(plural.cases.map { "\($0.key)=\(strip($0.message))" }))"
            case .select(let select): "S(\(select.name),\(select.cases.map { "\($0.key)=\(strip($0.message))" }))"
            }
        }.joined(separator: "|")
    }
}

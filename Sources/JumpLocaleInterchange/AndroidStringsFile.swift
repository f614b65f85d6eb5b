import JumpForms

/// Android `res/values-<lang>/strings.xml`: `<string>` and `<plurals>` resources.
///
/// Placeholders are positional (`%1$s` text, `%1$d` numbers) and map to named ICU arguments
/// through an `ArgumentOrder`. A message that is one plural argument over categories (no `=N`,
/// no offset) becomes `<plurals>`, its `#` the argument's `%N$d`; the argument's name is in
/// `tools:quantity` when no item prints it. Everything else ICU can say and Android cannot
/// stays ICU source in the value. Text follows aapt's rules: `\'`, `\"`, `\\`, `\n`, `\t`,
/// `\uXXXX`, `\@`, `\?` escapes, whitespace outside `"..."` collapsed and trimmed; the writer
/// escapes what aapt would change (quotes, edge and double spaces as `\u0020`). Markup inside a
/// string is kept as text (`<b>`), `<xliff:g>` is unwrapped. The comment right before a
/// resource is its note; as an XML comment cannot hold `--`, the writer escapes the second `-`
/// of each pair as `\-` and a backslash as `\\`, and the reader undoes those two escapes only
/// (other comments read as they are).
public enum AndroidStringsFile {
    static let toolsNamespace = "http://schemas.android.com/tools"

    public static func read(_ bytes: [UInt8], path: String, mapping: PlaceholderMapping) -> InterchangeReadResult {
        InterchangeReadResult.decoding(bytes, path: path) { scalars, result in
            parse(scalars, path: path, mapping: mapping, into: &result)
        }
    }

    static func parse(_ scalars: [Unicode.Scalar], path: String, mapping: PlaceholderMapping, into result: inout InterchangeReadResult) {
        let root: XMLElement
        do {
            root = try XMLReader.parse(scalars, path: path)
        } catch {
            result.diagnostics.append(Diagnostic(.interchangeSyntax, error.message, at: error.location))
            return
        }
        guard root.name == "resources" else {
            result.diagnostics.append(
                Diagnostic(.interchangeSyntax, "the root element is <\(root.name)>; a strings.xml holds <resources>", at: root.location))
            return
        }
        var note: String?
        var first: [String: SourceLocation] = [:]
        for child in root.children {
            switch child {
            case .comment(let text, _):
                note = unescapeComment(trimmed(text))
            case .text:
                continue
            case .element(let element):
                defer { note = nil }
                guard element.name == "string" || element.name == "plurals" else {
                    result.diagnostics.append(
                        Diagnostic(
                            .interchangeUnsupported, "<\(element.name)> resources have no locale-file equivalent",
                            at: element.location, hint: "only <string> and <plurals> are imported"))
                    continue
                }
                guard let name = element.attribute("name") else {
                    result.diagnostics.append(Diagnostic(.interchangeSyntax, "<\(element.name)> without a name attribute", at: element.location))
                    continue
                }
                let location = SourceLocation(
                    file: path, line: element.location.line, column: element.location.column, length: element.name.count + 1)
                if let earlier = first[name] {
                    result.diagnostics.append(
                        Diagnostic(
                            .interchangeDuplicateKey, "the resource '\(name)' is written twice; the first is kept",
                            at: location, hint: "remove one of them", related: [Diagnostic.Related("first written here", at: earlier)]))
                    continue
                }
                first[name] = location
                do {
                    var warnings: [PlaceholderMapping.Problem] = []
                    let formatted = try isFormatted(element)
                    let text =
                        element.name == "string"
                        ? (formatted
                            ? try mapping.importValue(resourceText(element.children), key: name, warnings: &warnings)
                            : resourceText(element.children))
                        : try pluralText(element, key: name, mapping: mapping, formatted: formatted, warnings: &warnings)
                    for warning in warnings {
                        result.diagnostics.append(
                            Diagnostic(.interchangeArgument, "resource '\(name)': \(warning.message)", at: location, severity: .warning))
                    }
                    result.entries.append(InterchangeEntry(key: name, text: text, note: note, location: location))
                } catch let problem as PlaceholderMapping.Problem {
                    result.diagnostics.append(Diagnostic(.interchangeArgument, "resource '\(name)': \(problem.message)", at: location))
                } catch let problem as Unsupported {
                    result.diagnostics.append(
                        Diagnostic(.interchangeUnsupported, "resource '\(name)': \(problem.message)", at: problem.location ?? location))
                } catch {
                    continue
                }
            }
        }
    }

    struct Unsupported: Error {
        var message: String
        var location: SourceLocation?
    }

    /// Whether a resource's values are format strings: aapt's `formatted` attribute, true when
    /// absent. With `formatted="false"` a `%` is text (`100%% sure` shows both signs, `%1$s` is
    /// no placeholder), so the value imports as it is.
    static func isFormatted(_ element: XMLElement) throws -> Bool {
        switch element.attribute("formatted") {
        case nil, "true": return true
        case "false": return false
        case let other?: throw Unsupported(message: "formatted=\"\(other)\": aapt takes true or false", location: element.location)
        }
    }

    static func pluralText(
        _ element: XMLElement, key: String, mapping: PlaceholderMapping, formatted: Bool = true,
        warnings: inout [PlaceholderMapping.Problem]
    ) throws -> String {
        var items: [(PluralCategory, String, SourceLocation)] = []
        for child in element.children {
            guard case .element(let item) = child else { continue }
            guard item.name == "item", let quantity = item.attribute("quantity") else {
                throw Unsupported(message: "<plurals> holds <\(item.name)>; expected <item quantity=\"...\">", location: item.location)
            }
            guard let category = PluralCategory(rawValue: quantity) else {
                throw Unsupported(
                    message: "unknown quantity '\(quantity)'; Android's are zero, one, two, few, many and other", location: item.location)
            }
            items.append((category, resourceText(item.children), item.location))
        }
        guard items.contains(where: { $0.0 == .other }) else {
            throw Unsupported(message: "<plurals> without an 'other' item", location: element.location)
        }
        // The counted argument: named by tools:quantity, else the one numeric placeholder.
        let names = mapping.order.names(for: key)
        let argument: String
        if let declared = element.attribute("tools:quantity") {
            argument = declared
        } else {
            var positions = Set<Int>()
            for (_, text, _) in items where formatted {
                let scalars = Array(text.unicodeScalars)
                for index in scalars.indices where scalars[index] == "%" {
                    if index > 0, scalars[index - 1] == "%" { continue }
                    if let specifier = PrintfSpecifier.read(scalars, at: index), specifier.isNumber, let position = specifier.position {
                        positions.insert(position)
                    }
                }
            }
            guard positions.count == 1, let position = positions.first, position <= names.count else {
                throw PlaceholderMapping.Problem(message: "cannot tell which argument the <plurals> counts; write tools:quantity=\"name\"", offset: 0)
            }
            argument = names[position - 1]
        }
        let pound = mapping.order.position(of: argument, for: key)
        var cases: [String] = []
        for (category, text, _) in items {
            cases.append(
                "\(category.rawValue) {\(formatted ? try mapping.importValue(text, key: key, poundPosition: pound, warnings: &warnings) : text)}")
        }
        return "{\(argument), plural, \(cases.joined(separator: " "))}"
    }

    static func trimmed(_ text: String) -> String {
        var scalars = Substring(text).unicodeScalars[...]
        while let first = scalars.first, first.properties.isWhitespace { scalars = scalars.dropFirst() }
        while let last = scalars.last, last.properties.isWhitespace { scalars = scalars.dropLast() }
        return String(String.UnicodeScalarView(scalars))
    }

    /// A note as an XML comment's text: `\` as `\\`, the second `-` of `--` as `\-`.
    static func escapeComment(_ note: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in note.unicodeScalars {
            if scalar == "\\" {
                out.append(contentsOf: "\\\\".unicodeScalars)
            } else if scalar == "-", out.last == "-" {
                out.append(contentsOf: "\\-".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// `escapeComment` undone: `\\` and `\-` only; any other backslash stays.
    static func unescapeComment(_ text: String) -> String {
        guard text.unicodeScalars.contains("\\") else { return text }
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            if scalars[index] == "\\", index + 1 < scalars.count, scalars[index + 1] == "\\" || scalars[index + 1] == "-" {
                out.append(scalars[index + 1])
                index += 2
            } else {
                out.append(scalars[index])
                index += 1
            }
        }
        return String(out)
    }

    /// A resource's content as aapt reads it (markup kept as text).
    static func resourceText(_ children: [XMLNode]) -> String {
        // (scalar, collapsible): escapes, quoted text and markup are literal.
        var out: [(Unicode.Scalar, Bool)] = []
        var inQuotes = false
        func process(_ text: String) {
            let scalars = Array(text.unicodeScalars)
            var index = 0
            while index < scalars.count {
                let c = scalars[index]
                if c == "\\", index + 1 < scalars.count {
                    let e = scalars[index + 1]
                    index += 2
                    switch e {
                    case "n": out.append(("\n", false))
                    case "t": out.append(("\t", false))
                    case "u":
                        var value: UInt32 = 0
                        var digits = 0
                        while digits < 4, index < scalars.count, let digit = UInt32(String(scalars[index]), radix: 16) {
                            value = value * 16 + digit
                            digits += 1
                            index += 1
                        }
                        if let scalar = Unicode.Scalar(value), digits == 4 { out.append((scalar, false)) }
                    default: out.append((e, false))
                    }
                } else if c == "\"" {
                    inQuotes.toggle()
                    index += 1
                } else if c == " " || c == "\n" || c == "\t" || c == "\r" {
                    out.append((inQuotes ? c : " ", !inQuotes))
                    index += 1
                } else {
                    out.append((c, false))
                    index += 1
                }
            }
        }
        func walk(_ nodes: [XMLNode]) {
            for node in nodes {
                switch node {
                case .text(let text, _, _): process(text)
                case .comment: continue
                case .element(let element):
                    if element.name == "xliff:g" {
                        walk(element.children)
                        continue
                    }
                    var open = "<" + element.name
                    for (name, value) in element.attributes { open += " \(name)=\"\(value)\"" }
                    for scalar in (open + ">").unicodeScalars { out.append((scalar, false)) }
                    walk(element.children)
                    for scalar in "</\(element.name)>".unicodeScalars { out.append((scalar, false)) }
                }
            }
        }
        walk(children)
        // Collapse runs of collapsible whitespace and trim them at the edges.
        var result = String.UnicodeScalarView()
        var pendingSpace = false
        for (scalar, collapsible) in out {
            if collapsible {
                pendingSpace = true
                continue
            }
            if pendingSpace, !result.isEmpty { result.append(" ") }
            pendingSpace = false
            result.append(scalar)
        }
        return String(result)
    }

    /// A value as aapt-proof resource text (before XML escaping).
    static func escape(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var out = ""
        for (index, scalar) in scalars.enumerated() {
            switch scalar {
            case "\\": out += "\\\\"
            case "'": out += "\\'"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "@" where index == 0: out += "\\@"
            case "?" where index == 0: out += "\\?"
            case " ":
                let edge = index == 0 || index == scalars.count - 1
                let doubled = (index > 0 && scalars[index - 1] == " ") || (index + 1 < scalars.count && scalars[index + 1] == " ")
                out += edge || doubled ? "\\u0020" : " "
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// Whether aapt accepts `name` as a resource name.
    static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, TextChar.isASCIILetter(first) || first == "_" else { return false }
        return name.unicodeScalars.allSatisfy { TextChar.isASCIILetter($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "." }
    }

    /// The file for `messages` (key, ICU text, note), with findings for what cannot be written.
    public static func write(
        _ messages: [(key: String, text: String, note: String?)], mapping: PlaceholderMapping,
        header: String? = nil
    ) -> (bytes: [UInt8], diagnostics: [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        var out = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
        if let header { out += "<!-- \(escapeComment(header)) -->\n" }
        out += "<resources xmlns:tools=\"\(toolsNamespace)\">\n"
        for message in messages {
            guard isValidName(message.key) else {
                diagnostics.append(
                    Diagnostic(
                        .interchangeUnsupported,
                        "'\(message.key)' is not a valid Android resource name (letters, digits, '_' and '.'); it is left out", at: nil))
                continue
            }
            if let note = message.note { out += "    <!-- \(escapeComment(note)) -->\n" }
            if let plural = wholePlural(message.text), let position = mapping.order.position(of: plural.name, for: message.key) {
                let pound = "%\(position)$d"
                let printer = mapping.printer(key: message.key, pound: (plural.name, pound))
                let items = plural.cases.map { item -> (String, String) in
                    (item.key.description, printer.caseSource(item.message, context: .pluralCase(argument: plural.name)))
                }
                let printsCount = items.contains { $0.1.contains(pound) }
                out += "    <plurals name=\"\(message.key)\"\(printsCount ? "" : " tools:quantity=\"\(XMLEscape.attribute(plural.name))\"")>\n"
                for (quantity, text) in items {
                    out += "        <item quantity=\"\(quantity)\">\(XMLEscape.text(escape(text)))</item>\n"
                }
                out += "    </plurals>\n"
            } else {
                out +=
                    "    <string name=\"\(message.key)\">\(XMLEscape.text(escape(mapping.export(key: message.key, text: message.text))))</string>\n"
            }
        }
        out += "</resources>\n"
        return (Array(out.utf8), diagnostics)
    }

    /// The plural argument that is the whole message, when Android's `<plurals>` can hold it.
    static func wholePlural(_ text: String) -> MessagePluralArgument? {
        guard let pattern = try? MessagePattern(parsing: text), pattern.nodes.count == 1,
            case .plural(let plural) = pattern.nodes[0], !plural.isOrdinal, plural.pluralOffset == 0,
            plural.cases.allSatisfy({ if case .category = $0.key { true } else { false } })
        else { return nil }
        return plural
    }
}

enum TextChar {
    static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }
}

import JumpForms

/// Apple String Catalogs (`.xcstrings`): every locale in one JSON file.
///
/// Placeholders are `%N$@` (text) and `%N$lld` (numbers) through an `ArgumentOrder`. A plural
/// argument at the top of a message (categories only, no offset) becomes a substitution named
/// after the argument, `%#@name@`, with `argNum` its position and one plural variation per
/// category, `#` written `%arg`; text around it stays in the outer value, so a message may hold
/// several. Catalogs made by Xcode with plural variations of the whole string are read too (the
/// counted argument is the one numeric placeholder). Device variations are not supported. The
/// reference locale's notes are the keys' comments, and come back as every imported locale's.
/// Read in the catalog's `sourceLanguage`, a key without a localization in it is its own text,
/// as Xcode shows it (`"Hello %@"` reads as `Hello {label}`; `shouldTranslate: false` too).
public enum StringCatalogFile {
    public struct Localization: Sendable {
        public var tag: LocaleTag
        /// Key, ICU text, in key order.
        public var messages: [(key: String, text: String)]

        public init(tag: LocaleTag, messages: [(key: String, text: String)]) {
            self.tag = tag
            self.messages = messages
        }
    }

    /// The catalog for `localizations` (the source language's first), with findings for what
    /// cannot be written.
    public static func write(
        sourceLanguage: LocaleTag, localizations: [Localization], notes: [String: String],
        mapping: PlaceholderMapping
    ) -> String {
        var keys: [String] = []
        var seen = Set<String>()
        for localization in localizations {
            for (key, _) in localization.messages where seen.insert(key).inserted { keys.append(key) }
        }
        var strings: [(String, JSONValue)] = []
        let ordered = localizations.sorted { $0.tag.identifier < $1.tag.identifier }
        let byTag = ordered.map { localization in (localization.tag, Dictionary(localization.messages, uniquingKeysWith: { first, _ in first })) }
        // Keys in the order of the locale files (Xcode sorts them when it saves; any order reads).
        for key in keys {
            var entry: [(String, JSONValue)] = []
            if let note = notes[key] { entry.append(("comment", .string(note))) }
            entry.append(("extractionState", "manual"))
            var localized: [(String, JSONValue)] = []
            for (tag, messages) in byTag {
                guard let text = messages[key] else { continue }
                localized.append((tag.identifier, localizationValue(key: key, text: text, mapping: mapping)))
            }
            entry.append(("localizations", .object(localized.map { (key: $0.0, value: $0.1) })))
            strings.append((key, .object(entry.map { (key: $0.0, value: $0.1) })))
        }
        let root: JSONValue = .object([
            (key: "sourceLanguage", value: .string(sourceLanguage.identifier)),
            (key: "strings", value: .object(strings.map { (key: $0.0, value: $0.1) })),
            (key: "version", value: "1.0")
        ])
        var out = ""
        xcodeJSON(root, indent: 0, into: &out)
        return out + "\n"
    }

    static func stringUnit(_ value: String) -> JSONValue {
        ["stringUnit": ["state": "translated", "value": .string(value)]]
    }

    /// One localization of a key: a string unit, and substitutions for its top-level plurals.
    static func localizationValue(key: String, text: String, mapping: PlaceholderMapping) -> JSONValue {
        guard let pattern = try? MessagePattern(parsing: text) else { return stringUnit(mapping.export(key: key, text: text)) }
        // The top-level plurals a substitution can hold: categories only, no offset, an
        // argument with a position, and a name no other top-level plural has.
        let order = mapping.order
        var counts: [String: Int] = [:]
        for node in pattern.nodes { if case .plural(let plural) = node { counts[plural.name, default: 0] += 1 } }
        let substituted: [MessagePluralArgument] = pattern.nodes.compactMap { node in
            guard case .plural(let plural) = node, !plural.isOrdinal, plural.pluralOffset == 0, counts[plural.name] == 1,
                plural.cases.allSatisfy({ if case .category = $0.key { true } else { false } }),
                order.position(of: plural.name, for: key) != nil
            else { return nil }
            return plural
        }
        guard !substituted.isEmpty else { return stringUnit(mapping.export(key: key, text: text)) }
        let chosen = Set(substituted.map(\.name))
        var printer = mapping.printer(key: key)
        printer.replacePlural = { plural, context in
            context == .top && chosen.contains(plural.name) ? "%#@\(plural.name)@" : nil
        }
        let outer = printer.source(pattern.nodes)
        var substitutions: [(String, JSONValue)] = []
        for plural in substituted {
            let casePrinter = mapping.printer(key: key, pound: (plural.name, "%arg"))
            var variations: [(String, JSONValue)] = []
            for item in plural.cases {
                variations.append(
                    (item.key.description, stringUnit(casePrinter.caseSource(item.message, context: .pluralCase(argument: plural.name)))))
            }
            substitutions.append(
                (
                    plural.name,
                    .object([
                        (key: "argNum", value: .integer(order.position(of: plural.name, for: key)!)),
                        (key: "formatSpecifier", value: .string(mapping.dialect.number)),
                        (key: "variations", value: ["plural": .object(variations.map { (key: $0.0, value: $0.1) })])
                    ])
                ))
        }
        return .object([
            (key: "stringUnit", value: ["state": "translated", "value": .string(outer)]),
            (key: "substitutions", value: .object(substitutions.map { (key: $0.0, value: $0.1) }))
        ])
    }

    /// JSON as Xcode writes it: two-space indent, `"key" : value`.
    static func xcodeJSON(_ value: JSONValue, indent: Int, into out: inout String) {
        let pad = String(repeating: "  ", count: indent)
        switch value {
        case .object(let entries):
            if entries.isEmpty { out += "{\n\n\(pad)}"; return }
            out += "{\n"
            for (index, entry) in entries.enumerated() {
                out += pad + "  "
                writeString(entry.key, into: &out)
                out += " : "
                xcodeJSON(entry.value, indent: indent + 1, into: &out)
                out += index + 1 < entries.count ? ",\n" : "\n"
            }
            out += pad + "}"
        case .array(let items):
            out += "[\n"
            for (index, item) in items.enumerated() {
                out += pad + "  "
                xcodeJSON(item, indent: indent + 1, into: &out)
                out += index + 1 < items.count ? ",\n" : "\n"
            }
            out += pad + "]"
        case .string(let text): writeString(text, into: &out)
        default: out += value.serialized()
        }
    }

    static func writeString(_ text: String, into out: inout String) {
        out += JSONValue.string(text).serialized()
    }

    // MARK: reading

    /// The localizations a catalog holds, and its source language.
    public static func languages(_ bytes: [UInt8], path: String) -> (source: String?, tags: [String]) {
        guard let root = try? JSONNode.parse(bytes, file: path), case .object(let members) = root.value else { return (nil, []) }
        var tags: [String] = []
        var source: String?
        for member in members {
            if member.key.value == "sourceLanguage" { source = member.value.stringValue }
            guard member.key.value == "strings", case .object(let strings) = member.value.value else { continue }
            for string in strings {
                guard case .object(let fields) = string.value.value else { continue }
                for field in fields where field.key.value == "localizations" {
                    guard case .object(let localizations) = field.value.value else { continue }
                    for localization in localizations where !tags.contains(localization.key.value) { tags.append(localization.key.value) }
                }
            }
        }
        return (source, tags)
    }

    /// The messages of one locale.
    public static func read(_ bytes: [UInt8], path: String, locale: LocaleTag, mapping: PlaceholderMapping) -> InterchangeReadResult {
        var result = InterchangeReadResult()
        result.encoding = TextEncoding.detect(bytes)
        result.text = String(decoding: bytes, as: UTF8.self)
        let root: JSONNode
        do {
            root = try JSONNode.parse(bytes, file: path)
        } catch {
            result.diagnostics.append(
                Diagnostic(
                    .interchangeSyntax, "not valid JSON: \(error.message)",
                    at: SourceLocation(file: path, line: error.line, column: error.column)))
            return result
        }
        guard case .object(let members) = root.value, let strings = members.first(where: { $0.key.value == "strings" }),
            case .object(let entries) = strings.value.value
        else {
            result.diagnostics.append(Diagnostic(.interchangeSyntax, "a String Catalog is an object with 'strings'", at: root.location))
            return result
        }
        let source = members.first { $0.key.value == "sourceLanguage" }?.value.stringValue
        let isSource = source.flatMap(LocaleTag.init) == locale
        var first: [String: SourceLocation] = [:]
        for entry in entries {
            let key = entry.key.value
            let location = entry.key.location
            if let earlier = first[key] {
                result.diagnostics.append(
                    Diagnostic(
                        .interchangeDuplicateKey, "the key \"\(key)\" is written twice; the first is kept", at: location,
                        hint: "remove one of them", related: [Diagnostic.Related("first written here", at: earlier)]))
                continue
            }
            first[key] = location
            guard case .object(let fields) = entry.value.value else {
                result.diagnostics.append(Diagnostic(.interchangeSyntax, "the entry of \"\(key)\" must be an object", at: entry.value.location))
                continue
            }
            let comment = fields.first { $0.key.value == "comment" }?.value.stringValue
            var localized: JSONNode.Member?
            if let localizations = fields.first(where: { $0.key.value == "localizations" }), case .object(let byLanguage) = localizations.value.value
            {
                localized = byLanguage.first { LocaleTag($0.key.value) == locale }
            }
            var warnings: [PlaceholderMapping.Problem] = []
            do throws(ReadProblem) {
                let text: String
                if let localized {
                    text = try localizedText(localized.value, key: key, mapping: mapping, warnings: &warnings)
                } else if isSource {
                    // Xcode shows the key itself in the source language when it has no
                    // localization (also for `"shouldTranslate": false` strings).
                    text = try importText(key, key: key, mapping: mapping, warnings: &warnings)
                } else {
                    continue
                }
                for warning in warnings {
                    result.diagnostics.append(
                        Diagnostic(
                            .interchangeArgument, "key \"\(key)\": \(warning.message)", at: localized?.key.location ?? location, severity: .warning))
                }
                result.entries.append(InterchangeEntry(key: key, text: text, note: comment, location: location))
            } catch {
                result.diagnostics.append(
                    Diagnostic(error.code, "key \"\(key)\": \(error.message)", at: error.location ?? localized?.key.location ?? location))
            }
        }
        return result
    }

    struct ReadProblem: Error {
        var code: DiagnosticCode
        var message: String
        var location: SourceLocation?
    }

    static func unitValue(_ node: JSONNode) -> String? {
        guard case .object(let fields) = node.value, let unit = fields.first(where: { $0.key.value == "stringUnit" }),
            case .object(let unitFields) = unit.value.value
        else { return nil }
        return unitFields.first { $0.key.value == "value" }?.value.stringValue
    }

    static func field(_ node: JSONNode, _ name: String) -> JSONNode? {
        guard case .object(let fields) = node.value else { return nil }
        return fields.first { $0.key.value == name }?.value
    }

    /// The plural variations of a `variations` object: category -> value.
    static func pluralVariations(_ variations: JSONNode, key: String) throws(ReadProblem) -> [(PluralCategory, String)] {
        guard case .object(let kinds) = variations.value else {
            throw ReadProblem(code: .interchangeSyntax, message: "'variations' must be an object", location: variations.location)
        }
        var result: [(PluralCategory, String)] = []
        for kind in kinds {
            guard kind.key.value == "plural" else {
                throw ReadProblem(
                    code: .interchangeUnsupported, message: "'\(kind.key.value)' variations have no locale-file equivalent (only plural ones)",
                    location: kind.key.location)
            }
            guard case .object(let cases) = kind.value.value else { continue }
            for item in cases {
                guard let category = PluralCategory(rawValue: item.key.value) else {
                    throw ReadProblem(
                        code: .interchangeUnsupported, message: "unknown plural category '\(item.key.value)'", location: item.key.location)
                }
                guard let value = unitValue(item.value) else {
                    throw ReadProblem(
                        code: .interchangeSyntax, message: "the '\(item.key.value)' variation has no stringUnit value", location: item.value.location)
                }
                result.append((category, value))
            }
        }
        return result
    }

    /// A value (or a key used as the source text) as ICU source.
    static func importText(
        _ text: String, key: String, mapping: PlaceholderMapping, pound: Int? = nil, tokens: [String: String] = [:],
        warnings: inout [PlaceholderMapping.Problem]
    ) throws(ReadProblem) -> String {
        do {
            return try mapping.importValue(text, key: key, poundPosition: pound, tokens: tokens, warnings: &warnings)
        } catch {
            throw ReadProblem(code: .interchangeArgument, message: error.message, location: nil)
        }
    }

    static func localizedText(
        _ node: JSONNode, key: String, mapping: PlaceholderMapping,
        warnings: inout [PlaceholderMapping.Problem]
    ) throws(ReadProblem) -> String {
        func convert(_ text: String, pound: Int? = nil, tokens: [String: String] = [:]) throws(ReadProblem) -> String {
            try importText(text, key: key, mapping: mapping, pound: pound, tokens: tokens, warnings: &warnings)
        }
        let names = mapping.order.names(for: key)
        if let variations = field(node, "variations") {
            // A plural of the whole string (as Xcode writes it for one argument).
            let items = try pluralVariations(variations, key: key)
            var positions = Set<Int>()
            for (_, text) in items {
                let scalars = Array(text.unicodeScalars)
                for index in scalars.indices where scalars[index] == "%" && (index == 0 || scalars[index - 1] != "%") {
                    if let specifier = PrintfSpecifier.read(scalars, at: index), specifier.isNumber { positions.insert(specifier.position ?? 1) }
                }
            }
            guard positions.count == 1, let position = positions.first, position <= names.count else {
                throw ReadProblem(
                    code: .interchangeArgument, message: "cannot tell which argument the plural variations count", location: variations.location)
            }
            var cases: [String] = []
            for (category, text) in items { cases.append("\(category.rawValue) {\(try convert(text, pound: position))}") }
            return "{\(names[position - 1]), plural, \(cases.joined(separator: " "))}"
        }
        guard let outer = unitValue(node) else {
            throw ReadProblem(code: .interchangeSyntax, message: "the localization has no stringUnit value", location: node.location)
        }
        var tokens: [String: String] = [:]
        if let substitutions = field(node, "substitutions"), case .object(let members) = substitutions.value {
            for member in members {
                let name = member.key.value
                let argument: String
                if let number = field(member.value, "argNum")?.intValue {
                    guard number >= 1, number <= names.count else {
                        throw ReadProblem(
                            code: .interchangeArgument,
                            message:
                                "substitution '\(name)' is argument \(number), but the argument order of '\(key)' has \(names.count): \(names.joined(separator: ", "))",
                            location: member.key.location)
                    }
                    argument = names[number - 1]
                } else {
                    argument = name
                }
                guard let variations = field(member.value, "variations") else {
                    throw ReadProblem(code: .interchangeSyntax, message: "substitution '\(name)' has no variations", location: member.key.location)
                }
                var cases: [String] = []
                for (category, text) in try pluralVariations(variations, key: key) {
                    cases.append("\(category.rawValue) {\(try convert(text, tokens: ["%arg": "#"]))}")
                }
                tokens["%#@\(name)@"] = "{\(argument), plural, \(cases.joined(separator: " "))}"
            }
        }
        return try convert(outer, tokens: tokens)
    }
}

extension JSONNode {
    var intValue: Int? {
        if case .number(let text) = value { return Int(text) }
        return nil
    }
}

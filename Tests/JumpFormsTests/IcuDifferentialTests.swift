import Foundation
@testable import JumpForms
@testable import JumpLocalization
import Testing

/// The differential tests against ICU4C: Fixtures/icu-messages.json and icu-plurals.json hold
/// what ICU 77.1 (CLDR 47) makes of a corpus (scripts/generate-icu-differential.py writes them,
/// so the tests need neither Python nor ICU). Every difference must be listed, with its reason,
/// in Fixtures/icu-known-differences.json (and docs/locales.md); a listed difference that no
/// longer occurs fails too, so the list stays true.
struct IcuMessageCase: Sendable {
    var locale: String
    var message: String
    var arguments: [String: MessageArgument]
    /// The single argument's text (every corpus message has at most one argument).
    var value: String?
    /// ICU's output, or nil when ICU refused the message or its arguments.
    var output: String?
    var error: String?

    static func fixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/" + name).path
    }

    static func load() throws -> (icu: String, cases: [IcuMessageCase]) {
        let root = try JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: fixture("icu-messages.json")))))
        guard case .string(let version)? = root["icu"], case .array(let items)? = root["cases"] else {
            throw FixtureError(message: "icu-messages.json has no icu version or cases")
        }
        var cases: [IcuMessageCase] = []
        for item in items {
            guard case .array(let fields) = item, fields.count >= 4, case .string(let locale) = fields[0], case .string(let message) = fields[1],
                case .object(let entries) = fields[2]
            else { throw FixtureError(message: "bad case \(item)") }
            var arguments: [String: MessageArgument] = [:]
            var value: String?
            for (name, entry) in entries {
                switch entry {
                case .number(let text): arguments[name] = .decimal(text); value = text
                case .string(let text):
                    // A date without a time is a CivilDate (ICU was given its midnight, UTC).
                    arguments[name] = CivilDate(iso: text).map(MessageArgument.date) ?? .string(text)
                    value = text
                default: throw FixtureError(message: "bad argument in \(item)")
                }
            }
            var output: String?
            var error: String?
            if case .string(let text) = fields[3] { output = text }
            if fields.count > 4, case .string(let text) = fields[4] { error = text }
            cases.append(IcuMessageCase(locale: locale, message: message, arguments: arguments, value: value, output: output, error: error))
        }
        return (version, cases)
    }

    struct FixtureError: Error { var message: String }
}

/// A listed difference: the message, and optionally the locale and the argument value it is
/// limited to.
struct KnownDifference: Decodable, Sendable {
    var message: String
    var locale: String?
    var value: String?
    var reason: String

    func matches(_ item: IcuMessageCase) -> Bool {
        message == item.message && (locale == nil || locale == item.locale) && (value == nil || value == item.value)
    }

    static func load() throws -> [KnownDifference] {
        struct File: Decodable { var differences: [KnownDifference] }
        let data = try Data(contentsOf: URL(fileURLWithPath: IcuMessageCase.fixture("icu-known-differences.json")))
        return try JSONDecoder().decode(File.self, from: data).differences
    }
}

@Suite struct IcuDifferentialTests {
    /// What jump-forms makes of a case: its text, or its error prefixed with `error: `.
    static func jumpForms(_ item: IcuMessageCase) -> String {
        do {
            return try MessageFormatter(localeTag: item.locale).format(item.message, item.arguments)
        } catch {
            return "error: " + error.message
        }
    }

    /// Quoted, with invisible and non-ASCII spaces and marks written as \u{...}.
    static func visible(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .spaceSeparator where scalar != " ", .format, .control, .nonspacingMark:
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    @Test func messagesFormatAsICU4CFormatsThem() throws {
        let (version, cases) = try IcuMessageCase.load()
        #expect(version == "77.1")
        #expect(cases.count > 5000)
        let known = try KnownDifference.load()
        var used = Set<Int>()
        var unexpected: [String] = []
        var agreeing = 0
        for item in cases {
            let ours = Self.jumpForms(item)
            let same = item.output.map { $0 == ours } ?? ours.hasPrefix("error: ")
            if same {
                agreeing += 1
                continue
            }
            if let index = known.firstIndex(where: { $0.matches(item) }) {
                used.insert(index)
                continue
            }
            unexpected.append(
                "\(item.locale) \(item.message) \(item.value ?? "-"): ICU \(item.output.map { Self.visible($0) } ?? "error \(item.error ?? "")"), jump-forms \(Self.visible(ours))"
            )
        }
        if let path = ProcessInfo.processInfo.environment["ICU_DIFFERENCES_OUT"] {
            // All unexpected differences, one per line, for working through them.
            try unexpected.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        }
        #expect(
            unexpected.isEmpty,
            "\(unexpected.count) differences from ICU \(version) not in icu-known-differences.json (\(agreeing) of \(cases.count) agree):\n\(unexpected.prefix(60).joined(separator: "\n"))"
        )
        let stale = known.indices.filter { !used.contains($0) }.map { "\(known[$0].message) \(known[$0].locale ?? "*") \(known[$0].value ?? "*")" }
        #expect(stale.isEmpty, "listed differences that no longer occur: \(stale)")
    }

    @Test func pluralRulesSelectAsICU4CSelects() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: IcuMessageCase.fixture("icu-plurals.json")))
        struct File: Decodable {
            var icu: String
            var decimals: [String]
            var cardinal: [String: Int]
            var ordinal: [String: Int]
            var strings: [String]
        }
        let file = try JSONDecoder().decode(File.self, from: data)
        #expect(file.icu == "77.1")
        let letters: [PluralCategory: Character] = [.zero: "z", .one: "o", .two: "t", .few: "f", .many: "m", .other: "x"]
        var differences: [String] = []
        for (kind, languages) in [("cardinal", file.cardinal), ("ordinal", file.ordinal)] {
            #expect(
                languages.count == (kind == "cardinal" ? PluralRules.languages.count : PluralRules.ordinalLanguages.count),
                "ICU lacks some of jump-forms' \(kind) languages")
            for (language, index) in languages.sorted(by: { $0.key < $1.key }) {
                let rules = kind == "cardinal" ? PluralRules.cardinal(for: language) : PluralRules.ordinal(for: language)
                var ours = String((0...1000).map { letters[rules.category(for: $0)]! })
                ours += "|" + String(file.decimals.map { letters[rules.category(for: PluralOperands($0)!)]! })
                let theirs = file.strings[index]
                if ours != theirs {
                    let at = zip(ours, theirs).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? 0
                    differences.append("\(kind) \(language): first difference at position \(at)")
                }
            }
        }
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
    }
}

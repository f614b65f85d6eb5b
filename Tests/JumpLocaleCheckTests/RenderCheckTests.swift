@testable import JumpLocaleCheck
import JumpForms
import Testing

/// `render-failure` formats a message with sample values only when formatting could fail
/// (`CatalogCheck.alwaysFormats`): whatever it says always formats must format with every
/// value, and it must leave to the formatter every message that fails with some value.
@Suite struct RenderCheckTests {
    static let sources = [
        "plain text",
        "{label} is required",
        "{n, number} items, {n, number, integer} whole",
        "{n, number, percent}",
        "{n, plural, one {# item} other {# items}}",
        "{n, plural, offset:1 =0 {none} one {{label} and # other} other {{label} and # others}}",
        "{n, plural, one {{n, number}} other {{label, number}}}",
        "{g, select, female {{n, plural, one {her #} other {her # {label}}}} other {{when, date, short}}}",
        "{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}",
        "{when, date} at {when, time, short}",
        "{g, select, a {{missing}} other {x}}",
        "{n, plural, one {'{'quoted'}'} other {#}}"
    ]

    static let valueSets: [[String: [MessageArgument]]] = [
        ["label": ["Ana שלום"], "n": [1, .decimal("1.5"), 0, 2, 5], "g": ["female", "zzz-other"], "when": ["Ana שלום"]],
        ["label": [1, .decimal("2.0")], "n": [.string("3"), .decimal("0.5")], "g": ["a", "other"], "missing": ["m"], "when": [.int(0)]],
        ["label": ["x"], "n": ["Ana שלום", 1], "g": [1]],
        ["label": [.date(CivilDate(year: 2024, month: 1, day: 15)!)], "n": [.decimal("1e3")], "g": ["a"], "missing": [1]],
        ["n": [1]],
        ["label": [], "n": [1], "g": ["a"]],
        ["label": ["x"], "n": [.decimal("not a number")], "g": ["a"], "missing": ["m"]]
    ]

    /// Every value of each argument in turn, the others at their first (as `render` tries them).
    static func attempts(_ values: [String: [MessageArgument]]) -> [[String: MessageArgument]] {
        var base: [String: MessageArgument] = [:]
        for (name, given) in values { base[name] = given.first }
        var result = [base]
        for (name, given) in values {
            for value in given.dropFirst() {
                var arguments = base
                arguments[name] = value
                result.append(arguments)
            }
        }
        return result
    }

    @Test func alwaysFormatsOnlyWhatFormatsWithEveryValue() throws {
        let formatter = MessageFormatter(localeTag: "pl")
        var skipped = 0
        var failing = 0
        for source in Self.sources {
            let pattern = try MessagePattern(parsing: source)
            for values in Self.valueSets {
                let fails = Self.attempts(values).contains { arguments in
                    do {
                        try formatter.validate(pattern, arguments)
                        return false
                    } catch {
                        return true
                    }
                }
                if CatalogCheck.alwaysFormats(pattern.nodes, values) {
                    #expect(!fails, "\(source) with \(values)")
                    skipped += 1
                }
                if fails { failing += 1 }
            }
        }
        // The sets exercise both sides.
        #expect(skipped >= 20)
        #expect(failing >= 20)
    }
}

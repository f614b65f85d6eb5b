import JumpForms
import Testing

/// A localized number as the locale's `NumberSymbols` writes it, for expectations that must
/// not depend on grouping or decimal characters.
private func localized(_ locale: String, _ text: String) -> String {
    NumberSymbols.forLocale(locale).format(decimal: text)
}

private func localized(_ locale: String, _ value: Int) -> String {
    NumberSymbols.forLocale(locale).format(integer: value)
}

private func format(_ locale: String, _ source: String, _ arguments: [String: MessageArgument]) throws -> String {
    let pattern = try MessagePattern(parsing: source)
    return try MessageFormatter(localeTag: locale).format(pattern, arguments)
}

/// The scalar offset of the `occurrence`-th `needle` in `source`.
private func offset(of needle: String, in source: String, occurrence: Int = 1) -> Int {
    let haystack = Array(source.unicodeScalars), pattern = Array(needle.unicodeScalars)
    var seen = 0
    for start in 0...(haystack.count - pattern.count) where Array(haystack[start..<start + pattern.count]) == pattern {
        seen += 1
        if seen == occurrence { return start }
    }
    return -1
}

struct MessageFormatExample: Sendable, CustomTestStringConvertible {
    var locale: String
    var source: String
    var arguments: [String: MessageArgument]
    var expected: String
    init(_ locale: String, _ source: String, _ arguments: [String: MessageArgument], _ expected: String) {
        self.locale = locale
        self.source = source
        self.arguments = arguments
        self.expected = expected
    }
    init(_ locale: String, _ source: String, _ expected: String) {
        self.init(locale, source, [:], expected)
    }
    var testDescription: String { "[\(locale)] \(source) \(arguments)" }
}

struct MessageSyntaxExample: Sendable, CustomTestStringConvertible {
    var source: String
    var message: String
    var offset: Int
    /// The "did you mean" of a misspelt keyword.
    var hint: String?
    init(_ source: String, _ message: String, _ offset: Int, hint: String? = nil) {
        self.source = source
        self.message = message
        self.offset = offset
        self.hint = hint
    }
    var testDescription: String { source }
}

@Suite struct MessageFormatTests {
    // MARK: Formatting

    static let simple: [MessageFormatExample] = [
        MessageFormatExample("en", "", ""),
        MessageFormatExample("en", "Plain text.", "Plain text."),
        MessageFormatExample("en", "Hello, {name}!", ["name": "Ada"], "Hello, Ada!"),
        MessageFormatExample("en", "{ name\t}", ["name": "Ada"], "Ada"),
        MessageFormatExample("en", "{1} before {0}", ["0": "zero", "1": "one"], "one before zero"),
        MessageFormatExample("en", "{prénom}", ["prénom": "Zoé"], "Zoé"),
        MessageFormatExample("en", "{label} is required.", ["label": "Email address"], "Email address is required."),
        MessageFormatExample("en", "{n}", ["n": 1234], "1,234"),
        MessageFormatExample("en", "{n}", ["n": "1234"], "1234"),
        MessageFormatExample("en", "{n, number}", ["n": 1_234_567], "1,234,567"),
        MessageFormatExample("en", "{n, NUMBER}", ["n": 42], "42"),
        MessageFormatExample("en", "{n, number}", ["n": "12345"], "12,345"),
        MessageFormatExample("en", "{n, number}", ["n": -7], "-7"),
        // As ICU: at most three fraction digits, trailing zeros dropped, rounded half-even.
        MessageFormatExample("en", "{n, number}", ["n": .decimal("1234.50")], "1,234.5"),
        MessageFormatExample("en", "{n, number}", ["n": .decimal("3.14159")], "3.142"),
        MessageFormatExample("en", "{n}", ["n": .decimal("1.5e6")], "1,500,000"),
        MessageFormatExample("en", "{n, number, integer}", ["n": .decimal("2.5")], "2"),
        MessageFormatExample("en", "{n, number, integer}", ["n": .decimal("3.5")], "4"),
        MessageFormatExample("en", "{n, number, integer}", ["n": .decimal("2.51")], "3"),
        MessageFormatExample("en", "{n, number, integer}", ["n": .decimal("-2.5")], "-2"),
        MessageFormatExample("en", "{n, number, integer}", ["n": .decimal("0.49")], "0"),
        MessageFormatExample("en", "{n, number, integer}", ["n": .decimal("1234.5")], "1,234"),
        MessageFormatExample("en", "{n, number, integer}", ["n": .decimal("9.99")], "10"),
        MessageFormatExample("en", "{n, number, integer}", ["n": .decimal("1.2e3")], "1,200"),
        MessageFormatExample("en", "{n, number, integer}", ["n": 8], "8"),
        MessageFormatExample("en", "{n, number, percent}", ["n": .decimal("0.25")], "25%"),
        MessageFormatExample("de-DE", "{n, number, currency}", ["n": .decimal("1234.5")], "1.234,50\u{A0}€"),
        MessageFormatExample("en", "{n, number, ::currency/EUR}", ["n": .decimal("-3")], "-€3.00"),
        MessageFormatExample("en", "{n, number, ::compact-short}", ["n": 1_234_567], "1.2M"),
        MessageFormatExample("en", "{n, number, '#',##0.00}", ["n": 5], "#5.00"),
        MessageFormatExample("fr", "{n, number}", ["n": 1_234_567], localized("fr", 1_234_567)),
        MessageFormatExample("pl", "{n, number}", ["n": .decimal("12345.5")], localized("pl", "12345.5")),
        MessageFormatExample(
            "en", "Born {d, date, short} at {t, time}", ["d": "2024-05-01", "t": "2024-05-01T10:30:00Z"], "Born 5/1/24 at 10:30:00\u{202F}AM"),
        MessageFormatExample("en", "{d, date, long}", ["d": .date(CivilDate(year: 2024, month: 5, day: 1)!)], "May 1, 2024"),
        MessageFormatExample("fr", "{d, date, ::yMMMMd}", ["d": "2024-05-01T23:30:00-02:00"], "2 mai 2024"),
        // Numbers are milliseconds since 1970, as in ICU.
        MessageFormatExample("en", "{d, date}", ["d": 20240501], "Jan 1, 1970"),
        MessageFormatExample("en", "{1st}", ["1st": "x"], "x"),
        MessageFormatExample("en", "{g, select, female {She} male {He} other {They}} replied.", ["g": "female"], "She replied."),
        MessageFormatExample("en", "{g, select, female {She} male {He} other {They}} replied.", ["g": "unset"], "They replied."),
        MessageFormatExample("en", "{g, select, 1 {one} other {many}}", ["g": 1], "one"),
        MessageFormatExample("en", "{g, select, a {{x}} other {y}}", ["g": "b"], "y")
    ]

    @Test(arguments: simple)
    func formatsSimpleArguments(_ example: MessageFormatExample) throws {
        #expect(try format(example.locale, example.source, example.arguments) == example.expected)
    }

    static let englishItems = "{count, plural, =0 {No items} one {# item} other {# items}}"
    static let french = "{n, plural, one {# jour} many {# de jours} other {# jours}}"
    static let polish = "{n, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}"
    static let party = "{count, plural, offset:1 =0 {Nobody is here} =1 {Only you} one {You and # other person} other {You and # other people}}"

    static let plurals: [MessageFormatExample] = [
        MessageFormatExample("en", englishItems, ["count": 0], "No items"),
        MessageFormatExample("en", englishItems, ["count": 1], "1 item"),
        MessageFormatExample("en", englishItems, ["count": 2], "2 items"),
        MessageFormatExample("en", englishItems, ["count": 1000], "1,000 items"),
        MessageFormatExample("en", englishItems, ["count": -1], "-1 item"),
        MessageFormatExample("en", englishItems, ["count": "1"], "1 item"),
        // As ICU: the category of the number as `#` shows it (1.0 shows 1).
        MessageFormatExample("en", englishItems, ["count": .decimal("1.0")], "1 item"),
        MessageFormatExample("en", englishItems, ["count": .decimal("0.0")], "No items"),
        MessageFormatExample("fr", french, ["n": 0], "0 jour"),
        MessageFormatExample("fr", french, ["n": 1], "1 jour"),
        MessageFormatExample("fr", french, ["n": 2], "2 jours"),
        MessageFormatExample("fr", french, ["n": .decimal("1.5")], localized("fr", "1.5") + " jour"),
        MessageFormatExample("fr", french, ["n": 1_000_000], localized("fr", 1_000_000) + " de jours"),
        MessageFormatExample("fr", french, ["n": 2_000_001], localized("fr", 2_000_001) + " jours"),
        MessageFormatExample("pl", polish, ["n": 1], "1 plik"),
        MessageFormatExample("pl", polish, ["n": 2], "2 pliki"),
        MessageFormatExample("pl", polish, ["n": 4], "4 pliki"),
        MessageFormatExample("pl", polish, ["n": 5], "5 plików"),
        MessageFormatExample("pl", polish, ["n": 12], "12 plików"),
        MessageFormatExample("pl", polish, ["n": 22], "22 pliki"),
        MessageFormatExample("pl", polish, ["n": 25], "25 plików"),
        MessageFormatExample("pl", polish, ["n": 0], "0 plików"),
        MessageFormatExample("pl", polish, ["n": .decimal("2.5")], localized("pl", "2.5") + " pliku"),
        MessageFormatExample("en", party, ["count": 0], "Nobody is here"),
        MessageFormatExample("en", party, ["count": 1], "Only you"),
        MessageFormatExample("en", party, ["count": 2], "You and 1 other person"),
        MessageFormatExample("en", party, ["count": 5], "You and 4 other people"),
        MessageFormatExample("en", party, ["count": .decimal("2.50")], "You and 1.5 other people"),
        MessageFormatExample("pl", "{n, plural, offset:2 one {# plik} few {# pliki} many {# plików} other {# pliku}}", ["n": 3], "1 plik"),
        // `=N` compares the value before the offset is subtracted.
        MessageFormatExample("en", "{n, plural, offset:1 =2 {two} other {#}}", ["n": 2], "two"),
        MessageFormatExample("en", "{n, plural, =1.5 {one and a half} other {#}}", ["n": .decimal("1.50")], "one and a half"),
        MessageFormatExample("en", "{n, plural, =-1 {minus one} other {#}}", ["n": -1], "minus one"),
        // Categories a pattern omits fall back to `other`.
        MessageFormatExample("pl", "{n, plural, one {# plik} other {# plików/pliki}}", ["n": 5], "5 plików/pliki"),
        MessageFormatExample("en", "{ count , plural , offset: 1 one { # } other { # ! } }", ["count": 3], " 2 ! "),
        MessageFormatExample("en", "{n, PLURAL, one {#} other {#s}}", ["n": 2], "2s"),
        // selectordinal: CLDR's ordinal rules.
        MessageFormatExample("en", "{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}", ["n": 2], "2nd"),
        MessageFormatExample("en", "{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}", ["n": 113], "113th"),
        MessageFormatExample("cy", "{n, selectordinal, zero {#fed} one {#af} two {#ail} few {#ydd} many {#ed} other {#fed}}", ["n": 5], "5ed"),
        MessageFormatExample("en", "{n, selectordinal, =1 {first} one {#st} other {#th}}", ["n": 1], "first"),
        MessageFormatExample("en", "{n, selectordinal, =1 {first} one {#st} other {#th}}", ["n": 21], "21st"),
        MessageFormatExample("en", "{n, selectordinal, offset:1 other {# after}}", ["n": 1001], "1,000 after")
    ]

    @Test(arguments: plurals)
    func formatsPlurals(_ example: MessageFormatExample) throws {
        #expect(try format(example.locale, example.source, example.arguments) == example.expected)
    }

    static let nested = """
        {count, plural, one {{gender, select, female {She has one message} other {They have one message}}} \
        other {{gender, select, female {She has {count, number} messages} other {They have {count, number} messages}}}}
        """
    static let pluralInSelect = """
        {gender, select, female {{count, plural, one {She has # message} other {She has # messages}}} \
        other {{count, plural, one {They have # message} other {They have # messages}}}}
        """

    static let nesting: [MessageFormatExample] = [
        MessageFormatExample("en", nested, ["count": 1, "gender": "female"], "She has one message"),
        MessageFormatExample("en", nested, ["count": 1, "gender": "male"], "They have one message"),
        MessageFormatExample("en", nested, ["count": 1000, "gender": "female"], "She has 1,000 messages"),
        MessageFormatExample("en", nested, ["count": 3, "gender": "unset"], "They have 3 messages"),
        MessageFormatExample("en", pluralInSelect, ["count": 1, "gender": "female"], "She has 1 message"),
        MessageFormatExample("en", pluralInSelect, ["count": 7, "gender": "male"], "They have 7 messages"),
        // As in ICU4J, `#` belongs to the cases of a plural itself: inside a nested select it is text.
        MessageFormatExample("en", "{n, plural, other {{g, select, other {# items}}}}", ["n": 2, "g": "x"], "# items"),
        // In a plural nested in a plural, `#` is the inner number.
        MessageFormatExample("en", "{a, plural, other {# {b, plural, other {# and #}} #}}", ["a": 1, "b": 2], "1 2 and 2 1")
    ]

    @Test(arguments: nesting)
    func formatsNestedArguments(_ example: MessageFormatExample) throws {
        #expect(try format(example.locale, example.source, example.arguments) == example.expected)
    }

    static let apostrophes: [MessageFormatExample] = [
        MessageFormatExample("fr", "l''adresse", "l'adresse"),
        MessageFormatExample("fr", "l'adresse {x}", ["x": "e-mail"], "l'adresse e-mail"),
        MessageFormatExample("en", "It's {name}'s turn", ["name": "Ada"], "It's Ada's turn"),
        MessageFormatExample("en", "'{'literal'}'", "{literal}"),
        MessageFormatExample("en", "'{name}'", ["name": "unused"], "{name}"),
        MessageFormatExample("en", "This is '{quoted}' text", "This is {quoted} text"),
        MessageFormatExample("en", "'{''}'", "{'}"),
        MessageFormatExample("en", "a '' b", "a ' b"),
        MessageFormatExample("en", "ends with '", "ends with '"),
        MessageFormatExample("en", "''{name}''", ["name": "x"], "'x'"),
        MessageFormatExample("en", "An unterminated '{ quote runs } to the end", "An unterminated { quote runs } to the end"),
        MessageFormatExample("en", "'#' and # stay at the top level", "'#' and # stay at the top level"),
        MessageFormatExample("en", "'|' is not special", "'|' is not special"),
        MessageFormatExample("en", "{n, plural, other {'#' is #}}", ["n": 3], "# is 3"),
        MessageFormatExample("en", "{n, plural, other {it''s # o'clock}}", ["n": 3], "it's 3 o'clock"),
        MessageFormatExample("en", "{n, plural, other {# '{'items'}'}}", ["n": 2], "2 {items}"),
        MessageFormatExample("en", "{g, select, other {'#' and #}}", ["g": "x"], "'#' and #"),
        MessageFormatExample("en", "{g, select, other {'{x}'}}", ["g": "x"], "{x}")
    ]

    @Test(arguments: apostrophes)
    func resolvesApostrophes(_ example: MessageFormatExample) throws {
        #expect(try format(example.locale, example.source, example.arguments) == example.expected)
    }

    @Test func nestingUpToTheLimitFormats() throws {
        let depth = MessagePattern.maximumNestingDepth
        let source = String(repeating: "{a, select, other {", count: depth) + "x{b}" + String(repeating: "}}", count: depth)
        #expect(try format("en", source, ["a": "q", "b": "y"]) == "xy")
    }

    @Test func formatterConvenienceParses() throws {
        let formatter = MessageFormatter(localeTag: "en-US")
        #expect(try formatter.format("{n, plural, one {# day} other {# days}}", ["n": 1]) == "1 day")
        #expect(throws: MessageFormatError(message: "syntax error at offset 0: unmatched '{'")) {
            try formatter.format("{n", [:])
        }
    }

    // MARK: Format errors

    static let formatErrors: [(source: String, arguments: [String: MessageArgument], error: MessageFormatError)] = [
        ("Hello {name}", [:], MessageFormatError(message: "missing argument 'name'", argument: "name")),
        ("{g, select, a {{x}} other {y}}", ["g": "a"], MessageFormatError(message: "missing argument 'x'", argument: "x")),
        ("{n, plural, other {#}}", ["n": "abc"], MessageFormatError(message: "argument 'n' must be a number, not 'abc'", argument: "n")),
        ("{n, number}", ["n": .decimal("1,5")], MessageFormatError(message: "argument 'n' must be a number, not '1,5'", argument: "n")),
        ("{n}", ["n": .decimal("")], MessageFormatError(message: "argument 'n' must be a number, not ''", argument: "n")),
        ("{n, selectordinal, other {#}}", [:], MessageFormatError(message: "missing argument 'n'", argument: "n"))
    ]

    @Test(arguments: formatErrors)
    func reportsFormatErrors(_ source: String, _ arguments: [String: MessageArgument], _ error: MessageFormatError) throws {
        let pattern = try MessagePattern(parsing: source)
        #expect(throws: error) { try MessageFormatter(localeTag: "en").format(pattern, arguments) }
        // `validate` (the locale checks' render test) fails as `format` does, text unbuilt.
        #expect(throws: error) { try MessageFormatter(localeTag: "en").validate(pattern, arguments) }
    }

    /// `validate` accepts what `format` formats.
    @Test(arguments: simple + plurals + nesting)
    func validateAcceptsWhatFormats(_ example: MessageFormatExample) throws {
        let pattern = try MessagePattern(parsing: example.source)
        try MessageFormatter(localeTag: example.locale).validate(pattern, example.arguments)
    }

    // MARK: Syntax errors

    static let errors: [MessageSyntaxExample] = [
        MessageSyntaxExample("Hello {name", "unmatched '{'", 6),
        MessageSyntaxExample("Hello {", "unmatched '{'", 6),
        MessageSyntaxExample("Hello }", "unmatched '}'; quote it as '}' for a literal brace", 6),
        MessageSyntaxExample("{a}}", "unmatched '}'; quote it as '}' for a literal brace", 3),
        MessageSyntaxExample("{count, plural, one {# item}", "unmatched '{'", 0),
        MessageSyntaxExample("{count, plural, one {# item} other {# items}", "unmatched '{'", 0),
        MessageSyntaxExample("{count, plural, other {# items", "unmatched '{'", 22),
        MessageSyntaxExample("{n, number, integer", "unmatched '{'", 0),
        MessageSyntaxExample("{n, date, {nested}", "unmatched '{'", 0),
        MessageSyntaxExample("{count, plural, one {# item}}", "plural argument 'count' has no 'other' case", 28),
        MessageSyntaxExample("{g, select, male {he}}", "select argument 'g' has no 'other' case", 21),
        MessageSyntaxExample("{n, selectordinal, one {#st}}", "selectordinal argument 'n' has no 'other' case", 28),
        MessageSyntaxExample("{n, plural, }", "plural argument 'n' has no 'other' case", 12),
        MessageSyntaxExample(
            "{count, nubmer}", "unknown argument type 'nubmer'; expected number, date, time, plural, select or selectordinal", 8,
            hint: "did you mean 'number'?"),
        MessageSyntaxExample(
            "{count, spellout}", "unknown argument type 'spellout'; expected number, date, time, plural, select or selectordinal", 8),
        MessageSyntaxExample("{count, choice, 0#none|1#one}", "the 'choice' argument type is not supported; use plural or select", 8),
        MessageSyntaxExample("{}", "empty argument name", 1),
        MessageSyntaxExample("{ , number}", "empty argument name", 2),
        MessageSyntaxExample("{-x}", "expected an argument name after '{' but found '-'", 1),
        MessageSyntaxExample("{name x}", "expected ',' or '}' after argument name", 6),
        MessageSyntaxExample("{first-name}", "expected ',' or '}' after argument name", 6),
        MessageSyntaxExample("{n,}", "expected an argument type after ','", 3),
        MessageSyntaxExample("{01}", "invalid argument number '01'; it must not have leading zeros", 1),
        MessageSyntaxExample("{32768}", "argument number '32768' is too large; ICU accepts argument numbers up to 32767", 1),
        MessageSyntaxExample("{n, number x}", "expected ',' or '}' after 'number'", 11),
        MessageSyntaxExample("{n, number, }", "expected a number style after ','", 12),
        MessageSyntaxExample("{n, date, 'yyyy}", "the quote in this date style is never closed", 10),
        MessageSyntaxExample("{n, plural}", "expected ',' and the cases after 'plural'", 10),
        MessageSyntaxExample("{n, select other {x}}", "expected ',' and the cases after 'select'", 11),
        MessageSyntaxExample("{count, plural, one {# item} one {# items} other {#}}", "plural argument 'count' has the case 'one' twice", 29),
        MessageSyntaxExample("{count, plural, =0 {none} =0 {zero} other {#}}", "plural argument 'count' has the case '=0' twice", 26),
        MessageSyntaxExample("{n, plural, =1 {a} =1.0 {b} other {c}}", "plural argument 'n' has the case '=1.0' twice", 19),
        MessageSyntaxExample("{g, select, a {x} a {y} other {z}}", "select argument 'g' has the case 'a' twice", 18),
        MessageSyntaxExample(
            "{n, plural, onee {#} other {#}}",
            "unknown plural category 'onee'; expected zero, one, two, few, many, other or an exact match such as =0", 12, hint: "did you mean 'one'?"),
        MessageSyntaxExample(
            "{n, plural, One {#} other {#}}", "unknown plural category 'One'; expected zero, one, two, few, many, other or an exact match such as =0",
            12, hint: "did you mean 'one'?"),
        MessageSyntaxExample(
            "{n, plural, one {#} othr {#}}", "unknown plural category 'othr'; expected zero, one, two, few, many, other or an exact match such as =0",
            20, hint: "did you mean 'other'?"),
        MessageSyntaxExample(
            "{n, plural, one {#} lots {#}}", "unknown plural category 'lots'; expected zero, one, two, few, many, other or an exact match such as =0",
            20),
        MessageSyntaxExample(
            "{g, selct, a {x} other {y}}", "unknown argument type 'selct'; expected number, date, time, plural, select or selectordinal", 4,
            hint: "did you mean 'select'?"),
        MessageSyntaxExample("{n, plural, one # other {#}}", "expected '{' after case 'one'", 16),
        MessageSyntaxExample("{n, plural, =1x {a} other {b}}", "expected '{' after case '=1'", 14),
        MessageSyntaxExample("{n, plural, one {a} other {b} @}", "expected a case key or '}' in plural argument 'n' but found '@'", 30),
        MessageSyntaxExample("{n, plural, =x {a} other {b}}", "expected a number after '=', as in '=0'", 13),
        MessageSyntaxExample("{n, select, =1 {a} other {b}}", "'=' cases are only allowed in plural and selectordinal arguments", 12),
        MessageSyntaxExample("{count, plural, offset:x other {#}}", "expected a non-negative integer after 'offset:'", 23),
        MessageSyntaxExample("{count, plural, offset:-1 other {#}}", "expected a non-negative integer after 'offset:'", 23),
        MessageSyntaxExample("{count, plural, offset: 1.5 other {#}}", "expected a non-negative integer after 'offset:'", 24),
        MessageSyntaxExample("{count, plural, offset:}", "expected a non-negative integer after 'offset:'", 23),
        MessageSyntaxExample("{count, plural, offset:99999999999999999999 other {#}}", "the value after 'offset:' is too large", 23),
        MessageSyntaxExample("{count, plural, one {#} offset:1 other {#}}", "'offset:' must come before the first case", 24),
        MessageSyntaxExample("{n, plural, offset:1 offset:2 other {#}}", "plural argument 'n' has more than one 'offset:'", 21),
        MessageSyntaxExample("{g, select, offset:1 other {x}}", "'offset:' is only allowed in plural and selectordinal arguments", 12),
        MessageSyntaxExample(
            "{n, plural, other {it'}s}}",
            "this apostrophe starts quoted text that is never closed, so a '{' before the end is unmatched; write '' for a literal apostrophe", 21),
        // Offsets count Unicode scalars: 👍🏽 is two scalars (one Character, four UTF-16 units).
        MessageSyntaxExample("👍🏽 {x", "unmatched '{'", 3),
        MessageSyntaxExample("e\u{301} }", "unmatched '}'; quote it as '}' for a literal brace", 3),
        MessageSyntaxExample(
            "Café {n, nombre}", "unknown argument type 'nombre'; expected number, date, time, plural, select or selectordinal", 9,
            hint: "did you mean 'number'?"),
        // The first error stops the parser.
        MessageSyntaxExample(
            "{a, nubmer} {b", "unknown argument type 'nubmer'; expected number, date, time, plural, select or selectordinal", 4,
            hint: "did you mean 'number'?"),
        // The parser reads UTF-8 bytes; offsets still count scalars after non-ASCII text.
        MessageSyntaxExample("é{x", "unmatched '{'", 1),
        MessageSyntaxExample("😀 {n, plural, one {x}}", "plural argument 'n' has no 'other' case", 21),
        MessageSyntaxExample("a\u{2028}b } c", "unmatched '}'; quote it as '}' for a literal brace", 4),
        MessageSyntaxExample(
            "😀{n, plural, other {'{}}",
            "this apostrophe starts quoted text that is never closed, so a '{' before the end is unmatched; write '' for a literal apostrophe", 20),
        MessageSyntaxExample(
            "{prénom, select, other {x}} {日付, nombre}",
            "unknown argument type 'nombre'; expected number, date, time, plural, select or selectordinal", 33, hint: "did you mean 'number'?"),
        MessageSyntaxExample("{count, plural, offset:1é other {#}}", "expected a non-negative integer after 'offset:'", 23),
        MessageSyntaxExample("{n, number, \u{2028}}", "expected a number style after ','", 13),
        // Non-ASCII Pattern_White_Space separates tokens.
        MessageSyntaxExample(
            "{\u{2028}n\u{85},\u{200E}nombre}", "unknown argument type 'nombre'; expected number, date, time, plural, select or selectordinal", 6,
            hint: "did you mean 'number'?"),
        // Non-ASCII Pattern_Syntax ends an identifier and is named whole in messages.
        MessageSyntaxExample("{a«b}", "expected ',' or '}' after argument name", 2),
        MessageSyntaxExample("{«}", "expected an argument name after '{' but found '«'", 1),
        MessageSyntaxExample("{n, plural, one\u{2010} {x} other {y}}", "expected '{' after case 'one'", 15),
        MessageSyntaxExample("{n, plural, → {x} other {y}}", "expected a case key or '}' in plural argument 'n' but found '→'", 12),
        MessageSyntaxExample("{g, select, é→ {x} other {y}}", "expected '{' after case 'é'", 13),
        // Select keys compare as Swift strings do: `é` and `e` + U+0301 are one key.
        MessageSyntaxExample("{g, select, é {a} e\u{301} {b} other {c}}", "select argument 'g' has the case 'e\u{301}' twice", 18)
    ]

    @Test(arguments: errors)
    func reportsSyntaxErrors(_ example: MessageSyntaxExample) {
        let error = MessageSyntaxError(message: example.message, offset: example.offset, hint: example.hint)
        #expect(throws: error) {
            try MessagePattern(parsing: example.source)
        }
        // Lint's parse, which builds no tree, stops at the same error.
        #expect(Self.usesOnly(example.source) == .failure(error))
        #expect((0...example.source.unicodeScalars.count).contains(example.offset))
    }

    /// What lint's parse (`MessagePattern.argumentUses(ofUTF8:)`: no tree, no string) finds.
    static func usesOnly(_ source: String) -> Result<[MessageArgumentUse], MessageSyntaxError> {
        var source = source
        return source.withUTF8 { MessagePattern.argumentUses(ofUTF8: $0) }
    }

    /// Lint's parse finds the argument uses the full parse collects, for every kind of message.
    @Test(arguments: simple + plurals + nesting + apostrophes)
    func parseWithoutTreeFindsTheSameUses(_ example: MessageFormatExample) throws {
        let pattern = try MessagePattern(parsing: example.source)
        #expect(Self.usesOnly(example.source) == .success(pattern.argumentUses))
    }

    @Test func nestingDeeperThanTheLimitIsAnError() {
        let opener = "{a, select, other {"
        let depth = MessagePattern.maximumNestingDepth + 1
        let source = String(repeating: opener, count: depth) + "x" + String(repeating: "}}", count: depth)
        let error = MessageSyntaxError(
            message: "plural and select arguments are nested more than 64 levels deep",
            offset: opener.unicodeScalars.count * (depth - 1))
        #expect(throws: error) { try MessagePattern(parsing: source) }
        // Also when the message is cut short: the depth check comes first.
        #expect(throws: error) { try MessagePattern(parsing: String(repeating: opener, count: 10_000)) }
    }

    // MARK: Structure

    @Test func buildsTheTree() throws {
        let pattern = try MessagePattern(parsing: "a{b}c{n, plural, offset:1 =0 {z} other {# {n, number, integer}}}{d, date, short}")
        #expect(
            pattern.nodes == [
                .text("a"),
                .argument(MessageSimpleArgument(name: "b", kind: .simple, offset: 1, nameOffset: 2)),
                .text("c"),
                .plural(
                    MessagePluralArgument(
                        name: "n", isOrdinal: false, pluralOffset: 1,
                        cases: [
                            MessagePluralCase(key: .exact("0"), keyOffset: 26, message: [.text("z")]),
                            MessagePluralCase(
                                key: .category(.other), keyOffset: 33,
                                message: [
                                    .pound(offset: 40),
                                    .text(" "),
                                    .number(MessageNumberArgument(name: "n", style: .integer, offset: 42, nameOffset: 43))
                                ])
                        ], offset: 5, nameOffset: 6)),
                .argument(MessageSimpleArgument(name: "d", kind: .date, style: "short", offset: 64, nameOffset: 65))
            ])
        #expect(try MessagePattern(parsing: "x{y}") == MessagePattern(parsing: "x{y}"))
        #expect(
            try MessagePattern(parsing: "{n, number, percent}").nodes == [
                .number(MessageNumberArgument(name: "n", style: .other("percent"), offset: 0, nameOffset: 1))
            ])
        #expect(try MessagePattern(parsing: "''").nodes == [.text("'")])
        #expect(try MessagePattern(parsing: "").nodes.isEmpty)
    }

    @Test func offsetsCountScalarsAfterNonASCIIText() throws {
        // 😀 and 👍🏽's skin tone are outside the BMP; `\r\n` is one Character but two scalars;
        // U+2028 is text outside braces; U+00A0 is neither white space nor syntax, so it is
        // part of the name `a\u{A0}`.
        let pattern = try MessagePattern(parsing: "😀 é\u{2028}{prénom} {n, plural, one {# 👍🏽} other {#\r\n{a\u{A0}}}}'{'")
        #expect(
            pattern.nodes == [
                .text("😀 é\u{2028}"),
                .argument(MessageSimpleArgument(name: "prénom", kind: .simple, offset: 4, nameOffset: 5)),
                .text(" "),
                .plural(
                    MessagePluralArgument(
                        name: "n", isOrdinal: false, pluralOffset: 0,
                        cases: [
                            MessagePluralCase(key: .category(.one), keyOffset: 25, message: [.pound(offset: 30), .text(" 👍🏽")]),
                            MessagePluralCase(
                                key: .category(.other), keyOffset: 36,
                                message: [
                                    .pound(offset: 43),
                                    .text("\r\n"),
                                    .argument(MessageSimpleArgument(name: "a\u{A0}", kind: .simple, offset: 46, nameOffset: 47))
                                ])
                        ], offset: 13, nameOffset: 14)),
                .text("{")
            ])
        #expect(
            pattern.argumentUses == [
                MessageArgumentUse(name: "prénom", kind: .simple, offset: 4, nameOffset: 5),
                MessageArgumentUse(name: "n", kind: .plural, offset: 13, nameOffset: 14),
                MessageArgumentUse(name: "a\u{A0}", kind: .simple, offset: 46, nameOffset: 47)
            ])
        #expect(
            pattern.selectors == [
                MessageSelectorUse(
                    name: "n", kind: .plural, offset: 13, nameOffset: 14, pluralOffset: 0,
                    keys: [
                        .init(text: "one", offset: 25, category: .one), .init(text: "other", offset: 36, category: .other)
                    ])
            ])
        // Argument types match case-insensitively; a select key may be any identifier.
        let select = try MessagePattern(parsing: "{Ж, SELECT, жёлтый {{x, Number, INTEGER}} other {}}")
        #expect(
            select.nodes == [
                .select(
                    MessageSelectArgument(
                        name: "Ж",
                        cases: [
                            MessageSelectCase(
                                key: "жёлтый", keyOffset: 12,
                                message: [
                                    .number(MessageNumberArgument(name: "x", style: .integer, offset: 20, nameOffset: 21))
                                ]),
                            MessageSelectCase(key: "other", keyOffset: 42, message: [])
                        ], offset: 0, nameOffset: 1))
            ])
    }

    @Test func textWithoutBracesOrApostrophesIsOneNode() throws {
        for source in ["# 😀 l’adresse \u{2028}\r\n", "a", "hash # and comma, = : are text", String(repeating: "long text é ", count: 100)] {
            #expect(try MessagePattern(parsing: source).nodes == [.text(source)])
        }
        // The same text with an apostrophe goes through the parser, with the same result.
        #expect(try MessagePattern(parsing: "# 😀 l'adresse").nodes == [.text("# 😀 l'adresse")])
        #expect(try MessagePattern(parsing: "l''adresse '{'é'}' x").nodes == [.text("l'adresse {é} x")])
    }

    static let usage = """
        Hi {name}, {count, plural, offset:1 =0 {none} one {# {item}} other {{count, number} {items} {name}}} \
        {g, select, female {she} other {they}} {d, date} {t, time, short} \
        {n, selectordinal, one {#st} other {#th}}
        """

    /// A use whose name is the `occurrence`-th `needle` in `usage`, right after its `{`.
    private static func use(_ name: String, _ kind: MessageArgumentUse.Kind, at needle: String, occurrence: Int = 1) -> MessageArgumentUse {
        let nameOffset = offset(of: needle, in: usage, occurrence: occurrence)
        return MessageArgumentUse(name: name, kind: kind, offset: nameOffset - 1, nameOffset: nameOffset)
    }

    @Test func listsArguments() throws {
        let pattern = try MessagePattern(parsing: Self.usage)
        #expect(
            pattern.arguments == [
                Self.use("name", .simple, at: "name}"),
                Self.use("count", .plural, at: "count, plural"),
                Self.use("item", .simple, at: "item}"),
                Self.use("items", .simple, at: "items}"),
                Self.use("g", .select, at: "g, select"),
                Self.use("d", .date, at: "d, date"),
                Self.use("t", .time, at: "t, time"),
                Self.use("n", .selectordinal, at: "n, selectordinal")
            ])
        #expect(
            pattern.argumentUses == [
                Self.use("name", .simple, at: "name}"),
                Self.use("count", .plural, at: "count, plural"),
                Self.use("item", .simple, at: "item}"),
                Self.use("count", .number, at: "count, number"),
                Self.use("items", .simple, at: "items}"),
                Self.use("name", .simple, at: "name}", occurrence: 2),
                Self.use("g", .select, at: "g, select"),
                Self.use("d", .date, at: "d, date"),
                Self.use("t", .time, at: "t, time"),
                Self.use("n", .selectordinal, at: "n, selectordinal")
            ])
        #expect(pattern.argumentNames == ["name", "count", "item", "items", "g", "d", "t", "n"])
        #expect(try MessagePattern(parsing: "no arguments, '{x}'").arguments.isEmpty)
        // Whitespace: `offset` is the brace, `nameOffset` the name.
        #expect(try MessagePattern(parsing: "a { b }").arguments == [MessageArgumentUse(name: "b", kind: .simple, offset: 2, nameOffset: 4)])
    }

    @Test func listsSelectors() throws {
        let source = Self.usage
        let selectors = try MessagePattern(parsing: source).selectors
        func key(_ text: String, _ occurrence: Int, _ category: PluralCategory?) -> MessageSelectorUse.Key {
            .init(text: text, offset: offset(of: text + " {", in: source, occurrence: occurrence), category: category)
        }
        let count = Self.use("count", .plural, at: "count, plural")
        let g = Self.use("g", .select, at: "g, select")
        let n = Self.use("n", .selectordinal, at: "n, selectordinal")
        #expect(
            selectors == [
                MessageSelectorUse(
                    name: "count", kind: .plural, offset: count.offset, nameOffset: count.nameOffset, pluralOffset: 1,
                    keys: [key("=0", 1, nil), key("one", 1, .one), key("other", 1, .other)]),
                MessageSelectorUse(
                    name: "g", kind: .select, offset: g.offset, nameOffset: g.nameOffset, pluralOffset: 0,
                    keys: [key("female", 1, nil), key("other", 2, nil)]),
                MessageSelectorUse(
                    name: "n", kind: .selectordinal, offset: n.offset, nameOffset: n.nameOffset, pluralOffset: 0,
                    keys: [key("one", 2, .one), key("other", 3, .other)])
            ])
        #expect(selectors.allSatisfy { $0.hasOther })
        #expect(selectors[0].categories == [.one, .other])
        #expect(selectors[0].keys.map(\.isExactMatch) == [true, false, false])
        #expect(selectors[1].categories.isEmpty)
    }

    /// The argument uses and selectors as a walk of the tree finds them, outer before nested:
    /// the lists the parser collects must be these.
    static func walkedUses(_ pattern: MessagePattern) -> (arguments: [MessageArgumentUse], selectors: [MessageSelectorUse]) {
        var arguments: [MessageArgumentUse] = []
        var selectors: [MessageSelectorUse] = []
        pattern.walk { node in
            switch node {
            case .argument(let argument):
                let kind: MessageArgumentUse.Kind =
                    switch argument.kind {
                    case .simple: .simple
                    case .date: .date
                    case .time: .time
                    }
                arguments.append(MessageArgumentUse(name: argument.name, kind: kind, offset: argument.offset, nameOffset: argument.nameOffset))
            case .number(let argument):
                arguments.append(MessageArgumentUse(name: argument.name, kind: .number, offset: argument.offset, nameOffset: argument.nameOffset))
            case .plural(let argument):
                arguments.append(
                    MessageArgumentUse(
                        name: argument.name, kind: argument.isOrdinal ? .selectordinal : .plural,
                        offset: argument.offset, nameOffset: argument.nameOffset))
                let keys = argument.cases.map { item -> MessageSelectorUse.Key in
                    let category: PluralCategory? = if case .category(let category) = item.key { category } else { nil }
                    return .init(text: item.key.description, offset: item.keyOffset, category: category)
                }
                selectors.append(
                    MessageSelectorUse(
                        name: argument.name, kind: argument.isOrdinal ? .selectordinal : .plural, offset: argument.offset,
                        nameOffset: argument.nameOffset,
                        pluralOffset: argument.pluralOffset, keys: keys))
            case .select(let argument):
                arguments.append(MessageArgumentUse(name: argument.name, kind: .select, offset: argument.offset, nameOffset: argument.nameOffset))
                let keys = argument.cases.map { MessageSelectorUse.Key(text: $0.key, offset: $0.keyOffset, category: nil) }
                selectors.append(
                    MessageSelectorUse(
                        name: argument.name, kind: .select, offset: argument.offset, nameOffset: argument.nameOffset,
                        pluralOffset: 0, keys: keys))
            case .text, .pound:
                break
            }
        }
        return (arguments, selectors)
    }

    @Test func collectedUsesMatchTheTree() throws {
        for source in [
            Self.usage, Self.nested, "{a, plural, offset:2 =1 {{b, select, x {{c}} other {{d, selectordinal, one {#} other {#}}}}} other {{a}}}"
        ] {
            let pattern = try MessagePattern(parsing: source)
            let walked = Self.walkedUses(pattern)
            #expect(pattern.argumentUses == walked.arguments)
            #expect(pattern.selectors == walked.selectors)
            #expect(!walked.selectors.isEmpty)
        }
    }

    @Test func selectorsListOuterBeforeInner() throws {
        let selectors = try MessagePattern(parsing: Self.nested).selectors
        #expect(selectors.map(\.name) == ["count", "gender", "gender"])
        #expect(selectors.map(\.kind) == [.plural, .select, .select])
    }

    /// A check a locale linter can build on: which CLDR categories a plural lacks.
    @Test(arguments: [
        ("en", "{n, plural, one {#} other {#}}", [PluralCategory]()),
        ("fr", "{n, plural, one {#} other {#}}", [.many]),
        ("pl", "{n, plural, one {#} other {#}}", [.few, .many]),
        ("pl", "{n, plural, =1 {#} one {#} few {#} many {#} other {#}}", [])
    ])
    func findsMissingCategories(_ locale: String, _ source: String, _ missing: [PluralCategory]) throws {
        let selector = try #require(try MessagePattern(parsing: source).selectors.first)
        let rules = PluralRules.cardinal(for: locale)
        #expect(rules.categories.filter { !selector.categories.contains($0) } == missing)
    }

    @Test func parsesLongMessagesInOnePass() throws {
        let unit = "{a} '{'text'}' {n, plural, one {# x} other {# y}} "
        let source = String(repeating: unit, count: 5_000)
        let pattern = try MessagePattern(parsing: source)
        #expect(pattern.arguments.count == 2)
        #expect(pattern.selectors.count == 5_000)
        let output = try MessageFormatter(localeTag: "en").format(pattern, ["a": "A", "n": 1])
        #expect(output == String(repeating: "A {text} 1 x ", count: 5_000))
    }

    /// Random messages from syntax-heavy pieces: parsing never traps, errors point inside the
    /// message, and a parsed message formats when every argument is given.
    @Test func survivesRandomInput() {
        let pieces = [
            "{", "}", "'", "''", "#", ",", " ", "a", "n", "=1", "offset:1", "plural", "select",
            "selectordinal", "number", "integer", "one", "other", "few", "{n, plural, ", "{a, select, ", "é", "👍🏽",
            "\u{2028}", "\u{85}", "«", "e\u{301}", "\r\n"
        ]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let formatter = MessageFormatter(localeTag: "pl")
        for _ in 0..<20_000 {
            var source = ""
            state = state &* 6364136223846793005 &+ 1442695040888963407
            for _ in 0..<Int(state >> 60) + 1 {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                source += pieces[Int(state >> 33) % pieces.count]
            }
            #expect(Self.usesOnly(source) == MessagePattern.parse(source).map(\.argumentUses), "\(source)")
            do {
                let pattern = try MessagePattern(parsing: source)
                let walked = Self.walkedUses(pattern)
                #expect(pattern.argumentUses == walked.arguments, "\(source)")
                #expect(pattern.selectors == walked.selectors, "\(source)")
                var arguments: [String: MessageArgument] = [:]
                for name in pattern.argumentNames { arguments[name] = 3 }
                #expect(throws: Never.self, "\(source)") { try formatter.format(pattern, arguments) }
            } catch {
                #expect((0...source.unicodeScalars.count).contains(error.offset), "\(source) -> \(error)")
            }
        }
    }
}

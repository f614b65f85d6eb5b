import CLITestSupport
import Foundation
import JumpForms
import JumpFormsLoader
import JumpLocaleInterchange
import Testing
import TestSupport

/// Apple .strings, String Catalogs and Android strings.xml: reading the files teams get back
/// from translation tools, and lossless round trips of every locale of the repository.
@Suite struct InterchangeTests {
    static let fixtures = Repository.path("Tests/JumpLocaleInterchangeTests/Fixtures")

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: fixtures + "/" + name)))
    }

    /// The repository's locale files.
    static func repositoryCatalogs() -> [LocaleCatalog] {
        var project = LoadedProject()
        return ProjectLoader().loadLocales(in: Repository.path("locales"), into: &project)
    }

    static var reference: LocaleCatalog { repositoryCatalogs().first { $0.tag.value.identifier == "en-US" }! }

    static func mapping(_ dialect: PrintfDialect) -> PlaceholderMapping {
        PlaceholderMapping(dialect: dialect, order: ArgumentOrder(reference: reference))
    }

    static func render(_ diagnostics: [Diagnostic], _ result: InterchangeReadResult, path: String) -> String {
        var sources = SourceFiles()
        if let text = result.text { sources.add(path: path, text: text) }
        return DiagnosticRenderer(sources: sources).render(diagnostics)
    }

    // MARK: .strings

    static let expectedStrings: [(String, String, String?)] = [
        ("fields.email.label", "Adresse e-mail", "Shown above the e-mail field."),
        ("validation.required", "{label} est obligatoire.", "The error when the field is empty."),
        ("quotes", "Il a dit \"bonjour\" \\ puis\n\tpartit", nil),
        ("unquoted.key", "valeur éè et 😀", nil),
        ("octal", "bell\u{07} and tab\t", nil),
        ("plural", "{count, plural, one {# fichier} other {# fichiers}}", nil)
    ]

    @Test(arguments: ["fr-utf16be-nobom.strings", "fr-utf16le-bom.strings", "fr-utf8-bom.strings"])
    func stringsFilesInEveryEncoding(_ name: String) throws {
        let result = StringsFile.read(try Self.bytes(name), path: name)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(result.entries.map { [$0.key, $0.text, $0.note ?? "-"] } == Self.expectedStrings.map { [$0.0, $0.1, $0.2 ?? "-"] })
        let expectedEncoding: TextEncoding.Detected =
            switch name {
            case "fr-utf16be-nobom.strings": .init(encoding: .utf16BigEndian, byteOrderMark: false)
            case "fr-utf16le-bom.strings": .init(encoding: .utf16LittleEndian, byteOrderMark: true)
            default: .init(encoding: .utf8, byteOrderMark: true)
            }
        #expect(result.encoding == expectedEncoding)
        #expect(result.entries[3].location.line == 7)
    }

    @Test(arguments: [("ja-utf16be-nobom.strings", TextEncoding.utf16BigEndian), ("ja-utf16le-nobom.strings", .utf16LittleEndian)])
    func utf16WithoutByteOrderMarkStartingWithJapanese(_ name: String, _ encoding: TextEncoding) throws {
        // The file starts with a long Japanese comment holding 一 (U+4E00: a zero low byte).
        let result = StringsFile.read(try Self.bytes(name), path: name)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(result.encoding == TextEncoding.Detected(encoding: encoding, byteOrderMark: false))
        #expect(result.entries.map(\.key) == ["fields.email.label", "fields.email.tip", "validation.required", "plural"])
        #expect(result.entries.map(\.text) == ["メールアドレス", "一 最\u{3000}Ā を含むテキスト", "{label}は必須です。", "{count, plural, other {# 件のファイル}}"])
        #expect(result.entries[0].note?.hasPrefix("日本語のコメント：") == true)
        #expect(result.entries[1].note == "入力欄の下に表示")
        #expect(result.entries[2].location.line == 6)
    }

    @Test(arguments: [TextEncoding.utf16BigEndian, .utf16LittleEndian])
    func utf16ByteOrderWhateverTheTextIs(_ encoding: TextEncoding) throws {
        // Texts whose code units mostly hold a zero byte where ASCII has none: counting zeros
        // guesses the wrong order, and the other order is tried when the first does not parse.
        for text in ["一 最\u{3000}Ā", String(repeating: "一", count: 300), String(repeating: "Ā最", count: 200), "日本語"] {
            let bytes = encoding.encode("/* \(text) */\n\"k\" = \"\(text)\";\n", byteOrderMark: false)
            let result = StringsFile.read(bytes, path: "x.strings")
            #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
            #expect(result.encoding == TextEncoding.Detected(encoding: encoding, byteOrderMark: false))
            #expect(result.entries.map(\.text) == [text])
            #expect(result.entries.first?.note == text)
        }
        // UTF-8 stays UTF-8, and a file that is neither reports the most likely encoding's error.
        #expect(TextEncoding.detect(Array("\"k\" = \"一\";".utf8)) == TextEncoding.Detected(encoding: .utf8, byteOrderMark: false))
        let broken = StringsFile.read(encoding.encode("\"k\" = \"一\"\n", byteOrderMark: false), path: "b.strings")
        #expect(broken.failed)
        #expect(broken.encoding == TextEncoding.Detected(encoding: encoding, byteOrderMark: false))
        #expect(broken.diagnostics.first?.message == "expected ';' after the value of \"k\"")
    }

    @Test func stringsErrorsNameTheirRealLines() throws {
        let broken = StringsFile.read(try Self.bytes("broken-utf16le.strings"), path: "broken.strings")
        #expect(broken.failed)
        #expect(
            Self.render(broken.diagnostics, broken, path: "broken.strings") == """
                broken.strings:3:10: error[interchange-syntax]: expected ';' after the value of "b"
                 3 | "b" = "B"
                   |          ^

                """)
        let duplicate = StringsFile.read(try Self.bytes("duplicate.strings"), path: "duplicate.strings")
        #expect(duplicate.entries.map(\.text) == ["OK", "Annuler"])
        #expect(
            Self.render(duplicate.diagnostics, duplicate, path: "duplicate.strings") == """
                duplicate.strings:3:1: error[interchange-duplicate-key]: the key "ok" is written twice; the first value is kept
                 3 | "ok" = "D'accord";
                   | ^~~~
                  = hint: remove one of them
                duplicate.strings:1:1: note: first written here
                 1 | "ok" = "OK";
                   | ^~~~

                """)
    }

    @Test(arguments: [
        (TextEncoding.utf8, false), (.utf8, true), (.utf16BigEndian, false), (.utf16BigEndian, true),
        (.utf16LittleEndian, false), (.utf16LittleEndian, true)
    ])
    func stringsRoundTripsInEveryEncoding(_ encoding: TextEncoding, _ bom: Bool) throws {
        for catalog in Self.repositoryCatalogs() {
            let messages = catalog.allMessages.map { (key: $0.key, text: $0.text, note: catalog.notes[$0.key]) }
            let written = StringsFile.write(messages + Self.awkward.map { ($0.key, $0.text, $0.note) }, encoding: encoding, byteOrderMark: bom)
            let read = StringsFile.read(written, path: "x.strings")
            #expect(read.diagnostics.isEmpty)
            #expect(read.encoding == TextEncoding.Detected(encoding: encoding, byteOrderMark: bom))
            #expect(read.entries.map(\.key) == messages.map(\.key) + Self.awkward.map(\.key))
            #expect(read.entries.map(\.text) == messages.map(\.text) + Self.awkward.map(\.text))
            #expect(read.entries.map(\.note) == messages.map(\.note) + Self.awkward.map(\.note))
        }
    }

    /// Texts that stress escaping in every format.
    static let awkward: [(key: String, text: String, note: String?)] = [
        ("awkward.quotes", "Il a dit \"oui\" et 'non' \\ fin", "quotes: \" and */ too"),
        ("awkward.spaces", "  edge  and   double  ", nil),
        ("awkward.lines", "one\ntwo\r\nthree\ttab", nil),
        ("awkward.percent", "100% sure, 50%% off, %d and %1$s are text", nil),
        ("awkward.markup", "<b>bold</b> & <a href=\"https://example.com/?a=1&b=2\">link</a>", nil),
        ("awkward.at", "@start and ?question", nil),
        ("awkward.icu", "{label}: '{literal}' {n, plural, =0 {none} one {# item} other {# items}} {g, select, female {elle} other {il}}", nil),
        ("awkward.unicode", "Ünïcödé 日本語 😀 \u{200F}שלום\u{200F}", nil),
        // UTF-16 code units with a zero byte: 一 U+4E00, 最 U+6700, U+3000, Ā U+0100.
        ("awkward.zeroBytes", "一 最\u{3000}Ā", nil),
        ("awkward.control", "bell\u{07}del\u{7F}", nil)
    ]

    // MARK: Android

    @Test func androidFileReadsAsAaptDoes() throws {
        let result = AndroidStringsFile.read(try Self.bytes("strings.xml"), path: "strings.xml", mapping: Self.mapping(.android))
        let texts = Dictionary(uniqueKeysWithValues: result.entries.map { ($0.key, $0.text) })
        #expect(texts["fields.email.label"] == "Adresse e-mail")
        #expect(result.entries.first?.note == "Shown above the e-mail field.")
        #expect(texts["validation.required"] == "{label} est obligatoire.")
        #expect(texts["apostrophe"] == "L'adresse de {label} n'est pas valide")
        #expect(texts["spaces"] == "collapsed spaces and lines")
        #expect(texts["quoted"] == "  kept   as is  ")
        #expect(texts["escapes"] == "Line\nTab\tQuote\"Unicodeé at@")
        #expect(texts["markup"] == "Read <b>this</b> & <a href=\"https://example.com/help\">that</a>")
        #expect(texts["xliff"] == "Hello {label}!")
        #expect(texts["cdata"] == "<b>bold</b> & more")
        #expect(texts["percent"] == "100% of {value, number} files")
        #expect(
            texts["validation.minLength"] == "{value, plural, one {{label} needs at least # character.} other {{label} needs at least # characters.}}"
        )
        #expect(texts["files"] == "{value, plural, one {One file} other {Many files}}")
        #expect(texts["ok"] == "OK")
        #expect(result.diagnostics.map(\.code.displayName) == ["interchange-unsupported", "interchange-duplicate-key"])
        #expect(result.diagnostics.map { $0.location?.line ?? 0 } == [23, 27])
        #expect(result.diagnostics[1].related.first?.location.line == 26)
    }

    @Test func androidRoundTripsEveryLocale() throws {
        let mapping = Self.mapping(.android)
        for catalog in Self.repositoryCatalogs() {
            let messages = catalog.allMessages.map { (key: $0.key, text: $0.text, note: catalog.notes[$0.key]) } + Self.awkward
            let written = AndroidStringsFile.write(messages, mapping: mapping, header: "test")
            #expect(written.diagnostics.isEmpty)
            let read = AndroidStringsFile.read(written.bytes, path: "strings.xml", mapping: mapping)
            #expect(read.diagnostics.isEmpty, "\(read.diagnostics)")
            #expect(read.entries.map(\.key) == messages.map(\.key))
            for (entry, message) in zip(read.entries, messages) {
                #expect(entry.text == message.text, "\(catalog.tag.value) \(message.key)")
                #expect(entry.note == message.note)
            }
        }
        let plural = String(
            decoding: AndroidStringsFile.write(
                [("files", "{n, plural, one {One file} other {Files}}", nil)],
                mapping: PlaceholderMapping(dialect: .android, order: ArgumentOrder(declared: ["n"]))
            ).bytes, as: UTF8.self)
        #expect(plural.contains("<plurals name=\"files\" tools:quantity=\"n\">"))
        let invalid = AndroidStringsFile.write([("fields.first-name.label", "x", nil)], mapping: mapping)
        #expect(invalid.diagnostics.map(\.code) == [.interchangeUnsupported])
    }

    // MARK: String Catalogs

    @Test func stringCatalogPluralsBecomeICU() throws {
        let pl = StringCatalogFile.read(
            try Self.bytes("Localizable.xcstrings"), path: "Localizable.xcstrings", locale: LocaleTag("pl")!,
            mapping: PlaceholderMapping(dialect: .apple, order: ArgumentOrder(declared: ["label", "field", "value"])))
        let texts = Dictionary(uniqueKeysWithValues: pl.entries.map { ($0.key, $0.text) })
        #expect(texts["files.count"] == "{label, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}")
        #expect(
            texts["validation.minLength"]
                == "Pole „{label}”: {value, plural, one {co najmniej # znak} few {co najmniej # znaki} many {co najmniej # znaków} other {co najmniej # znaku}}"
        )
        #expect(texts["greeting"] == "Cześć, {label}!")
        #expect(pl.entries.first?.note == "How many files")
        #expect(pl.diagnostics.map(\.code) == [.interchangeUnsupported])
        #expect(pl.diagnostics.first?.message.contains("'device' variations") == true)
        let languages = StringCatalogFile.languages(try Self.bytes("Localizable.xcstrings"), path: "x")
        #expect(languages.source == "en")
        #expect(languages.tags == ["en", "pl"])
    }

    @Test func stringCatalogRoundTripsEveryLocale() throws {
        let catalogs = Self.repositoryCatalogs()
        let mapping = Self.mapping(.apple)
        let localizations = catalogs.map { catalog in
            StringCatalogFile.Localization(
                tag: catalog.tag.value, messages: catalog.allMessages.map { ($0.key, $0.text) } + Self.awkward.map { ($0.key, $0.text) })
        }
        let text = StringCatalogFile.write(
            sourceLanguage: LocaleTag("en-US")!, localizations: localizations,
            notes: ["fields.emailAddress.label": "The e-mail field"], mapping: mapping)
        #expect(text.contains("\"sourceLanguage\" : \"en-US\""))
        #expect(text.contains("\"value\" : \"%#@value@\""))
        for catalog in catalogs {
            let read = StringCatalogFile.read(Array(text.utf8), path: "L.xcstrings", locale: catalog.tag.value, mapping: mapping)
            #expect(read.diagnostics.isEmpty, "\(read.diagnostics)")
            let texts = Dictionary(uniqueKeysWithValues: read.entries.map { ($0.key, $0.text) })
            for message in catalog.allMessages { #expect(texts[message.key] == message.text, "\(catalog.tag.value) \(message.key)") }
            for message in Self.awkward { #expect(texts[message.key] == message.text, "\(catalog.tag.value) \(message.key)") }
            #expect(read.entries.first { $0.key == "fields.emailAddress.label" }?.note == "The e-mail field")
        }
    }

    /// ICU apostrophes: `.strings` keep the source as written; strings.xml and String Catalogs
    /// carry the message, which reads back in its canonical form (an apostrophe doubled only
    /// where a single one would start quoted text): the same message, maybe not the same source.
    @Test func icuApostrophesRoundTrip() throws {
        let cases: [(written: String, canonical: String)] = [
            ("L''adresse de {label} n''est pas valide", "L'adresse de {label} n'est pas valide"),
            ("It's {label}", "It's {label}"),
            ("l''{label} x", "l''{label} x"),
            ("''{label}''", "''{label}'"),
            ("'{literal}' and '' alone", "'{literal}' and ' alone"),
            ("{n, plural, one {l''un} other {# l''autres '#'}}", "{n, plural, one {l'un} other {# l'autres '#'}}")
        ]
        let messages = cases.enumerated().map { (key: "k\($0.offset)", text: $0.element.written, note: String?.none) }
        let mapping = PlaceholderMapping(dialect: .android, order: ArgumentOrder(declared: ["label", "n"]))
        let android = AndroidStringsFile.read(AndroidStringsFile.write(messages, mapping: mapping).bytes, path: "x.xml", mapping: mapping)
        let apple = PlaceholderMapping(dialect: .apple, order: ArgumentOrder(declared: ["label", "n"]))
        let catalog = StringCatalogFile.write(
            sourceLanguage: LocaleTag("en-US")!,
            localizations: [
                StringCatalogFile.Localization(tag: LocaleTag("en-US")!, messages: messages.map { ($0.key, $0.text) })
            ], notes: [:], mapping: apple)
        let xcstrings = StringCatalogFile.read(Array(catalog.utf8), path: "x.xcstrings", locale: LocaleTag("en-US")!, mapping: apple)
        let strings = StringsFile.read(StringsFile.write(messages), path: "x.strings")
        for read in [android, xcstrings, strings] { #expect(read.diagnostics.isEmpty, "\(read.diagnostics)") }
        #expect(android.entries.map(\.text) == cases.map(\.canonical))
        #expect(xcstrings.entries.map(\.text) == cases.map(\.canonical))
        #expect(strings.entries.map(\.text) == cases.map(\.written))
        // The canonical form is the message printed back: the same message.
        for (written, canonical) in cases {
            #expect(MessagePrinter().source(try MessagePattern(parsing: written).nodes) == canonical, "\(written)")
            #expect(
                try MessageFormatter(localeTag: "en-US").format(MessagePattern(parsing: written), ["label": "X", "n": 2])
                    == MessageFormatter(localeTag: "en-US").format(MessagePattern(parsing: canonical), ["label": "X", "n": 2]))
        }
    }

    // MARK: placeholders

    @Test func placeholdersMapThroughTheDeclaredOrder() throws {
        let mapping = PlaceholderMapping(dialect: .apple, order: ArgumentOrder(referenceArguments: ["merge": ["provider", "newProvider"]]))
        #expect(
            mapping.export(key: "merge", text: "Sign in with {provider} to link {newProvider}: {label}")
                == "Sign in with %4$@ to link %5$@: %1$@")
        #expect(
            try mapping.importValue("Sign in with %4$@ to link %5$@: %1$@", key: "merge") == "Sign in with {provider} to link {newProvider}: {label}")
        #expect(mapping.export(key: "x", text: "{value, number}% of {unknown}") == "%3$lld%% of {unknown}")
        #expect(throws: PlaceholderMapping.Problem.self) { try mapping.importValue("%7$@", key: "x") }
        #expect(throws: PlaceholderMapping.Problem.self) { try mapping.importValue("%1$@ and %@", key: "x") }
        #expect(try mapping.importValue("%@ and %@", key: "x") == "{label} and {field}")
        // Any text survives: percent signs that look like placeholders are doubled on the way out.
        for text in ["100%", "50% off", "%d%%", "%1$s literal", "%", "%%%", "a%@b", "{label}%"] {
            #expect(try mapping.importValue(mapping.export(key: "x", text: text), key: "x") == text, "\(text)")
        }
    }

    /// A literal `%` in a value with placeholders is `%%` (`String.format("100% %1$s")` throws
    /// on Android; `String(format:)` drops it); a value without placeholders is plain text.
    @Test func percentSignsAreDoubledInFormatStringsOnly() throws {
        let android = AndroidStringsFile.write(
            [
                ("pct", "100% of {label}", nil), ("plain", "100% sure, 50% off", nil),
                ("files", "{value, plural, one {# file (100%)} other {# files}}", nil)
            ],
            mapping: Self.mapping(.android))
        let xml = String(decoding: android.bytes, as: UTF8.self)
        #expect(xml.contains("<string name=\"pct\">100%% of %1$s</string>"), "\(xml)")
        #expect(xml.contains("<string name=\"plain\">100% sure, 50% off</string>"), "\(xml)")
        #expect(xml.contains("<item quantity=\"one\">%3$d file (100%%)</item>"), "\(xml)")
        let catalog = StringCatalogFile.write(
            sourceLanguage: LocaleTag("en-US")!,
            localizations: [
                StringCatalogFile.Localization(tag: LocaleTag("en-US")!, messages: [("pct", "100% of {label}"), ("plain", "100%")])
            ], notes: [:], mapping: Self.mapping(.apple))
        #expect(catalog.contains("\"value\" : \"100%% of %1$@\""), "\(catalog)")
        #expect(catalog.contains("\"value\" : \"100%\""), "\(catalog)")
        // What String(format:) makes of an exported value: the literal percent sign survives.
        let numbers = PlaceholderMapping(dialect: .apple, order: ArgumentOrder(declared: ["value"]))
        let exported = numbers.export(key: "k", text: "{value, number}% done, 100% sure")
        #expect(exported == "%1$lld%% done, 100%% sure")
        #expect(String(format: exported, 42 as Int64) == "42% done, 100% sure")
        // Both read back: `%%` is `%` in a format string, text otherwise.
        let back = AndroidStringsFile.read(android.bytes, path: "x.xml", mapping: Self.mapping(.android))
        #expect(back.entries.map(\.text) == ["100% of {label}", "100% sure, 50% off", "{value, plural, one {# file (100%)} other {# files}}"])
        let read = StringCatalogFile.read(Array(catalog.utf8), path: "x.xcstrings", locale: LocaleTag("en-US")!, mapping: Self.mapping(.apple))
        #expect(read.entries.map(\.text) == ["100% of {label}", "100%"])
        #expect(try numbers.importValue("100%% of %1$lld", key: "k") == "100% of {value, number}")
        #expect(try numbers.importValue("50% off", key: "k") == "50% off")
    }

    @Test func androidNotesWithDashesRoundTrip() throws {
        let notes = ["note line 1\nnote line 2 -- with --> arrow", "---", "ends with -", "back\\slash \\- and \\\\", "-starts"]
        let messages = notes.enumerated().map { (key: "k\($0.offset)", text: "x", note: Optional($0.element)) }
        let written = AndroidStringsFile.write(messages, mapping: Self.mapping(.android))
        let xml = String(decoding: written.bytes, as: UTF8.self)
        #expect(xml.contains("<!-- note line 1\nnote line 2 -\\- with -\\-> arrow -->"), "\(xml)")
        let comments = xml.components(separatedBy: "<!--").dropFirst().map { $0.components(separatedBy: "-->")[0] }
        #expect(comments.count == notes.count)
        for comment in comments { #expect(!comment.contains("--"), "\(comment)") }
        let read = AndroidStringsFile.read(written.bytes, path: "x.xml", mapping: Self.mapping(.android))
        #expect(read.diagnostics.isEmpty, "\(read.diagnostics)")
        #expect(read.entries.map(\.note) == notes)
        // Comments written by other tools read as they are.
        let other = AndroidStringsFile.read(
            Array("<resources><!-- C:\\path\\n - a note --><string name=\"a\">A</string></resources>".utf8),
            path: "o.xml", mapping: Self.mapping(.android))
        #expect(other.entries.first?.note == "C:\\path\\n - a note")
    }

    @Test func placeholderProblemsNameTheRealPlaceholders() throws {
        let mixed = AndroidStringsFile.read(
            Array("<resources><string name=\"d\">Value %.2f and %1$d%%</string></resources>".utf8),
            path: "d.xml", mapping: Self.mapping(.android))
        #expect(mixed.diagnostics.map(\.message) == ["resource 'd': placeholders with and without a position ('%1$d' and '%.2f') are mixed"])
        // Precision is kept as an ICU number skeleton; formatting ICU cannot say is a warning.
        let xml = """
            <resources>
            <string name="p">%1$.2f and %2$.1f</string>
            <string name="h">%1$x and %3$.0f</string>
            </resources>
            """
        let read = AndroidStringsFile.read(Array(xml.utf8), path: "p.xml", mapping: Self.mapping(.android))
        #expect(read.entries.map(\.text) == ["{label, number, ::.00} and {field, number, ::.0}", "{label, number} and {value, number}"])
        #expect(!read.diagnostics.containsErrors)
        #expect(
            Self.render(read.diagnostics, read, path: "p.xml") == """
                p.xml:3:1: warning[interchange-argument]: resource 'h': placeholder '%1$x' becomes {label, number}: its formatting ('x') has no ICU equivalent and is lost
                 3 | <string name="h">%1$x and %3$.0f</string>
                   | ^~~~~~~
                p.xml:3:1: warning[interchange-argument]: resource 'h': placeholder '%3$.0f' becomes {value, number}: its formatting ('.0f') has no ICU equivalent and is lost
                 3 | <string name="h">%1$x and %3$.0f</string>
                   | ^~~~~~~

                """)
        let again = AndroidStringsFile.write(read.entries.map { ($0.key, $0.text, nil) }, mapping: Self.mapping(.android))
        #expect(String(decoding: again.bytes, as: UTF8.self).contains("<string name=\"p\">%1$.2f and %2$.1f</string>"))
        let apple = Self.mapping(.apple)
        #expect(apple.export(key: "x", text: "{value, number, ::.00}") == "%3$.2f")
        #expect(try apple.importValue("%3$.2f", key: "x") == "{value, number, ::.00}")
    }

    /// aapt's `formatted="false"`: the value is no format string, so `%` is text.
    @Test func androidFormattedFalseValuesAreText() throws {
        let xml = """
            <resources xmlns:tools="http://schemas.android.com/tools">
            <string name="pct" formatted="false">100%% sure, %1$s stays</string>
            <string name="fmt" formatted="true">100%% of %1$s</string>
            <plurals name="files" formatted="false" tools:quantity="value"><item quantity="one">1 file (%d%%)</item><item quantity="other">Files</item></plurals>
            <string name="bad" formatted="no">x</string>
            </resources>
            """
        let read = AndroidStringsFile.read(Array(xml.utf8), path: "f.xml", mapping: Self.mapping(.android))
        #expect(read.entries.map(\.text) == ["100%% sure, %1$s stays", "100% of {label}", "{value, plural, one {1 file (%d%%)} other {Files}}"])
        #expect(
            Self.render(read.diagnostics, read, path: "f.xml") == """
                f.xml:5:1: error[interchange-unsupported]: resource 'bad': formatted="no": aapt takes true or false
                 5 | <string name="bad" formatted="no">x</string>
                   | ^

                """)
        // Written back as format strings (every `%` doubled), they read as the same text.
        let again = AndroidStringsFile.write(read.entries.map { ($0.key, $0.text, nil) }, mapping: Self.mapping(.android))
        let back = AndroidStringsFile.read(again.bytes, path: "g.xml", mapping: Self.mapping(.android))
        #expect(back.entries.map(\.text) == read.entries.map(\.text))
    }

    /// Xcode shows the key in the source language when it has no localization there.
    @Test func stringCatalogSourceLanguageUsesTheKeys() throws {
        let json = """
            {"sourceLanguage": "en", "strings": {
              "Hello %@": {"localizations": {"pl": {"stringUnit": {"state": "translated", "value": "Cześć %@"}}}},
              "Untranslated": {},
              "Brand": {"shouldTranslate": false},
              "%lld%% done": {},
              "files": {"localizations": {"en": {"variations": {"plural": {
                "one": {"stringUnit": {"state": "translated", "value": "%lld file"}},
                "other": {"stringUnit": {"state": "translated", "value": "%lld files"}}}}}}}
            }, "version": "1.0"}
            """
        let mapping = PlaceholderMapping(dialect: .apple, order: ArgumentOrder(declared: ["label", "field", "value"]))
        let en = StringCatalogFile.read(Array(json.utf8), path: "x.xcstrings", locale: LocaleTag("en")!, mapping: mapping)
        #expect(en.diagnostics.isEmpty, "\(en.diagnostics)")
        #expect(en.entries.map(\.key) == ["Hello %@", "Untranslated", "Brand", "%lld%% done", "files"])
        #expect(
            en.entries.map(\.text) == [
                "Hello {label}", "Untranslated", "Brand", "{label, number}% done", "{label, plural, one {# file} other {# files}}"
            ])
        let pl = StringCatalogFile.read(Array(json.utf8), path: "x.xcstrings", locale: LocaleTag("pl")!, mapping: mapping)
        #expect(pl.entries.map(\.text) == ["Cześć {label}"])
    }

    @Test func utf16WithAnOddByteIsAnEncodingError() throws {
        var bytes = TextEncoding.utf16LittleEndian.encode("\"a\" = \"b\";\n\"c\" = \"d\";\n", byteOrderMark: false)
        bytes.append(0x0A)
        let read = StringsFile.read(bytes, path: "odd.strings")
        #expect(read.failed)
        #expect(read.encoding == TextEncoding.Detected(encoding: .utf16LittleEndian, byteOrderMark: false))
        #expect(
            read.diagnostics.map(\.message) == [
                """
                invalid UTF-16 (little-endian): the file has an odd number of bytes; the last byte (offset \(bytes.count - 1)) is half a character \
                (a byte is missing or extra)
                """
            ])
        #expect(read.diagnostics.first?.location?.line == 3)
        var withMark = TextEncoding.utf16BigEndian.encode("\"a\" = \"b\";", byteOrderMark: true)
        withMark.append(0x00)
        #expect(StringsFile.read(withMark, path: "odd.strings").diagnostics.first?.message.hasPrefix("invalid UTF-16 (big-endian)") == true)
        // Odd-length UTF-8 stays UTF-8.
        #expect(StringsFile.read(Array("\"a\" = \"bc\";".utf8), path: "u.strings").entries.map(\.text) == ["bc"])
    }

    @Test func everyInterchangeCodeIsProduced() throws {
        var codes = Set<DiagnosticCode>()
        codes.formUnion(StringsFile.read(try Self.bytes("broken-utf16le.strings"), path: "a").diagnostics.map(\.code))
        codes.formUnion(StringsFile.read(try Self.bytes("duplicate.strings"), path: "b").diagnostics.map(\.code))
        codes.formUnion(AndroidStringsFile.read(try Self.bytes("strings.xml"), path: "c", mapping: Self.mapping(.android)).diagnostics.map(\.code))
        let unmapped = AndroidStringsFile.read(
            Array("<resources><string name=\"x\">%7$s</string></resources>".utf8), path: "d.xml",
            mapping: Self.mapping(.android))
        #expect(
            unmapped.diagnostics.map(\.message) == [
                "resource 'x': placeholder '%7$s' is argument 7, but the argument order of 'x' has 3: label, field, value"
            ])
        codes.formUnion(unmapped.diagnostics.map(\.code))
        let interchange = Set(DiagnosticCode.allCases.filter { $0.phase == .locales && $0.rawValue >= "JF530" })
        #expect(codes == interchange)
    }

    // MARK: through the command line and the YAML writer

    @Test(arguments: ["strings", "xcstrings", "android"])
    func exportThenImportGivesTheSameLocaleFiles(_ format: String) async throws {
        let folder = try TemporaryFolder("jump-interchange")
        defer { folder.remove() }
        try FileManager.default.copyItem(atPath: Repository.path("locales"), toPath: folder.path + "/locales")
        // Notes travel as comments.
        let french = try String(contentsOfFile: folder.path + "/locales/fr-FR.yaml", encoding: .utf8)
        try folder.write(
            "locales/fr-FR.yaml",
            french.replacingOccurrences(of: "messages:\n", with: "notes:\n  fields.emailAddress.label: Shown above the field\nmessages:\n"))
        let en = try String(contentsOfFile: folder.path + "/locales/en-US.yaml", encoding: .utf8)
        try folder.write(
            "locales/en-US.yaml",
            en.replacingOccurrences(of: "messages:\n", with: "notes:\n  fields.emailAddress.label: Shown above the field\nmessages:\n"))
        try FileManager.default.createDirectory(atPath: folder.path + "/out", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder.path + "/back", withIntermediateDirectories: true)
        let export = try await InProcess.run(["locales", "export", "--format", format, "--out", "out"], in: folder.path)
        #expect(export.status == 0, "\(export.stderr)")
        var project = LoadedProject()
        let originals = ProjectLoader().loadLocales(in: folder.path + "/locales", into: &project)
        for original in originals {
            let tag = original.tag.value.identifier
            let file = format == "xcstrings" ? "out/Localizable.xcstrings" : "out/\(tag).\(format == "android" ? "xml" : "strings")"
            let imported = try await InProcess.run(["locales", "import", file, "--locale", tag, "--out", "back/\(tag).yaml"], in: folder.path)
            #expect(imported.status == 0, "\(imported.stderr)")
            var backProject = LoadedProject()
            let back = try #require(ProjectLoader().loadLocale(at: folder.path + "/back/\(tag).yaml", into: &backProject))
            #expect(backProject.diagnostics.isEmpty)
            #expect(back.keys == original.keys)
            #expect(back.allMessages.map(\.text) == original.allMessages.map(\.text))
            #expect(back.notes == (format == "xcstrings" ? ["fields.emailAddress.label": "Shown above the field"] : original.notes))
        }
        let checked = try await InProcess.run(
            [
                "locales", "check", "--locales", "back", "--reference", "en-US",
                "--allow-same-as-source", "providers.*", "--allow-same-as-source", "options.country.*"
            ], in: folder.path)
        #expect(checked.status == 0, "\(checked.stdout)")
    }

    @Test func importRefusesBrokenFiles() async throws {
        let folder = try TemporaryFolder("jump-import")
        defer { folder.remove() }
        let broken = try await InProcess.run(
            [
                "locales", "import", Self.fixtures + "/broken-utf16le.strings", "--locale", "fr-FR",
                "--out", folder.path + "/fr-FR.yaml"
            ], in: folder.path)
        #expect(broken.status == 2)
        #expect(broken.stderr.contains("broken-utf16le.strings:3:10: error[interchange-syntax]"))
        let duplicate = try await InProcess.run(
            [
                "locales", "import", Self.fixtures + "/duplicate.strings", "--locale", "fr-FR",
                "--out", folder.path + "/fr-FR.yaml"
            ], in: folder.path)
        #expect(duplicate.status == 1)
        #expect(duplicate.stderr.contains("nothing written"))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/fr-FR.yaml"))
        // UTF-16 big-endian without a byte-order mark, starting with Japanese text.
        let japanese = try await InProcess.run(
            ["locales", "import", Self.fixtures + "/ja-utf16be-nobom.strings", "--locale", "ja-JP"], in: folder.path)
        #expect(japanese.status == 0, "\(japanese.stderr)")
        #expect(
            japanese.stdout.hasSuffix(
                """
                messages:
                  fields.email.label: メールアドレス
                  fields.email.tip: 一 最\u{3000}Ā を含むテキスト
                  validation.required: "{label}は必須です。"
                  plural: "{count, plural, other {# 件のファイル}}"

                """), "\(japanese.stdout)")
        let imported = try await InProcess.run(
            ["locales", "import", Self.fixtures + "/fr-utf16be-nobom.strings", "--locale", "fr-FR"], in: folder.path)
        #expect(imported.status == 0)
        #expect(
            imported.stdout == """
                # fr-FR: imported by jump-forms locales import from fr-utf16be-nobom.strings.
                locale: fr-FR
                notes:
                  fields.email.label: Shown above the e-mail field.
                  validation.required: The error when the field is empty.
                messages:
                  fields.email.label: Adresse e-mail
                  validation.required: "{label} est obligatoire."
                  quotes: "Il a dit \\"bonjour\\" \\\\ puis\\n\\tpartit"
                  unquoted.key: valeur éè et 😀
                  octal: "bell\\u0007 and tab\\t"
                  plural: "{count, plural, one {# fichier} other {# fichiers}}"

                """)
    }

    /// A copy of the repository's locales in a temporary folder, with the files' checksums.
    static func localesCopy(_ prefix: String) throws -> (TemporaryFolder, () throws -> [String: Data]) {
        let folder = try TemporaryFolder(prefix)
        try FileManager.default.copyItem(atPath: Repository.path("locales"), toPath: folder.path + "/loc")
        let snapshot = {
            var files: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path + "/loc") {
                files[name] = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/loc/" + name))
            }
            return files
        }
        return (folder, snapshot)
    }

    @Test func exportAndPseudoNeverWriteOverTheirSources() async throws {
        let (folder, snapshot) = try Self.localesCopy("jump-overwrite")
        defer { folder.remove() }
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/link.strings", withDestinationPath: folder.path + "/loc/fr-FR.yaml")
        let before = try snapshot()
        for out in ["loc/fr-FR.yaml", "./loc/../loc/fr-FR.yaml", folder.path + "/loc/fr-FR.yaml", "link.strings", "loc/de-DE.yaml"] {
            let export = try await InProcess.run(
                ["locales", "export", "--format", "strings", "--locale", "fr-FR", "--locales", "loc", "--out", out], in: folder.path)
            #expect(export.status == 2, "\(out)")
            #expect(export.stderr.contains("'\(out)'") && export.stderr.contains("nothing written"), "\(export.stderr)")
        }
        let yaml = try await InProcess.run(
            ["locales", "export", "--format", "android", "--locale", "fr-FR", "--locales", "loc", "--out", "fr.yaml"], in: folder.path)
        #expect(yaml.status == 2)
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/fr.yaml"))
        for out in ["loc/en-US.yaml", "./loc/en-US.yaml", "link.strings", "loc/fr-FR.yaml", "new/de-DE.yaml"] {
            let pseudo = try await InProcess.run(["locales", "pseudo", "--locale", "en-XA", "--locales", "loc", "--out", out], in: folder.path)
            #expect(pseudo.status == 2, "\(out)")
            #expect(pseudo.stderr.contains("'\(out)'") && pseudo.stderr.contains("nothing written"), "\(pseudo.stderr)")
        }
        #expect(try snapshot() == before)
        // The pseudo-locale's own file may be made again, also under another name.
        for _ in 0..<2 {
            let again = try await InProcess.run(
                ["locales", "pseudo", "--locale", "en-XA", "--locales", "loc", "--out", "loc/en-XA.yaml"], in: folder.path)
            #expect(again.status == 0, "\(again.stderr)")
        }
        let other = try await InProcess.run(
            ["locales", "pseudo", "--locale", "ar-XB", "--locales", "loc", "--out", "loc/en-XA.yaml"], in: folder.path)
        #expect(other.status == 2)
        let renamed = try await InProcess.run(["locales", "pseudo", "--locale", "en-XA", "--locales", "loc", "--out", "pseudo.yaml"], in: folder.path)
        #expect(renamed.status == 0)
        let renamedAgain = try await InProcess.run(
            ["locales", "pseudo", "--locale", "ar-XB", "--locales", "loc", "--out", "pseudo.yaml"], in: folder.path)
        #expect(renamedAgain.status == 2, "\(renamedAgain.stderr)")
        #expect(renamedAgain.stderr.contains("the locale file of en-XA"))
    }

    @Test func importNeverDropsMessagesOfTheFileItReplaces() async throws {
        let (folder, snapshot) = try Self.localesCopy("jump-replace")
        defer { folder.remove() }
        try folder.write("empty.strings", "")
        try folder.write("some.strings", "/* new note */\n\"fields.emailAddress.label\" = \"Courriel\";\n")
        let french = try String(contentsOfFile: folder.path + "/loc/fr-FR.yaml", encoding: .utf8)
        try folder.write(
            "loc/fr-FR.yaml",
            french.replacingOccurrences(
                of: "messages:\n", with: "notes:\n  fields.emailAddress.label: old note\n  fields.emailAddress.tip: tip note\nmessages:\n"))
        let before = try snapshot()
        let empty = try await InProcess.run(
            ["locales", "import", "empty.strings", "--locale", "fr-FR", "--locales", "loc", "--out", "loc/fr-FR.yaml"], in: folder.path)
        #expect(empty.status == 2)
        #expect(
            empty.stderr.contains(
                """
                'loc/fr-FR.yaml' holds 58 messages that 'empty.strings' lacks (fields.signInEmailAddress.label, fields.currentPassword.label, \
                fields.emailAddress.label, fields.emailAddress.placeholder, fields.emailAddress.tip, ...)
                """
            ), "\(empty.stderr)")
        #expect(empty.stderr.contains("--replace"))
        let wrongTag = try await InProcess.run(
            ["locales", "import", "some.strings", "--locale", "de-DE", "--locales", "loc", "--out", "loc/fr-FR.yaml", "--replace"],
            in: folder.path)
        #expect(wrongTag.status == 2)
        #expect(
            wrongTag.stderr.contains("--locale de-DE does not match 'loc/fr-FR.yaml': a locale file's name must be its tag"), "\(wrongTag.stderr)")
        try folder.write("notes.txt", "not a locale file")
        let notLocale = try await InProcess.run(["locales", "import", "some.strings", "--locale", "fr-FR", "--out", "notes.txt"], in: folder.path)
        #expect(notLocale.status == 2)
        #expect(try String(contentsOfFile: folder.path + "/notes.txt", encoding: .utf8) == "not a locale file")
        #expect(try snapshot() == before)
        // With --replace: the import's messages, its notes, the old notes of keys still there,
        // and the sameAsSource list.
        let replaced = try await InProcess.run(
            ["locales", "import", "some.strings", "--locale", "fr-FR", "--locales", "loc", "--out", "loc/fr-FR.yaml", "--replace"],
            in: folder.path)
        #expect(replaced.status == 0, "\(replaced.stderr)")
        var project = LoadedProject()
        let back = try #require(ProjectLoader().loadLocale(at: folder.path + "/loc/fr-FR.yaml", into: &project))
        #expect(back.keys == ["fields.emailAddress.label"])
        #expect(back.notes == ["fields.emailAddress.label": "new note"])
        #expect(
            back.sameAsSource.map(\.value)
                == ProjectLoader().loadLocale(at: Repository.path("locales/fr-FR.yaml"), into: &project)!.sameAsSource.map(\.value))
        // An import that holds every key of the file replaces it without --replace, keeping notes.
        let full = try await InProcess.run(
            ["locales", "export", "--format", "strings", "--locale", "fr-FR", "--locales", "loc", "--out", "full.strings"],
            in: folder.path)
        #expect(full.status == 0)
        try folder.write("some.strings", "\"fields.emailAddress.label\" = \"Courriel\";\n\"extra\" = \"x\";\n")
        let superset = try await InProcess.run(
            ["locales", "import", "some.strings", "--locale", "fr-FR", "--locales", "loc", "--out", "loc/fr-FR.yaml"], in: folder.path)
        #expect(superset.status == 0, "\(superset.stderr)")
        var project2 = LoadedProject()
        let kept = try #require(ProjectLoader().loadLocale(at: folder.path + "/loc/fr-FR.yaml", into: &project2))
        #expect(kept.keys == ["fields.emailAddress.label", "extra"])
        #expect(kept.notes == ["fields.emailAddress.label": "new note"])
    }

    @Test func emptyFoldersMissingFoldersAndNestedClashesAreSaid() async throws {
        let (folder, _) = try Self.localesCopy("jump-folders")
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path + "/none", withIntermediateDirectories: true)
        let empty = try await InProcess.run(["locales", "export", "--format", "strings", "--locales", "none"], in: folder.path)
        #expect(empty.status == 2)
        #expect(empty.stderr.contains("the locales folder 'none' has no locale files"), "\(empty.stderr)")
        let created = try await InProcess.run(["locales", "export", "--format", "strings", "--locales", "loc", "--out", "ex/all"], in: folder.path)
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.stderr.contains("created the folder ex/all"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path + "/ex/all").sorted()
                == ["de-DE", "en-US", "es-ES", "fr-FR", "ja-JP", "pl-PL"].map { $0 + ".strings" })
        let pseudo = try await InProcess.run(
            ["locales", "pseudo", "--locale", "en-XA", "--locale", "ar-XB", "--locales", "loc", "--out", "ps"], in: folder.path)
        #expect(pseudo.status == 0, "\(pseudo.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.path + "/ps/ar-XB.yaml"))
        try folder.write("n.strings", "\"a\" = \"A\";\n\"a.b\" = \"B\";\n")
        let nested = try await InProcess.run(["locales", "import", "n.strings", "--locale", "fr-FR", "--nested"], in: folder.path)
        #expect(nested.status == 0)
        #expect(nested.stderr == "warning: --nested: the keys are written flat (dotted), as 'a' is both a message and the start of 'a.b'\n")
        #expect(nested.stdout.hasSuffix("messages:\n  a: A\n  a.b: B\n"))
        #expect(LocaleFileWriter.nestingProblem(["x.y", "a..b"]) == "'a..b' has an empty part")
        #expect(LocaleFileWriter.nestingProblem(["a.b", "a.c.d"]) == nil)
        // One file into a folder that is not there: said, not created.
        let missing = try await InProcess.run(["locales", "import", "n.strings", "--locale", "fr-FR", "--out", "new/fr-FR.yaml"], in: folder.path)
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("cannot write 'new/fr-FR.yaml': the folder 'new' does not exist"), "\(missing.stderr)")
        // A path the system refuses (a folder of that name): its reason is said, nothing is left.
        try FileManager.default.createDirectory(atPath: folder.path + "/translations.yaml", withIntermediateDirectories: false)
        let refused = try await InProcess.run(["locales", "import", "n.strings", "--locale", "fr-FR", "--out", "translations.yaml"], in: folder.path)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("cannot write 'translations.yaml': Is a directory"), "\(refused.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".tmp-") } == [])
        // A name that reads as another tag: the rule and the way out are said.
        let named = try await InProcess.run(["locales", "import", "n.strings", "--locale", "fr-FR", "--out", "out.yaml"], in: folder.path)
        #expect(named.status == 64 || named.status == 2)
        #expect(named.stderr.contains("a locale file's name must be its tag, and 'out' reads as the tag out; name it fr-FR.yaml"), "\(named.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/out.yaml"))
    }
}

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
        ("plural", "{count, plural, one {# fichier} other {# fichiers}}", nil),
    ]

    @Test(arguments: ["fr-utf16be-nobom.strings", "fr-utf16le-bom.strings", "fr-utf8-bom.strings"])
    func stringsFilesInEveryEncoding(_ name: String) throws {
        let result = StringsFile.read(try Self.bytes(name), path: name)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(result.entries.map { [$0.key, $0.text, $0.note ?? "-"] } == Self.expectedStrings.map { [$0.0, $0.1, $0.2 ?? "-"] })
        let expectedEncoding: TextEncoding.Detected = switch name {
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
        #expect(Self.render(broken.diagnostics, broken, path: "broken.strings") == """
        broken.strings:3:10: error[interchange-syntax]: expected ';' after the value of "b"
         3 | "b" = "B"
           |          ^

        """)
        let duplicate = StringsFile.read(try Self.bytes("duplicate.strings"), path: "duplicate.strings")
        #expect(duplicate.entries.map(\.text) == ["OK", "Annuler"])
        #expect(Self.render(duplicate.diagnostics, duplicate, path: "duplicate.strings") == """
        duplicate.strings:3:1: error[interchange-duplicate-key]: the key "ok" is written twice; the first value is kept
         3 | "ok" = "D'accord";
           | ^~~~
          = hint: remove one of them
        duplicate.strings:1:1: note: first written here
         1 | "ok" = "OK";
           | ^~~~

        """)
    }

    @Test(arguments: [(TextEncoding.utf8, false), (.utf8, true), (.utf16BigEndian, false), (.utf16BigEndian, true),
                      (.utf16LittleEndian, false), (.utf16LittleEndian, true)])
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
        ("awkward.control", "bell\u{07}del\u{7F}", nil),
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
        #expect(texts["validation.minLength"] == "{value, plural, one {{label} needs at least # character.} other {{label} needs at least # characters.}}")
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
        let plural = String(decoding: AndroidStringsFile.write([("files", "{n, plural, one {One file} other {Files}}", nil)],
                                                               mapping: PlaceholderMapping(dialect: .android, order: ArgumentOrder(declared: ["n"]))).bytes, as: UTF8.self)
        #expect(plural.contains("<plurals name=\"files\" tools:quantity=\"n\">"))
        let invalid = AndroidStringsFile.write([("fields.first-name.label", "x", nil)], mapping: mapping)
        #expect(invalid.diagnostics.map(\.code) == [.interchangeUnsupported])
    }

    // MARK: String Catalogs

    @Test func stringCatalogPluralsBecomeICU() throws {
        let pl = StringCatalogFile.read(try Self.bytes("Localizable.xcstrings"), path: "Localizable.xcstrings", locale: LocaleTag("pl")!,
                                        mapping: PlaceholderMapping(dialect: .apple, order: ArgumentOrder(declared: ["label", "field", "value"])))
        let texts = Dictionary(uniqueKeysWithValues: pl.entries.map { ($0.key, $0.text) })
        #expect(texts["files.count"] == "{label, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}")
        #expect(texts["validation.minLength"] == "Pole „{label}”: {value, plural, one {co najmniej # znak} few {co najmniej # znaki} many {co najmniej # znaków} other {co najmniej # znaku}}")
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
            StringCatalogFile.Localization(tag: catalog.tag.value, messages: catalog.allMessages.map { ($0.key, $0.text) } + Self.awkward.map { ($0.key, $0.text) })
        }
        let text = StringCatalogFile.write(sourceLanguage: LocaleTag("en-US")!, localizations: localizations,
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
            ("{n, plural, one {l''un} other {# l''autres '#'}}", "{n, plural, one {l'un} other {# l'autres '#'}}"),
        ]
        let messages = cases.enumerated().map { (key: "k\($0.offset)", text: $0.element.written, note: String?.none) }
        let mapping = PlaceholderMapping(dialect: .android, order: ArgumentOrder(declared: ["label", "n"]))
        let android = AndroidStringsFile.read(AndroidStringsFile.write(messages, mapping: mapping).bytes, path: "x.xml", mapping: mapping)
        let apple = PlaceholderMapping(dialect: .apple, order: ArgumentOrder(declared: ["label", "n"]))
        let catalog = StringCatalogFile.write(sourceLanguage: LocaleTag("en-US")!, localizations: [
            StringCatalogFile.Localization(tag: LocaleTag("en-US")!, messages: messages.map { ($0.key, $0.text) }),
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
            #expect(try MessageFormatter(localeTag: "en-US").format(MessagePattern(parsing: written), ["label": "X", "n": 2])
                == MessageFormatter(localeTag: "en-US").format(MessagePattern(parsing: canonical), ["label": "X", "n": 2]))
        }
    }

    // MARK: placeholders

    @Test func placeholdersMapThroughTheDeclaredOrder() throws {
        let mapping = PlaceholderMapping(dialect: .apple, order: ArgumentOrder(referenceArguments: ["merge": ["provider", "newProvider"]]))
        #expect(mapping.export(key: "merge", text: "Sign in with {provider} to link {newProvider}: {label}")
            == "Sign in with %4$@ to link %5$@: %1$@")
        #expect(try mapping.importValue("Sign in with %4$@ to link %5$@: %1$@", key: "merge") == "Sign in with {provider} to link {newProvider}: {label}")
        #expect(mapping.export(key: "x", text: "{value, number}% of {unknown}") == "%3$lld% of {unknown}")
        #expect(throws: PlaceholderMapping.Problem.self) { try mapping.importValue("%7$@", key: "x") }
        #expect(throws: PlaceholderMapping.Problem.self) { try mapping.importValue("%1$@ and %@", key: "x") }
        #expect(try mapping.importValue("%@ and %@", key: "x") == "{label} and {field}")
        // Any text survives: percent signs that look like placeholders are doubled on the way out.
        for text in ["100%", "50% off", "%d%%", "%1$s literal", "%", "%%%", "a%@b", "{label}%"] {
            #expect(try mapping.importValue(mapping.export(key: "x", text: text), key: "x") == text, "\(text)")
        }
    }

    @Test func everyInterchangeCodeIsProduced() throws {
        var codes = Set<DiagnosticCode>()
        codes.formUnion(StringsFile.read(try Self.bytes("broken-utf16le.strings"), path: "a").diagnostics.map(\.code))
        codes.formUnion(StringsFile.read(try Self.bytes("duplicate.strings"), path: "b").diagnostics.map(\.code))
        codes.formUnion(AndroidStringsFile.read(try Self.bytes("strings.xml"), path: "c", mapping: Self.mapping(.android)).diagnostics.map(\.code))
        let unmapped = AndroidStringsFile.read(Array("<resources><string name=\"x\">%7$s</string></resources>".utf8), path: "d.xml",
                                               mapping: Self.mapping(.android))
        #expect(unmapped.diagnostics.map(\.message) == ["resource 'x': placeholder '%7$s' is argument 7, but the argument order of 'x' has 3: label, field, value"])
        codes.formUnion(unmapped.diagnostics.map(\.code))
        let interchange = Set(DiagnosticCode.allCases.filter { $0.phase == .locales && $0.rawValue >= "JF530" })
        #expect(codes == interchange)
    }

    // MARK: through the command line and the YAML writer

    @Test(arguments: ["strings", "xcstrings", "android"])
    func exportThenImportGivesTheSameLocaleFiles(_ format: String) throws {
        let folder = try TemporaryFolder("jump-interchange")
        defer { folder.remove() }
        try FileManager.default.copyItem(atPath: Repository.path("locales"), toPath: folder.path + "/locales")
        // Notes travel as comments.
        let french = try String(contentsOfFile: folder.path + "/locales/fr-FR.yaml", encoding: .utf8)
        try folder.write("locales/fr-FR.yaml", french.replacingOccurrences(of: "messages:\n", with: "notes:\n  fields.emailAddress.label: Shown above the field\nmessages:\n"))
        let en = try String(contentsOfFile: folder.path + "/locales/en-US.yaml", encoding: .utf8)
        try folder.write("locales/en-US.yaml", en.replacingOccurrences(of: "messages:\n", with: "notes:\n  fields.emailAddress.label: Shown above the field\nmessages:\n"))
        try FileManager.default.createDirectory(atPath: folder.path + "/out", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder.path + "/back", withIntermediateDirectories: true)
        let export = try Executable.run("jump-forms", ["locales", "export", "--format", format, "--out", "out"], in: folder.path)
        #expect(export.status == 0, "\(export.stderr)")
        var project = LoadedProject()
        let originals = ProjectLoader().loadLocales(in: folder.path + "/locales", into: &project)
        for original in originals {
            let tag = original.tag.value.identifier
            let file = format == "xcstrings" ? "out/Localizable.xcstrings" : "out/\(tag).\(format == "android" ? "xml" : "strings")"
            let imported = try Executable.run("jump-forms", ["locales", "import", file, "--locale", tag, "--out", "back/\(tag).yaml"], in: folder.path)
            #expect(imported.status == 0, "\(imported.stderr)")
            var backProject = LoadedProject()
            let back = try #require(ProjectLoader().loadLocale(at: folder.path + "/back/\(tag).yaml", into: &backProject))
            #expect(backProject.diagnostics.isEmpty)
            #expect(back.keys == original.keys)
            #expect(back.allMessages.map(\.text) == original.allMessages.map(\.text))
            #expect(back.notes == (format == "xcstrings" ? ["fields.emailAddress.label": "Shown above the field"] : original.notes))
        }
        let checked = try Executable.run("jump-forms", ["locales", "check", "--locales", "back", "--reference", "en-US",
                                                         "--allow-same-as-source", "providers.*", "--allow-same-as-source", "options.country.*"], in: folder.path)
        #expect(checked.status == 0, "\(checked.stdout)")
    }

    @Test func importRefusesBrokenFiles() throws {
        let folder = try TemporaryFolder("jump-import")
        defer { folder.remove() }
        let broken = try Executable.run("jump-forms", ["locales", "import", Self.fixtures + "/broken-utf16le.strings", "--locale", "fr-FR",
                                                        "--out", folder.path + "/fr-FR.yaml"], in: folder.path)
        #expect(broken.status == 2)
        #expect(broken.stderr.contains("broken-utf16le.strings:3:10: error[interchange-syntax]"))
        let duplicate = try Executable.run("jump-forms", ["locales", "import", Self.fixtures + "/duplicate.strings", "--locale", "fr-FR",
                                                           "--out", folder.path + "/fr-FR.yaml"], in: folder.path)
        #expect(duplicate.status == 1)
        #expect(duplicate.stderr.contains("nothing written"))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/fr-FR.yaml"))
        // UTF-16 big-endian without a byte-order mark, starting with Japanese text.
        let japanese = try Executable.run("jump-forms", ["locales", "import", Self.fixtures + "/ja-utf16be-nobom.strings", "--locale", "ja-JP"], in: folder.path)
        #expect(japanese.status == 0, "\(japanese.stderr)")
        #expect(japanese.stdout.hasSuffix("""
        messages:
          fields.email.label: メールアドレス
          fields.email.tip: 一 最\u{3000}Ā を含むテキスト
          validation.required: "{label}は必須です。"
          plural: "{count, plural, other {# 件のファイル}}"

        """), "\(japanese.stdout)")
        let imported = try Executable.run("jump-forms", ["locales", "import", Self.fixtures + "/fr-utf16be-nobom.strings", "--locale", "fr-FR"], in: folder.path)
        #expect(imported.status == 0)
        #expect(imported.stdout == """
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
}

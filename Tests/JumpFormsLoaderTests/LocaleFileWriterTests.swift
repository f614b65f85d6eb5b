import Foundation
import JumpForms
import JumpFormsLoader
import Testing
import TestSupport

/// `LocaleFileWriter` writes what the loader (and PyYAML-style YAML 1.1 tools) read back as the
/// same text; the loader records the facts `locales check` needs (duplicates, anchors, notes).
@Suite struct LocaleFileWriterTests {
    static func load(_ text: String, name: String = "xx-XX.yaml") throws -> (LocaleCatalog?, LoadedProject) {
        let folder = try TemporaryFolder("jump-writer")
        defer { folder.remove() }
        let path = try folder.write(name, text)
        var project = LoadedProject()
        let catalog = ProjectLoader().loadLocale(at: path, into: &project)
        return (catalog, project)
    }

    /// Texts that YAML would retype, misparse or trim if written plain.
    static let awkward: [String] = [
        "no", "No", "NO", "yes", "on", "off", "y", "n", "true", "False", "~", "null", "", " ", "1.0", "0x1F", "1_000", "1:30", "2024-01-01",
        "2024-01-01T10:00:00Z", ".inf", "-.5", "+1", "=", "<<", "- item", "? key", ": value", "key: value", "a #comment", "#tag",
        "&anchor", "*alias", "!tag", "|", ">", "'quoted'", "\"double\"", "%directive", "@at", "`tick`", "{label} is required.",
        "[list]", "trailing space ", " leading", "two\nlines", "tab\there", "back\\slash", "bell\u{07}", "e-mail\u{200B}address",
        "\u{200F}\u{202E}rtl\u{202C}\u{200F}", "nbsp\u{00A0}here", "ends with colon:", "😀 emoji", "l'adresse", "50%", "a: b: c",
        "line\u{2028}separator", "Ünïcödé", "日本語", "\u{FEFF}bom"
    ]

    @Test func everyAwkwardTextReadsBackUnchanged() throws {
        let messages = Self.awkward.enumerated().map { LocaleFileContent.Message(key: "k\($0.offset)", text: $0.element) }
        let yaml = LocaleFileWriter.yaml(LocaleFileContent(tag: LocaleTag("xx-XX")!, messages: messages))
        let (catalog, project) = try Self.load(yaml)
        #expect(project.diagnostics.isEmpty, "\(project.diagnostics)\n\(yaml)")
        let loaded = try #require(catalog)
        for message in messages {
            #expect(
                loaded[message.key]?.text == message.text,
                "\(message.key): \(String(reflecting: message.text)) came back as \(String(reflecting: loaded[message.key]?.text))")
            #expect(
                loaded[message.key]?.trap == nil,
                "\(message.text) is written so that YAML 1.1 reads it as \(String(describing: loaded[message.key]?.trap))")
        }
        #expect(loaded.keys == messages.map(\.key))
    }

    @Test func plainWhereSafeDoubleQuotedOtherwise() {
        #expect(LocaleFileWriter.scalar("Adresse e-mail") == "Adresse e-mail")
        #expect(LocaleFileWriter.scalar("no") == "\"no\"")
        #expect(LocaleFileWriter.scalar("2024-01-01") == "\"2024-01-01\"")
        #expect(LocaleFileWriter.scalar("{label} est obligatoire.") == "\"{label} est obligatoire.\"")
        #expect(LocaleFileWriter.scalar("Mot de\u{202E}passe") == "\"Mot de\\u202Epasse\"")
        #expect(LocaleFileWriter.scalar("say \"hi\"") == "say \"hi\"")
        #expect(LocaleFileWriter.scalar("two\nlines") == "\"two\\nlines\"")
    }

    @Test func nestedKeysWhenPossibleFlatOtherwise() throws {
        let content = LocaleFileContent(
            tag: LocaleTag("fr-FR")!,
            messages: [
                .init(key: "fields.email.label", text: "Adresse e-mail"),
                .init(key: "fields.email.tip", text: "Jamais partagée."),
                .init(key: "validation.required", text: "{label} est obligatoire.")
            ], sameAsSource: ["providers.*"], notes: ["fields.email.tip": "Shown under the field"])
        let nested = LocaleFileWriter.yaml(content, nested: true)
        #expect(
            nested == """
                locale: fr-FR
                sameAsSource:
                  - providers.*
                notes:
                  fields.email.tip: Shown under the field
                messages:
                  fields:
                    email:
                      label: Adresse e-mail
                      tip: Jamais partagée.
                  validation:
                    required: "{label} est obligatoire."

                """)
        let (catalog, project) = try Self.load(nested, name: "fr-FR.yaml")
        #expect(project.diagnostics.isEmpty)
        #expect(catalog?.keys == content.messages.map(\.key))
        #expect(catalog?.sameAsSource.map(\.value) == ["providers.*"])
        #expect(catalog?.notes == ["fields.email.tip": "Shown under the field"])
        // A key that is also the prefix of another stays flat.
        let clash = LocaleFileContent(tag: LocaleTag("fr-FR")!, messages: [.init(key: "a.b", text: "x"), .init(key: "a.b.c", text: "z")])
        #expect(LocaleFileWriter.yaml(clash, nested: true).contains("  a.b: x\n  a.b.c: z\n"))
    }

    @Test func theLoaderRecordsDuplicatesAnchorsAndAliases() throws {
        let (catalog, project) = try Self.load(
            """
            locale: fr-FR
            messages:
              a.label: &shared Nom
              b.label: *shared
              c:
                label: Un
                label: Deux
              c.label: Trois
            """, name: "fr-FR.yaml")
        let loaded = try #require(catalog)
        #expect(loaded.duplicateKeys.map(\.key) == ["c.label", "c.label"])
        #expect(loaded.duplicateKeys.map(\.location.line) == [7, 8])
        #expect(loaded.duplicateKeys.map(\.firstLocation.line) == [6, 6])
        #expect(loaded.yamlReferences.map(\.kind) == [.anchor, .alias])
        #expect(loaded.yamlReferences.map(\.key) == ["a.label", "b.label"])
        #expect(loaded["c.label"]?.text == "Un")
        #expect(project.diagnostics.map(\.code.rawValue).sorted() == ["JF111", "JF212"])
    }
}

import Foundation
import JumpForms
import JumpFormsLoader
import JumpLocaleCheck
import Testing
import TestSupport

/// The checker in process, on catalogs loaded from small files: the finer points of each rule.
@Suite struct LocaleCheckerTests {
    /// Loads `files` (name -> YAML under `messages:`) and checks them against en-US.
    static func check(_ files: [String: String], allowed: [String] = [], concurrently: Bool = true) throws -> [LocaleFinding] {
        let folder = try TemporaryFolder("jump-checker")
        defer { folder.remove() }
        for (tag, body) in files {
            let indented = body.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
            try folder.write("locales/\(tag).yaml", "locale: \(tag)\nmessages:\n\(indented)\n")
        }
        var project = LoadedProject()
        let catalogs = ProjectLoader().loadLocales(in: folder.path + "/locales", into: &project)
        // Paths relative to the folder, so that runs in different folders compare.
        let input = LocaleCheckInput(catalogs: catalogs, reference: LocaleTag("en-US")!, sameAsSourceAllowed: allowed, concurrently: concurrently)
        return LocaleChecker(input).run().map { finding in
            var finding = finding
            finding.file = String(finding.file.dropFirst(folder.path.count + 1))
            return finding
        }
    }

    static func rules(_ findings: [LocaleFinding]) -> [String] { findings.map(\.rule.rawValue) }

    @Test func exactCasesCoverSmallCategories() throws {
        // English `one` is only 1: `=1` covers it. French `one` holds 0, 1 and 1.5: `=0` and `=1` do not.
        let findings = try Self.check([
            "en-US": "n: \"{n, plural, =1 {one file} other {# files}}\"",
            "fr-FR": "n: \"{n, plural, =0 {aucun} =1 {un fichier} other {# fichiers}}\"",
            "ar-EG": "n: \"{n, plural, =0 {صفر} =1 {واحد} =2 {اثنان} few {# ملفات} many {# ملفًا} other {# ملف}}\"",
        ])
        // French also needs `many` (1 000 000 de fichiers).
        #expect(Self.rules(findings) == ["plural-missing-category", "plural-missing-category"])
        #expect(findings.allSatisfy { $0.file == "locales/fr-FR.yaml" })
        #expect(findings.first?.diagnostic.message.contains("lacks 'one', which fr uses for 0, 1") == true)
        #expect(findings.last?.diagnostic.message.contains("lacks 'many', which fr uses for 1000000") == true)
    }

    @Test func offsetsAndSelectordinalsAreNotMisjudged() throws {
        let findings = try Self.check([
            "en-US": "n: \"{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}\"\nm: \"{n, plural, offset:1 =1 {one} other {# more}}\"",
            "de-DE": "n: \"{n, selectordinal, other {#.}}\"\nm: \"{n, plural, offset:1 =1 {eins} other {# weitere}}\"",
        ])
        // English needs `one` for `m` (=1 does not cover it past an offset); ordinals are not judged.
        #expect(Self.rules(findings) == ["plural-missing-category", "plural-missing-category"])
        #expect(findings.allSatisfy { $0.key == "m" })
    }

    @Test func rightToLeftLocalesMayUseBalancedBidiControls() throws {
        let findings = try Self.check([
            "en-US": "a: Name\nb: Name\nc: Name",
            "he-IL": "a: \"\\u200Fשם\\u200F\"\nb: \"\\u2067שם\\u2069 \\u202Bx\\u202C\"\nc: \"\\u202Bשם\"",
            "fr-FR": "a: \"\\u200FNom\"\nb: Nom\nc: Nom",
        ])
        #expect(findings.map { "\($0.key ?? "")@\($0.file.split(separator: "/").last!)" } == ["a@fr-FR.yaml", "c@he-IL.yaml"])
        #expect(findings.allSatisfy { $0.rule == .bidiControl })
        #expect(findings[1].diagnostic.message.contains("never closed"))
    }

    @Test func numbersIgnoreSeparatorsScriptsPhonesAndURLs() throws {
        let findings = try Self.check([
            "en-US": "a: Up to 1,000 files\nb: Call +1 555 123 4567 or see https://example.com/v2/help\nc: 8 characters\nd: 3 to 40",
            "fr-FR": "a: Jusqu’à 1 000 fichiers\nb: Appelez +33 1 23 45 67 89 ou voyez https://example.com/v2/help\nc: ٨ caractères\nd: de 3 à 4",
        ])
        #expect(Self.rules(findings) == ["number-mismatch"])
        #expect(findings.first?.key == "d")
    }

    @Test func sameAsSourceSkipsWhatNeedsNoTranslation() throws {
        let findings = try Self.check([
            "en-US": "a: \"{label}\"\nb: https://example.com\nc: you@example.com\nd: \"+1 555 123 4567\"\ne: Canada\nf: OK\ng: Email",
            "fr-FR": "a: \"{label}\"\nb: https://example.com\nc: you@example.com\nd: \"+1 555 123 4567\"\ne: Canada\nf: OK\ng: E-mail",
            "en-GB": "a: \"{label}\"\nb: https://example.com\nc: you@example.com\nd: \"+1 555 123 4567\"\ne: Canada\nf: OK\ng: Email",
        ], allowed: ["e"])
        #expect(Self.rules(findings) == ["same-as-source"])
        #expect(findings.first?.key == "f")
    }

    @Test func regionalFilesFallBackToTheirLanguage() throws {
        let findings = try Self.check([
            "en-US": "a: One\nb: Two",
            "fr": "a: Un\nb: Deux",
            "fr-CA": "b: Deux (Canada)",
        ])
        #expect(findings.isEmpty, "\(findings.map(\.diagnostic))")
    }

    @Test func callSitesDecideArgumentsAndObsoleteKeys() throws {
        let folder = try TemporaryFolder("jump-checker-flow")
        defer { folder.remove() }
        try folder.write("flows/flow.yaml", """
        flow: f
        version: "1"
        defaultLocale: en-US
        locales: ../locales
        fields:
          name:
            type: text
            label: fields.name.label
            validation:
              - { rule: required, message: validation.required }
              - { rule: minLength, value: 3, message: validation.minLength }
              - { rule: format, value: alpha, message: validation.format }
        forms:
          signInForm: { fields: [name] }
        """)
        try folder.write("locales/en-US.yaml", """
        locale: en-US
        messages:
          fields.name.label: Name
          validation.required: "{label} is required."
          validation.minLength: "{value, plural, one {# character} other {# characters}}"
          validation.format: "{label} needs {value} letters"
          old.key: Old
          jumpForms.prompt.yes: "yes"
        """)
        try folder.write("locales/de-DE.yaml", """
        locale: de-DE
        messages:
          fields.name.label: Name ({value})
          validation.required: "{label} ist erforderlich."
          validation.minLength: "{value, plural, one {# Zeichen} other {# Zeichen}}"
          validation.format: "{label} braucht {value, plural, other {# Buchstaben}}"
        """)
        let project = ProjectLoader().load(paths: [folder.path + "/flows/flow.yaml"])
        let loaded = try #require(project.primaryFlow)
        let input = LocaleCheckInput(catalogs: loaded.catalogs, reference: LocaleTag("en-US")!, flows: [loaded.flow],
                                     builtinCatalogs: BuiltinCatalog.catalogs)
        let findings = LocaleChecker(input).run()
        let summary = findings.map { "\($0.rule.rawValue):\($0.key ?? "")@\($0.file.split(separator: "/").last!)" }
        #expect(summary == [
            // The en-US override of jump-forms' word would be what German users see.
            "missing-key:jumpForms.prompt.yes@de-DE.yaml",
            "argument-unknown:fields.name.label@de-DE.yaml",          // labels get no arguments
            "render-failure:validation.format@de-DE.yaml",            // a plural over the format's name
            "plural-missing-category:validation.format@de-DE.yaml",   // German needs `one`
            "obsolete-key:old.key@en-US.yaml",                        // no flow uses it; jumpForms.* is known
        ], "\(findings.map(\.diagnostic))")
    }

    @Test func concurrentAndSequentialChecksAgree() throws {
        var files: [String: String] = ["en-US": (0..<50).map { "k\($0): \"{n, plural, one {# a} other {# b}}\"" }.joined(separator: "\n")]
        for tag in ["pl-PL", "ru-RU", "ar-EG", "ja-JP", "fr-FR", "de-DE"] {
            files[tag] = (0..<50).map { "k\($0): \"{n, plural, one {# x} other {# y}}  \"" }.joined(separator: "\n")
        }
        let concurrent = try Self.check(files)
        let sequential = try Self.check(files, concurrently: false)
        #expect(concurrent.count > 300)
        #expect(concurrent.map(\.fingerprint) == sequential.map(\.fingerprint))
        #expect(concurrent.map { "\($0.diagnostic.location?.line ?? 0):\($0.diagnostic.message)" }
            == sequential.map { "\($0.diagnostic.location?.line ?? 0):\($0.diagnostic.message)" })
    }

    @Test func fingerprintsIgnoreLinesButNotTexts() throws {
        let before = try Self.check(["en-US": "a: Name\nb: Email", "fr-FR": "a: Name\nb: Courriel"])
        let moved = try Self.check(["en-US": "a: Name\nb: Email", "fr-FR": "# a comment\n\nb: Courriel\na: Name"])
        let changed = try Self.check(["en-US": "a: Name\nb: Email", "fr-FR": "a: \"Name \"\nb: Courriel"])
        #expect(before.count == 1 && moved.count == 1)
        #expect(before[0].diagnostic.location != moved[0].diagnostic.location)
        #expect(before[0].fingerprint == moved[0].fingerprint)
        let baseline = Baseline(findings: before)
        #expect(baseline.filter(moved).new.isEmpty)
        #expect(baseline.filter(changed).new.map(\.rule) == [.whitespaceEdge])
        let reread = try Baseline(json: Array(baseline.json.utf8))
        #expect(reread == baseline)
    }
}

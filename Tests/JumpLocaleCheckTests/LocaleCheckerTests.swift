import Foundation
import JumpForms
import JumpFormsLoader
import JumpLocaleCheck
import Testing
import TestSupport

/// The checker in process, on catalogs loaded from small files: the finer points of each rule.
@Suite struct LocaleCheckerTests {
    /// Loads `files` (name -> YAML under `messages:`) and checks them against en-US (with
    /// jump-forms' own catalog when `builtin`).
    static func check(
        _ files: [String: String], allowed: [String] = [], concurrently: Bool = true, builtin: Bool = false,
        requiresBuiltinTexts: Bool? = nil, lineEnding: String = "\n"
    ) throws -> [LocaleFinding] {
        let catalogs = try load(files, lineEnding: lineEnding)
        // Paths relative to the folder, so that runs in different folders compare.
        let input = LocaleCheckInput(
            catalogs: catalogs.list, reference: LocaleTag("en-US")!, builtinCatalogs: builtin ? BuiltinCatalog.catalogs : [],
            sameAsSourceAllowed: allowed, concurrently: concurrently,
            requiresBuiltinTexts: requiresBuiltinTexts ?? builtin)
        let folder = catalogs.folder
        return LocaleChecker(input).run().map { finding in
            var finding = finding
            finding.file = String(finding.file.dropFirst(folder.count + 1))
            return finding
        }
    }

    /// The catalogs of `files` (name -> YAML under `messages:`, lines ending with `lineEnding`),
    /// and the folder they were in.
    static func load(_ files: [String: String], lineEnding: String = "\n") throws -> (list: [LocaleCatalog], folder: String) {
        let folder = try TemporaryFolder("jump-checker")
        defer { folder.remove() }
        for (tag, body) in files {
            let lines = ["locale: \(tag)", "messages:"] + body.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
            try folder.write("locales/\(tag).yaml", lines.joined(separator: lineEnding) + lineEnding)
        }
        var project = LoadedProject()
        return (ProjectLoader().loadLocales(in: folder.path + "/locales", into: &project), folder.path)
    }

    static func rules(_ findings: [LocaleFinding]) -> [String] { findings.map(\.rule.rawValue) }

    @Test func exactCasesCoverSmallCategories() throws {
        // English `one` is only 1: `=1` covers it. French `one` holds 0, 1 and 1.5: `=0` and `=1` do not.
        let findings = try Self.check([
            // (Keys other than `n`, which YAML 1.1 reads as false.)
            "en-US": "files: \"{n, plural, =1 {one file} other {# files}}\"",
            "fr-FR": "files: \"{n, plural, =0 {aucun} =1 {un fichier} other {# fichiers}}\"",
            "ar-EG": "files: \"{n, plural, =0 {صفر} =1 {واحد} =2 {اثنان} few {# ملفات} many {# ملفًا} other {# ملف}}\""
        ])
        // French also needs `many` (1 000 000 de fichiers).
        #expect(Self.rules(findings) == ["plural-missing-category", "plural-missing-category"])
        #expect(findings.allSatisfy { $0.file == "locales/fr-FR.yaml" })
        #expect(findings.first?.diagnostic.message.contains("lacks 'one', which fr uses for 0, 1") == true)
        #expect(findings.last?.diagnostic.message.contains("lacks 'many', which fr uses for 1000000") == true)
    }

    @Test func offsetsAndSelectordinalsAreNotMisjudged() throws {
        let findings = try Self.check([
            "en-US":
                "ordinal: \"{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}\"\nm: \"{n, plural, offset:1 =1 {one} other {# more}}\"",
            "de-DE": "ordinal: \"{n, selectordinal, other {#.}}\"\nm: \"{n, plural, offset:1 =1 {eins} other {# weitere}}\""
        ])
        // English needs `one` for `m` (=1 does not cover it past an offset); both ordinals have
        // every category their locale uses (German: `other` only).
        #expect(Self.rules(findings) == ["plural-missing-category", "plural-missing-category"])
        #expect(findings.allSatisfy { $0.key == "m" })
    }

    /// `selectordinal` is checked against the locale's ordinal categories (CLDR 47), with
    /// sample ordinals: English needs `two` and `few` (2nd, 3rd); French has `one` and `other`
    /// only, so a `two` case is never used.
    @Test func ordinalCategoriesAreCheckedPerLocale() throws {
        let findings = try Self.check([
            "en-US": "rank: \"{n, selectordinal, one {#st} other {#th}}\"",
            "fr-FR": "rank: \"{n, selectordinal, one {#er} two {#e} other {#e}}\""
        ])
        #expect(
            Self.rules(findings) == ["plural-missing-category", "plural-missing-category", "plural-unused-category"],
            "\(findings.map(\.diagnostic.message))")
        let english = findings.filter { $0.file == "locales/en-US.yaml" }.map(\.diagnostic.message)
        #expect(english.contains { $0.contains("selectordinal {n} lacks 'two', which en uses for the ordinals 2, 22") }, "\(english)")
        #expect(english.contains { $0.contains("lacks 'few'") }, "\(english)")
        #expect(findings.last?.file == "locales/fr-FR.yaml")
        #expect(
            findings.last?.diagnostic.message.contains("fr never uses the ordinal category 'two'") == true,
            "\(findings.last?.diagnostic.message ?? "")")
    }

    @Test func rightToLeftLocalesMayUseBalancedBidiControls() throws {
        let findings = try Self.check([
            "en-US": "a: Name\nb: Name\nc: Name",
            "he-IL": "a: \"\\u200Fשם\\u200F\"\nb: \"\\u2067שם\\u2069 \\u202Bx\\u202C\"\nc: \"\\u202Bשם\"",
            "fr-FR": "a: \"\\u200FNom\"\nb: Nom\nc: Nom"
        ])
        #expect(findings.map { "\($0.key ?? "")@\($0.file.split(separator: "/").last!)" } == ["a@fr-FR.yaml", "c@he-IL.yaml"])
        #expect(findings.allSatisfy { $0.rule == .bidiControl })
        #expect(findings[1].diagnostic.message.contains("never closed"))
    }

    @Test func decimalMarksAreNotGroupSeparators() throws {
        let findings = try Self.check([
            "en-US": "a: Size 1.5 GB\nb: Take 1.5 GB\nc: Up to 1,000 files\nd: Version 1.0\ne: 12,345.5 points\nf: Enter 3 4 times",
            "fr-FR": "a: Taille 1,5 Go\nb: Prenez 15 Go\nc: Jusqu’à 1.000 fichiers\nd: Édition 10\ne: 12 345,5 points\nf: Tapez 34 fois"
        ])
        // 1.5 = 1,5 but not 15; 1.0 is not 10; a space before fewer than three digits ends a number.
        #expect(findings.map { "\($0.rule.rawValue):\($0.key ?? "")" } == ["number-mismatch:b", "number-mismatch:d", "number-mismatch:f"])
        #expect(findings[0].diagnostic.message.hasSuffix("lacks 1.5; adds 15"))
        #expect(findings[1].diagnostic.message.hasSuffix("lacks 1.0; adds 10"))
        #expect(findings[2].diagnostic.message.hasSuffix("lacks 3, 4; adds 34"))
    }

    @Test func trapValuesAreReportedOnce() throws {
        // A YAML 1.1 tool reads `1.0` as a number and `2024-01-01` as a date: the trap is the
        // finding, not also the numbers it differs in, nor its being the reference's text.
        let findings = try Self.check([
            "en-US": "a: Label\nb: Released\nc: \"2024-01-01\"\nd: Yes",
            "de-DE": "a: 1.0\nb: 2024-01-01\nc: 2024-01-01\nd: \"Ja\""
        ])
        #expect(findings.map { "\($0.rule.rawValue):\($0.key ?? "")" } == ["yaml-trap:a", "yaml-trap:b", "yaml-trap:c", "yaml-trap:d"])
        #expect(findings.map(\.file) == ["locales/de-DE.yaml", "locales/de-DE.yaml", "locales/de-DE.yaml", "locales/en-US.yaml"])
        #expect(findings[0].diagnostic.message == "'1.0' is unquoted: YAML 1.1 tools read it as a number, not as text")
        #expect(findings[1].diagnostic.message == "'2024-01-01' is unquoted: YAML 1.1 tools read it as a date, not as text")
    }

    @Test func keysThatYAMLTypesAreTraps() throws {
        // The Norway problem: `NO:` is the boolean false for PyYAML, so the key is lost.
        let findings = try Self.check([
            "en-US": "options.country:\n  \"NO\": Norway\n  SE: Sweden\n  \"1.5\": One and a half",
            "nb-NO": "options.country:\n  NO: Norge\n  SE: Sverige\n  1.5: Halvannen"
        ])
        #expect(findings.map { "\($0.rule.rawValue):\($0.key ?? "")" } == ["yaml-trap:options.country.NO", "yaml-trap:options.country.1.5"])
        #expect(findings.map { $0.diagnostic.location.map { "\($0.line):\($0.column)" } ?? "" } == ["4:5", "6:5"])
        #expect(
            findings[0].diagnostic.message
                == "the key 'NO' is unquoted: YAML 1.1 tools read it as the boolean false, not as text, so they see another key than 'options.country.NO'"
        )
        #expect(findings[0].diagnostic.hint == "write it in quotes: \"NO\":")
        #expect(findings[1].diagnostic.message.contains("read it as a number"))
    }

    @Test func anEmptiedParentIsReportedOnce() throws {
        // `gender:` left empty when its cases were removed: obsolete, not also empty.
        let findings = try Self.check([
            "en-US": "welcome:\n  gender:\n    female: Welcome\n    other: Welcome\n  title: Hello",
            "fr-FR": "welcome:\n  gender:\n  title: Bonjour"
        ])
        #expect(
            findings.map { "\($0.rule.rawValue):\($0.key ?? "")" } == [
                "missing-key:welcome.gender.female", "missing-key:welcome.gender.other", "obsolete-key:welcome.gender"
            ])
        #expect(findings[2].diagnostic.hint == "the keys under it were removed (such as 'welcome.gender.female'): restore them, or remove it")
    }

    @Test func jumpFormsOwnKeysMustBeTranslatedWhereItsCatalogIsNot() throws {
        let builtin = try #require(BuiltinCatalog.catalogs.first { $0.tag.value.identifier == "en-US" })
        let findings = try Self.check(
            [
                // An en-US override of one of jump-forms' words.
                "en-US": "a: One\njumpForms.prompt.yes: yep",
                "de-DE": "a: Eins",  // jump-forms' catalog has German
                "en-GB": "a: One",  // English: jump-forms' texts are English
                "it": "jumpForms.prompt.no: \"no\"",  // Italian for every it-* locale: one key
                "it-IT": "a: Uno",
                "pk-PL": "a: Jeden"  // a typo: unknown-language says what to fix first
            ], builtin: true)
        let italian = findings.filter { $0.file == "locales/it-IT.yaml" }
        // Every key of jump-forms' catalog but the one it.yaml has; the en-US override once.
        #expect(italian.count == builtin.count - 1)
        #expect(italian.allSatisfy { $0.rule == .missingKey })
        #expect(italian.first?.diagnostic.message == "message 'jumpForms.prompt.yes' is missing from it-IT; en-US has it")
        #expect(
            italian.dropFirst().first?.diagnostic.message
                == "message 'jumpForms.input.invalidDate' is missing from it-IT; jump-forms uses it, and its own catalog has no it text for it")
        #expect(italian.dropFirst().first?.diagnostic.hint == "translate jump-forms' en-US text: \"{label}: enter a date as YYYY-MM-DD.\"")
        #expect(!italian.contains { $0.key == "jumpForms.prompt.no" })
        // it.yaml itself is not a locale of its own catalog either: all but the key it has, and not 'a'.
        #expect(findings.filter { $0.file == "locales/it.yaml" }.map(\.rule).allSatisfy { $0 == .missingKey })
        #expect(findings.filter { $0.file == "locales/pk-PL.yaml" }.map(\.rule) == [.unknownLanguage])
        #expect(
            findings.filter { ["locales/de-DE.yaml", "locales/en-GB.yaml", "locales/en-US.yaml"].contains($0.file) }.isEmpty,
            "\(findings.map(\.diagnostic))")

        // Coverage counts them too.
        let catalogs = try Self.load(["en-US": "a: One", "de-DE": "a: Eins", "it-IT": "a: Uno"]).list
        let coverage = CoverageReport(catalogs: catalogs, reference: LocaleTag("en-US")!, flows: [], builtinCatalogs: BuiltinCatalog.catalogs)
        let counts = Dictionary(uniqueKeysWithValues: coverage.locales.map { ($0.tag.identifier, $0.all) })
        #expect(counts["it-IT"] == CoverageReport.Count(translated: 1, total: 1 + builtin.count))
        #expect(counts["de-DE"] == CoverageReport.Count(translated: 1 + builtin.count, total: 1 + builtin.count))
        #expect(counts["en-US"]?.percent == 100)
        #expect(coverage.locales.first { $0.tag.identifier == "it-IT" }?.untranslated.first == "jumpForms.input.invalidDate")
    }

    @Test func numbersIgnoreSeparatorsScriptsPhonesAndURLs() throws {
        let findings = try Self.check([
            "en-US": "a: Up to 1,000 files\nb: Call +1 555 123 4567 or see https://example.com/v2/help\nc: 8 characters\nd: 3 to 40",
            "fr-FR": "a: Jusqu’à 1 000 fichiers\nb: Appelez +33 1 23 45 67 89 ou voyez https://example.com/v2/help\nc: ٨ caractères\nd: de 3 à 4"
        ])
        #expect(Self.rules(findings) == ["number-mismatch"])
        #expect(findings.first?.key == "d")
    }

    @Test func sameAsSourceSkipsWhatNeedsNoTranslation() throws {
        let findings = try Self.check(
            [
                "en-US": "a: \"{label}\"\nb: https://example.com\nc: you@example.com\nd: \"+1 555 123 4567\"\ne: Canada\nf: OK\ng: Email",
                "fr-FR": "a: \"{label}\"\nb: https://example.com\nc: you@example.com\nd: \"+1 555 123 4567\"\ne: Canada\nf: OK\ng: E-mail",
                "en-GB": "a: \"{label}\"\nb: https://example.com\nc: you@example.com\nd: \"+1 555 123 4567\"\ne: Canada\nf: OK\ng: Email"
            ], allowed: ["e"])
        #expect(Self.rules(findings) == ["same-as-source"])
        #expect(findings.first?.key == "f")
    }

    @Test func regionalFilesFallBackToTheirLanguage() throws {
        let findings = try Self.check([
            "en-US": "a: One\nb: Two",
            "fr": "a: Un\nb: Deux",
            "fr-CA": "b: Deux (Canada)"
        ])
        #expect(findings.isEmpty, "\(findings.map(\.diagnostic))")
    }

    @Test func callSitesDecideArgumentsAndObsoleteKeys() throws {
        let folder = try TemporaryFolder("jump-checker-flow")
        defer { folder.remove() }
        try folder.write(
            "flows/flow.yaml",
            """
            flow: f
            version: "1"
            defaultLocale: en-US
            locales: ../locales
            fields:
              name:
                type: text
                label: fields.name.label
                tip: fields.name.tip
                validation:
                  - { rule: required, message: validation.required }
                  - { rule: minLength, value: 3, message: validation.minLength }
                  - { rule: format, value: alpha, message: validation.format }
            forms:
              signInForm: { fields: [name] }
            """)
        try folder.write(
            "locales/en-US.yaml",
            """
            locale: en-US
            messages:
              fields.name.label: Name
              validation.required: "{label} is required."
              validation.minLength: "{value, plural, one {# character} other {# characters}}"
              validation.format: "{label} needs {value} letters"
              old.key: Old
              jumpForms.prompt.yes: "yep"
            """)
        try folder.write(
            "locales/de-DE.yaml",
            """
            locale: de-DE
            messages:
              fields.name.label: Name ({value})
              validation.required: "{label} ({field}) ist erforderlich."
              validation.minLength: "{value, plural, one {# Zeichen} other {# Zeichen}}"
              validation.format: "{label} braucht {value, plural, other {# Buchstaben}}"
            """)
        let project = ProjectLoader().load(paths: [folder.path + "/flows/flow.yaml"])
        let loaded = try #require(project.primaryFlow)
        let input = LocaleCheckInput(
            catalogs: loaded.catalogs, reference: LocaleTag("en-US")!, flows: [loaded.flow],
            builtinCatalogs: BuiltinCatalog.catalogs)
        let findings = LocaleChecker(input).run()
        let summary = findings.map { "\($0.rule.rawValue):\($0.key ?? "")@\($0.file.split(separator: "/").last!)" }
        #expect(
            summary == [
                // The flow's tip is in no locale file: missing from each, once. The en-US override
                // of jump-forms' word is not missing from German: jump-forms' German serves it.
                "missing-key:fields.name.tip@de-DE.yaml",
                "argument-unknown:fields.name.label@de-DE.yaml",  // labels get no arguments
                "argument-added:validation.required@de-DE.yaml",  // provided, but en-US does not use it
                "render-failure:validation.format@de-DE.yaml",  // a plural over the format's name
                "plural-missing-category:validation.format@de-DE.yaml",  // German needs `one`
                "missing-key:fields.name.tip@en-US.yaml",
                "obsolete-key:old.key@en-US.yaml"  // no flow uses it; jumpForms.* is known
            ], "\(findings.map(\.diagnostic))")
        #expect(findings.first?.diagnostic.message == "message 'fields.name.tip' is missing from de-DE; the flow uses it")
        // At run time too, German users get jump-forms' German, not the en-US override.
        let localizer = loaded.localizer()
        #expect(localizer.text("jumpForms.prompt.yes", for: LocaleTag("de-DE")!) == "ja")
        #expect(localizer.text("jumpForms.prompt.yes", for: LocaleTag("en-GB")!) == "yep")
        #expect(localizer.text("jumpForms.prompt.no", for: LocaleTag("de-DE")!) == "nein")
    }

    /// An activity's messages may use the arguments it declares (values from `--set`): text or
    /// numbers, so a plural over one is fine; any other argument is unknown.
    @Test func activityMessagesGetTheArgumentsTheActivityDeclares() throws {
        let folder = try TemporaryFolder("jump-checker-activity")
        defer { folder.remove() }
        try folder.write(
            "flows/flow.yaml",
            """
            flow: f
            version: "1"
            defaultLocale: en-US
            locales: ../locales
            fields:
              email: { type: email, label: fields.email.label }
              password: { type: password, label: fields.password.label }
            forms:
              signInForm: { fields: [email, password] }
            providers: [twitter]
            sharing: [twitter]
            activities:
              joined:
                action: activities.joined.action
                arguments: [name, count]
                title: activities.joined.title
            """)
        try folder.write(
            "locales/en-US.yaml",
            """
            locale: en-US
            messages:
              fields.email.label: Email
              fields.password.label: Password
              activities.joined.action: "{name} joined with {count, plural, one {# friend} other {# friends}}."
              activities.joined.title: "Welcome"
            """)
        try folder.write(
            "locales/fr-FR.yaml",
            """
            locale: fr-FR
            messages:
              fields.email.label: E-mail
              fields.password.label: Mot de passe
              activities.joined.action: "{name} a rejoint {site} avec {count, plural, one {# ami} many {# d’amis} other {# amis}}."
            """)
        let project = ProjectLoader().load(paths: [folder.path + "/flows/flow.yaml"])
        let loaded = try #require(project.primaryFlow)
        let input = LocaleCheckInput(
            catalogs: loaded.catalogs, reference: LocaleTag("en-US")!, flows: [loaded.flow],
            builtinCatalogs: BuiltinCatalog.catalogs)
        let findings = LocaleChecker(input).run()
        let summary = findings.map { "\($0.rule.rawValue):\($0.key ?? "")@\($0.file.split(separator: "/").last!)" }
        #expect(
            summary == [
                "missing-key:activities.joined.title@fr-FR.yaml",
                "argument-unknown:activities.joined.action@fr-FR.yaml"
            ], "\(findings.map(\.diagnostic))")
        #expect(findings.last?.diagnostic.message.contains("{site}") == true, "\(findings.map(\.diagnostic))")
    }

    @Test func concurrentAndSequentialChecksAgree() throws {
        var files: [String: String] = ["en-US": (0..<50).map { "k\($0): \"{n, plural, one {# a} other {# b}}\"" }.joined(separator: "\n")]
        for tag in ["pl-PL", "ru-RU", "ar-EG", "ja-JP", "fr-FR", "de-DE"] {
            files[tag] = (0..<50).map { "k\($0): \"{n, plural, one {# x} other {# y}}  \"" }.joined(separator: "\n")
        }
        // File-level findings too (a missing key, a duplicate key), with findings in both halves
        // of each file (a concurrent check splits every file in two).
        files["pl-PL"] =
            (1..<50).map { "k\($0): \"{n, plural, one {# x} few {# y} many {# z} other {# w}}  \"" }.joined(separator: "\n")
            + "\nk7: again\nk99: extra"
        let concurrent = try Self.check(files)
        let sequential = try Self.check(files, concurrently: false)
        #expect(concurrent.count > 300)
        let rules = Set(concurrent.filter { $0.file.hasSuffix("pl-PL.yaml") }.map(\.rule))
        #expect(rules.isSuperset(of: [.missingKey, .duplicateKey, .obsoleteKey, .whitespaceEdge]), "\(rules)")
        #expect(concurrent.map(\.fingerprint) == sequential.map(\.fingerprint))
        #expect(
            concurrent.map { "\($0.diagnostic.location?.line ?? 0):\($0.diagnostic.message)" }
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

    @Test func aMessageWithASyntaxErrorIsNotComparedWithTheReference() throws {
        // A `|` block: more line breaks than the reference and a trailing one, but the syntax
        // error explains the message; only its characters are still checked.
        let findings = try Self.check([
            "en-US": "b: \"{n, plural, one {# x} other {# xs}}\"\nc: \"{n, plural, one {# x} other {# xs}}\"",
            "de-DE": "b: |\n  first line\n  {n, plural, one {# x} othr {# xs}}\nc: \"{n, plural, one {# x} othr {# xs\u{200B}}}\""
        ])
        #expect(
            findings.map { "\($0.rule.rawValue) \($0.key ?? "")" } == ["icu-syntax b", "icu-syntax c", "invisible-character c"],
            "\(findings.map(\.diagnostic.description))")
        #expect(findings.first?.diagnostic.location.map { "\($0.line):\($0.column)" } == "5:27")
    }

    @Test func invisibleCharactersWrittenAsEscapesAreOnPurpose() throws {
        // Escaped in double quotes (`\u200B`, `\x01`, `\t`-style), anywhere in the value: kept.
        // Written as themselves (quoted, plain, at the end, in a block): reported.
        let findings = try Self.check([
            "en-US": "a: plain\nb: Email address\nc: end\nd: x y\ne: end\nf: x\ng: block\nh: tail",
            "de-DE": "a: \"pla\\u0001in\"\nb: \"E-Mail\\u200B-Adresse\"\nc: \"end\\u200B\"\n"
                + "d: \"x\u{200B}y\"\ne: \"end\u{200B}\"\nf: x\u{200B}\ng: |-\n  blo\u{200B}ck\nh: \"ta\\x01i\u{00AD}l\""
        ])
        #expect(findings.allSatisfy { $0.rule == .invisibleCharacter })
        #expect(
            findings.map { "\($0.key ?? ""):\($0.diagnostic.location.map { "\($0.line):\($0.column)" } ?? "")" }
                == ["d:6:8", "e:7:10", "f:8:7", "g:10:8", "h:11:14"], "\(findings.map(\.diagnostic.description))")
        #expect(findings.last?.diagnostic.message.contains("U+00AD") == true)
    }

    /// A German file whose values are written over two lines, each holding an invisible character
    /// right before a line break (in `lineEnding`s), and an English reference with its keys.
    static func checkBrokenLines(_ german: [String], lineEnding: String) throws -> (findings: [LocaleFinding], texts: [String: String]) {
        let keys = german.map { String($0.prefix { $0 != ":" }) }
        let english = keys.map { "\($0): Hello world" }.joined(separator: "\n")
        let files = ["en-US": english, "de-DE": german.joined(separator: "\n")]
        let catalog = try Self.load(files, lineEnding: lineEnding).list.first { $0.tag.value == LocaleTag("de-DE")! }
        var texts: [String: String] = [:]
        for key in keys { texts[key] = catalog?[key]?.text }
        return (try Self.check(files, lineEnding: lineEnding), texts)
    }

    @Test(arguments: ["\n", "\r\n"])
    func invisibleCharactersEscapedBeforeALineBreakAreOnPurpose(lineEnding: String) throws {
        // The next character is on the next line (an escaped line break, a folded line, or
        // none: the last one of a value written over two lines), after multi-byte characters.
        let (findings, texts) = try Self.checkBrokenLines(
            [
                "a: \"Grüße\\u200B\\", "  Welt\"",
                "b: \"Grüße\\u00AD", "  Welt\"",
                "c: \"Grüße", "  Welt\\u200B\"",
                "d: \"Grüße\\x01\\", "  \\u2060Welt\""
            ], lineEnding: lineEnding)
        // The values hold the characters, so a finding would be due.
        #expect(texts == ["a": "Grüße\u{200B}Welt", "b": "Grüße\u{AD} Welt", "c": "Grüße Welt\u{200B}", "d": "Grüße\u{1}\u{2060}Welt"])
        #expect(findings.isEmpty, "\(findings.map(\.diagnostic.description))")
    }

    @Test(arguments: ["\n", "\r\n"])
    func invisibleCharactersWrittenAsThemselvesBeforeALineBreakAreReported(lineEnding: String) throws {
        // Raw (a tab and multi-byte characters before them on their line): before an escaped
        // line break, a folded line and a value's end; after a backslash that escapes nothing
        // (single quotes, a plain value, a folded block).
        let (findings, texts) = try Self.checkBrokenLines(
            [
                "a: \"Grüße,\tWelt\u{200B}\\", "  !\"",
                "b: \"Grüße\u{00AD}", "  Welt\"",
                "c: \"Grüße", "  Welt\u{200B}\"",
                "d: 'Grüße\\\u{200B}", "  Welt'",
                "e: Grüße\\\u{2060}", "  Welt",
                "f: >-", "  Grüße\\\u{200B}", "  Welt"
            ], lineEnding: lineEnding)
        #expect(
            texts == [
                "a": "Grüße,\tWelt\u{200B}!", "b": "Grüße\u{AD} Welt", "c": "Grüße Welt\u{200B}",
                "d": "Grüße\\\u{200B} Welt", "e": "Grüße\\\u{2060} Welt", "f": "Grüße\\\u{200B} Welt"
            ])
        #expect(findings.allSatisfy { $0.rule == .invisibleCharacter })
        #expect(
            findings.map { "\($0.key ?? ""):\($0.diagnostic.location.map { "\($0.line):\($0.column)" } ?? "")" }
                == ["a:3:18", "b:5:12", "c:8:9", "d:9:13", "e:11:12", "f:14:11"], "\(findings.map(\.diagnostic.description))")
    }

    /// Locale files that serve no flow nor jump.yaml (an app's own strings, imported) need not
    /// translate jump-forms' texts; what they have is still checked (issue 26).
    @Test func jumpFormsOwnTextsAreRequiredOnlyWhereTheFilesServeJumpForms() throws {
        let files = ["en-US": "a: One\nb: Two", "it-IT": "a: Uno", "sv": "a: Ett\nb: Två"]
        let loose = try Self.check(files, builtin: true, requiresBuiltinTexts: false)
        #expect(loose.map { "\($0.file):\($0.rule.rawValue):\($0.key ?? "")" } == ["locales/it-IT.yaml:missing-key:b"])
        let asked = try Self.check(files, builtin: true, requiresBuiltinTexts: true)
        #expect(asked.filter { $0.key?.hasPrefix("jumpForms.") == true }.count > 20)
        // Without flows the default is not to require them.
        let catalogs = try Self.load(files).list
        #expect(!LocaleCheckInput(catalogs: catalogs, reference: LocaleTag("en-US")!, builtinCatalogs: BuiltinCatalog.catalogs).requiresBuiltinTexts)
    }

    /// A locale's missing keys come from the files that serve it as the forms negotiate:
    /// fr-CA from fr-FR, es-AR from es-419 then es-ES, zh-HK from zh-Hant; not from another
    /// script or language (issue 26).
    @Test func missingKeysComeFromTheFilesThatServeTheLocale() throws {
        let findings = try Self.check([
            "en-US": "a: One\nb: Two\nc: Three",
            "fr-FR": "a: Un\nb: Deux\nc: Trois", "fr-CA": "a: Un",
            "es-ES": "a: Uno\nb: Dos\nc: Tres", "es-419": "a: Uno\nb: Dos", "es-AR": "a: Uno",
            "zh-Hant": "a: 一\nb: 二\nc: 三", "zh-HK": "a: 一", "zh-Hans": "a: 一"
        ])
        let missing = findings.filter { $0.rule == .missingKey }.map { "\($0.file):\($0.key ?? "")" }
        #expect(missing == ["locales/zh-Hans.yaml:b", "locales/zh-Hans.yaml:c"], "\(findings.map(\.diagnostic.message))")
    }

    /// Texts made of placeholders, numbers and unit symbols are the same in every language:
    /// not "untranslated" (issue 26: TwitterKit's `%@h`, `{n} min`).
    @Test(arguments: [
        ("%@h", false), ("%1$@ min", false), ("{n} min", false), ("{n}MB", false), ("%d km/h", false), ("%.1f°C", false),
        ("{n} · %@s", false), ("%lld%%", false), ("5 mAh", false),
        ("%@ hours", true), ("{n} minutes", true), ("%@ min ago", true), ("Close", true), ("%@ h left", true)
    ])
    func placeholdersAndUnitsAreNotUntranslated(_ text: String, _ flagged: Bool) throws {
        let quoted = "\"" + text.replacingOccurrences(of: "\\", with: "\\\\") + "\""
        let findings = try Self.check(["en-US": "a: \(quoted)", "de-DE": "a: \(quoted)"])
        #expect(findings.contains { $0.rule == .sameAsSource } == flagged, "\(findings.map(\.diagnostic.message))")
    }

    /// `--reference` naming a locale the folder has no file for: said once, nothing else
    /// (jump-forms' own texts included), with the file that would serve it as the hint.
    @Test func aMissingReferenceIsSaidOnceAndTheCheckStops() throws {
        let catalogs = try Self.load(["en-US": "a: Hello", "it-IT": "a: Ciao", "sv": "a: Hej"])
        let input = LocaleCheckInput(
            catalogs: catalogs.list, reference: LocaleTag("en")!, builtinCatalogs: BuiltinCatalog.catalogs,
            requiredLocales: [RequiredLocale(tag: LocaleTag("en")!, origin: "--reference")], requiresBuiltinTexts: true)
        let findings = LocaleChecker(input).run()
        #expect(findings.count == 1, "\(findings.map(\.diagnostic.description))")
        #expect(findings.first?.rule == .missingLocaleFile)
        #expect(findings.first?.diagnostic.hint == "did you mean 'en-US'? (en-US.yaml serves en), or add en.yaml")
    }

    /// `captureLocale` needs a file that serves it, as the forms negotiate (fr-FR.yaml for
    /// fr-CA); `--locale` and `--reference` name files.
    @Test func aCaptureLocaleServedByAnotherFileIsNotMissing() throws {
        let catalogs = try Self.load(["en-US": "a: Hello", "fr-FR": "a: Bonjour"]).list
        func missing(_ tag: String, served: Bool) -> [String] {
            LocaleChecker.missingLocaleFiles(
                [RequiredLocale(tag: LocaleTag(tag)!, origin: "captureLocale", servedByAnother: served)],
                catalogs: catalogs
            ).map { $0.diagnostic.message }
        }
        #expect(missing("fr-CA", served: true).isEmpty)
        #expect(missing("fr", served: true).isEmpty)
        #expect(missing("ja-JP", served: true).count == 1)
        #expect(missing("fr-CA", served: false).count == 1)
    }

    @Test func aReferenceWithoutAFileIsNotACascade() throws {
        // `--reference fr-FR` without fr-FR.yaml: the missing file is the finding, not every key
        // of every file being obsolete against it.
        let catalogs = try Self.load(["en-US": "a: Hello\nb: Thanks", "de-DE": "a: Hallo\nb: Danke"])
        let input = LocaleCheckInput(
            catalogs: catalogs.list, reference: LocaleTag("fr-FR")!,
            requiredLocales: [RequiredLocale(tag: LocaleTag("fr-FR")!, origin: "--reference")])
        let findings = LocaleChecker(input).run()
        #expect(findings.map(\.rule) == [.missingLocaleFile], "\(findings.map(\.diagnostic.description))")
        #expect(findings.first?.diagnostic.message.hasPrefix("fr-FR (--reference) has no locale file in ") == true)
    }

    @Test func baselinePathsAreRelativeToTheBaselinesFolder() {
        #expect(Baseline.path("/p/locales/fr-FR.yaml", relativeTo: "/p") == "locales/fr-FR.yaml")
        #expect(Baseline.path("/p/locales/fr-FR.yaml", relativeTo: "/p/ci") == "../locales/fr-FR.yaml")
        #expect(Baseline.path("/p/locales/fr-FR.yaml", relativeTo: "/") == "p/locales/fr-FR.yaml")
        #expect(Baseline.path("/q/x.yaml", relativeTo: "/p/ci") == "../../q/x.yaml")
    }
}

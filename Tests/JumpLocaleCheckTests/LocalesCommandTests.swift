import Foundation
import JumpForms
import JumpFormsLoader
import JumpLocaleCheck
import CLITestSupport
import Testing
import TestSupport

/// `jump-forms locales ...` as a user runs it: the repository's own files, exit codes, output
/// formats, baselines, pseudo-locales with the other commands, coverage.
@Suite struct LocalesCommandTests {
    func run(_ arguments: [String], in directory: String = Repository.root, environment: [String: String] = [:]) async throws -> CommandResult {
        try await InProcess.run(arguments, in: directory, environment: environment, input: nil)
    }

    /// A copy of the example project (flows, locales, jump.yaml).
    static func project() throws -> TemporaryFolder {
        let folder = try TemporaryFolder("jump-locales-project")
        for item in ["flows", "locales", "jump.yaml"] {
            try FileManager.default.copyItem(atPath: Repository.path(item), toPath: folder.path + "/" + item)
        }
        return folder
    }

    /// The project with fr-FR's email label left in English (one `same-as-source` finding),
    /// and the path of fr-FR's file.
    static func projectWithAnUntranslatedLabel() throws -> (TemporaryFolder, String) {
        let folder = try project()
        let path = folder.path + "/locales/fr-FR.yaml"
        let original = try String(contentsOfFile: path, encoding: .utf8)
        try folder.write("locales/fr-FR.yaml", original.replacingOccurrences(of: "label: Adresse e-mail\n", with: "label: Email address\n"))
        return (folder, path)
    }

    @Test func theRepositoryLocalesAreClean() async throws {
        let result = try await run(["locales", "check"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "0 errors, 0 warnings in 6 locale files\n")
        let explicit = try await run([
            "locales", "check", "--flows", "flows/standard.yaml", "--locales", "locales", "--reference", "en-US", "--strict"
        ])
        #expect(explicit.status == 0, "\(explicit.stdout)\(explicit.stderr)")
    }

    /// With one CPU the flows and the locale files still load together and the command
    /// finishes: a synchronous command runs on the main thread, so the piece it hands to
    /// Dispatch's global queue never waits on a thread the command holds. How long it takes is
    /// for a benchmark to say, not for this test.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/taskset")))
    func oneCPUFinishesTheCheck() async throws {
        let child = try ChildProcess(
            "/usr/bin/taskset", ["-c", "0", Executable.productsFolder + "/jump-forms", "locales", "check"],
            in: Repository.root)
        let end = try await child.finish(timeout: 60)
        #expect(end.status == 0, "\(child.stdout)\(child.stderr)")
        #expect(child.stderr == "0 errors, 0 warnings in 6 locale files\n")
    }

    @Test func jumpFormsOwnCatalogIsClean() async throws {
        let result = try await run(["locales", "check", "--locales", "Sources/JumpFormsLoader/Catalog", "--reference", "en-US", "--strict"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    /// An app's own translations (no flow, no jump.yaml: TwitterKit's strings, imported) are
    /// checked for what they hold, not for jump-forms' texts; `--builtin-texts` asks for those
    /// too. A `--reference` without its file is said once (issue 26).
    @Test func appTranslationsWithoutAFlowNeedNotTranslateJumpForms() async throws {
        let folder = try TemporaryFolder("jump-locales-app")
        defer { folder.remove() }
        try folder.write("strings/en.yaml", "locale: en\nmessages:\n  hours: \"%@h\"\n  minutes: \"{n} min\"\n  done: Done\n")
        try folder.write("strings/it.yaml", "locale: it\nmessages:\n  hours: \"%@h\"\n  minutes: \"{n} min\"\n  done: Fatto\n")
        try folder.write("strings/sv.yaml", "locale: sv\nmessages:\n  hours: \"%@h\"\n  minutes: \"{n} min\"\n")
        let plain = try await run(["locales", "check", "--locales", "strings", "--reference", "en"], in: folder.path)
        #expect(plain.status == 1)
        #expect(
            plain.stdout.split(separator: "\n").filter { $0.contains("error[") || $0.contains("warning[") }
                == ["strings/sv.yaml:2:1: error[missing-key]: message 'done' is missing from sv; en has it"], "\(plain.stdout)")
        #expect(!plain.stdout.contains("jumpForms."), "\(plain.stdout)")
        #expect(plain.stderr == "1 error, 0 warnings in 3 locale files\n", "\(plain.stderr)")
        let asked = try await run(
            ["locales", "check", "--locales", "strings", "--reference", "en", "--builtin-texts", "--format", "json"], in: folder.path)
        #expect(asked.status == 1)
        #expect(asked.stdout.contains("\"key\" : \"jumpForms.") || asked.stdout.contains("\"key\": \"jumpForms."), "\(asked.stdout.prefix(400))")
        let noReference = try await run(["locales", "check", "--locales", "strings", "--reference", "fr-FR"], in: folder.path)
        #expect(noReference.status == 1)
        #expect(
            noReference.stdout.split(separator: "\n").filter { $0.contains("error[") }
                == ["error[missing-locale-file]: fr-FR (--reference) has no locale file in strings"], "\(noReference.stdout)")
    }

    @Test func localesNamedWithoutAFileAreErrors() async throws {
        let folder = try Self.project()
        defer { folder.remove() }
        let unknown = try await run(["locales", "check", "--locale", "pl-PK"], in: folder.path)
        #expect(unknown.status == 1)
        #expect(unknown.stdout.contains("error[missing-locale-file]: pl-PK (--locale) has no locale file in locales"))
        #expect(unknown.stdout.contains("hint: did you mean 'pl-PL'?"))
        let config = try String(contentsOfFile: folder.path + "/jump.yaml", encoding: .utf8)
        try folder.write("jump.yaml", config.replacingOccurrences(of: "captureLocale: en-US", with: "captureLocale: pt-PT"))
        let fromConfig = try await run(["locales", "check"], in: folder.path)
        #expect(fromConfig.status == 1)
        #expect(
            fromConfig.stdout.contains(
                "jump.yaml:6:16: error[missing-locale-file]: pt-PT (captureLocale in jump.yaml) has no locale file in locales"),
            "\(fromConfig.stdout)")
        let reference = try await run(["locales", "check", "--reference", "en-GB"], in: folder.path)
        #expect(reference.status == 1)
        #expect(reference.stdout.contains("en-GB (--reference) has no locale file"))
        // The flow's defaultLocale, named at its line.
        try folder.write("jump.yaml", config)
        let flow = try String(contentsOfFile: folder.path + "/flows/standard.yaml", encoding: .utf8)
        try folder.write("flows/standard.yaml", flow.replacingOccurrences(of: "defaultLocale: en-US", with: "defaultLocale: pt-PT"))
        let fromFlow = try await run(["locales", "check", "--reference", "en-US", "--format", "json"], in: folder.path)
        #expect(fromFlow.status == 1, "\(fromFlow.stdout)\(fromFlow.stderr)")
        let findings = try #require(try JSONValue.parse(fromFlow.stdout)["diagnostics"]?.arrayValue)
        let missingFile = findings.filter { $0["rule"]?.stringValue == "missing-locale-file" }
        #expect(
            missingFile.map { "\($0["file"]?.stringValue ?? ""):\($0["line"]?.intValue ?? 0):\($0["column"]?.intValue ?? 0)" }
                == ["flows/standard.yaml:4:16"], "\(fromFlow.stdout)")
        #expect(missingFile.first?["message"]?.stringValue == "pt-PT (defaultLocale of flows/standard.yaml) has no locale file in locales")
    }

    @Test func aMistypedLanguageIsAnError() async throws {
        // A copy of pl-PL.yaml under a mistyped tag: one error, and a hint at the right tag.
        let folder = try Self.project()
        defer { folder.remove() }
        let polish = try String(contentsOfFile: folder.path + "/locales/pl-PL.yaml", encoding: .utf8)
        try folder.write("locales/pk-PL.yaml", polish.replacingOccurrences(of: "locale: pl-PL", with: "locale: pk-PL"))
        let result = try await run(["locales", "check", "--format", "json"], in: folder.path)
        #expect(result.status == 1)
        let findings = try #require(try JSONValue.parse(result.stdout)["diagnostics"]?.arrayValue)
        #expect(findings.map { $0["rule"]?.stringValue } == ["unknown-language"], "\(result.stdout)")
        #expect(findings.first?["severity"]?.stringValue == "error")
        #expect(
            findings.first?["hint"]?.stringValue?.hasPrefix("did you mean 'pl-PL'? (pl is the main language of PL; known languages near 'pk': ak,")
                == true,
            "\(result.stdout)")
    }

    @Test func trapNumbersAndDatesEndToEnd() async throws {
        let folder = try Self.project()
        defer { folder.remove() }
        let french = try String(contentsOfFile: folder.path + "/locales/fr-FR.yaml", encoding: .utf8)
        try folder.write(
            "locales/fr-FR.yaml",
            french
                .replacingOccurrences(of: "      label: Prénom\n", with: "      label: 1.0\n")
                .replacingOccurrences(of: "      label: Nom\n", with: "      label: 2024-01-01\n"))
        let result = try await run(["locales", "check"], in: folder.path)
        #expect(result.status == 1)
        #expect(result.stderr == "2 errors, 0 warnings in 6 locale files\n")
        #expect(
            result.stdout == """
                locales/fr-FR.yaml:22:14: error[yaml-trap]: '1.0' is unquoted: YAML 1.1 tools read it as a number, not as text
                 22 |       label: 1.0
                    |              ^~~
                  = hint: write it in quotes: "1.0"
                locales/fr-FR.yaml:24:14: error[yaml-trap]: '2024-01-01' is unquoted: YAML 1.1 tools read it as a date, not as text
                 24 |       label: 2024-01-01
                    |              ^~~~~~~~~~
                  = hint: write it in quotes: "2024-01-01"

                """)
    }

    @Test func onlyTheNamedLocalesAreReported() async throws {
        let folder = try Self.project()
        defer { folder.remove() }
        let french = try String(contentsOfFile: folder.path + "/locales/fr-FR.yaml", encoding: .utf8)
        try folder.write("locales/fr-FR.yaml", french.replacingOccurrences(of: "Adresse e-mail", with: "Adresse  e-mail"))
        let polish = try String(contentsOfFile: folder.path + "/locales/pl-PL.yaml", encoding: .utf8)
        try folder.write("locales/pl-PL.yaml", polish.replacingOccurrences(of: "Hasło\n", with: "\"Hasło \"\n"))
        let all = try await run(["locales", "check", "--format", "json"], in: folder.path)
        let allFiles = Set(try JSONValue.parse(all.stdout)["diagnostics"]!.arrayValue!.compactMap { $0["file"]?.stringValue })
        #expect(allFiles == ["locales/fr-FR.yaml", "locales/pl-PL.yaml"])
        let one = try await run(["locales", "check", "--locale", "pl-PL", "--format", "json"], in: folder.path)
        let oneFiles = Set(try JSONValue.parse(one.stdout)["diagnostics"]!.arrayValue!.compactMap { $0["file"]?.stringValue })
        #expect(oneFiles == ["locales/pl-PL.yaml"])
        #expect(one.status == 0, "warnings only")
        #expect(try await run(["locales", "check", "--locale", "pl-PL", "--strict"], in: folder.path).status == 1)
    }

    @Test func filesThatCannotBeParsedExitTwo() async throws {
        let folder = try Self.project()
        defer { folder.remove() }
        try folder.write("locales/de-DE.yaml", "locale: de-DE\nmessages:\n  a: [unclosed\n")
        let broken = try await run(["locales", "check"], in: folder.path)
        #expect(broken.status == 2)
        #expect(broken.stderr.contains("locales/de-DE.yaml:4:1: error[JF106]"), "\(broken.stderr)")
        #expect(broken.stderr.contains("cannot check"))
        #expect(try await run(["locales", "check", "--locales", "no/such/folder", "--reference", "en-US"], in: folder.path).status == 2)
        #expect(try await run(["locales", "check", "--reference", "english"], in: folder.path).status == 2)
        #expect(try await run(["locales", "check", "--baseline", "missing.json"], in: folder.path).status == 2)
    }

    @Test func baselinesSurviveMovedLinesButNotChangedTexts() async throws {
        let (folder, path) = try Self.projectWithAnUntranslatedLabel()
        defer { folder.remove() }
        #expect(try await run(["locales", "check", "--strict"], in: folder.path).status == 1)
        let written = try await run(["locales", "check", "--write-baseline", "baseline.json"], in: folder.path)
        #expect(written.status == 0)
        #expect(written.stderr == "wrote 2 findings to baseline.json\n")
        let baseline = try String(contentsOfFile: folder.path + "/baseline.json", encoding: .utf8)
        #expect(baseline.contains("\"rule\":\"same-as-source\""))
        #expect(!baseline.contains("\"line\""))
        let hidden = try await run(["locales", "check", "--strict", "--baseline", "baseline.json"], in: folder.path)
        #expect(hidden.status == 0, "\(hidden.stdout)")
        #expect(hidden.stderr.contains("(2 known findings hidden by the baseline)"))
        // Lines move: still hidden.
        let moved = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "messages:\n", with: "messages:\n\n  # moved\n\n")
        try folder.write("locales/fr-FR.yaml", moved)
        #expect(try await run(["locales", "check", "--strict", "--baseline", "baseline.json"], in: folder.path).status == 0)
        // A new problem is reported; the known ones stay hidden.
        try folder.write("locales/fr-FR.yaml", moved.replacingOccurrences(of: "label: Nom\n", with: "label: \"Nom \"\n"))
        let new = try await run(["locales", "check", "--strict", "--baseline", "baseline.json"], in: folder.path)
        #expect(new.status == 1)
        #expect(new.stdout.contains("warning[whitespace-edge]: message 'fields.lastName.label' ends with a space"))
        #expect(!new.stdout.contains("same-as-source"))
    }

    @Test func machineReadableFormats() async throws {
        let folder = try TemporaryFolder("jump-locales-formats")
        defer { folder.remove() }
        try folder.write(
            "locales/en-US.yaml",
            "locale: en-US\nmessages:\n  fields.email.label: Email address\n  fields.email.tip: We never share it.\n  options.country.CA: Canada\n")
        try folder.write("locales/fr-FR.yaml", "locale: fr-FR\nmessages:\n  fields.email.label: Adresse e-mail\n  options.country.CA: Canada\n")
        let arguments = ["locales", "check", "--locales", "locales", "--reference", "en-US"]
        let json = try JSONValue.parse(try await run(arguments + ["--format", "json"], in: folder.path).stdout)
        let diagnostics = try #require(json["diagnostics"]?.arrayValue)
        #expect(diagnostics.map { $0["rule"]?.stringValue } == ["missing-key", "same-as-source"])
        #expect(diagnostics.map { $0["code"]?.stringValue } == ["JF501", "JF504"])
        #expect(diagnostics.map { $0["key"]?.stringValue } == ["fields.email.tip", "options.country.CA"])
        #expect(diagnostics.map { $0["line"]?.intValue } == [2, 4])
        #expect(json["summary"]?["errors"]?.intValue == 1)
        #expect(json["summary"]?["warnings"]?.intValue == 1)
        let sarif = try JSONValue.parse(try await run(arguments + ["--format", "sarif"], in: folder.path).stdout)
        let results = sarif["runs"]?.arrayValue?.first?["results"]?.arrayValue ?? []
        #expect(Set(results.compactMap { $0["ruleId"]?.stringValue }) == ["missing-key", "same-as-source"])
        let junit = try await run(arguments + ["--format", "junit"], in: folder.path)
        #expect(junit.status == 1)
        Snapshot.check(junit.stdout, against: Repository.path("Tests/JumpLocaleCheckTests/Golden/junit.xml"))
        #expect(try await run(arguments + ["--format", "junit", "--strict"], in: folder.path).stdout.contains("<failure type=\"same-as-source\""))
    }

    @Test func pseudoLocalesPassTheCheckAndRunTheCommands() async throws {
        let folder = try Self.project()
        defer { folder.remove() }
        let made = try await run(["locales", "pseudo", "--locale", "en-XA", "--locale", "ar-XB", "--out", "locales"], in: folder.path)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stderr == "wrote locales/en-XA.yaml\nwrote locales/ar-XB.yaml\n")
        let check = try await run(["locales", "check", "--strict"], in: folder.path)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stderr == "0 errors, 0 warnings in 8 locale files\n")
        #expect(try await run(["lint", "--strict"], in: folder.path).status == 0)

        let shown = try await run(["show", "registrationForm", "--locale", "en-XA"], in: folder.path)
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("[Éɱáîļ áððŕéšš one two]"), "\(shown.stdout)")
        let validated = try await run(
            [
                "validate", "registrationForm", "--locale", "en-XA", "--set", "emailAddress=ana@example",
                "--set", "displayName=x", "--set", "newPassword=short", "--set", "newPasswordConfirm=short"
            ], in: folder.path)
        #expect(validated.status == 1)
        #expect(
            validated.stdout.contains("displayName: [[Ðîšþļáý ñáɱé one two] ɱûšţ ƀé áţ ļéášţ 3 çĥáŕáçţéŕš ļöñĝ. one two three four]"),
            "\(validated.stdout)")
        // E-mail addresses and URLs stay as they are.
        #expect(validated.stdout.contains("šûçĥ áš name@example.com."), "\(validated.stdout)")
        let arabic = try await run(
            [
                "validate", "registrationForm", "--locale", "ar-XB", "--set", "emailAddress=ana@example.com",
                "--set", "displayName=ana", "--set", "newPassword=s", "--set", "newPasswordConfirm=s"
            ], in: folder.path)
        #expect(arabic.status == 1)
        #expect(arabic.stdout.contains("\u{200F}\u{202E}characters\u{202C}\u{200F}"), "\(arabic.stdout)")
        // The prompts of the account commands, non-interactively: jump-forms' own words too.
        let register = try await run(
            ["register", "--non-interactive", "--locale", "en-XA", "--set", "emailAddress=dee@example.com"], in: folder.path,
            environment: ["HOME": folder.path, "XDG_STATE_HOME": folder.path + "/state", "XDG_DATA_HOME": folder.path + "/share"])
        #expect(register.status == 1)
        #expect(register.stderr.contains("[Ŕéǫûîŕéð ṽáļûéš áŕé ɱîššîñĝ"), "\(register.stderr)")

        // Without --locale (en-US, and a locale of the same language) the pseudo-locales stay out:
        // they speak only when asked for by name.
        let environment = ["HOME": folder.path, "XDG_STATE_HOME": folder.path + "/state", "XDG_DATA_HOME": folder.path + "/share"]
        let whoami = try await run(["whoami"], in: folder.path, environment: environment)
        #expect(whoami.status != 0)
        #expect(whoami.stderr.contains("You are not signed in."), "\(whoami.stderr)")
        let english = try await run(
            ["register", "--non-interactive", "--set", "emailAddress=dee@example.com"], in: folder.path, environment: environment)
        #expect(english.stderr.contains("Required values are missing"), "\(english.stderr)")
        for locale in [[], ["--locale", "en-GB"], ["--locale", "en"]] {
            let plain = try await run(["show", "registrationForm"] + locale, in: folder.path)
            #expect(plain.stdout.contains("Label:       Email address\n"), "\(locale): \(plain.stdout)")
            #expect(!plain.stdout.contains("one two"), "\(locale): \(plain.stdout)")
        }
    }

    // The benchmark corpus (jump-bench) is checked in Benchmarks/Tests/BenchmarkTests.

    @Test func coveragePerLocaleFlowAndForm() async throws {
        let folder = try Self.project()
        defer { folder.remove() }
        let german = try String(contentsOfFile: folder.path + "/locales/de-DE.yaml", encoding: .utf8)
        // Two keys gone (one only the edit profile form shows), one left in English.
        let edited =
            german
            .replacingOccurrences(of: "      label: Straße und Hausnummer\n", with: "")
            .replacingOccurrences(of: "      placeholder: Ein paar Worte über Sie\n", with: "")
            .replacingOccurrences(of: "label: Ort\n", with: "label: City\n")
        #expect(edited != german)
        try folder.write("locales/de-DE.yaml", edited)
        let text = try await run(["locales", "coverage"], in: folder.path)
        #expect(text.status == 0)
        Snapshot.check(text.stdout, against: Repository.path("Tests/JumpLocaleCheckTests/Golden/coverage.txt"))
        let json = try JSONValue.parse(try await run(["locales", "coverage", "--format", "json"], in: folder.path).stdout)
        let de = try #require(json["locales"]?.arrayValue?.first { $0["locale"]?.stringValue == "de-DE" })
        // The reference's 58 keys and jump-forms' own, which its German catalog translates.
        let builtin = BuiltinCatalog.catalogs.first { $0.tag.value.identifier == "en-US" }!.count
        #expect(de["translated"]?.intValue == 55 + builtin)
        #expect(de["total"]?.intValue == 58 + builtin)
        #expect(
            de["untranslated"]?.arrayValue?.compactMap(\.stringValue) == [
                "fields.addressStreet.label", "fields.addressCity.label", "fields.aboutMe.placeholder"
            ])
        let below = try await run(["locales", "coverage", "--minimum", "99"], in: folder.path)
        #expect(below.status == 1)
        #expect(below.stderr.contains("below 99.0%: de-DE"))
        #expect(try await run(["locales", "coverage", "--minimum", "94"], in: folder.path).status == 0)
    }

    @Test func coverageRefusesLocalesWithoutAFile() async throws {
        let folder = try Self.project()
        defer { folder.remove() }
        // No en-UK file: nothing is measured against it, and the run fails.
        let reference = try await run(["locales", "coverage", "--reference", "en-UK", "--minimum", "99"], in: folder.path)
        #expect(reference.status == 1)
        #expect(reference.stdout.isEmpty, "\(reference.stdout)")
        #expect(reference.stderr.contains("error[missing-locale-file]: en-UK (--reference) has no locale file in locales"), "\(reference.stderr)")
        let json = try await run(["locales", "coverage", "--reference", "pt-BR", "--format", "json"], in: folder.path)
        #expect(json.status == 1)
        let report = try JSONValue.parse(json.stdout)
        #expect(report["locales"]?.arrayValue?.isEmpty == true)
        #expect(report["diagnostics"]?.arrayValue?.compactMap { $0["rule"]?.stringValue } == ["missing-locale-file"])
        // The flow's defaultLocale without a file.
        let flow = try String(contentsOfFile: folder.path + "/flows/standard.yaml", encoding: .utf8)
        try folder.write("flows/f2.yaml", flow.replacingOccurrences(of: "defaultLocale: en-US", with: "defaultLocale: pt-BR"))
        let fromFlow = try await run(["locales", "coverage", "--flows", "flows/f2.yaml"], in: folder.path)
        #expect(fromFlow.status == 1)
        #expect(
            fromFlow.stderr.contains("flows/f2.yaml:4:16: error[missing-locale-file]: pt-BR (defaultLocale of flows/f2.yaml)"), "\(fromFlow.stderr)")
        // A percent is 0...100.
        let above = try await run(["locales", "coverage", "--minimum", "150"], in: folder.path)
        #expect(above.status == 2)
        #expect(above.stderr.contains("--minimum 150.0 is not a percent from 0 to 100"), "\(above.stderr)")
        #expect(try await run(["locales", "coverage", "--minimum", "-1"], in: folder.path).status == 2)
    }

    @Test func parseFailuresAreReportedInTheFormatAskedFor() async throws {
        let folder = try TemporaryFolder("jump-locales-broken")
        defer { folder.remove() }
        try folder.write("locales/en-US.yaml", "locale: en-US\nmessages:\n  a: Hello\n  b: Thanks\n  c: Done\n")
        try folder.write("locales/de-DE.yaml", "locale: de-DE\nmessages:\n  a: Hallo\n  b: [unclosed\n  c: Ja\n")
        let arguments = ["locales", "check", "--locales", "locales", "--reference", "en-US", "--format"]
        let json = try await run(arguments + ["json"], in: folder.path)
        #expect(json.status == 2)
        #expect(try JSONValue.parse(json.stdout)["diagnostics"]?.arrayValue?.map { $0["code"]?.stringValue } == ["JF106"], "\(json.stdout)")
        #expect(json.stderr.contains("cannot check"))
        let sarif = try await run(arguments + ["sarif"], in: folder.path)
        #expect(sarif.status == 2)
        let results = try JSONValue.parse(sarif.stdout)["runs"]?.arrayValue?.first?["results"]?.arrayValue ?? []
        #expect(results.map { $0["ruleId"]?.stringValue } == ["JF106"], "\(sarif.stdout)")
        let junit = try await run(arguments + ["junit"], in: folder.path)
        #expect(junit.status == 2)
        #expect(junit.stdout.contains("<testsuites name=\"jump-forms locales check\" tests=\"1\" failures=\"0\" errors=\"1\">"), "\(junit.stdout)")
        #expect(junit.stdout.contains("<error type=\"JF106\""))
        let text = try await run(arguments + ["text"], in: folder.path)
        #expect(text.status == 2)
        #expect(text.stdout.isEmpty)
        #expect(text.stderr.contains("locales/de-DE.yaml:5:4: error[JF106]"))
    }

    @Test func entriesThatCannotBeReadAreNamed() async throws {
        let folder = try TemporaryFolder("jump-locales-unreadable")
        defer { folder.remove() }
        try folder.write("locales/en-US.yaml", "locale: en-US\nmessages:\n  a: Hello\n")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/locales/es-ES.yaml", withDestinationPath: "/nonexistent")
        try FileManager.default.createDirectory(atPath: folder.path + "/locales/de-DE.yaml", withIntermediateDirectories: false)
        let result = try await run(["locales", "check", "--locales", "locales", "--reference", "en-US"], in: folder.path)
        #expect(result.status == 2)
        #expect(result.stderr.contains("error[JF100]: cannot read 'locales/de-DE.yaml': it is a folder"), "\(result.stderr)")
        #expect(result.stderr.contains("error[JF100]: cannot read 'locales/es-ES.yaml': it is a link to '/nonexistent', which does not exist"))
        // A file given for the folder.
        let file = try await run(["locales", "check", "--locales", "locales/en-US.yaml", "--reference", "en-US"], in: folder.path)
        #expect(file.status == 2)
        #expect(file.stderr.contains("'locales/en-US.yaml' is a file, not a folder"), "\(file.stderr)")
    }

    @Test func theFileSizeLimitIsAnOption() async throws {
        let folder = try TemporaryFolder("jump-locales-limit")
        defer { folder.remove() }
        try folder.write("locales/en-US.yaml", "locale: en-US\nmessages:\n" + (0..<100).map { "  k\($0): Hello world \($0)\n" }.joined())
        let arguments = ["locales", "check", "--locales", "locales", "--reference", "en-US"]
        let limited = try await run(arguments + ["--max-file-size", "1K"], in: folder.path)
        #expect(limited.status == 2)
        #expect(limited.stderr.contains("error[JF102]: the file is "), "\(limited.stderr)")
        #expect(try await run(arguments + ["--max-file-size", "16M"], in: folder.path).status == 0)
        #expect(
            try await run(["locales", "coverage", "--locales", "locales", "--reference", "en-US", "--max-file-size", "1K"], in: folder.path).status
                == 2)
        // The interchange commands: the locale files they read, and the file import reads.
        let export = ["locales", "export", "--format", "strings", "--locales", "locales", "--out", "en.strings"]
        let refusedExport = try await run(export + ["--max-file-size", "1K"], in: folder.path)
        #expect(refusedExport.status == 2 && refusedExport.stderr.contains("error[JF102]"), "\(refusedExport.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/en.strings"))
        #expect(try await run(export, in: folder.path).status == 0)
        let importing = ["locales", "import", "en.strings", "--locale", "de-DE", "--locales", "locales", "--out", "de-DE.yaml"]
        let refusedImport = try await run(importing + ["--max-file-size", "1K"], in: folder.path)
        #expect(refusedImport.status != 0 && refusedImport.stderr.contains("'en.strings' is over the limit of 1024 bytes"), "\(refusedImport.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/de-DE.yaml"))
        #expect(try await run(importing + ["--max-file-size", "16M"], in: folder.path).status == 0)
    }

    @Test func baselinesMatchHoweverThePathIsWritten() async throws {
        let (folder, _) = try Self.projectWithAnUntranslatedLabel()
        defer { folder.remove() }
        let arguments = ["locales", "check", "--strict", "--reference", "en-US"]
        try folder.write("ci/README", "the baselines\n")
        #expect(try await run(arguments + ["--locales", "locales"], in: folder.path).status == 1)
        #expect(try await run(arguments + ["--locales", "locales", "--write-baseline", "ci/baseline.json"], in: folder.path).status == 0)
        let baseline = try String(contentsOfFile: folder.path + "/ci/baseline.json", encoding: .utf8)
        #expect(baseline.contains("\"file\":\"../locales/fr-FR.yaml\""), "\(baseline)")
        let name = (folder.path as NSString).lastPathComponent
        let runs = [
            (arguments + ["--locales", "locales", "--baseline", "ci/baseline.json"], folder.path),
            (arguments + ["--locales", folder.path + "/locales", "--baseline", "ci/baseline.json"], folder.path),
            (
                arguments + ["--locales", name + "/locales", "--baseline", name + "/ci/baseline.json"],
                (folder.path as NSString).deletingLastPathComponent
            ),
            (arguments + ["--locales", "../locales", "--baseline", "baseline.json"], folder.path + "/ci"),
            // Through a symbolic link to the project's folder.
            (arguments + ["--locales", "link/locales", "--baseline", "ci/baseline.json"], folder.path)
        ]
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/link", withDestinationPath: ".")
        for (arguments, directory) in runs {
            let result = try await run(arguments, in: directory)
            #expect(result.status == 0, "\(arguments) in \(directory): \(result.stdout)")
            #expect(result.stderr.contains("known finding"))
        }
        // A baseline written before paths were relative to it (as the check named them).
        try folder.write("ci/old.json", baseline.replacingOccurrences(of: "../locales/", with: "locales/"))
        #expect(try await run(arguments + ["--locales", "locales", "--baseline", "ci/old.json"], in: folder.path).status == 0)
    }
}

/// `jump-forms locales format`: one message from the command line, or JSON lines from
/// standard input, formatted as the forms format them.
@Suite struct LocalesFormatCommandTests {
    func run(_ arguments: [String], input: String? = nil) async throws -> CommandResult {
        try await InProcess.run(["locales", "format"] + arguments, in: Repository.root, input: input)
    }

    @Test func aMessageWithItsArguments() async throws {
        let ordinal = try await run(["{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}", "--locale", "en", "--arg", "n=2"])
        #expect(ordinal.status == 0, "\(ordinal.stderr)")
        #expect(ordinal.stdout == "2nd\n")
        let percent = try await run(["{p, number, percent} von {who}", "--locale", "de-DE", "--arg", "p=0.25", "--arg", "who=Ana"])
        #expect(percent.stdout == "25\u{00A0}% von Ana\n", "\(percent.stdout)")  // CLDR: a no-break space before %
        let date = try await run(["{d, date, long}", "--locale", "fr-FR", "--arg", "d=2024-01-15"])
        #expect(date.stdout == "15 janvier 2024\n", "\(date.stdout)")
    }

    @Test func aBadPatternIsLocatedAndExitsOne() async throws {
        let result = try await run(["Hello {name", "--locale", "en"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("<message>:1:") && result.stderr.contains("error[icu-syntax]"), "\(result.stderr)")
    }

    @Test func usageErrorsExitTwo() async throws {
        #expect(try await run(["{n}"]).status == 2)  // no --locale
        #expect(try await run(["{n}", "--locale", "en", "--arg", "n"]).status == 2)  // not name=value
        #expect(try await run(["--jsonl", "--locale", "en"], input: "").status == 2)  // --jsonl takes no --locale
    }

    @Test func jsonLinesInOrderWithAnErrorPerBadLine() async throws {
        let input = """
            {"message": "{n, plural, one {# file} other {# files}}", "locale": "pl-PL", "args": {"n": 5}}
            not json
            {"message": "{n, number, ::currency/EUR}", "locale": "fr-FR", "args": {"n": 1234.5}}
            {"message": "{a", "locale": "en", "args": {}}

            """
        let result = try await run(["--jsonl"], input: input)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map { try? JSONValue.parse(String($0)) }
        #expect(lines.count == 4, "\(result.stdout)")
        guard lines.count == 4 else { return }
        #expect(lines[0]?["output"] == .string("5 files"))
        #expect(lines[1]?["error"]?.stringValue?.hasPrefix("not JSON") == true, "\(result.stdout)")
        #expect(lines[2]?["output"] == .string("1\u{202F}234,50\u{00A0}€"), "\(result.stdout)")
        #expect(lines[3]?["error"] != nil, "\(result.stdout)")
    }
}

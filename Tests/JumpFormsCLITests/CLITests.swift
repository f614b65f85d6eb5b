import ArgumentParser
import Foundation
import JumpForms
import JumpFormsCLI
import CLITestSupport
import Testing
import TestSupport

/// `jump-forms` as a user runs it: in-process in the repository root, the built binary elsewhere
/// or with standard input (`InProcess`).
@Suite struct CLITests {
    func run(_ arguments: [String], in directory: String = Repository.root, input: String? = nil) async throws -> CommandResult {
        try await InProcess.run(arguments, in: directory, input: input)
    }

    static let fixtures = Repository.path("Tests/JumpFormsLoaderTests/Fixtures/diagnostics")

    @Test func helpListsTheCommands() async throws {
        let result = try await run(["--help"])
        #expect(result.status == 0)
        for command in ["lint", "show", "validate"] {
            #expect(result.stdout.contains(command))
        }
    }

    /// Every command's path through the tree, from the root's subcommands down.
    static let commandPaths: [[String]] = {
        func walk(_ command: any ParsableCommand.Type, _ path: [String]) -> [[String]] {
            let subcommands = command.configuration.subcommands
            let here = path.isEmpty ? [] : [path]
            return here + subcommands.flatMap { walk($0, path + [$0._commandName]) }
        }
        return walk(JumpFormsCommand.self, [])
    }()

    /// Each command parses and prints its own help, in-process (as ArgumentParser's tests do).
    @Test(arguments: commandPaths)
    func everyCommandParsesAndExplainsItself(_ path: [String]) async throws {
        let result = try await InProcess.run(path + ["--help"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("USAGE: jump-forms \(path.joined(separator: " "))"), "\(result.stdout)")
        // A usage error, status 2 (a missing required argument may be named before the typo).
        let typo = try await InProcess.run(path + ["--no-such-option"])
        #expect(typo.status == 2)
        #expect(typo.stderr.hasPrefix("Error: "), "\(typo.stderr)")
        #expect(typo.stdout.isEmpty)
    }

    /// The binary itself, once: what `main` adds to the in-process run (exit statuses, help).
    @Test func theBinaryExitsAsTheInProcessRunReturns() async throws {
        for arguments in [["--help"], ["lint", "--fromat", "json"], ["show", "registrationFrom"], ["lint"], ["regster"]] {
            let binary = try await Executable.run("jump-forms", arguments, in: Repository.root, environment: InProcess.environment)
            let inProcess = try await InProcess.run(arguments)
            #expect(binary.status == inProcess.status, "\(arguments)")
            #expect(binary.stdout == inProcess.stdout, "\(arguments)")
            #expect(binary.stderr == inProcess.stderr, "\(arguments)")
        }
    }

    #if Mimalloc && os(Linux)
        /// Built with the Mimalloc trait (`swift test --traits Mimalloc`), the executable links
        /// mimalloc, and mimalloc (not glibc) serves its `malloc`: mimalloc reads its options, and
        /// says so when asked, only when it is the process's allocator.
        @Test func theBinaryAllocatesWithMimalloc() async throws {
            let plain = try await run(["--version"])
            #expect(plain.status == 0)
            #expect(!plain.stderr.contains("mimalloc"))
            let result = try Executable.run("jump-forms", ["--version"], environment: ["MIMALLOC_VERBOSE": "1"])
            #expect(result.status == 0)
            #expect(result.stdout == plain.stdout)
            #expect(result.stderr.contains("mimalloc: option 'verbose': 1"), "\(result.stderr)")
        }
    #endif

    @Test func lintIsCleanOnTheExamples() async throws {
        let result = try await run(["lint"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("0 errors, 0 warnings"))
    }

    @Test func lintReportsLocatedErrorsAndExitsOne() async throws {
        let result = try await run(["lint", "flow.yaml"], in: Self.fixtures + "/JF300-undefined-field")
        #expect(result.status == 1)
        #expect(result.stdout.contains("flow.yaml:15:26: error[JF300]: form 'signInForm' names field 'emial'"))
        #expect(result.stdout.contains("hint: did you mean 'email'?"))
        #expect(result.stderr.contains("2 errors, 1 warning"))
    }

    @Test func lintWithoutArgumentsUsesJumpYamlOrFlowsAndLocales() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let empty = try await run(["lint"], in: folder.path)
        #expect(empty.status == 2)
        #expect(empty.stderr.contains("nothing to lint here"))
        try folder.write(
            "flows/flow.yaml",
            try String(contentsOfFile: Self.fixtures + "/valid-minimal/flow.yaml", encoding: .utf8)
                .replacingOccurrences(of: "locales: locales", with: "locales: ../locales"))
        try folder.write("locales/en-US.yaml", try String(contentsOfFile: Self.fixtures + "/valid-minimal/locales/en-US.yaml", encoding: .utf8))
        let clean = try await run(["lint"], in: folder.path)
        #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
    }

    @Test func lintIOErrorsExitTwo() async throws {
        let result = try await run(["lint", "no/such/file.yaml"])
        #expect(result.status == 2)
        #expect(result.stdout.contains("error[JF100]"))
    }

    @Test func strictTurnsWarningsIntoFailure() async throws {
        let folder = Self.fixtures + "/JF318-unused-field"
        #expect(try await run(["lint", "flow.yaml"], in: folder).status == 0)
        #expect(try await run(["lint", "--strict", "flow.yaml"], in: folder).status == 1)
    }

    @Test func lintJSONAndSARIFAreMachineReadable() async throws {
        let folder = Self.fixtures + "/JF305-unknown-format"
        let json = try await run(["lint", "--format", "json", "flow.yaml"], in: folder)
        #expect(json.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let diagnostics = try #require(object["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.map { $0["code"] as? String } == ["JF305", "JF305"])
        #expect(diagnostics.first?["line"] as? Int == 11)
        #expect(diagnostics.first?["hint"] as? String == "did you mean 'email'?")

        let sarif = try await run(["lint", "--format", "sarif", "flow.yaml"], in: folder)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as? [String: Any])
        #expect(log["version"] as? String == "2.1.0")
        let runs = try #require(log["runs"] as? [[String: Any]])
        let results = try #require(runs.first?["results"] as? [[String: Any]])
        #expect(results.count == 2)
        #expect(results.first?["ruleId"] as? String == "JF305")
    }

    @Test func unknownOptionsAreUsageErrorsWithStatusTwo() async throws {
        let result = try await run(["lint", "--fromat", "json"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--fromat"))
    }

    @Test func showPrintsTheLocalizedForm() async throws {
        let text = try await run(["show", "registrationForm"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("Form registrationForm · flow standard 2024-01-15.1 · en-US"))
        #expect(text.stdout.contains("Label:       Email address"))
        #expect(text.stdout.contains("minLength 8"))

        let json = try await run(["show", "registrationForm", "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let fields = try #require(object["fields"] as? [[String: Any]])
        #expect(fields.map { $0["name"] as? String }.first == "emailAddress")
        let password = try #require(fields.first { $0["name"] as? String == "newPassword" })
        let rules = try #require(password["rules"] as? [[String: Any]])
        #expect(rules.contains { $0["text"] as? String == "Password must be at least 8 characters long." })
    }

    @Test func showUnknownFormSuggestsTheClosest() async throws {
        let result = try await run(["show", "registrationFrom"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("did you mean 'registrationForm'?"))
    }

    @Test func showWithoutAFormListsTheFormsAndTheirFields() async throws {
        let text = try await run(["show"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.hasPrefix("Forms of flows/standard.yaml (flow standard, version 2024-01-15.1):\n"))
        #expect(text.stdout.contains("\n  forgotPasswordForm      signInEmailAddress\n"))
        #expect(text.stdout.hasSuffix("Show one with: jump-forms show <form>\n"))
        let json = try JSONValue.parse(try await run(["show", "--format", "json"]).stdout)
        let forms = try #require(json["forms"]?.arrayValue)
        #expect(forms.count == 7)
        #expect(forms.first?["fields"] == .array([.string("signInEmailAddress"), .string("currentPassword")]))
    }

    /// A field the form lacks, far from every field it has: the message lists them.
    @Test func aSetForAFieldTheFormLacksListsItsFields() async throws {
        let result = try await run(["validate", "forgotPasswordForm", "--set", "emailAddress=ana@example.com"])
        #expect(result.status == 2)
        #expect(result.stderr == "Error: form 'forgotPasswordForm' has no field 'emailAddress' (its fields: signInEmailAddress)\n")
    }

    @Test(arguments: [
        (["regster"], "Error: 'regster' is not a command of 'jump-forms'; did you mean 'register'?\n  See 'jump-forms --help' for its commands.\n"),
        (
            ["help", "regster"],
            "Error: 'regster' is not a command of 'jump-forms'; did you mean 'register'?\n  See 'jump-forms --help' for its commands.\n"
        ),
        (
            ["locales", "chek"],
            "Error: 'chek' is not a command of 'jump-forms locales'; did you mean 'check'?\n  See 'jump-forms locales --help' for its commands.\n"
        ),
        (["xyzzy", "--help"], "Error: 'xyzzy' is not a command of 'jump-forms'\n  See 'jump-forms --help' for its commands.\n")
    ])
    func commandTyposGetTheClosestCommand(_ arguments: [String], _ expected: String) async throws {
        let result = try await run(arguments)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == expected)
    }

    @Test func helpOfARealCommandStillSucceeds() async throws {
        let result = try await run(["help", "locales", "check"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("USAGE: jump-forms locales check"))
    }

    @Test func validatePrintsMessagesPerFieldAndExitsOne() async throws {
        let result = try await run([
            "validate", "registrationForm", "--today", "2025-06-15",
            "--set", "emailAddress=ana@example", "--set", "displayName=ana",
            "--set", "firstName=Ana", "--set", "lastName=Ruiz",
            "--set", "newPassword=correct horse", "--set", "newPasswordConfirm=correct hose",
            "--set", "birthdate=2015-01-01"
        ])
        #expect(result.status == 1)
        #expect(result.stdout.contains("emailAddress: Enter a valid email address, such as name@example.com."))
        #expect(result.stdout.contains("newPasswordConfirm: The passwords do not match."))
        #expect(result.stdout.contains("birthdate: You must be at least 13 years old."))
        #expect(result.stdout.contains("left to the server: emailAddress (unique)"))
    }

    /// 31 February: the message says the date does not exist, not which format to use (the
    /// prompts read the locale's format too: FormSessionTests, FieldInputTests).
    @Test func aDateThatDoesNotExistIsSaidToNotExist() async throws {
        for (locale, typed, message) in [
            ("de-DE", "1990-02-31", "Geburtsdatum: Dieses Datum gibt es nicht."), ("en-US", "2020-02-30", "this date does not exist.")
        ] {
            let result = try await run([
                "validate", "registrationForm", "--today", "2025-06-15", "--locale", locale, "--set", "birthdate=\(typed)"
            ])
            let output = result.stdout + result.stderr
            #expect(result.status != 0)
            #expect(output.contains(message), "\(output)")
            #expect(!output.contains("JJJJ-MM-TT") && !output.contains("YYYY-MM-DD"), "\(output)")
        }
    }

    @Test func validateReadsAnswersFromStandardInputAsJSON() async throws {
        let answers = """
            {"emailAddress": "ana@example.com", "displayName": "ana_r", "firstName": "Ana", "lastName": "Ruiz",
             "newPassword": "correct horse", "newPasswordConfirm": "correct horse", "birthdate": "1990-04-01", "optIn": "true"}
            """
        let result = try await run(["validate", "registrationForm", "--answers", "-", "--format", "json"], input: answers)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["valid"] as? Bool == true)
        #expect((object["deferred"] as? [Any])?.count == 2)
    }

    @Test func validateRefusesFieldsTheFormLacks() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let answers = try folder.write("answers.yaml", "emailAdress: ana@example.com\n")
        let result = try await run(["validate", "registrationForm", "--answers", answers])
        #expect(result.status == 2)
        #expect(result.stderr.contains("answers.yaml:1:1: error[JF200]: form 'registrationForm' has no field 'emailAdress'"))
        #expect(result.stderr.contains("did you mean 'emailAddress'?"))
    }

    @Test func brokenFlowsStopShowWithTheirDiagnostics() async throws {
        let result = try await run(["show", "signInForm", "--flow", "flow.yaml"], in: Self.fixtures + "/JF206-unknown-values")
        #expect(result.status == 2)
        #expect(result.stderr.contains("flow.yaml:12:11: error[JF206]: unknown field type 'passwrd'"))
    }
}

/// The audit's gaps of the foundation, run as `CLITests` runs commands.
@Suite struct CLIFoundationTests {
    func run(_ arguments: [String], in directory: String = Repository.root, input: String? = nil) async throws -> CommandResult {
        try await InProcess.run(arguments, in: directory, input: input)
    }

    static let fixtures = Repository.path("Tests/JumpFormsLoaderTests/Fixtures/diagnostics")

    /// Every value of registrationForm but the checkbox.
    static let registration = [
        "--today", "2025-06-15", "--set", "emailAddress=ana@example.com", "--set", "displayName=ana_r",
        "--set", "firstName=Ana", "--set", "lastName=Ruiz", "--set", "newPassword=correct horse",
        "--set", "newPasswordConfirm=correct horse", "--set", "birthdate=1990-04-01"
    ]

    @Test func lintOfTheRepositoryRootIsClean() async throws {
        // jump.yaml, identities.yaml and every other YAML file at the top of the repository.
        let result = try await run(["lint", "."])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("0 errors, 0 warnings"))
    }

    @Test func aYamlFileOfNoKnownKindGetsOneDiagnostic() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("compose.yaml", "services:\n  web:\n    image: nginx\n  db:\n    image: postgres\n")
        try folder.write("list.yaml", "- a\n- b\n")
        let result = try await run(["lint", "."], in: folder.path)
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").filter { $0.contains("error[") }
        #expect(
            lines == [
                "compose.yaml:1:1: error[JF216]: not a flow, locale file, jump.yaml or identities file: its keys are 'services'",
                "list.yaml:1:1: error[JF216]: not a flow, locale file, jump.yaml or identities file: its top level is a sequence, not a mapping"
            ])
    }

    @Test func identitiesFilesAreChecked() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("identities.yaml", "identities:\n  - { provider: google, identifer: \"1001\" }\n")
        let result = try await run(["lint", "identities.yaml"], in: folder.path)
        #expect(result.status == 1)
        #expect(result.stdout.contains("identities.yaml:2:25: error[JF200]: unknown key 'identifer'"), "\(result.stdout)")
        #expect(result.stdout.contains("did you mean 'identifier'?"))
    }

    @Test func aFolderWithoutYamlFilesIsAnError() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("empty/notes.txt", "nothing\n")
        let result = try await run(["lint", "empty"], in: folder.path)
        #expect(result.status == 2)
        #expect(result.stdout.contains("error[JF115]: no YAML files in 'empty'"))
        let json = try JSONValue.parse(try await run(["lint", "empty", "--format", "json"], in: folder.path).stdout)
        #expect(json["diagnostics"]?.arrayValue?.first?["file"] == "empty")
    }

    @Test func missingPathsNameTheirFileInJSONAndSARIF() async throws {
        let json = try JSONValue.parse(try await run(["lint", "no/such.yaml", "--format", "json"]).stdout)
        let diagnostic = try #require(json["diagnostics"]?.arrayValue?.first)
        #expect(diagnostic["code"] == "JF100")
        #expect(diagnostic["file"] == "no/such.yaml")
        let sarif = try JSONValue.parse(try await run(["lint", "no/such.yaml", "--format", "sarif"]).stdout)
        let location = sarif["runs"]?.arrayValue?.first?["results"]?.arrayValue?.first?["locations"]?.arrayValue?.first
        #expect(location?["physicalLocation"]?["artifactLocation"]?["uri"] == "no/such.yaml")
    }

    @Test func misspeltFlowAndLocalesPathsSuggestTheNearest() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("jump.yaml", "captureDomain: embedded\ncaptureClientId: x\ncaptureLocale: en-US\nflow: flows/standrd.yaml\n")
        try folder.write(
            "flows/standard.yaml",
            try String(contentsOfFile: Self.fixtures + "/valid-minimal/flow.yaml", encoding: .utf8)
                .replacingOccurrences(of: "locales: locales", with: "locales: ../locale"))
        try folder.write("locales/en-US.yaml", try String(contentsOfFile: Self.fixtures + "/valid-minimal/locales/en-US.yaml", encoding: .utf8))
        let config = try await run(["lint"], in: folder.path)
        #expect(config.status == 2)
        #expect(config.stdout.contains("jump.yaml:4:7: error[JF100]: the flow file 'flows/standrd.yaml' does not exist"))
        #expect(config.stdout.contains("hint: did you mean 'flows/standard.yaml'?"))
        let flow = try await run(["lint", "flows/standard.yaml"], in: folder.path)
        #expect(flow.status == 2)
        #expect(flow.stdout.contains("error[JF115]: the locales folder"))
        #expect(flow.stdout.contains("hint: did you mean '../locales'?"), "\(flow.stdout)")
    }

    @Test func maxFileSizeRaisesOrLowersTheLimit() async throws {
        let small = try await run(["lint", "--max-file-size", "1K", "flows/standard.yaml"])
        #expect(small.status == 1)
        #expect(small.stdout.contains("flows/standard.yaml:1:1: error[JF102]: the file is"))
        #expect(small.stdout.contains("over the limit of 1024 bytes"))
        #expect(small.stdout.contains("--max-file-size"))
        #expect(small.stderr.hasPrefix("1 error, 0 warnings in 1 file\n"), "\(small.stderr)")
        #expect(try await run(["lint", "--max-file-size", "1M", "flows/standard.yaml"]).status == 0)
        let show = try await run(["show", "signInForm", "--max-file-size", "1K"])
        #expect(show.status == 2)
        #expect(show.stderr.contains("error[JF102]"))
        let bad = try await run(["lint", "--max-file-size", "lots"])
        #expect(bad.status == 2)
    }

    @Test func checkboxValuesReadLikeThePrompts() async throws {
        for value in ["yes", "Y", "true", "no", "n", "FALSE"] {
            let result = try await run(["validate", "registrationForm"] + Self.registration + ["--set", "optIn=\(value)"])
            #expect(result.status == 0, "optIn=\(value): \(result.stdout)\(result.stderr)")
        }
        // The locale's words too.
        let french = try await run(["validate", "registrationForm", "--locale", "fr-FR"] + Self.registration + ["--set", "optIn=oui"])
        #expect(french.status == 0, "\(french.stdout)")
        let refused = try await run(["validate", "registrationForm"] + Self.registration + ["--set", "optIn=maybe"])
        #expect(refused.status == 1)
        #expect(refused.stdout.contains("optIn: Send me news and offers by email: answer yes or no."), "\(refused.stdout)")
        // An answers file's YAML `yes` is the text "yes".
        let answers =
            "emailAddress: ana@example.com\ndisplayName: ana_r\nfirstName: Ana\nlastName: Ruiz\nnewPassword: correct horse\n"
            + "newPasswordConfirm: correct horse\nbirthdate: 1990-04-01\noptIn: yes\n"
        let file = try await run(["validate", "registrationForm", "--today", "2025-06-15", "--answers", "-", "--format", "json"], input: answers)
        #expect(file.status == 0, "\(file.stdout)\(file.stderr)")
    }

    @Test func answersFileProblemsComeInFileOrder() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("answers.yaml", "emailAdress: a\nfirstName: [Ana]\nlastNme: Ruiz\n")
        let result = try await run(["validate", "registrationForm", "--answers", folder.path + "/answers.yaml"])
        #expect(result.status == 2)
        let lines = result.stderr.split(separator: "\n").filter { $0.contains("error[") }.map {
            $0.split(separator: ":").dropFirst().prefix(2).joined(separator: ":")
        }
        #expect(lines == ["1:1", "2:12", "3:1"], "\(result.stderr)")
    }

    @Test func showAndValidateSayWhichLocaleSpeaksForOneWithoutFile() async throws {
        // pl: pl-PL.yaml serves it (CLDR's likely region), said in Polish.
        let show = try await run(["show", "signInForm", "--locale", "pl"])
        #expect(show.status == 0)
        #expect(show.stderr == "Brak tekstów dla pl; używany jest pl-PL.\n")
        // fr-CA -> fr -> the best fr-* there is: French, not the default locale (issue 26).
        let canadian = try await run(["show", "signInForm", "--locale", "fr-CA"])
        #expect(canadian.status == 0)
        #expect(canadian.stderr == "Aucun texte pour fr-CA ; utilisation de fr-FR.\n")
        let french = try await run(["show", "signInForm", "--locale", "fr-FR"]).stdout
        #expect(canadian.stdout == french.replacingOccurrences(of: "· fr-FR", with: "· fr-CA"))
        #expect(try await run(["show", "signInForm", "--locale", "it"]).stderr == "There are no texts for it; using en-US.\n")
        let validate = try await run(["validate", "signInForm", "--locale", "it-IT", "--set", "signInEmailAddress=ana@example.com"])
        #expect(validate.stderr.contains("There are no texts for it-IT; using en-US."), "\(validate.stderr)")
        #expect(try await run(["show", "signInForm", "--locale", "pl-PL"]).stderr.isEmpty)
        #expect(try await run(["show", "signInForm", "--locale", "fr-FR"]).stderr.isEmpty)
    }

    @Test func clientSideFalseIsReportedAsLeftToTheServer() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(
            "flow.yaml",
            try String(contentsOfFile: Self.fixtures + "/valid-minimal/flow.yaml", encoding: .utf8)
                .replacingOccurrences(
                    of: "      - { rule: required, message: v.required }",
                    with:
                        "      - { rule: required, message: v.required }\n      - { rule: minLength, value: 50, message: v.required, clientSide: false }"
                ))
        try folder.write("locales/en-US.yaml", try String(contentsOfFile: Self.fixtures + "/valid-minimal/locales/en-US.yaml", encoding: .utf8))
        let result = try await run(
            ["validate", "signInForm", "--flow", "flow.yaml", "--set", "email=ana@example.com", "--set", "password=x"], in: folder.path)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("left to the server: email (minLength, clientSide: false)"), "\(result.stdout)")
    }

    @Test func sarifCountsCodePointsAndEncodesPaths() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let source = Self.fixtures + "/JF305-unknown-format"
        try folder.write("my flows#1/flow.yaml", try String(contentsOfFile: source + "/flow.yaml", encoding: .utf8))
        try folder.write("my flows#1/locales/en-US.yaml", try String(contentsOfFile: source + "/locales/en-US.yaml", encoding: .utf8))
        let sarif = try JSONValue.parse(try await run(["lint", "--format", "sarif", "my flows#1/flow.yaml"], in: folder.path).stdout)
        let run = try #require(sarif["runs"]?.arrayValue?.first)
        #expect(run["columnKind"] == "unicodeCodePoints")
        let uri = run["results"]?.arrayValue?.first?["locations"]?.arrayValue?.first?["physicalLocation"]?["artifactLocation"]?["uri"]
        #expect(uri == "my%20flows%231/flow.yaml")
    }

    @Test func controlCharactersOfFilesNeverReachTheTerminal() async throws {
        let result = try await run(["lint", "."], in: Self.fixtures + "/JF200-control-characters")
        #expect(result.status == 1)
        #expect(result.stdout.contains("unknown key '\\u{1B}[31mRED\\u{1B}[0m' in field 'email'"))
        #expect(!result.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E || $0.value == 0x2066 })
    }

    /// The README's example diagnostic is what lint says about that mistake in the example flow.
    @Test func readmeDiagnosticExampleIsReal() async throws {
        let readme = try String(contentsOfFile: Repository.path("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "flows/standard.yaml:"))
        let block = String(readme[start.lowerBound...].prefix { $0 != "`" })
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for file in ["jump.yaml", "flows/standard.yaml"]
            + (try FileManager.default.contentsOfDirectory(atPath: Repository.path("locales")).map { "locales/" + $0 })
        {
            var text = try String(contentsOfFile: Repository.path(file), encoding: .utf8)
            if file == "flows/standard.yaml" {
                text = text.replacingOccurrences(of: "    label: fields.emailAddress.label", with: "    lable: fields.emailAddress.label")
            }
            try folder.write(file, text)
        }
        let result = try await run(["lint"], in: folder.path)
        #expect(result.status == 1)
        #expect(result.stdout == block, "README shows:\n\(block)\nlint says:\n\(result.stdout)")
    }
}

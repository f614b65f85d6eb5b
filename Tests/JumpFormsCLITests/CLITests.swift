import Foundation
import JumpForms
import Testing
import TestSupport

/// The built `jump-forms` binary, run as a user runs it.
@Suite struct CLITests {
    func run(_ arguments: [String], in directory: String = Repository.root, input: String? = nil) throws -> CommandResult {
        try Executable.run("jump-forms", arguments, in: directory, input: input)
    }

    static let fixtures = Repository.path("Tests/JumpFormsLoaderTests/Fixtures/diagnostics")

    @Test func helpListsTheCommands() throws {
        let result = try run(["--help"])
        #expect(result.status == 0)
        for command in ["lint", "show", "validate"] {
            #expect(result.stdout.contains(command))
        }
    }

    @Test func lintIsCleanOnTheExamples() throws {
        let result = try run(["lint"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("0 errors, 0 warnings"))
    }

    @Test func lintReportsLocatedErrorsAndExitsOne() throws {
        let result = try run(["lint", "flow.yaml"], in: Self.fixtures + "/JF300-undefined-field")
        #expect(result.status == 1)
        #expect(result.stdout.contains("flow.yaml:15:26: error[JF300]: form 'signInForm' names field 'emial'"))
        #expect(result.stdout.contains("hint: did you mean 'email'?"))
        #expect(result.stderr.contains("2 errors, 1 warning"))
    }

    @Test func lintWithoutArgumentsUsesJumpYamlOrFlowsAndLocales() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let empty = try run(["lint"], in: folder.path)
        #expect(empty.status == 2)
        #expect(empty.stderr.contains("nothing to lint here"))
        try folder.write("flows/flow.yaml", try String(contentsOfFile: Self.fixtures + "/valid-minimal/flow.yaml", encoding: .utf8)
            .replacingOccurrences(of: "locales: locales", with: "locales: ../locales"))
        try folder.write("locales/en-US.yaml", try String(contentsOfFile: Self.fixtures + "/valid-minimal/locales/en-US.yaml", encoding: .utf8))
        let clean = try run(["lint"], in: folder.path)
        #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
    }

    @Test func lintIOErrorsExitTwo() throws {
        let result = try run(["lint", "no/such/file.yaml"])
        #expect(result.status == 2)
        #expect(result.stdout.contains("error[JF100]"))
    }

    @Test func strictTurnsWarningsIntoFailure() throws {
        let folder = Self.fixtures + "/JF318-unused-field"
        #expect(try run(["lint", "flow.yaml"], in: folder).status == 0)
        #expect(try run(["lint", "--strict", "flow.yaml"], in: folder).status == 1)
    }

    @Test func lintJSONAndSARIFAreMachineReadable() throws {
        let folder = Self.fixtures + "/JF305-unknown-format"
        let json = try run(["lint", "--format", "json", "flow.yaml"], in: folder)
        #expect(json.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let diagnostics = try #require(object["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.map { $0["code"] as? String } == ["JF305", "JF305"])
        #expect(diagnostics.first?["line"] as? Int == 11)
        #expect(diagnostics.first?["hint"] as? String == "did you mean 'email'?")

        let sarif = try run(["lint", "--format", "sarif", "flow.yaml"], in: folder)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as? [String: Any])
        #expect(log["version"] as? String == "2.1.0")
        let runs = try #require(log["runs"] as? [[String: Any]])
        let results = try #require(runs.first?["results"] as? [[String: Any]])
        #expect(results.count == 2)
        #expect(results.first?["ruleId"] as? String == "JF305")
    }

    @Test func unknownOptionsAreUsageErrorsWithStatusTwo() throws {
        let result = try run(["lint", "--fromat", "json"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--fromat"))
    }

    @Test func showPrintsTheLocalizedForm() throws {
        let text = try run(["show", "registrationForm"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("Form registrationForm · flow standard 2024-01-15.1 · en-US"))
        #expect(text.stdout.contains("Label:       Email address"))
        #expect(text.stdout.contains("minLength 8"))

        let json = try run(["show", "registrationForm", "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let fields = try #require(object["fields"] as? [[String: Any]])
        #expect(fields.map { $0["name"] as? String }.first == "emailAddress")
        let password = try #require(fields.first { $0["name"] as? String == "newPassword" })
        let rules = try #require(password["rules"] as? [[String: Any]])
        #expect(rules.contains { $0["text"] as? String == "Password must be at least 8 characters long." })
    }

    @Test func showUnknownFormSuggestsTheClosest() throws {
        let result = try run(["show", "registrationFrom"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("did you mean 'registrationForm'?"))
    }

    @Test func validatePrintsMessagesPerFieldAndExitsOne() throws {
        let result = try run(["validate", "registrationForm", "--today", "2025-06-15",
                              "--set", "emailAddress=ana@example", "--set", "displayName=ana",
                              "--set", "firstName=Ana", "--set", "lastName=Ruiz",
                              "--set", "newPassword=correct horse", "--set", "newPasswordConfirm=correct hose",
                              "--set", "birthdate=2015-01-01"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("emailAddress: Enter a valid email address, such as name@example.com."))
        #expect(result.stdout.contains("newPasswordConfirm: The passwords do not match."))
        #expect(result.stdout.contains("birthdate: You must be at least 13 years old."))
        #expect(result.stdout.contains("left to the server: emailAddress (unique)"))
    }

    @Test func validateReadsAnswersFromStandardInputAsJSON() throws {
        let answers = """
        {"emailAddress": "ana@example.com", "displayName": "ana_r", "firstName": "Ana", "lastName": "Ruiz",
         "newPassword": "correct horse", "newPasswordConfirm": "correct horse", "birthdate": "1990-04-01", "optIn": "true"}
        """
        let result = try run(["validate", "registrationForm", "--answers", "-", "--format", "json"], input: answers)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["valid"] as? Bool == true)
        #expect((object["deferred"] as? [Any])?.count == 2)
    }

    @Test func validateRefusesFieldsTheFormLacks() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let answers = try folder.write("answers.yaml", "emailAdress: ana@example.com\n")
        let result = try run(["validate", "registrationForm", "--answers", answers])
        #expect(result.status == 2)
        #expect(result.stderr.contains("answers.yaml:1:1: error[JF200]: form 'registrationForm' has no field 'emailAdress'"))
        #expect(result.stderr.contains("did you mean 'emailAddress'?"))
    }

    @Test func brokenFlowsStopShowWithTheirDiagnostics() throws {
        let result = try run(["show", "signInForm", "--flow", "flow.yaml"], in: Self.fixtures + "/JF206-unknown-values")
        #expect(result.status == 2)
        #expect(result.stderr.contains("flow.yaml:12:11: error[JF206]: unknown field type 'passwrd'"))
    }
}

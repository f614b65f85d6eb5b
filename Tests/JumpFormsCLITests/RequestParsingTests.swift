import ArgumentParser
@testable import JumpFormsCLI
import JumpCapture
import Testing

/// `jump-forms request OPERATION ...` parsed in-process, as ArgumentParser's own tests parse:
/// each operation's subcommand takes the options it uses, and its mistakes are usage errors.
/// What the requests print is in RequestCLITests (the built binary).
@Suite struct RequestParsingTests {
    static let secret = "0123456789abcdef0123456789abcdef01234567"

    func parse(_ arguments: [String]) throws -> any ParsableCommand {
        try JumpFormsCommand.parseAsRoot(["request"] + arguments)
    }

    /// The message a usage error prints (`jump-forms` exits 2 with it).
    func usageError(_ arguments: [String]) -> String? {
        do {
            _ = try parse(arguments)
            return nil
        } catch {
            #expect(JumpFormsCommand.exitCode(for: error) == .validationFailure, "\(arguments): \(error)")
            return JumpFormsCommand.message(for: error)
        }
    }

    /// Engage sharing's operations without a `request` command of their own: `request share`
    /// renders the flow's activity and sends it as an activity or a status as the provider takes it.
    static let sharingOperations: [CaptureOperation] = [.setStatus, .shortenURLs, .engageDeviceSignIn]

    @Test func everyOperationIsASubcommandNamedAsBefore() throws {
        let names = RequestCommand.configuration.subcommands.map { $0.configuration.commandName ?? "" }
        let operations = CaptureOperation.allCases.filter { !Self.sharingOperations.contains($0) }
        #expect(names == operations.map(\.rawValue))
        for operation in operations {
            let command = try parse(
                [operation.rawValue] + (operation == .shareActivity ? ["joined", "--provider", "twitter"] : []) + ["--format", "json"])
            #expect(type(of: command).configuration.commandName == operation.rawValue)
        }
    }

    @Test func aFormOperationTakesValuesTheDayAndTheSecret() throws {
        let command = try parse([
            "signin", "--set", "signInEmailAddress=ana@example.com", "--set", "currentPassword=pw",
            "--today", "2025-06-15", "--refresh-secret", Self.secret, "--merge-token", "MERGE",
            "--flow-version", "7", "--format", "curl", "--show-secrets", "--config", "jump.yaml"
        ])
        let signIn = try #require(command as? RequestCommand.SignIn)
        #expect(signIn.form.input.assignments == ["signInEmailAddress=ana@example.com", "currentPassword=pw"])
        #expect(signIn.form.today == "2025-06-15")
        #expect(signIn.secret.refreshSecret == Self.secret)
        #expect(signIn.mergeToken == "MERGE")
        #expect(signIn.flow.flowVersion == "7")
        #expect(signIn.options.format == .curl)
        #expect(signIn.options.showSecrets)
        #expect(signIn.options.project.config == "jump.yaml")
    }

    @Test func tokenURLTakesWhereTheTokenGoes() throws {
        let command = try parse(["token-url", "--token-url", "https://app.example.com/token?x=1", "--token", "T", "--token-in", "query"])
        let tokenURL = try #require(command as? RequestCommand.TokenURL)
        #expect(tokenURL.tokenPlacement == .query)
        #expect(tokenURL.tokenURL == "https://app.example.com/token?x=1")
        #expect(tokenURL.token == "T")
        let byDefault = try #require(try parse(["token-url"]) as? RequestCommand.TokenURL)
        #expect(byDefault.tokenPlacement == .body)
    }

    @Test func anOperationRefusesTheOptionsOfOthers() {
        let cases: [([String], String)] = [
            (["signin", "--token-in", "query"], "--token-in"),
            (["register", "--access-token", "A"], "--access-token"),
            (["refresh", "--today", "2025-06-15"], "--today"),
            (["engage-config", "--flow-version", "7"], "--flow-version"),
            (["read-record", "--edited", "edited.json"], "--edited"),
            (["entity-delete", "--value", "{}"], "--value"),
            (["unlink", "--token", "T"], "--token"),
            (["revoke", "--set", "a=b"], "--set")
        ]
        for (arguments, option) in cases {
            let message = usageError(arguments)
            #expect(message?.contains(option) == true, "\(arguments): \(message ?? "accepted")")
        }
    }

    @Test func badValuesAreUsageErrorsThatNameTheOption() {
        #expect(usageError(["signin", "--today", "2025-13-01"]) == "--today takes yyyy-MM-dd, got '2025-13-01'")
        #expect(usageError(["engage-config", "--capture-url", "ftp://x"]) == "--capture-url must be an http(s) URL, got 'ftp://x'")
        #expect(usageError(["token-url", "--token-url", "nope"]) == "--token-url must be an http(s) URL, got 'nope'")
        #expect(usageError(["link", "--flow-version", ""]) == "--flow-version takes a version, got an empty one")
        #expect(usageError(["signin", "--set", "novalue"]) == "--set takes field=value, got 'novalue'")
        #expect(usageError(["register", "--locale", "not a tag"])?.contains("is not a BCP 47 locale tag") == true)
        #expect(usageError(["signin", "--format", "xml"])?.contains("xml") == true)
    }

    @Test func aMalformedRefreshSecretIsRefusedWithoutBeingEchoed() {
        let message = usageError(["refresh", "--refresh-secret", "not-hex-SECRETVALUE"])
        #expect(message == "--refresh-secret takes 40 hexadecimal characters (got 19 characters)")
    }

    @Test func recordEditsTakeAValueOrAnEditedRecord() throws {
        #expect(usageError(["entity-update", "--edited", "e.json", "--value", "{}"]) == "give --value or --edited, not both")
        #expect(usageError(["entity-replace", "--record", "r.json"]) == "--record and --schema go with --edited")
        #expect(usageError(["entity-update", "--schema", "s.json", "--value", "{}"]) == "--record and --schema go with --edited")
        let command = try parse(["entity-update", "--edited", "e.json", "--record", "r.json", "--schema", "s.json", "--attribute", "/a"])
        let update = try #require(command as? RequestCommand.EntityUpdate)
        #expect(update.edit.edited == "e.json")
        #expect(update.edit.record == "r.json")
        #expect(update.edit.schema == "s.json")
        #expect(update.attribute == "/a")
    }

    @Test func anUnknownOperationIsAUsageError() {
        let message = usageError(["signup"])
        #expect(message?.contains("signup") == true, "\(message ?? "accepted")")
    }
}

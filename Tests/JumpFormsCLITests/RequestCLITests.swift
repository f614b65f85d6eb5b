import Foundation
import CLITestSupport
import Testing
import TestSupport

/// `jump-forms request` and `jump-forms providers`, run as the built binary. Each run gets a
/// fresh HOME (no session file from another run), and nothing is ever sent.
@Suite struct RequestCLITests {
    static let secrets = [
        "PASSWORD-S3cret", "ACCESS-TOKEN-S3cret", "ENGAGE-TOKEN-S3cret", "TOKEN-SECRET-S3cret",
        "0123456789abcdef0123456789abcdef01234567"
    ]
    static let refreshSecret = secrets[4]
    static let fixtureConfig = Repository.path("Tests/JumpCaptureTests/Fixtures/project/jump.yaml")

    func run(_ arguments: [String], in directory: String = Repository.root, input: String? = nil) async throws -> CommandResult {
        let home = try TemporaryFolder("jump-forms-request-home")
        defer { home.remove() }
        return try await InProcess.run(
            arguments, in: directory,
            environment: ["HOME": home.path, "XDG_STATE_HOME": home.path + "/state", "XDG_CONFIG_HOME": home.path + "/config"],
            input: input)
    }

    static let registration = [
        "--set", "emailAddress=ana.ruiz@example.com", "--set", "displayName=ana_r", "--set", "firstName=Ana",
        "--set", "lastName=Ruiz", "--set", "newPassword=PASSWORD-S3cret", "--set", "newPasswordConfirm=PASSWORD-S3cret",
        "--set", "birthdate=1990-04-01", "--set", "optIn=true"
    ]
    static let access = ["--access-token", "ACCESS-TOKEN-S3cret"]

    /// Arguments that build each operation's request.
    static let operations: [(String, [String])] = [
        ("signin", ["--set", "signInEmailAddress=ana.ruiz@example.com", "--set", "currentPassword=PASSWORD-S3cret"]),
        ("social-signin", ["--token", "ENGAGE-TOKEN-S3cret"]),
        ("register", registration),
        (
            "social-register",
            [
                "--token", "ENGAGE-TOKEN-S3cret", "--set", "emailAddress=ana.ruiz@example.com", "--set", "displayName=ana_r",
                "--set", "firstName=Ana", "--set", "lastName=Ruiz"
            ]
        ),
        ("forgot-password", ["--set", "signInEmailAddress=ana.ruiz@example.com"]),
        ("resend-verification", ["--set", "signInEmailAddress=ana.ruiz@example.com"]),
        (
            "update-profile",
            access + [
                "--set", "displayName=ana_r", "--set", "firstName=Ana", "--set", "lastName=Ruiz",
                "--set", "birthdate=1990-04-01"
            ]
        ),
        (
            "change-password",
            access + [
                "--set", "currentPassword=PASSWORD-S3cret", "--set", "newPassword=PASSWORD-S3cret-new",
                "--set", "newPasswordConfirm=PASSWORD-S3cret-new"
            ]
        ),
        ("refresh", access + ["--refresh-secret", refreshSecret]),
        ("link", access + ["--token", "ENGAGE-TOKEN-S3cret"]),
        ("unlink", access + ["--identifier", "https://www.google.com/profiles/123"]),
        ("read-record", access),
        ("entity-update", access + ["--attribute", "/primaryAddress", "--value", #"{"city": "Kraków"}"#]),
        ("entity-replace", access + ["--attribute", "/photos", "--value", #"[{"type": "large", "value": "a.png"}]"#]),
        ("entity-delete", access + ["--attribute", "/photos#2"]),
        ("engage-config", []),
        ("engage-token", ["--provider", "twitter", "--token", "ENGAGE-TOKEN-S3cret", "--token-secret", "TOKEN-SECRET-S3cret"]),
        ("token-url", ["--token-url", "https://example.com/token", "--token", "ENGAGE-TOKEN-S3cret"])
    ]

    /// The operations that send a form's values (and take `--today`).
    static let formOperations: Set<String> = [
        "signin", "register", "social-register", "forgot-password", "resend-verification",
        "update-profile", "change-password"
    ]

    static func leaks(_ text: String) -> [String] {
        secrets.filter { text.contains($0) || text.contains($0.replacingOccurrences(of: "-", with: "%2D")) }
    }

    @Test(arguments: operations)
    func everyOperationPrintsItsRequestWithSecretsMasked(_ operation: String, _ arguments: [String]) async throws {
        for format in ["http", "curl", "json"] {
            let today = Self.formOperations.contains(operation) ? ["--today", "2025-06-15"] : []
            let result = try await run(["request", operation, "--format", format] + today + arguments)
            #expect(result.status == 0, "\(operation) \(format): \(result.stderr)")
            #expect(Self.leaks(result.stdout + result.stderr).isEmpty, "\(operation) \(format) prints a secret:\n\(result.stdout)")
            #expect(!result.stdout.isEmpty)
            if operation != "engage-config", operation != "forgot-password", operation != "resend-verification" {
                #expect(result.stdout.contains("********"), "\(operation) \(format): nothing masked")
            }
        }
    }

    @Test func showSecretsPrintsThemInClear() async throws {
        let signIn = try await run([
            "request", "signin", "--show-secrets", "--set", "signInEmailAddress=ana.ruiz@example.com",
            "--set", "currentPassword=PASSWORD-S3cret", "--refresh-secret", Self.refreshSecret
        ])
        #expect(signIn.status == 0, "\(signIn.stderr)")
        #expect(signIn.stdout.contains("currentPassword=PASSWORD-S3cret"))
        #expect(signIn.stdout.contains("refresh_secret=\(Self.refreshSecret)"))
        #expect(!signIn.stdout.contains("********"))
        // The real body's length, now that nothing is masked.
        let body = try #require(signIn.stdout.components(separatedBy: "\n\n").last?.trimmingCharacters(in: .newlines))
        #expect(signIn.stdout.contains("Content-Length: \(body.utf8.count)\n"))
    }

    @Test func maskedHTTPSaysTheBodyIsMaskedAndNamesTheEmbeddedPort() async throws {
        let result = try await run([
            "request", "signin", "--set", "signInEmailAddress=ana.ruiz@example.com", "--set", "currentPassword=PASSWORD-S3cret"
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("POST /oauth/auth_native_traditional HTTP/1.1\nHost: 127.0.0.1:<embedded port>\nAccept: application/json\n"))
        #expect(result.stdout.contains("\nContent-Type: application/x-www-form-urlencoded; charset=utf-8\n"))
        #expect(result.stdout.contains("\nContent-Length: (not shown: secrets in the body are masked)\n"))
        let curl = try await run(["request", "engage-config", "--format", "curl", "--capture-url", "https://example.us.janraincapture.com"])
        #expect(
            curl.stdout.contains(
                "'https://rpxnow.com/openid/mobile_config_and_baseurl?appId=localengageappid000&device=android&app_name=jump-forms&version=0.1.0'"))
    }

    @Test func jsonFormatIsMachineReadable() async throws {
        let result = try await run(["request", "register", "--format", "json", "--today", "2025-06-15"] + Self.registration)
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["operation"] as? String == "register")
        #expect(object["method"] as? String == "POST")
        #expect(object["url"] as? String == "http://127.0.0.1:<embedded port>/oauth/register_native_traditional")
        let parameters = try #require(object["parameters"] as? [[String: Any]])
        let password = try #require(parameters.first { $0["name"] as? String == "newPassword" })
        #expect(password["value"] as? String == "********")
        #expect(password["secret"] as? Bool == true)
        #expect(parameters.contains { $0["name"] as? String == "birthdate[dateselect_year]" && $0["value"] as? String == "1990" })
    }

    @Test func invalidValuesExitOneWithTheLocalizedMessages() async throws {
        var arguments = Self.registration
        arguments[1] = "emailAddress=ana@"
        let result = try await run(["request", "register", "--today", "2025-06-15"] + arguments + ["--set", "newPasswordConfirm=different"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty, "nothing to send, nothing printed")
        #expect(result.stderr.contains("emailAddress: Enter a valid email address, such as name@example.com.\n"))
        #expect(result.stderr.contains("newPasswordConfirm: The passwords do not match.\n"))
        #expect(result.stderr.contains("nothing to send: the values do not pass the rules of registrationForm"))
        #expect(Self.leaks(result.stderr).isEmpty)
    }

    @Test func usageMistakesExitTwo() async throws {
        let unknown = try await run(["request", "signup"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("signup"))
        #expect(unknown.stderr.contains("signin"), "the operations there are")

        let field = try await run(["request", "signin", "--set", "signInEmailAdress=ana@example.com"])
        #expect(field.status == 2)
        #expect(field.stderr.contains("form 'signInForm' has no field 'signInEmailAdress' (did you mean 'signInEmailAddress'?)"))

        let missing = try await run(["request", "link"] + Self.access)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("link needs --token"))
    }

    @Test func refreshTakesAGivenSecretAndChecksIt() async throws {
        let noSession = try await run(["request", "refresh"] + Self.access)
        #expect(noSession.status == 2)
        #expect(noSession.stderr.contains("refresh needs a refresh secret: sign in first, or pass --refresh-secret HEX"))

        let bad = try await run(["request", "refresh", "--refresh-secret", "not-hex-SECRETVALUE"] + Self.access)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--refresh-secret takes 40 hexadecimal characters (got 19 characters)"))
        #expect(!bad.stderr.contains("SECRETVALUE"), "a malformed secret is not echoed")

        let masked = try await run(["request", "refresh", "--refresh-secret", Self.refreshSecret] + Self.access)
        #expect(masked.status == 0, "\(masked.stderr)")
        // iOS's parameters in iOS's order (JRCapture.m:509-518).
        #expect(masked.stdout.contains("\naccess_token=********&signature=********&date="), "\(masked.stdout)")
        #expect(masked.stdout.contains("&client_id=localdev0123456789abcdefghijklmn&locale=en-US&flow=standard&flow_version=2024-01-15.1\n"))
        let shown = try await run(["request", "refresh", "--show-secrets", "--refresh-secret", Self.refreshSecret] + Self.access)
        #expect(shown.stdout.contains("access_token=ACCESS-TOKEN-S3cret&signature="))
        #expect(!shown.stdout.contains("signature=********"))

        // Sign-in sends the given secret.
        let signIn = try await run([
            "request", "signin", "--show-secrets", "--refresh-secret", Self.refreshSecret,
            "--set", "signInEmailAddress=ana@example.com", "--set", "currentPassword=pw"
        ])
        #expect(signIn.stdout.contains("refresh_secret=\(Self.refreshSecret)"))
    }

    @Test func brokenJumpYamlExitsTwoWithItsPlace() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let config = try String(contentsOfFile: Repository.path("jump.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "flow: flows/standard.yaml", with: "flow: \(Repository.path("flows/standard.yaml"))")
        try folder.write("jump.yaml", config.replacingOccurrences(of: "captureLocale: en-US", with: "captureLocal: en-US"))
        let result = try await run(["request", "signin"], in: folder.path)
        #expect(result.status == 2)
        #expect(result.stderr.contains("jump.yaml:6:1: error[JF200]: unknown key 'captureLocal'"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func aFormJumpYamlNamesAndTheFlowLacksIsLocated() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let config = try String(contentsOfFile: Repository.path("jump.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "flow: flows/standard.yaml", with: "flow: \(Repository.path("flows/standard.yaml"))")
            .replacingOccurrences(
                of: "captureTraditionalRegistrationFormName: registrationForm",
                with: "captureTraditionalRegistrationFormName: registrationFrom")
        try folder.write("jump.yaml", config)
        let result = try await run(["request", "register"] + Self.registration, in: folder.path)
        #expect(result.status == 2)
        #expect(
            result.stderr.contains(
                """
                jump.yaml:12:41: error[JF316]: 'captureTraditionalRegistrationFormName' names form 'registrationFrom', which the flow lacks \
                (register sends it)
                """
            ),
            "\(result.stderr)")
        #expect(result.stderr.contains("hint: did you mean 'registrationForm'?"))
    }

    @Test func aPlainValueForAMapFieldIsRefusedNamingItsParts() async throws {
        // A remote Capture without captureAppId: the flow version is given, nothing downloaded.
        let common = [
            "request", "register", "--config", Self.fixtureConfig, "--flow-version", "7", "--set", "email=ana@example.com",
            "--set", "username=ana_r", "--set", "password=PASSWORD-S3cret"
        ]
        let plain = try await run(common + ["--set", "phone=+48 12 000 00 00"])
        #expect(plain.status == 2)
        #expect(
            plain.stderr.contains(
                "field 'phone' of form 'registrationForm' has a schemaId map: give its parts phone[home], phone[work], not a plain value"),
            "\(plain.stderr)")
        #expect(plain.stdout.isEmpty)
        let parts = try await run(common + ["--set", "phone[home]=+48 12 000 00 00", "--set", "phone[work]=+48 22"])
        #expect(parts.status == 0, "\(parts.stderr)")
        // Names raw, as both SDKs write them (ApiConnection.java:74, NSDictionary+JRQueryParams.m).
        #expect(parts.stdout.contains("&phone[home]=%2B48+12+000+00+00&phone[work]=%2B48+22"), "\(parts.stdout)")
    }

    @Test func editedRecordsBecomeTheCallsTheSchemaCallsFor() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let record = try folder.write(
            "record.json",
            #"""
            {"id": 7, "email": "ana@example.com", "display": {"theme": "dark"}, "photos": [{"id": 1, "type": "large", "value": "a.png"}]}
            """#)
        let edited = try folder.write(
            "edited.json",
            #"""
            {"id": 7, "email": "ana@example.com", "display": {"theme": "light"}, "photos": [{"id": 1, "type": "large", "value": "b.png"}],
             "primaryAddress": {"city": "Kraków"}}
            """#)
        let withSchema = try await run(
            [
                "request", "entity-update", "--format", "json", "--record", record, "--edited", edited,
                "--schema", Repository.path("schemas/default-schema.json")
            ] + Self.access)
        #expect(withSchema.status == 0, "\(withSchema.stderr)")
        let calls = try #require(try JSONSerialization.jsonObject(with: Data(withSchema.stdout.utf8)) as? [[String: Any]])
        func parameter(_ call: [String: Any], _ name: String) -> String? {
            (call["parameters"] as? [[String: Any]])?.first { $0["name"] as? String == name }?["value"] as? String
        }
        #expect(calls.map { $0["operation"] as? String } == ["entity-update", "entity-replace", "entity-update"])
        // `display` is json in the schema: set whole in the root's update, not diffed as an object.
        #expect(parameter(calls[0], "attribute_name") == nil)
        #expect(parameter(calls[0], "value") == #"{"display":{"theme":"light"}}"#)
        #expect(parameter(calls[1], "attribute_name") == "/photos")
        #expect(parameter(calls[1], "value") == #"[{"type":"large","value":"b.png"}]"#)
        #expect(parameter(calls[2], "attribute_name") == "/primaryAddress")
        #expect(parameter(calls[2], "value") == #"{"city":"Kraków"}"#)
        #expect(Self.leaks(withSchema.stdout).isEmpty)

        // Without the schema, `display` looks like an object.
        let guessed = try await run(["request", "entity-update", "--record", record, "--edited", edited] + Self.access)
        #expect(guessed.status == 0, "\(guessed.stderr)")
        #expect(guessed.stdout.contains("attribute_name=%2Fdisplay"))

        let unchanged = try await run(["request", "entity-update", "--record", record, "--edited", record] + Self.access)
        #expect(unchanged.status == 0)
        #expect(unchanged.stdout.isEmpty)
        #expect(unchanged.stderr.contains("no changes"))

        let both = try await run(["request", "entity-update", "--edited", edited, "--value", "{}"] + Self.access)
        #expect(both.status == 2)
        let broken = try folder.write("broken.json", "{\"email\": ")
        let bad = try await run(["request", "entity-update", "--record", record, "--edited", broken] + Self.access)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("broken.json:1:11: --edited is not valid JSON"), "\(bad.stderr)")
    }

    // MARK: the flow document's version against a remote Capture

    static let documentFolder = "Tests/JumpCaptureTests/Fixtures/flow-document"

    /// A test double of the flow CDN on 127.0.0.1: the fixture document (version
    /// 2024-02-01.3), gzipped when asked, at any path; `version` replaces it.
    static func flowServer(version: String? = nil, status: Int = 200) throws -> LoopbackServer {
        let plain = try #require(FileManager.default.contents(atPath: Repository.path("\(documentFolder)/en-US.json")))
        let gzipped = try #require(FileManager.default.contents(atPath: Repository.path("\(documentFolder)/en-US.json.gz")))
        return try LoopbackServer { request in
            guard status == 200 else { return .init(status: status, contentType: "text/html", body: "<h1>\(status)</h1>") }
            if let version { return .init(body: #"{"version": "\#(version)", "fields": {}}"#) }
            var reply = LoopbackServer.Reply(body: "")
            if request.headers["accept-encoding"] == "gzip" {
                reply.bodyBytes = Array(gzipped)
                reply.headers = [("Content-Encoding", "gzip")]
            } else {
                reply.bodyBytes = Array(plain)
            }
            return reply
        }
    }

    /// The repository's jump.yaml with `captureDomain` at `domain` (and the flow by its full
    /// path), with `replacing` applied.
    static func remoteConfig(in folder: TemporaryFolder, domain: String, _ replacing: [(String, String)] = []) throws -> String {
        var text = try String(contentsOfFile: Repository.path("jump.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "flow: flows/standard.yaml", with: "flow: \(Repository.path("flows/standard.yaml"))")
            .replacingOccurrences(of: "captureDomain: embedded", with: "captureDomain: \(domain)")
        for (old, new) in replacing { text = text.replacingOccurrences(of: old, with: new) }
        return try folder.write("jump.yaml", text)
    }

    static let signInValues = ["--set", "signInEmailAddress=ana.ruiz@example.com", "--set", "currentPassword=PASSWORD-S3cret"]

    /// Against a remote Capture the flow document is downloaded (GET, gzip: JRCaptureData.m:300-319,
    /// Jump.java:1001-1029) and its version sent (JRCaptureApidInterface.m:588, Capture.java:89);
    /// the local flow's other version is reported at its place.
    @Test func aRemoteCaptureGetsTheDownloadedFlowVersion() async throws {
        let server = try Self.flowServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let config = try Self.remoteConfig(in: folder, domain: server.url)
        let result = try await run(["request", "signin", "--config", config] + Self.signInValues)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("&flow=standard&flow_version=2024-02-01.3&"), "\(result.stdout)")
        let url = "\(server.url)/widget_data/flows/localapp/standard/HEAD/en-US.json"
        #expect(
            result.stderr == "\(Repository.path("flows/standard.yaml")):3:10: warning: the flow's version '2024-01-15.1' differs from "
                + "the flow document's '2024-02-01.3' (\(url)); requests send flow_version '2024-02-01.3', as the SDKs do\n")
        let received = try #require(server.requests.first)
        #expect(server.requests.count == 1, "one download, no sign-in sent")
        #expect(received.method == "GET" && received.target == "/widget_data/flows/localapp/standard/HEAD/en-US.json")
        #expect(received.headers["accept-encoding"] == "gzip")
        #expect(Self.leaks(result.stdout + result.stderr).isEmpty)

        // The account commands send the same (a dry run prints it; the download is real).
        let dryRun = try await run(["signin", "--config", config, "--dry-run", "--non-interactive"] + Self.signInValues)
        #expect(dryRun.status == 0, "\(dryRun.stderr)")
        #expect(dryRun.stdout.contains("&flow_version=2024-02-01.3&"), "\(dryRun.stdout)")
        #expect(dryRun.stderr.contains("warning: the flow's version '2024-01-15.1' differs"))
        #expect(server.requests.count == 2)
    }

    /// `captureFlowVersion` selects the document (JRCaptureData.m:302, Jump.java:1002) on
    /// `captureFlowDomain` (JumpConfig.java:234, Jump.java:1006-1010); the same version warns nothing.
    @Test func captureFlowVersionAndDomainSelectTheDocument() async throws {
        let server = try Self.flowServer(version: "2024-01-15.1")
        defer { server.stop() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let config = try Self.remoteConfig(
            in: folder, domain: "https://capture.example.com",
            [
                ("captureFlowVersion: HEAD", "captureFlowVersion: 2024-01-15.1\ncaptureFlowDomain: \(server.url)/cdn")
            ])
        let result = try await run(["request", "unlink", "--config", config, "--identifier", "https://www.google.com/profiles/123"] + Self.access)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "the versions agree: \(result.stderr)")
        #expect(server.requests.map(\.target) == ["/cdn/widget_data/flows/localapp/standard/2024-01-15.1/en-US.json"])
        #expect(result.stdout.hasPrefix("POST /oauth/unlink_account_native HTTP/1.1\nHost: capture.example.com\n"))
        // Unlink: the SDKs' set, no redirect_uri/response_type (JRCapture.m:1085-1092, Capture.java:635-642).
        #expect(
            result.stdout.hasSuffix(
                "\nclient_id=localdev0123456789abcdefghijklmn&locale=en-US&identifier_to_remove=https%3A%2F%2Fwww.google.com"
                    + "%2Fprofiles%2F123&access_token=********&flow=standard&flow_version=2024-01-15.1\n"), "\(result.stdout)")
    }

    /// `captureFlowDomain` is a URL with its scheme (as Android's JumpConfig takes it), located
    /// when it is not one.
    @Test func aFlowDomainThatIsNotAURLIsLocated() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let config = try Self.remoteConfig(
            in: folder, domain: "https://capture.example.com",
            [
                ("captureFlowVersion: HEAD", "captureFlowVersion: HEAD\ncaptureFlowDomain: flows.example.com")
            ])
        let result = try await run(["request", "signin", "--config", config] + Self.signInValues)
        #expect(result.status == 2)
        #expect(result.stderr.contains("jump.yaml:9:20: error[JF213]"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    /// A document that cannot be had stops the call (exit 1) naming the URL: the SDKs cannot
    /// sign in without it either.
    @Test func aFailedDownloadExitsOneNamingTheURL() async throws {
        let server = try Self.flowServer(status: 404)
        defer { server.stop() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let config = try Self.remoteConfig(in: folder, domain: server.url)
        let result = try await run(["request", "register", "--config", config, "--today", "2025-06-15"] + Self.registration)
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        let url = "\(server.url)/widget_data/flows/localapp/standard/HEAD/en-US.json"
        #expect(result.stderr.hasPrefix("error: \(url) answered HTTP 404, not the flow document\n"), "\(result.stderr)")
        #expect(result.stderr.contains("(or pass --flow-version VERSION)"))

        // Without captureAppId there is no URL to download from: a usage error naming the key.
        let noApp = try Self.remoteConfig(in: folder, domain: server.url, [("captureAppId: localapp\n", "")])
        let missing = try await run(["request", "signin", "--config", noApp] + Self.signInValues)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("captureAppId is not set"), "\(missing.stderr)")
        #expect(server.requests.count == 1)
    }

    /// `--flow-version` sends a given version and downloads nothing; calls without
    /// `flow_version` (entity calls, Engage) never download.
    @Test func aGivenFlowVersionOrNoneDownloadsNothing() async throws {
        let server = try Self.flowServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let config = try Self.remoteConfig(in: folder, domain: server.url)
        let given = try await run(
            ["request", "link", "--config", config, "--flow-version", "2023-12-01.9", "--token", "ENGAGE-TOKEN-S3cret"] + Self.access)
        #expect(given.status == 0, "\(given.stderr)")
        #expect(given.stdout.contains("&flow_version=2023-12-01.9"))
        let record = try await run(["request", "read-record", "--config", config] + Self.access)
        #expect(record.status == 0, "\(record.stderr)")
        // No client_id on /entity (JRCaptureApidInterface.m:217-227, Capture.java:652-657).
        #expect(record.stdout.hasSuffix("\naccess_token=********\n"), "\(record.stdout)")
        #expect(server.requests.isEmpty)
        let empty = try await run(["request", "link", "--config", config, "--flow-version", "", "--token", "t"] + Self.access)
        #expect(empty.status == 2)
    }

    /// The token-URL post: Android's body by default (JRSession.java:1169-1178), iOS's URL form
    /// with `--token-in query` (JRSessionData.m:1538-1544), the token masked either way.
    @Test func tokenURLTakesBothForms() async throws {
        let body = try await run(["request", "token-url", "--token-url", "https://app.example.com/token?x=1", "--token", "ENGAGE-TOKEN-S3cret"])
        #expect(body.status == 0, "\(body.stderr)")
        #expect(body.stdout.hasPrefix("POST /token?x=1 HTTP/1.1\n"))
        #expect(body.stdout.hasSuffix("\ntoken=********\n"))
        let query = try await run([
            "request", "token-url", "--token-in", "query", "--token-url", "https://app.example.com/token?x=1",
            "--token", "ENGAGE-TOKEN-S3cret"
        ])
        #expect(query.status == 0, "\(query.stderr)")
        #expect(
            query.stdout == "POST /token?x=1&token=******** HTTP/1.1\nHost: app.example.com\nAccept: application/json\n"
                + "User-Agent: jump-forms/0.1.0\nContent-Length: 0\n\n", "\(query.stdout)")
        let shown = try await run([
            "request", "token-url", "--token-in", "query", "--show-secrets", "--format", "curl",
            "--token-url", "https://app.example.com/token", "--token", "ENGAGE-TOKEN-S3cret"
        ])
        #expect(shown.stdout.contains("'https://app.example.com/token?token=ENGAGE-TOKEN-S3cret'"), "\(shown.stdout)")
        // Another operation refuses --token-in: RequestParsingTests.
        let misplaced = try await run(["request", "signin", "--token-in", "query"] + Self.signInValues)
        #expect(misplaced.status == 2)
        #expect(misplaced.stderr.contains("--token-in"))
    }

    @Test func providersListsEveryKindAsTextAndJSON() async throws {
        let text = try await run(["providers"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("google (built-in)"))
        #expect(text.stdout.contains("corp_openid (custom OpenID)"))
        #expect(text.stdout.contains("corp_saml (custom SAML)"))

        let json = try await run(["providers", "--format", "json", "--locale", "de-DE"])
        #expect(json.status == 0, "\(json.stderr)")
        let providers = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(providers.map { $0["id"] as? String } == ["facebook", "google", "twitter", "apple", "linkedin", "corp_openid", "corp_saml"])
        #expect(Set(providers.compactMap { $0["kind"] as? String }) == ["built-in", "custom OpenID", "custom SAML"])
        let openID = try #require(providers.first { $0["id"] as? String == "corp_openid" })
        let url = try #require(openID["startURL"] as? String)
        #expect(
            url.hasPrefix("https://rpxnow.com/openid/start?openid_identifier=https%3A%2F%2Fid.example.com%2Fopenid&opx_blob=some_blob&extended=true"))
        #expect(url.contains("&token_url=https%3A%2F%2Fexample.com&"))
        #expect(providers.allSatisfy { ($0["name"] as? String)?.isEmpty == false })

        let bad = try await run(["providers", "--format", "yaml"])
        #expect(bad.status == 2)
    }
}

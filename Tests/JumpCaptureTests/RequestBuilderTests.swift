import JumpCapture
import JumpForms
import Testing
import TestSupport

/// Every operation's request, as HTTP text, against golden files in Golden/.
@Suite struct RequestBuilderTests {
    static let golden = "Tests/JumpCaptureTests/Golden"

    static func requests() throws -> [(String, CaptureRequest)] {
        let b = CaptureFixtures.builder()
        let fixture = CaptureFixtures.fixtureBuilder()
        let engage = CaptureFixtures.engage
        let day = CaptureFixtures.today
        let secret = CaptureFixtures.secret
        let profile: FormValues = ["displayName": "ana_r", "firstName": "Ana", "lastName": "Ruiz", "gender": "female",
                                   "birthdate": "1990-04-01", "mobileNumber": "+48 600 100 200", "addressStreet": "ul. Długa 1",
                                   "addressCity": "Kraków", "addressPostalCode": "31-147", "addressCountry": "PL", "optIn": "false",
                                   "aboutMe": "Café & ü"]
        return [
            ("signin", try b.signIn(["signInEmailAddress": "ana.ruiz@example.com", "currentPassword": "p@ss w0rd&="], refreshSecret: secret, today: day)),
            // captureTraditionalSignInType: username (Fixtures/project).
            ("signin-username", try fixture.signIn(["username": "ana_r", "password": "p@ss w0rd"], refreshSecret: secret, today: day)),
            ("signin-merge", try b.signIn(["signInEmailAddress": "ana.ruiz@example.com", "currentPassword": "pw"], refreshSecret: secret, mergeToken: "engage-token-42", today: day)),
            ("social-signin", b.socialSignIn(token: "engage-token-1", refreshSecret: secret)),
            ("social-signin-merge", b.socialSignIn(token: "engage-token-2", refreshSecret: secret, mergeToken: "engage-token-1")),
            ("register", try b.register(CaptureFixtures.registration, refreshSecret: secret, today: day)),
            // A field whose schemaId is a map: sent as phone[home], phone[work].
            ("register-map-field", try fixture.register(["email": "ana.ruiz@example.com", "username": "ana_r", "password": "pw",
                                                         "phone[home]": "+48 12 000 00 00", "phone[work]": "+48 22 111 11 11"],
                                                        refreshSecret: secret, today: day)),
            ("social-register", try b.socialRegister(["emailAddress": "ana.ruiz@example.com", "displayName": "ana_r", "firstName": "Ana", "lastName": "Ruiz"],
                                                     token: "engage-token-1", refreshSecret: secret, today: day)),
            ("forgot-password", try b.forgotPassword(["signInEmailAddress": "ana.ruiz@example.com"], today: day)),
            ("resend-verification", try b.resendVerification(["signInEmailAddress": "ana.ruiz@example.com"], today: day)),
            ("update-profile", try b.updateProfile(profile, accessToken: "access-1", today: day)),
            ("change-password", try b.changePassword(["currentPassword": "old pw", "newPassword": "new passphrase", "newPasswordConfirm": "new passphrase"],
                                                     accessToken: "access-1", today: day)),
            ("refresh", b.refreshAccessToken(accessToken: "access-1", refreshSecret: secret, epochSeconds: CaptureFixtures.epoch)),
            ("link", b.linkAccount(accessToken: "access-1", token: "engage-token-3")),
            ("unlink", b.unlinkAccount(accessToken: "access-1", identifier: "https://www.google.com/profiles/123")),
            ("read-record", b.readRecord(accessToken: "access-1")),
            ("read-record-attribute", b.readRecord(accessToken: "access-1", attribute: "/primaryAddress")),
            ("entity-update", b.updateObject(accessToken: "access-1", attribute: "/primaryAddress", value: ["city": "Kraków", "zip": "31-147"])),
            ("entity-update-root", b.updateObject(accessToken: "access-1", attribute: nil, value: ["displayName": "ana"])),
            ("entity-replace", b.replacePlural(accessToken: "access-1", attribute: "/photos", value: [["type": "large", "value": "https://example.com/a.png"]])),
            ("entity-delete", b.deleteAttribute(accessToken: "access-1", attribute: "/photos#2")),
            ("engage-config", engage.mobileConfiguration()),
            ("engage-token", engage.nativeTokenExchange(provider: "facebook", token: "fb-token")),
            ("engage-token-twitter", engage.nativeTokenExchange(provider: "twitter", token: "tw-token", tokenSecret: "tw-secret")),
            ("token-url", engage.tokenURLPost(tokenURL: ServerURL("https://example.com")!, path: "/token", token: "engage-token-1")),
        ]
    }

    @Test func everyOperationMatchesItsGoldenFile() throws {
        let requests = try Self.requests()
        let covered = Set(requests.map(\.1.operation))
        #expect(covered == Set(CaptureOperation.allCases), "operations without a golden request: \(Set(CaptureOperation.allCases).subtracting(covered))")
        for (name, request) in requests {
            Snapshot.check(RequestPrinter.http(request, showSecrets: true), against: Repository.path("\(Self.golden)/\(name).http"))
        }
    }

    @Test func dryRunsMaskEverySecret() throws {
        for (name, request) in try Self.requests() {
            let masked = RequestPrinter.http(request) + RequestPrinter.curl(request) + RequestPrinter.json(request).serialized()
            for parameter in request.parameters where parameter.isSecret {
                #expect(!masked.contains(FormEncoding.encode(parameter.value)), "\(name): \(parameter.name) leaks")
                #expect(!masked.contains(parameter.value), "\(name): \(parameter.name) leaks")
            }
        }
        let shown = RequestPrinter.http(try Self.requests()[0].1, showSecrets: true)
        #expect(shown.contains("currentPassword=p%40ss+w0rd%26%3D"))
    }

    @Test func providerStartURLsForEveryKind() throws {
        let engage = CaptureFixtures.engage
        var text = ""
        for provider in CaptureFixtures.loaded.flow.providers {
            for returnTo in [EngageReturn.tokenURL("https://example.com"), .device("android")] {
                text += engage.startURL(for: provider, returnTo: returnTo, forceReauth: provider.id.value == "google",
                                        installationID: "8a7c0d2e-1f3b-4c5d-9e6f-0a1b2c3d4e5f").url + "\n"
            }
        }
        Snapshot.check(text, against: Repository.path("\(Self.golden)/provider-start-urls.txt"))
        #expect(text.contains("/openid/start?openid_identifier=https%3A%2F%2Fid.example.com%2Fopenid&opx_blob=some_blob&extended=true"))
        #expect(text.contains("/saml2/sso/start?saml_provider=example_saml_implementation&extended=true"))
    }

    @Test func invalidValuesGiveLocalizedMessagesInsteadOfARequest() {
        var values = CaptureFixtures.registration
        values["emailAddress"] = "ana@"
        values["newPasswordConfirm"] = "different"
        do {
            _ = try CaptureFixtures.builder().register(values, refreshSecret: CaptureFixtures.secret, today: CaptureFixtures.today)
            Issue.record("a request was built from invalid values")
        } catch {
            guard case .invalidValues(let failure) = error else { Issue.record("\(error)"); return }
            #expect(failure.messages == [
                FieldMessages(field: "emailAddress", messages: ["Enter a valid email address, such as name@example.com."]),
                FieldMessages(field: "newPasswordConfirm", messages: ["The passwords do not match."]),
            ])
        }
    }

    @Test func dateselectSplitsAndCheckboxesAreJSON() throws {
        let request = try CaptureFixtures.builder().register(CaptureFixtures.registration, refreshSecret: CaptureFixtures.secret, today: CaptureFixtures.today)
        #expect(request.parameter("birthdate[dateselect_year]") == "1990")
        #expect(request.parameter("birthdate[dateselect_month]") == "4")
        #expect(request.parameter("birthdate[dateselect_day]") == "1")
        #expect(request.parameter("birthdate") == nil)
        #expect(request.parameter("optIn") == "true")
        #expect(request.parameter("flow_version") == "2024-01-15.1")
        #expect(request.parameter("emailAddress") == "ana.ruiz@example.com")
        #expect(request.parameter("email") == nil, "field names, not schema paths")
    }

    @Test func aPlainValueForAMapFieldIsRefusedNamingItsParts() {
        let values: FormValues = ["email": "ana.ruiz@example.com", "username": "ana_r", "password": "pw", "phone": "+48 12 000 00 00"]
        do {
            let request = try CaptureFixtures.fixtureBuilder().register(values, refreshSecret: CaptureFixtures.secret, today: CaptureFixtures.today)
            Issue.record("a plain value for a map field was sent: \(RequestPrinter.http(request))")
        } catch {
            #expect(error == .plainValueForMapField(form: "registrationForm", field: "phone", subKeys: ["home", "work"]))
            #expect(error.description == "field 'phone' of form 'registrationForm' has a schemaId map: give its parts phone[home], phone[work], not a plain value")
        }
    }

    @Test func usernameSignInSendsTheUsernameField() throws {
        #expect(CaptureFixtures.fixtureProject.config?.captureTraditionalSignInType.value == .username)
        let request = try CaptureFixtures.fixtureBuilder().signIn(["username": "ana_r", "password": "pw"], refreshSecret: CaptureFixtures.secret,
                                                                  today: CaptureFixtures.today)
        #expect(request.parameter("username") == "ana_r")
        #expect(request.parameters.first { $0.name == "password" }?.isSecret == true)
    }

    @Test func aFormMissingFromTheFlowIsLocatedInJumpYaml() throws {
        var config = CaptureFixtures.config
        config.captureTraditionalRegistrationFormName.value = "registrationFrom"
        let builder = RequestBuilder(config: config, flow: CaptureFixtures.loaded.flow, localizer: CaptureFixtures.loaded.localizer(),
                                     locale: CaptureFixtures.locale, capture: CaptureFixtures.capture)
        do {
            _ = try builder.form(for: .register)
            Issue.record("no error")
        } catch {
            let diagnostic = try #require(error.diagnostic)
            #expect(diagnostic.code == .configNamesMissingForm)
            #expect(diagnostic.location == CaptureFixtures.config.captureTraditionalRegistrationFormName.location)
            #expect(diagnostic.location?.file.hasSuffix("jump.yaml") == true)
            #expect(diagnostic.hint == "did you mean 'registrationForm'?")
        }
    }

    @Test func refreshSecretsAreFortyHexCharactersAndDiffer() {
        let secrets = (0..<50).map { _ in RefreshSecret.generate().value }
        #expect(Set(secrets).count == 50)
        for secret in secrets {
            #expect(secret.count == 40)
            #expect(secret.allSatisfy { $0.isHexDigit })
        }
        #expect("\(RefreshSecret.generate())" == "RefreshSecret(********)", "a secret never prints itself")
    }
}

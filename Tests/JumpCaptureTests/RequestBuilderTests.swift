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
        let profile: FormValues = [
            "displayName": "ana_r", "firstName": "Ana", "lastName": "Ruiz", "gender": "female",
            "birthdate": "1990-04-01", "mobileNumber": "+48 600 100 200", "addressStreet": "ul. Długa 1",
            "addressCity": "Kraków", "addressPostalCode": "31-147", "addressCountry": "PL", "optIn": "false",
            "aboutMe": "Café & ü"
        ]
        return [
            (
                "signin",
                try b.signIn(["signInEmailAddress": "ana.ruiz@example.com", "currentPassword": "p@ss w0rd&="], refreshSecret: secret, today: day)
            ),
            // captureTraditionalSignInType: username (Fixtures/project).
            ("signin-username", try fixture.signIn(["username": "ana_r", "password": "p@ss w0rd"], refreshSecret: secret, today: day)),
            (
                "signin-merge",
                try b.signIn(
                    ["signInEmailAddress": "ana.ruiz@example.com", "currentPassword": "pw"], refreshSecret: secret, mergeToken: "engage-token-42",
                    today: day)
            ),
            ("social-signin", b.socialSignIn(token: "engage-token-1", refreshSecret: secret)),
            ("social-signin-merge", b.socialSignIn(token: "engage-token-2", refreshSecret: secret, mergeToken: "engage-token-1")),
            ("register", try b.register(CaptureFixtures.registration, refreshSecret: secret, today: day)),
            // A field whose schemaId is a map: sent as phone[home], phone[work].
            (
                "register-map-field",
                try fixture.register(
                    [
                        "email": "ana.ruiz@example.com", "username": "ana_r", "password": "pw",
                        "phone[home]": "+48 12 000 00 00", "phone[work]": "+48 22 111 11 11"
                    ],
                    refreshSecret: secret, today: day)
            ),
            (
                "social-register",
                try b.socialRegister(
                    ["emailAddress": "ana.ruiz@example.com", "displayName": "ana_r", "firstName": "Ana", "lastName": "Ruiz"],
                    token: "engage-token-1", refreshSecret: secret, today: day)
            ),
            ("forgot-password", try b.forgotPassword(["signInEmailAddress": "ana.ruiz@example.com"], today: day)),
            ("resend-verification", try b.resendVerification(["signInEmailAddress": "ana.ruiz@example.com"], today: day)),
            ("update-profile", try b.updateProfile(profile, accessToken: "access-1", today: day)),
            (
                "change-password",
                try b.changePassword(
                    ["currentPassword": "old pw", "newPassword": "new passphrase", "newPasswordConfirm": "new passphrase"],
                    accessToken: "access-1", today: day)
            ),
            ("refresh", b.refreshAccessToken(accessToken: "access-1", refreshSecret: secret, epochSeconds: CaptureFixtures.epoch)),
            ("link", b.linkAccount(accessToken: "access-1", token: "engage-token-3")),
            ("unlink", b.unlinkAccount(accessToken: "access-1", identifier: "https://www.google.com/profiles/123")),
            ("read-record", b.readRecord(accessToken: "access-1")),
            ("read-record-attribute", b.readRecord(accessToken: "access-1", attribute: "/primaryAddress")),
            ("entity-update", b.updateObject(accessToken: "access-1", attribute: "/primaryAddress", value: ["city": "Kraków", "zip": "31-147"])),
            ("entity-update-root", b.updateObject(accessToken: "access-1", attribute: nil, value: ["displayName": "ana"])),
            (
                "entity-replace",
                b.replacePlural(accessToken: "access-1", attribute: "/photos", value: [["type": "large", "value": "https://example.com/a.png"]])
            ),
            ("entity-delete", b.deleteAttribute(accessToken: "access-1", attribute: "/photos#2")),
            ("engage-config", engage.mobileConfiguration()),
            ("engage-token", engage.nativeTokenExchange(provider: "facebook", token: "fb-token")),
            ("engage-token-twitter", engage.nativeTokenExchange(provider: "twitter", token: "tw-token", tokenSecret: "tw-secret")),
            ("token-url", engage.tokenURLPost(tokenURL: ServerURL("https://example.com")!, path: "/token", token: "engage-token-1")),
            (
                "token-url-query",
                engage.tokenURLPost(
                    tokenURL: ServerURL("https://example.com/token")!, path: "?app=1", token: "engage-token-1",
                    placement: .query)
            ),
            ("revoke", b.revokeToken("access-1")),
            ("revoke-refresh-token", b.revokeToken("refresh-1", hint: "refresh_token")),
            ("share", engage.shareActivity(CaptureFixtures.activity, provider: "facebook", deviceToken: "device-token-1")),
            // LinkedIn posts an activity without a URL as a status (uses_set_status_if_no_url).
            ("share-as-status", engage.sharing(CaptureFixtures.activityWithoutURL, provider: "linkedin", deviceToken: "device-token-2")),
            ("set-status", engage.setStatus("Ça marche & 100% 🎉 https://example.com/a?b=c", provider: "twitter", deviceToken: "device-token-3")),
            ("shorten-urls", engage.shortenURLs(["https://example.com/welcome?a=1&b=2"])),
            ("engage-device", engage.deviceSignIn(token: "engage-token-1"))
        ]
    }

    @Test func everyOperationMatchesItsGoldenFile() throws {
        let requests = try Self.requests()
        let covered = Set(requests.map(\.1.operation))
        #expect(
            covered == Set(CaptureOperation.allCases), "operations without a golden request: \(Set(CaptureOperation.allCases).subtracting(covered))")
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
        for (name, request) in try Self.requests() where request.sendsParametersInURL {
            for parameter in request.parameters where parameter.isSecret {
                #expect(!request.target(maskingSecrets: true).contains(parameter.value), "\(name): \(parameter.name) leaks in the URL")
            }
        }
        #expect(shown.contains("currentPassword=p%40ss+w0rd%26%3D"))
    }

    @Test func providerStartURLsForEveryKind() throws {
        let engage = CaptureFixtures.engage
        var text = ""
        for provider in CaptureFixtures.loaded.flow.providers {
            for returnTo in [EngageReturn.tokenURL("https://example.com"), .device("android")] {
                text +=
                    engage.startURL(
                        for: provider, returnTo: returnTo, forceReauth: provider.id.value == "google",
                        installationID: "8a7c0d2e-1f3b-4c5d-9e6f-0a1b2c3d4e5f"
                    ).url + "\n"
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
            #expect(
                failure.messages == [
                    FieldMessages(field: "emailAddress", messages: ["Enter a valid email address, such as name@example.com."]),
                    FieldMessages(field: "newPasswordConfirm", messages: ["The passwords do not match."])
                ])
        }
    }

    /// A form the flow has but the interpreter cannot build is reported with the
    /// interpreter's error when a call sends it, not as missing; the other calls still work.
    @Test func aFormThatCannotBeBuiltSaysWhyWhenUsed() throws {
        var flow = CaptureFixtures.loaded.flow
        let index = try #require(flow.forms.firstIndex { $0.name == "signInForm" })
        let here = SourceLocation(file: "flow.yaml", line: 7, column: 5)
        flow.forms[index].fields.append(Located("noSuchField", at: here))
        let builder = RequestBuilder(
            config: CaptureFixtures.config, flow: flow, localizer: CaptureFixtures.loaded.localizer(), locale: CaptureFixtures.locale,
            capture: CaptureFixtures.capture)
        do {
            _ = try builder.signIn(
                ["signInEmailAddress": "ana@example.com", "currentPassword": "pw"], refreshSecret: CaptureFixtures.secret,
                today: CaptureFixtures.today)
            Issue.record("a form that cannot be built sent a request")
        } catch {
            guard case let .formNotBuilt(operation, form, reason) = error else { Issue.record("\(error)"); return }
            #expect(operation == .signIn)
            #expect(form.value == "signInForm")
            #expect(reason == .undefinedField(form: "signInForm", field: Located("noSuchField", at: here)))
            #expect(error.description.hasPrefix("signin sends form 'signInForm', which cannot be built: "), "\(error)")
            #expect(error.description.contains("noSuchField"), "\(error)")
            #expect(!error.description.contains("does not have"))
        }
        // The other forms build.
        #expect(throws: Never.self) {
            try builder.register(CaptureFixtures.registration, refreshSecret: CaptureFixtures.secret, today: CaptureFixtures.today)
        }
    }

    /// Zero-padded parts: JRCaptureUser+Extras.m:196-201 (the stored yyyy-MM-dd split at `-`),
    /// CaptureFlowUtils.java:185-190 (`%04d`, `%02d`, `%02d`).
    @Test func dateselectSplitsZeroPaddedAndCheckboxesAreJSON() throws {
        let request = try CaptureFixtures.builder().register(
            CaptureFixtures.registration, refreshSecret: CaptureFixtures.secret, today: CaptureFixtures.today)
        #expect(request.parameter("birthdate[dateselect_year]") == "1990")
        #expect(request.parameter("birthdate[dateselect_month]") == "04")
        #expect(request.parameter("birthdate[dateselect_day]") == "01")
        #expect(
            request.encodedParameters().contains("&birthdate[dateselect_year]=1990&birthdate[dateselect_month]=04&birthdate[dateselect_day]=01&"),
            "names raw, as ApiConnection.java:74 and NSDictionary+JRQueryParams.m write them")
        #expect(request.parameter("birthdate") == nil)
        #expect(request.parameter("optIn") == "true")
        #expect(request.parameter("flow_version") == "2024-01-15.1")
        #expect(request.parameter("emailAddress") == "ana.ruiz@example.com")
        #expect(request.parameter("email") == nil, "field names, not schema paths")
    }

    /// An unset attribute is not sent (JRCaptureUser+Extras.m:180-187 sets a key only for a
    /// value; CaptureFlowUtils.java:159-166 likewise); `false` is a value, sent as `false`
    /// (JRCaptureUser+Extras.m:242-258 writes it as JSON text; Android `Boolean.toString`,
    /// CaptureJsonUtils.java:277). An empty date sends no parts (JRCaptureUser+Extras.m:197-198).
    @Test func anUnsetCheckboxOrDateIsNotSentAFalseCheckboxIs() throws {
        let builder = CaptureFixtures.builder()
        var values = CaptureFixtures.registration
        values["optIn"] = nil
        values["birthdate"] = nil
        let unset = try builder.register(values, refreshSecret: CaptureFixtures.secret, today: CaptureFixtures.today)
        #expect(unset.parameter("optIn") == nil)
        #expect(!unset.parameters.contains { $0.name.hasPrefix("birthdate") })
        values["optIn"] = ""
        #expect(
            try builder.register(values, refreshSecret: CaptureFixtures.secret, today: CaptureFixtures.today).parameter("optIn") == nil,
            "a cleared checkbox is unset")
        values["optIn"] = "false"
        let unchecked = try builder.register(values, refreshSecret: CaptureFixtures.secret, today: CaptureFixtures.today)
        #expect(unchecked.parameter("optIn") == "false")
        let profile = try builder.updateProfile(
            ["displayName": "ana_r", "firstName": "Ana", "lastName": "Ruiz", "birthdate": ""],
            accessToken: "a", today: CaptureFixtures.today)
        #expect(!profile.parameters.contains { $0.name.hasPrefix("birthdate") || $0.name == "optIn" }, "\(profile.parameters.map(\.name))")
    }

    /// Each call's parameter names, as both SDKs send them (the sets; their order is a hash's in
    /// both SDKs, jump-forms keeps one). Entity calls carry no `client_id`; unlink and refresh
    /// their own sets.
    @Test func everyCaptureCallSendsTheSDKsParameterSet() throws {
        let common: Set = ["client_id", "locale", "flow", "flow_version", "redirect_uri", "response_type"]
        let requests = Dictionary(uniqueKeysWithValues: try Self.requests().map { ($0.0, $0.1) })
        func names(_ name: String) throws -> Set<String> { Set(try #require(requests[name]).parameters.map(\.name)) }
        // JRCaptureApidInterface.m:577-589, Capture.java:75-90
        #expect(try names("signin") == common.union(["form", "refresh_secret", "signInEmailAddress", "currentPassword"]))
        #expect(try names("signin-merge") == common.union(["form", "refresh_secret", "signInEmailAddress", "currentPassword", "merge_token"]))
        // Capture.java:166-178, JRCaptureData.m:187-210
        #expect(try names("social-signin") == common.union(["token", "thin_registration", "registration_form", "refresh_secret"]))
        #expect(
            try names("social-signin-merge") == common.union(["token", "thin_registration", "registration_form", "refresh_secret", "merge_token"]))
        // JRCapture.m:779-795, Capture.java:218-238
        #expect(
            try names("register")
                == common.union([
                    "form", "refresh_secret", "emailAddress", "displayName", "firstName", "lastName",
                    "newPassword", "newPasswordConfirm", "birthdate[dateselect_year]",
                    "birthdate[dateselect_month]", "birthdate[dateselect_day]", "optIn"
                ]))
        #expect(
            try names("social-register") == common.union(["form", "refresh_secret", "token", "emailAddress", "displayName", "firstName", "lastName"]))
        // JRCapture.m:573-582, JRCaptureUIRequestBuilder.m (standardParameters); Capture.java:250-261, 299-308
        #expect(try names("forgot-password") == common.union(["form", "signInEmailAddress"]))
        #expect(try names("resend-verification") == common.union(["form", "signInEmailAddress"]))
        // JRCapture.m:880-893, Capture.java:362-371: no redirect_uri, no response_type
        #expect(
            try names("update-profile").intersection(common.union(["form", "access_token"]))
                == ["client_id", "locale", "flow", "flow_version", "form", "access_token"])
        // JRCapture.m:509-518
        #expect(try names("refresh") == ["access_token", "signature", "date", "client_id", "locale", "flow", "flow_version"])
        // JRCapture.m:1032-1041, Capture.java:608-617
        #expect(try names("link") == common.union(["access_token", "token"]))
        // JRCapture.m:1085-1092, Capture.java:635-642
        #expect(try names("unlink") == ["client_id", "locale", "identifier_to_remove", "access_token", "flow", "flow_version"])
        // JRCaptureApidInterface.m:217-227, Capture.java:652-657, ApidUpdate.java:54-65, ApidReplace.java
        #expect(try names("read-record") == ["access_token"])
        #expect(try names("read-record-attribute") == ["access_token", "attribute_name"])
        #expect(try names("entity-update") == ["access_token", "attribute_name", "value"])
        #expect(try names("entity-update-root") == ["access_token", "value"])
        #expect(try names("entity-replace") == ["access_token", "attribute_name", "value"])
    }

    /// Refresh: iOS's parameters in iOS's order, `flow` and `flow_version` always (JRCapture.m:509-518).
    @Test func refreshSendsIOSParametersInIOSOrder() {
        let request = CaptureFixtures.builder(flowVersion: "2024-02-01.3")
            .refreshAccessToken(accessToken: "access-1", refreshSecret: CaptureFixtures.secret, epochSeconds: CaptureFixtures.epoch)
        #expect(request.parameters.map(\.name) == ["access_token", "signature", "date", "client_id", "locale", "flow", "flow_version"])
        #expect(request.parameter("flow") == "standard")
        #expect(request.parameter("flow_version") == "2024-02-01.3")
    }

    /// Unlink: the SDKs' set in their order, no `redirect_uri`/`response_type` (JRCapture.m:1085-1092,
    /// Capture.java:635-642).
    @Test func unlinkSendsTheSDKsParameters() {
        let request = CaptureFixtures.builder().unlinkAccount(accessToken: "access-1", identifier: "https://www.google.com/profiles/123")
        #expect(request.parameters.map(\.name) == ["client_id", "locale", "identifier_to_remove", "access_token", "flow", "flow_version"])
    }

    /// Forgot-password and resend ask for `token` whatever the app takes (JRCapture.m:576,
    /// JRCaptureUIRequestBuilder.m `standardParameters`, Capture.java:302); so does link on iOS
    /// (JRCapture.m:1035). Sign-in and registration ask for `code_and_token` when configured
    /// (JRCaptureData.m:487-493, Jump.java:308-315).
    @Test func responseTypeFollowsTheCall() throws {
        var config = CaptureFixtures.config
        config.responseType = Located("code_and_token", at: config.responseType.location)
        let builder = RequestBuilder(
            config: config, flow: CaptureFixtures.loaded.flow, localizer: CaptureFixtures.loaded.localizer(),
            locale: CaptureFixtures.locale, capture: CaptureFixtures.capture)
        let day = CaptureFixtures.today
        #expect(try builder.forgotPassword(["signInEmailAddress": "ana@example.com"], today: day).parameter("response_type") == "token")
        #expect(try builder.resendVerification(["signInEmailAddress": "ana@example.com"], today: day).parameter("response_type") == "token")
        #expect(builder.linkAccount(accessToken: "a", token: "t").parameter("response_type") == "token")
        #expect(
            try builder.signIn(
                ["signInEmailAddress": "ana@example.com", "currentPassword": "pw"], refreshSecret: CaptureFixtures.secret,
                today: day
            ).parameter("response_type") == "code_and_token")
        #expect(builder.socialSignIn(token: "t", refreshSecret: CaptureFixtures.secret).parameter("response_type") == "code_and_token")
        #expect(
            try builder.register(CaptureFixtures.registration, refreshSecret: CaptureFixtures.secret, today: day)
                .parameter("response_type") == "code_and_token")
    }

    /// Without `redirectUri`, the Capture base URL (JRCaptureData.m:244-248); the SDKs always
    /// send one. A request built before the embedded server ran takes its URL when resolved.
    @Test func redirectUriDefaultsToTheCaptureURL() throws {
        var config = CaptureFixtures.config
        config.redirectUri = nil
        let builder = RequestBuilder(
            config: config, flow: CaptureFixtures.loaded.flow, localizer: CaptureFixtures.loaded.localizer(),
            locale: CaptureFixtures.locale, capture: .embeddedPlaceholder)
        let request = builder.linkAccount(accessToken: "a", token: "t")
        #expect(request.parameter("redirect_uri") == "http://127.0.0.1:<embedded port>")
        let running = ServerURL("http://127.0.0.1:41219")!
        let resolved = request.resolved(server: running, flowVersion: "2024-02-01.3")
        #expect(resolved.url == "http://127.0.0.1:41219/oauth/link_account_native")
        #expect(resolved.parameter("redirect_uri") == "http://127.0.0.1:41219")
        #expect(resolved.parameter("flow_version") == "2024-02-01.3")
        // A configured redirect URI stays, and a request without flow_version gets none.
        let configured = CaptureFixtures.builder().linkAccount(accessToken: "a", token: "t").resolved(server: running)
        #expect(configured.parameter("redirect_uri") == "https://example.com/cb")
        #expect(CaptureFixtures.builder().readRecord(accessToken: "a").resolved(server: running, flowVersion: "x").parameter("flow_version") == nil)
    }

    /// `flow_version` is the version the builder is given (the downloaded flow document's), in
    /// every call that sends one.
    @Test func theGivenFlowVersionIsSentEverywhere() throws {
        let builder = CaptureFixtures.builder(flowVersion: "2024-02-01.3")
        #expect(builder.flowVersion == "2024-02-01.3")
        #expect(CaptureFixtures.builder().flowVersion == "2024-01-15.1", "the flow's own by default")
        let day = CaptureFixtures.today
        let requests = [
            try builder.signIn(["signInEmailAddress": "ana@example.com", "currentPassword": "pw"], refreshSecret: CaptureFixtures.secret, today: day),
            builder.socialSignIn(token: "t", refreshSecret: CaptureFixtures.secret),
            try builder.register(CaptureFixtures.registration, refreshSecret: CaptureFixtures.secret, today: day),
            try builder.forgotPassword(["signInEmailAddress": "ana@example.com"], today: day),
            try builder.updateProfile(["displayName": "ana_r", "firstName": "Ana", "lastName": "Ruiz"], accessToken: "a", today: day),
            builder.refreshAccessToken(accessToken: "a", refreshSecret: CaptureFixtures.secret),
            builder.linkAccount(accessToken: "a", token: "t"),
            builder.unlinkAccount(accessToken: "a", identifier: "i")
        ]
        for request in requests { #expect(request.parameter("flow_version") == "2024-02-01.3", "\(request.operation)") }
    }

    /// The token-URL post in both SDKs' forms: Android `token=` in the body
    /// (JRSession.java:1169-1178), iOS `&token=` appended to the URL with an empty body and no
    /// Content-Type (JRSessionData.m:1538-1544); `?token=` when the URL has no query.
    @Test func tokenURLPostInBothForms() throws {
        let engage = CaptureFixtures.engage
        let url = ServerURL("https://app.example.com/auth/token")!
        let body = engage.tokenURLPost(tokenURL: url, token: "engage-token-1")
        #expect(body.url == "https://app.example.com/auth/token")
        #expect(String(decoding: body.body, as: UTF8.self) == "token=engage-token-1")
        #expect(body.head.headerFields[.contentType] == "application/x-www-form-urlencoded; charset=utf-8")

        let query = engage.tokenURLPost(tokenURL: url, token: "engage-token-1", placement: .query)
        #expect(query.method == .post)
        #expect(query.url == "https://app.example.com/auth/token?token=engage-token-1")
        #expect(query.body.isEmpty)
        #expect(query.head.headerFields[.contentType] == nil)
        #expect(query.head.headerFields[.contentLength] == "0")
        let withQuery = engage.tokenURLPost(tokenURL: url, path: "?app=1", token: "engage-token-1", placement: .query)
        #expect(withQuery.url == "https://app.example.com/auth/token?app=1&token=engage-token-1")
        let bare = engage.tokenURLPost(tokenURL: ServerURL("https://app.example.com")!, token: "t", placement: .query)
        #expect(bare.target() == "/?token=t")

        // Masked in every printout, the URL included.
        let printed = RequestPrinter.http(withQuery) + RequestPrinter.curl(withQuery) + RequestPrinter.json(withQuery).serialized()
        #expect(!printed.contains("engage-token-1"))
        #expect(RequestPrinter.http(withQuery).hasPrefix("POST /auth/token?app=1&token=******** HTTP/1.1\n"))
        #expect(RequestPrinter.http(withQuery).contains("\nContent-Length: 0\n"))
    }

    @Test func aPlainValueForAMapFieldIsRefusedNamingItsParts() {
        let values: FormValues = ["email": "ana.ruiz@example.com", "username": "ana_r", "password": "pw", "phone": "+48 12 000 00 00"]
        do {
            let request = try CaptureFixtures.fixtureBuilder().register(values, refreshSecret: CaptureFixtures.secret, today: CaptureFixtures.today)
            Issue.record("a plain value for a map field was sent: \(RequestPrinter.http(request))")
        } catch {
            #expect(error == .plainValueForMapField(form: "registrationForm", field: "phone", subKeys: ["home", "work"]))
            #expect(
                error.description
                    == "field 'phone' of form 'registrationForm' has a schemaId map: give its parts phone[home], phone[work], not a plain value")
        }
    }

    @Test func usernameSignInSendsTheUsernameField() throws {
        #expect(CaptureFixtures.fixtureProject.config?.captureTraditionalSignInType.value == .username)
        let request = try CaptureFixtures.fixtureBuilder().signIn(
            ["username": "ana_r", "password": "pw"], refreshSecret: CaptureFixtures.secret,
            today: CaptureFixtures.today)
        #expect(request.parameter("username") == "ana_r")
        #expect(request.parameters.first { $0.name == "password" }?.isSecret == true)
    }

    @Test func aFormMissingFromTheFlowIsLocatedInJumpYaml() throws {
        var config = CaptureFixtures.config
        config.captureTraditionalRegistrationFormName.value = "registrationFrom"
        let builder = RequestBuilder(
            config: config, flow: CaptureFixtures.loaded.flow, localizer: CaptureFixtures.loaded.localizer(),
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

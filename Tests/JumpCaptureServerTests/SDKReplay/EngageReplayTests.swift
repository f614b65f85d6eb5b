import Foundation
import JumpForms
import Testing
import TestSupport

/// The Engage double as each SDK calls it: the mobile configuration, provider dialogs (start
/// URLs and how the SDK sees their end), native token exchange, and the token-URL post of an
/// Engage-only app. docs/sdk-calls.md, "Engage".
@Suite(.replayServer(.plain), .timeLimit(.minutes(5)))
struct EngageReplayTests {
    // MARK: Mobile configuration

    @Test("iOS JRSessionData.m:730-771 mobile configuration: baseurl, provider_info, requires_input a string (JRSessionData.m:357)")
    func iOSMobileConfiguration() async throws {
        let server = try ReplayServer.get()
        let answer = try await server.send(server.iOS.mobileConfiguration())
        let read = answer.read()
        // JRSessionData.m:908-920: a dictionary with `baseurl` and `provider_info`.
        let config = try read.object()
        let base = try read.string("baseurl", in: config, "JRSessionData.m:847")
        #expect(base.trimmingCharacters(in: CharacterSet(charactersIn: "/")) == server.url, "baseurl \(base) is not this server")
        let providers = try read.object("provider_info", in: config, "JRSessionData.m:855-868")
        for (name, provider) in providers.objectValue ?? [] {
            // JRProvider initWithName:andDictionary: (JRSessionData.m:331-384).
            #expect(provider.objectValue != nil, "provider_info.\(name) is not a dictionary")
            #expect(provider["friendly_name"]?.stringValue != nil, "provider_info.\(name).friendly_name: a string (JRSessionData.m:341)")
            #expect(provider["url"]?.stringValue?.hasPrefix("/") == true, "provider_info.\(name).url: a start path (JRSessionData.m:344, 1135)")
            // `[[dictionary objectForKey:@"requires_input"] isEqualToString:@"YES"]`: a JSON boolean is an
            // NSNumber, which has no isEqualToString: the SDK crashes.
            if let requiresInput = provider["requires_input"] {
                #expect(
                    requiresInput.stringValue != nil,
                    """
                    provider_info.\(name).requires_input is \(requiresInput): iOS 5.5 compares it with the string \"YES\" (JRSessionData.m:357) and \
                    crashes on anything else
                    """
                )
                if requiresInput == .string("YES") {
                    // JRSessionData.m:362-368 keeps the prompt's last two words.
                    let words = provider["input_prompt"]?.stringValue?.split(separator: " ").count ?? 0
                    #expect(words >= 2, "provider_info.\(name).input_prompt needs two words or more (JRSessionData.m:365)")
                }
            }
            for key in ["openid_identifier", "input_prompt", "saml_provider", "opx_blob"] {
                if let value = provider[key] { #expect(value.stringValue != nil, "provider_info.\(name).\(key) must be a string, got \(value)") }
            }
            if let domains = provider["cookie_domains"] { #expect(domains.arrayValue != nil, "provider_info.\(name).cookie_domains: an array") }
        }
        // JRSessionData.m:875-877 and 1014-1027: lists of provider names, each configured.
        for key in ["enabled_providers", "social_providers"] {
            let list = config[key]?.arrayValue
            #expect(list != nil, "\(key): an array (JRSessionData.m:876-877)")
            for name in list ?? [] {
                #expect(name.stringValue.flatMap { providers[$0] } != nil, "\(key) names \(name), which provider_info lacks")
            }
        }
        if let tagline = config["hide_tagline"] {
            #expect(tagline.stringValue != nil, "hide_tagline is compared with the string \"YES\" (JRSessionData.m:884): got \(tagline)")
        }
    }

    @Test("Android JRSession.java:810-832 mobile configuration: ETag, then 304 to If-None-Match (JRSession.java:768-772)")
    func androidMobileConfigurationWithETag() async throws {
        let server = try ReplayServer.get()
        let android = server.android
        // The first run sends an empty If-None-Match (JRSession.java:679, 825).
        let first = try await server.send(android.mobileConfiguration(etag: ""))
        let read = first.read()
        #expect(first.status == 200, "\(first)")
        let config = try JSONValue.parse(first.body)
        // finishGetConfiguration (JRSession.java:834-878).
        #expect(config["baseurl"]?.stringValue?.trimmingCharacters(in: CharacterSet(charactersIn: "/")) == server.url, "baseurl: \(first)")
        let providers = try read.object("provider_info", in: config, "JRSession.java:850")
        for (name, provider) in providers.objectValue ?? [] {
            // JRProvider.java:196-217; requires_input through JRDictionary.getAsBoolean: a boolean or a "YES"/"NO" string.
            if let requiresInput = provider["requires_input"] {
                #expect(requiresInput.boolValue != nil || requiresInput.stringValue != nil, "provider_info.\(name).requires_input: \(requiresInput)")
            }
            #expect(provider["url"]?.stringValue != nil, "provider_info.\(name).url (JRProvider.java:203)")
        }
        guard let etag = first.headers.first(name: "etag") else {
            Issue.record("the configuration has no ETag, which JRSession.java:775 keeps for If-None-Match: \(first)")
            return
        }
        let second = try await server.send(android.mobileConfiguration(etag: etag))
        #expect(second.status == 304, "If-None-Match: \(etag) should answer 304 (JRSession.java:768-772): \(second)")
    }

    // MARK: Start URLs

    @Test("iOS JRSessionData.m:1103-1142 custom OpenID start URL without openid_identifier starts corp_openid")
    func iOSCustomOpenIDStart() async throws {
        let server = try ReplayServer.get()
        let iOS = server.iOS
        let location = try await Dialog.run(
            iOS.startURL(providerPath: "/openid/start"), on: server.url, identity: "https://id.example.com/openid/u/lea.martin")
        // The web view stops at `<whitelisted domain>/?token=` (JRWebViewController.m:509-515).
        #expect(location.hasPrefix(iOS.dialogEndPrefix), "the dialog should end at \(iOS.dialogEndPrefix)...: \(location)")
        let token = try #require(SDKWire.query(location)["token"], "no token in \(location)")
        let profile = try await Check.authInfo(server.url, token: token)
        #expect(profile["identifier"] == .string("https://id.example.com/openid/u/lea.martin"), "\(profile)")
    }

    @Test("iOS JRSessionData.m:1103-1142 custom SAML start URL without saml_provider starts corp_saml")
    func iOSCustomSAMLStart() async throws {
        let server = try ReplayServer.get()
        let iOS = server.iOS
        let location = try await Dialog.run(
            iOS.startURL(providerPath: "/saml2/sso/start"), on: server.url, identity: "saml:example_saml_implementation:E204518")
        #expect(location.hasPrefix(iOS.dialogEndPrefix), "the dialog should end at \(iOS.dialogEndPrefix)...: \(location)")
        let token = try #require(SDKWire.query(location)["token"], "no token in \(location)")
        let profile = try await Check.authInfo(server.url, token: token)
        #expect(profile["identifier"] == .string("saml:example_saml_implementation:E204518"), "\(profile)")
    }

    @Test(
        """
        Android JRSession.java:921-987 custom OpenID start URL (device=android) ends at /signin/device; auth_info=true answers rpx_result \
        (JRWebViewFragment.java:690-718)
        """
    )
    func androidCustomOpenIDDeviceDialog() async throws {
        let server = try ReplayServer.get()
        let android = server.android
        let start = android.startURL(providerPath: "/openid/start", openIDIdentifier: "https://id.example.com/openid", opxBlob: "some_blob")
        let location = try await Dialog.run(start, on: server.url, identity: "https://id.example.com/openid/u/lea.martin")
        // isMobileEndpointUrl (JRWebViewFragment.java:353-357), then the same URL with `&auth_info=true`.
        #expect(location.hasPrefix(android.mobileEndpointPrefix), "token_profile dialogs end at \(android.mobileEndpointPrefix): \(location)")
        guard location.hasPrefix(android.mobileEndpointPrefix) else { return }
        let answer = try await server.send(android.mobileEndpoint(location))
        let rpx = try Self.readRPXResult(answer)
        #expect(rpx["auth_info"]?["profile"]?["identifier"] == .string("https://id.example.com/openid/u/lea.martin"), "\(answer)")
    }

    /// `rpx_result` as JRWebViewFragment.java:690-718 and JRSession.java:1181-1197 read it:
    /// `stat` "ok", `token` a string, `auth_info` a dictionary which, when not empty, has a
    /// `profile` with an `identifier` (JRAuthenticatedUser.java:83-93).
    static func readRPXResult(_ answer: SDKAnswer, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> JSONValue {
        let read = answer.read(sourceLocation: sourceLocation)
        guard let json = answer.json else { throw read.fail("parses the mobile endpoint's answer as JSON (JRWebViewFragment.java:695)") }
        let rpx = try read.object("rpx_result", in: json, "JRWebViewFragment.java:709")
        guard rpx["stat"] == .string("ok") else { throw read.fail("needs rpx_result.stat \"ok\" (JRWebViewFragment.java:711-712)") }
        _ = try read.string("token", in: rpx, "JRSession.java:1192")
        let authInfo = try read.object("auth_info", in: rpx, "JRSession.java:1183, 1193")
        if authInfo.objectValue?.isEmpty == false {
            let profile = try read.object("profile", in: authInfo, "JRAuthenticatedUser.java:86")
            _ = try read.string("identifier", in: profile, "JRAuthenticatedUser.java:86-87")
        }
        return rpx
    }

    @Test("Android JRSession.java:949-951 engageResponseType token: token_url=<encoded whitelisted domain>, the dialog ends there with a token")
    func androidTokenResponseType() async throws {
        let server = try ReplayServer.get()
        var android = server.android
        android.engageResponseType = "token"
        let location = try await Dialog.run(
            android.startURL(providerPath: "/saml2/sso/start", samlProvider: "example_saml_implementation"),
            on: server.url, identity: "saml:example_saml_implementation:E204518")
        // isTokenUrl (JRWebViewFragment.java:359-371): the URL starts with the whitelisted domain;
        // the token is its `token` query parameter (JRWebViewFragment.java:529-536).
        #expect(location.hasPrefix(android.whitelistedDomain), "\(location)")
        #expect(SDKWire.query(location)["token"]?.isEmpty == false, "no token in \(location)")
    }

    // MARK: Native token exchange

    @Test("iOS JREngage.m:276-340 native token exchange: ?providername=, token and provider in a body without Content-Type")
    func iOSNativeTokenExchange() async throws {
        let server = try ReplayServer.get()
        let answer = try await server.send(server.iOS.nativeTokenExchange(provider: "google", token: "google-native-marta"))
        let token = try Self.readNativeToken(answer)
        #expect(try await Check.authInfo(server.url, token: token)["email"] == .string("marta.keller@example.com"))
    }

    @Test("iOS JREngage.m:293-295 Sign in with Apple: id_token and provider in the query, token and provider in the body")
    func iOSSignInWithApple() async throws {
        let server = try ReplayServer.get()
        let person = ReplayIdentities.iosApple
        let answer = try await server.send(server.iOS.nativeTokenExchange(provider: "apple", token: person.nativeToken))
        let token = try Self.readNativeToken(answer)
        #expect(try await Check.authInfo(server.url, token: token)["identifier"] == .string(person.identifier))
    }

    @Test("iOS JREngage.m:300-303 Twitter adds token_secret")
    func iOSTwitterTokenSecret() async throws {
        let server = try ReplayServer.get()
        let answer = try await server.send(
            server.iOS.nativeTokenExchange(provider: "twitter", token: "twitter-native-jun", tokenSecret: "jun-secret"))
        let token = try Self.readNativeToken(answer)
        #expect(try await Check.authInfo(server.url, token: token)["identifier"] == .string("http://twitter.com/account/profile?user_id=1432567890"))
    }

    @Test("Android JREngage.java:907-966 native token exchange")
    func androidNativeTokenExchange() async throws {
        let server = try ReplayServer.get()
        let answer = try await server.send(server.android.nativeTokenExchange(provider: "facebook", token: "facebook-native-tomasz"))
        let token = try Self.readNativeToken(answer)
        #expect(try await Check.authInfo(server.url, token: token)["email"] == .string("tomasz.nowak@example.net"))
    }

    @Test("Android JREngage.java:851-904 server auth code exchange: code, provider, redirect_uri, application_id")
    func androidServerAuthCode() async throws {
        let server = try ReplayServer.get()
        let person = ReplayIdentities.androidServerCode
        let answer = try await server.send(server.android.serverAuthCodeExchange(provider: "google", code: person.nativeToken))
        let token = try Self.readNativeToken(answer)
        #expect(try await Check.authInfo(server.url, token: token)["identifier"] == .string(person.identifier))
    }

    /// The exchange's answer: `stat` "ok" and `token` a string (JREngage.m:312-314;
    /// JREngage.java:863-884, 919-940, where it is parsed only as application/json).
    static func readNativeToken(_ answer: SDKAnswer, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> String {
        let read = answer.read(sourceLocation: sourceLocation)
        let json = try read.ok()
        return try read.string("token", in: json, answer.request.sdk == .iOS ? "JREngage.m:314" : "JREngage.java:878, 934")
    }

    // MARK: Token URL

    @Test("iOS JRSessionData.m:1538-1544 token URL post: the token appended to the URL, an empty body; the app's server redeems it with auth_info")
    func iOSTokenURLPost() async throws {
        let server = try ReplayServer.get()
        let person = ReplayIdentities.iosTokenURL
        let token = try Self.readNativeToken(try await server.send(server.iOS.nativeTokenExchange(provider: "facebook", token: person.nativeToken)))
        let app = try LoopbackServer { _ in .init(body: #"{"stat":"ok"}"#) }
        defer { app.stop() }
        // An Engage-only app's token URL; iOS appends `&token=`, so it is given with a query.
        let post = server.iOS.callTokenURL("/engage/token?app=replay", token: token, source: "JRSessionData.m:1538-1544")
        _ = try await SDKWire.send(post, to: app.url)
        let received = try #require(app.requests.first)
        #expect(received.method == "POST" && received.body.isEmpty && received.target == "/engage/token?app=replay&token=" + token, "\(received)")
        // The app's server reads the token where iOS put it, and asks Engage.
        let profile = try await Check.authInfo(server.url, token: SDKWire.query(received.target)["token"] ?? "")
        #expect(profile["identifier"] == .string(person.identifier), "\(profile)")
    }

    @Test("Android JRSession.java:1169-1179 token URL post: token= in the body; the app's server redeems it with auth_info")
    func androidTokenURLPost() async throws {
        let server = try ReplayServer.get()
        let person = ReplayIdentities.androidTokenURL
        let token = try Self.readNativeToken(
            try await server.send(server.android.nativeTokenExchange(provider: "facebook", token: person.nativeToken)))
        let app = try LoopbackServer { _ in .init(body: #"{"stat":"ok"}"#) }
        defer { app.stop() }
        _ = try await SDKWire.send(server.android.callTokenURL(path: "/engage/token", token: token), to: app.url)
        let received = try #require(app.requests.first)
        #expect(received.target == "/engage/token" && received.body == "token=" + token, "\(received)")
        #expect(received.headers["content-type"] == "application/x-www-form-urlencoded", "\(received.headers)")
        let profile = try await Check.authInfo(server.url, token: String(received.body.dropFirst("token=".count)))
        #expect(profile["identifier"] == .string(person.identifier), "\(profile)")
    }
}

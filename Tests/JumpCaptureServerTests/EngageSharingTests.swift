import Foundation
import JumpCapture
import JumpCaptureServer
import JumpForms
import Testing
import CLITestSupport
import TestSupport

/// Engage sharing end to end over real HTTP: the device sign-in's `device_token`, kept sealed in
/// the session; `CaptureClient.share` and `setStatus` against the Engage double; its refusals
/// in Engage's shape; the SDKs' own sharing bodies, byte for byte; the feed; short URLs.
@Suite(.timeLimit(.minutes(5))) struct EngageSharingTests {
    static let linkedIn = TestIdentity(
        provider: "linkedin", identifier: "linkedin:5005", email: "ewa.lis@example.com", verifiedEmail: true, givenName: "Ewa",
        familyName: "Lis", displayName: "ewa_lis", location: ServerFixtures.here)
    static var identities: [TestIdentity] { ServerFixtures.identities + [linkedIn] }

    /// The test flow with LinkedIn (a provider that posts an activity without a URL as a status).
    static var flow: Flow {
        var flow = ServerFixtures.flow
        flow.providers.append(ProviderDefinition(id: Located("linkedin", at: ServerFixtures.here), kind: .builtIn, location: ServerFixtures.here))
        return flow
    }

    static let activity = SharedActivity(
        action: "joined Example", url: "https://example.com/welcome", userGeneratedContent: "Ça marche 🎉", title: "Welcome",
        description: "Hello & welcome", actionLinks: [.init(text: "Open", href: "https://example.com/app")],
        media: [.image(src: "https://example.com/a.png", href: "https://example.com/")])

    static func json(_ text: String) throws -> JSONValue { try JSONValue.parse(text) }

    /// How a client call failed (nil: it did not).
    static func failure(_ body: () async throws -> Void) async -> CaptureClientError? {
        do {
            try await body()
            return nil
        } catch {
            return error as? CaptureClientError
        }
    }

    /// The Engage refusal a client call ended with (nil: it did not end with one).
    static func engageError(_ body: () async throws -> Void) async -> EngageError? {
        if case .refused(.engage(let error))? = await failure(body) { return error }
        return nil
    }

    /// The Engage token of a provider's dialog (as a browser walks it: start, then the redirect).
    static func engageToken(_ server: TestServer, _ provider: String, identity: String? = nil) async throws -> String {
        let chosen = identity.map { "&identity=" + FormEncoding.encodeComponent($0) } ?? ""
        let start = try await server.raw(.GET, "/\(provider)/start?token_url=https://example.com/token" + chosen)
        #expect(start.status == 302, "\(provider): \(start.body)")
        return try #require(TestServer.query(start.headers.first(name: "location") ?? "")["token"])
    }

    /// A device token from the device sign-in's `rpx_result`, as the SDKs read it.
    static func deviceToken(_ server: TestServer, _ provider: String, identity: String? = nil) async throws -> String {
        let token = try await engageToken(server, provider, identity: identity)
        let answer = try json(try await server.raw(.GET, "/signin/device?token=\(token)&auth_info=true").body)
        return try #require(answer.at("rpx_result.device_token")?.stringValue)
    }

    /// A signed-in client of `server` (a registered account) keeping its session in `store`.
    static func signedInClient(_ server: TestServer, store: any SessionStore = CodableSessionStore()) async throws -> CaptureClient {
        let client = try server.client(store: store)
        _ = try await client.register(ServerFixtures.registration())
        return client
    }

    // MARK: the client

    /// The device sign-in keeps the device token in the session (sealed in the session file,
    /// never in clear), `share` posts with it, the feed keeps what was posted, and the
    /// activity's URL gets a short URL that redirects to it.
    @Test func aClientSharesAnActivityWithTheDeviceTokenOfItsSession() async throws {
        try await withEngageServer(flow: Self.flow, identities: Self.identities) { server in
            let folder = try TemporaryFolder("jump-sharing-session")
            defer { folder.remove() }
            let store = FileSessionStore(name: "client", environment: ["HOME": folder.path])
            let client = try await Self.signedInClient(server, store: store)
            let token = try await Self.engageToken(server, "twitter")
            let signIn = try await client.engageDeviceSignIn(engageToken: token, provider: "twitter")
            #expect(signIn.identifier == "twitter:4004")
            #expect(!"\(signIn)".contains(signIn.deviceToken) && !"\(signIn)".contains(token))
            #expect(try await client.deviceToken(for: "twitter") == signIn.deviceToken)
            // Sealed with the session: the file never holds it in clear; read back, it is there.
            let sealed = try #require(FileManager.default.contents(atPath: store.path))
            #expect(sealed.range(of: Data(signIn.deviceToken.utf8)) == nil)
            #expect(try store.load()?.deviceTokens["twitter"] == signIn.deviceToken)
            #expect(try #require(try store.load()).description.contains("twitter: ********"))

            let post = try await client.share(Self.activity, provider: "twitter")
            #expect(post.operation == .shareActivity)
            #expect(post.answer == ["stat": "ok"])
            let feed = try await server.server.feed()
            #expect(feed.count == 1)
            let entry = try #require(feed.first)
            #expect(entry.kind == "activity" && entry.provider == "twitter" && entry.identifier == "twitter:4004")
            #expect(entry.posted == Self.activity.json.serialized())
            #expect(entry.text == "Ça marche 🎉 https://example.com/welcome")
            #expect(entry.device == "android" && entry.appName == "jump-forms")
            #expect(entry.createdAt == server.clock.now)
            let short = try #require(entry.shortURL)
            #expect(short.hasPrefix(server.url.description + "/s/"))
            let follow = try await server.raw(.GET, String(short.dropFirst(server.url.description.count)))
            #expect(follow.status == 302)
            #expect(follow.headers.first(name: "location") == "https://example.com/welcome")
            #expect(try await server.raw(.GET, "/s/nothere").status == 404)
        }
    }

    /// Sharing without a Capture sign-in, as JREngage's publishing does: the device sign-in
    /// keeps its token in an Engage-only session (sealed in the session file), which counts
    /// as signed out for Capture calls; a Capture sign-in afterwards keeps the token, and
    /// signing out of an Engage-only session revokes nothing.
    @Test func theDeviceSignInNeedsNoCaptureSession() async throws {
        try await withEngageServer(flow: Self.flow, identities: Self.identities) { server in
            let folder = try TemporaryFolder("jump-sharing-engage-only")
            defer { folder.remove() }
            let store = FileSessionStore(name: "client", environment: ["HOME": folder.path])
            let client = try server.client(store: store)
            let token = try await Self.engageToken(server, "twitter")
            let signIn = try await client.engageDeviceSignIn(engageToken: token, provider: "twitter")
            #expect(try await client.session() == nil)
            #expect(await client.signInState == .signedOut)
            #expect(try await client.deviceToken(for: "twitter") == signIn.deviceToken)
            let stored = try #require(try store.load())
            #expect(!stored.hasCaptureSignIn && stored.deviceTokens["twitter"] == signIn.deviceToken)
            let sealed = try #require(FileManager.default.contents(atPath: store.path))
            #expect(sealed.range(of: Data(signIn.deviceToken.utf8)) == nil)
            // A Capture call is still refused here, before anything is sent.
            let refused = await Self.failure { _ = try await client.refresh() }
            guard case .notSignedIn? = refused else {
                Issue.record("refresh without a Capture sign-in: \(String(describing: refused))")
                return
            }

            // A new client of the same store (another run of the CLI) shares with it.
            let again = try server.client(store: store)
            #expect(try await again.share(Self.activity, provider: "twitter").answer == ["stat": "ok"])
            #expect(try await server.server.feed().first?.identifier == "twitter:4004")

            _ = try await again.register(ServerFixtures.registration())
            #expect(try await again.session()?.deviceTokens["twitter"] == signIn.deviceToken)
            #expect(try store.load()?.hasCaptureSignIn == true)

            let other = FileSessionStore(name: "other", environment: ["HOME": folder.path])
            let engageOnly = try server.client(store: other)
            try await engageOnly.engageDeviceSignIn(engageToken: try await Self.engageToken(server, "facebook"), provider: "facebook")
            #expect(try await engageOnly.signOut() == .noSession)
            #expect(try other.load() == nil)
        }
    }

    /// LinkedIn takes an activity without a URL as a status: `share` posts it to
    /// `/api/v2/set_status` as the SDKs do, and the double refuses it at `/api/v2/activity`.
    @Test func aStatusOnlyProviderGetsAStatus() async throws {
        try await withEngageServer(flow: Self.flow, identities: Self.identities) { server in
            let client = try await Self.signedInClient(server)
            try await client.engageDeviceSignIn(engageToken: try await Self.engageToken(server, "linkedin"), provider: "linkedin")
            let plain = SharedActivity(action: "joined Example", userGeneratedContent: "Hello from Kraków")
            let post = try await client.share(plain, provider: "linkedin")
            #expect(post.operation == .setStatus)
            let entry = try #require(try await server.server.feed().last)
            #expect(entry.kind == "status" && entry.provider == "linkedin" && entry.identifier == "linkedin:5005")
            #expect(entry.posted == "Hello from Kraków" && entry.text == "Hello from Kraków")
            // A client that skipped the choice is refused as an invalid parameter.
            let deviceToken = try #require(try await client.deviceToken(for: "linkedin"))
            let direct = try await server.send(server.engage.shareActivity(plain, provider: "linkedin", deviceToken: deviceToken))
            guard case .failure(.engage(let refusal)) = direct else { Issue.record("\(direct)"); return }
            #expect(refusal.code == 1 && refusal.message.contains("/api/v2/set_status"))
            #expect(try await server.server.feed().count == 1)
        }
    }

    /// Twitter's 280 weighted characters: an over-long tweet is refused with the SDKs'
    /// character-limit code (100) and nothing is posted; the same tweet twice is a duplicate (6).
    @Test func theDoubleEnforcesTwittersLimitAndRefusesDuplicates() async throws {
        try await withEngageServer(flow: Self.flow, identities: Self.identities) { server in
            let client = try await Self.signedInClient(server)
            try await client.engageDeviceSignIn(engageToken: try await Self.engageToken(server, "twitter"), provider: "twitter")
            // 140 CJK characters weigh 280; with the URL (23) and its space it is over.
            var long = Self.activity
            long.userGeneratedContent = String(repeating: "字", count: 140)
            let tooLong = try #require(await Self.engageError { try await client.share(long, provider: "twitter") })
            #expect(tooLong.code == 100 && tooLong.kind == .characterLimitExceeded && !tooLong.needsSignIn, "\(tooLong)")
            #expect(tooLong.message.contains("304"), "\(tooLong.message)")
            #expect(try await server.server.feed().isEmpty)
            // Exactly 280: 128 CJK characters (256), a space, and the URL (23).
            long.userGeneratedContent = String(repeating: "字", count: 128)
            #expect(ShareLimit(maximum: 280, counting: .twitter).count(SharingProvider.twitter.postedText(of: long)) == 280)
            try await client.share(long, provider: "twitter")
            let duplicate = try #require(await Self.engageError { try await client.share(long, provider: "twitter") })
            #expect(duplicate.code == 6 && duplicate.message == "Twitter server error: Status is a duplicate.")
            // A status over the limit too.
            let longStatus = try #require(
                await Self.engageError { try await client.setStatus(String(repeating: "a", count: 281), provider: "twitter") })
            #expect(longStatus.code == 100)
            #expect(try await server.server.feed().count == 1)
        }
    }

    /// An unknown or expired device token is Engage's `Missing parameter: apiKey` (code 0, the
    /// SDKs' sign-in-again case); the client then forgets the session's token, and the next
    /// share asks for a sign-in (`.noDeviceToken`).
    @Test func anUnknownOrExpiredDeviceTokenAsksForANewSignIn() async throws {
        try await withEngageServer(flow: Self.flow, identities: Self.identities) { server in
            let client = try await Self.signedInClient(server)
            let unknown = try #require(
                await Self.engageError { try await client.share(Self.activity, provider: "twitter", deviceToken: "not-a-device-token") })
            #expect(unknown.code == 0 && unknown.message == "Missing parameter: apiKey" && unknown.needsSignIn)
            #expect(await Self.failure { try await client.share(Self.activity, provider: "twitter") } == .noDeviceToken(provider: "twitter"))
            try await client.engageDeviceSignIn(engageToken: try await Self.engageToken(server, "twitter"), provider: "twitter")
            server.clock.advance(CaptureServer.deviceTokenLifetime + 1)
            let expired = try #require(await Self.engageError { try await client.share(Self.activity, provider: "twitter") })
            #expect(expired.code == 0 && expired.needsSignIn)
            #expect(try await client.deviceToken(for: "twitter") == nil)
            #expect(try await server.server.feed().isEmpty)
        }
    }

    /// Every refusal is Engage's JSON with HTTP 200: `{"stat": "fail", "err": {"code", "msg"}}`.
    @Test func refusalsHaveEngagesShape() async throws {
        try await withEngageServer(flow: Self.flow, identities: Self.identities) { server in
            let twitter = try await Self.deviceToken(server, "twitter")
            let facebook = try await Self.deviceToken(server, "facebook")
            let google = try await Self.deviceToken(server, "google", identity: "ana.ruiz@example.com")
            let activity = FormEncoding.encode(Self.activity.json.serialized())
            let cases: [(String, String, Int, String)] = [
                ("/api/v2/activity", "device_token=\(twitter)&provider=twitter", 0, "Missing parameter: activity"),
                ("/api/v2/activity", "activity=\(activity)&provider=twitter", 0, "Missing parameter: apiKey"),
                ("/api/v2/activity", "activity=%5B1%5D&device_token=\(twitter)", 1, "Invalid parameter: activity (not a JSON object)"),
                ("/api/v2/activity", "activity=%7B%22url%22%3A%22%22%7D&device_token=\(twitter)", 1, "Invalid parameter: activity (no action)"),
                (
                    "/api/v2/activity", "activity=\(activity)&device_token=\(twitter)&provider=facebook", 1,
                    "Invalid parameter: provider (facebook): the device token is for twitter"
                ),
                (
                    "/api/v2/activity", "activity=\(activity)&device_token=\(google)&provider=google", 11,
                    "The provider or identifier does not support this feature (google does not share)"
                ),
                (
                    "/api/v2/activity",
                    "activity=\(FormEncoding.encode(#"{"action":"a","url":"https://example.com","media":[{"type":"image","src":"https://example.com/a.png"}]}"#))"
                        + "&device_token=\(facebook)", 4,
                    "Facebook Error: One or more of your image records failed to include a valid 'href' field"
                ),
                ("/api/v2/set_status", "device_token=\(twitter)", 0, "Missing parameter: status"),
                ("/api/v2/set_status", "status=+&device_token=\(twitter)", 1, "Invalid parameter: status (empty)"),
                (
                    "/api/v2/set_status", "status=hi&device_token=\(twitter)&device_token=\(twitter)", 1,
                    "Invalid parameter: device_token is given more than once"
                )
            ]
            for (path, form, code, message) in cases {
                let answer = try await server.raw(.POST, path, form: form)
                #expect(answer.status == 200, "\(path) \(form)")
                #expect(
                    try Self.json(answer.body) == ["stat": "fail", "err": ["code": .integer(code), "msg": .string(message)]],
                    "\(path) \(form): \(answer.body)")
            }
            #expect(try await server.raw(.GET, "/openid/get_urls?urls=nope&device_token=\(twitter)").body.contains(#""code":1"#))
            #expect(try await server.raw(.GET, "/api/v2/activity").status == 405)
            #expect(try await server.server.feed().isEmpty)
        }
    }

    /// The client's URL shortener: `/openid/get_urls`, one short URL per long one, stable.
    @Test func urlsAreShortenedAndRedirect() async throws {
        try await withEngageServer(flow: Self.flow, identities: Self.identities) { server in
            let client = try server.client()
            let token = try await Self.deviceToken(server, "twitter")
            let urls = ["https://example.com/welcome?a=1&b=2", "https://example.com/other"]
            let short = try await client.shortenURLs(urls, deviceToken: token)
            #expect(Set(short.keys) == Set(urls))
            #expect(try await client.shortenURLs([urls[0]], deviceToken: token)[urls[0]] == short[urls[0]])
            let path = String(try #require(short[urls[0]]).dropFirst(server.url.description.count))
            #expect(try await server.raw(.GET, path).headers.first(name: "location") == urls[0])
            #expect(await Self.engageError { _ = try await client.shortenURLs(["not a url"], deviceToken: token) }?.code == 1)
            // Without a credential: none (ServeSecurityTests).
            #expect(await Self.engageError { _ = try await client.shortenURLs(urls) }?.code == 0)
        }
    }

    // MARK: the SDKs' own bodies

    /// What iOS 5.5 sends (JRSessionData.m:1166-1197): `activity` is JR_jsonString's text
    /// (slashes escaped as `\/`) percent-escaped with URLQueryAllowed minus `?+=&` (so `/ : ,`
    /// stay raw), `device_token` raw, `url_shortening=true`, `device=iphone`, `provider`,
    /// `app_name` the bundle's display name unescaped (a raw space); no Content-Type.
    @Test func iOSActivityBodyReplayed() async throws {
        try await withEngageServer(flow: Self.flow, identities: Self.identities) { server in
            let token = try await Self.deviceToken(server, "facebook")
            let json =
                #"{"action":"joined Example","url":"https:\/\/example.com\/welcome","user_generated_content":"Ça marche","title":"Welcome","media":[{"type":"image","src":"https:\/\/example.com\/a.png","href":"https:\/\/example.com\/"}]}"#
            let body =
                "activity=%7B%22action%22:%22joined%20Example%22,%22url%22:%22https:%5C/%5C/example.com%5C/welcome%22,"
                + "%22user_generated_content%22:%22%C3%87a%20marche%22,%22title%22:%22Welcome%22,"
                + "%22media%22:%5B%7B%22type%22:%22image%22,%22src%22:%22https:%5C/%5C/example.com%5C/a.png%22,"
                + "%22href%22:%22https:%5C/%5C/example.com%5C/%22%7D%5D%7D"
                + "&device_token=\(token)&url_shortening=true&device=iphone&provider=facebook&app_name=JUMP Demo"
            let answer = try await server.raw(.POST, "/api/v2/activity", body: Array(body.utf8), contentType: nil)
            #expect(try Self.json(answer.body) == ["stat": "ok"], "\(answer.body)")
            let entry = try #require(try await server.server.feed().first)
            #expect(entry.posted == json)
            #expect(try JSONValue.parse(entry.posted)["url"] == "https://example.com/welcome")
            #expect(entry.provider == "facebook" && entry.identifier == "facebook:3003")
            #expect(entry.device == "iphone" && entry.appName == "JUMP Demo")
            #expect(entry.text == "Ça marche")
            #expect(entry.shortURL != nil)
        }
    }

    /// What Android 7.3.0 sends (JRSession.java:1109-1140): `activity` URLEncoder-encoded
    /// (org.json escapes `/` as `\/`; spaces as `+`), then `device_token`, `url_shortening`,
    /// `provider` before `device=android`, `app_name` ("label:package", URL-encoded).
    @Test func androidActivityBodyReplayed() async throws {
        try await withEngageServer(flow: Self.flow, identities: Self.identities) { server in
            let token = try await Self.deviceToken(server, "twitter")
            let json = #"{"url":"https:\/\/example.com\/welcome","action":"joined Example","user_generated_content":"Hi + bye & more"}"#
            let body =
                "activity=%7B%22url%22%3A%22https%3A%5C%2F%5C%2Fexample.com%5C%2Fwelcome%22%2C%22action%22%3A%22joined+Example%22%2C"
                + "%22user_generated_content%22%3A%22Hi+%2B+bye+%26+more%22%7D"
                + "&device_token=\(token)&url_shortening=true&provider=twitter&device=android&app_name=JUMP+Demo%3Acom.janrain.demo"
            let answer = try await server.raw(.POST, "/api/v2/activity", body: Array(body.utf8))
            #expect(try Self.json(answer.body) == ["stat": "ok"], "\(answer.body)")
            let entry = try #require(try await server.server.feed().first)
            #expect(entry.posted == json)
            #expect(entry.text == "Hi + bye & more https://example.com/welcome")
            #expect(entry.device == "android" && entry.appName == "JUMP Demo:com.janrain.demo")
        }
    }

    /// Statuses: iOS escapes `status` and sends `provider` last (JRSessionData.m:1222-1234);
    /// Android appends `status` unencoded and sends no `provider` (JRSession.java:1142-1157):
    /// the device token says which.
    @Test func statusBodiesOfBothSDKsReplayed() async throws {
        try await withEngageServer(flow: Self.flow, identities: Self.identities) { server in
            let token = try await Self.deviceToken(server, "linkedin")
            let iOS = "status=Hello%20from%20Krak%C3%B3w%20%2B1&device_token=\(token)&device=iphone&app_name=JUMP Demo&provider=linkedin"
            #expect(try await server.raw(.POST, "/api/v2/set_status", body: Array(iOS.utf8), contentType: nil).body == #"{"stat":"ok"}"#)
            let android = "status=Cześć z Krakowa&device_token=\(token)&device=android&app_name=JUMP+Demo%3Acom.janrain.demo"
            #expect(try await server.raw(.POST, "/api/v2/set_status", form: android).body == #"{"stat":"ok"}"#)
            let feed = try await server.server.feed()
            #expect(feed.map(\.posted) == ["Hello from Kraków +1", "Cześć z Krakowa"])
            #expect(feed.allSatisfy { $0.kind == "status" && $0.provider == "linkedin" && $0.identifier == "linkedin:5005" })
        }
    }

    /// The mobile configuration names the flow's sharing providers (`social_providers`: iOS
    /// JRSessionData.m:819, 877; Android JRSession.java:860), each with the
    /// `social_sharing_properties` the sharing dialogs read as they read them: iOS compares the
    /// flags with the string "YES" and reads `max_characters` with `intValue`
    /// (JRPublishActivityController.m:83-130); Android calls `equals` on `shows_url_as`
    /// (JRPublishFragment.java:1141-1145), reads `set_status_properties.max_characters` of a
    /// status provider (:670-674) and casts three `color_values` to Double (JRProvider.java:441-450).
    @Test func theConfigurationCarriesTheSharingProvidersAndTheirProperties() async throws {
        var flow = Self.flow
        flow.sharing = [
            Located("twitter", at: ServerFixtures.here), Located("linkedin", at: ServerFixtures.here), Located("google", at: ServerFixtures.here)
        ]
        try await withEngageServer(flow: flow, identities: Self.identities) { server in
            let configuration = try Self.json(try await server.raw(.GET, "/openid/mobile_config_and_baseurl?appId=x&device=android").body)
            // google signs in but does not share: left out, so no dialog offers it.
            #expect(configuration["social_providers"] == ["twitter", "linkedin"], "\(configuration)")
            for name in ["twitter", "linkedin"] {
                let properties = try #require(configuration.at("provider_info")?[name]?["social_sharing_properties"]?.objectValue, "\(name)")
                let byKey = Dictionary(properties.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
                for flag in ["content_replaces_action", "url_reduces_max_chars", "can_share_media", "uses_set_status_if_no_url"] {
                    #expect(byKey[flag] == "YES" || byKey[flag] == "NO", "iOS isEqualToString: needs a string: \(name) \(flag)")
                }
                #expect(byKey["shows_url_as"]?.stringValue != nil, "Android calls equals on shows_url_as: \(name)")
                #expect(byKey["max_characters"]?.stringValue.flatMap { Int($0) } != nil, "\(name)")
                let colours = try #require(byKey["color_values"]?.arrayValue, "\(name)")
                #expect(colours.count == 4, "iOS wants four colour values: \(name)")
                for colour in colours.prefix(3) {
                    guard case .number(let text) = colour, text.contains("."), Double(text) != nil else {
                        Issue.record("Android casts \(colour) to Double: org.json needs a fraction (\(name))")
                        continue
                    }
                }
            }
            let twitter = configuration.at("provider_info")?["twitter"]?["social_sharing_properties"]
            #expect(twitter?["max_characters"] == "280" && twitter?["shows_url_as"] == "url" && twitter?["url_reduces_max_chars"] == "YES")
            let linkedIn = configuration.at("provider_info")?["linkedin"]?["social_sharing_properties"]
            #expect(linkedIn?["uses_set_status_if_no_url"] == "YES" && linkedIn?.at("set_status_properties.max_characters") == "700")
            #expect(configuration.at("provider_info")?["google"]?["social_sharing_properties"] == nil)
        }
    }

    /// A share by email or SMS, as the dialogs report it: iOS posts `device=iphone&method=email`
    /// to `/social/record_activity?` without Content-Type (JRSessionData.m:1441-1458), Android
    /// `method=sms&device=android&appId=<id>` (JRSession.java:1081-1106). Neither reads the
    /// answer; Engage's is `{"stat":"ok"}`, and its refusals have Engage's shape.
    @Test func emailAndSMSSharesOfBothSDKsAreRecorded() async throws {
        try await withEngageServer(flow: Self.flow, identities: Self.identities) { server in
            let iOS = try await server.raw(.POST, "/social/record_activity?", body: Array("device=iphone&method=email".utf8), contentType: nil)
            #expect(iOS.status == 200 && iOS.body == #"{"stat":"ok"}"#, "\(iOS.body)")
            let android = try await server.raw(.POST, "/social/record_activity", form: "method=sms&device=android&appId=appcfamhnpkagijaeinl")
            #expect(android.status == 200 && android.body == #"{"stat":"ok"}"#, "\(android.body)")
            let unknown = try Self.json(try await server.raw(.POST, "/social/record_activity", form: "method=fax&device=android").body)
            #expect(unknown["stat"] == "fail" && unknown.at("err.code") == .integer(1), "\(unknown)")
            let missing = try Self.json(try await server.raw(.POST, "/social/record_activity", form: "device=iphone").body)
            #expect(missing["stat"] == "fail" && missing.at("err.code") == .integer(0), "\(missing)")
        }
    }

    /// URL shortening as both SDKs ask for it: iOS's query (only the lists it has,
    /// URLQueryAllowed-escaped, `app_name` holding its own `appName=...&version=...`,
    /// JRSessionData.m:1480-1488) and Android's (all three lists, URLEncoder,
    /// JRActivityObject.java:633-659); both read `urls.activity[<url>]`.
    /// The SDKs send no credential, which this server requires (short URLs are no open
    /// redirect): as sent, both are refused with the device-token failure, and the SDKs share
    /// the long URL; with a device token added, they are read as the SDKs send them.
    @Test func urlShorteningRequestsOfBothSDKsReplayed() async throws {
        try await withEngageServer(flow: Self.flow, identities: Self.identities) { server in
            let token = try await Self.deviceToken(server, "twitter")
            let iOSAsSent =
                "/openid/get_urls?urls=%7B%22activity%22:%5B%22https:%5C/%5C/example.com%5C/welcome%22%5D%7D"
                + "&app_name=appName=JUMP%20Demo.com.janrain.jumpdemo3&version=iphone_5.5&device=iphone"
            #expect(
                try Self.json(try await server.raw(.GET, iOSAsSent).body)
                    == ["stat": "fail", "err": ["code": 0, "msg": "Missing parameter: apiKey"]])
            let iOS = iOSAsSent + "&device_token=\(token)"
            let fromIOS = try Self.json(try await server.raw(.GET, iOS).body)
            let short = try #require(fromIOS.at("urls.activity")?["https://example.com/welcome"]?.stringValue)
            #expect(short.hasPrefix(server.url.description + "/s/"))
            let androidAsSent =
                "/openid/get_urls?urls=%7B%22activity%22%3A%5B%22https%3A%5C%2F%5C%2Fexample.com%5C%2Fwelcome%22%5D%2C%22email%22%3A%5B%5D%2C%22sms%22%3A%5B%5D%7D"
                + "&app_name=JUMP+Demo%3Acom.janrain.demo&device=android"
            #expect(try Self.json(try await server.raw(.GET, androidAsSent).body)["err"]?["code"] == 0)
            let android = androidAsSent + "&device_token=\(token)"
            let fromAndroid = try Self.json(try await server.raw(.GET, android).body)
            #expect(fromAndroid.at("urls.activity")?["https://example.com/welcome"]?.stringValue == short)
            #expect(fromAndroid.at("urls.email") == [:] && fromAndroid.at("urls.sms") == [:])
        }
    }
}

/// `jump-forms feed`, in this process, on a running server's database.
@Suite(.timeLimit(.minutes(5))) struct FeedCommandTests {
    @Test func theFeedListsWhatWasPostedAsTextAndJSON() async throws {
        try await withEngageServer(flow: EngageSharingTests.flow, identities: EngageSharingTests.identities) { server in
            let arguments = ["feed", "--config", Repository.path("jump.yaml"), "--db", server.databasePath]
            let empty = try await InProcess.run(arguments)
            #expect(empty.status == 0 && empty.stdout.contains("is empty"), "\(empty.stdout)\(empty.stderr)")
            let twitter = try await EngageSharingTests.deviceToken(server, "twitter")
            let linkedIn = try await EngageSharingTests.deviceToken(server, "linkedin")
            let activity = EngageSharingTests.activity.json.serialized()
            let posted = try await server.raw(
                .POST, "/api/v2/activity",
                form:
                    "activity=\(FormEncoding.encode(activity))&device_token=\(twitter)&url_shortening=true&device=android&provider=twitter&app_name=jump-forms"
            )
            #expect(posted.body == #"{"stat":"ok"}"#)
            server.clock.advance(60)
            // A status with a terminal escape sequence in it: listed escaped, its JSON exact.
            let status = "Bonjour\u{1B}]0;owned\u{07} à tous"
            _ = try await server.raw(
                .POST, "/api/v2/set_status", form: "status=\(FormEncoding.encode(status))&device_token=\(linkedIn)&device=android")

            let text = try await InProcess.run(arguments)
            #expect(text.status == 0, "\(text.stderr)")
            #expect(text.stdout.contains("#1 activity on twitter as twitter:4004 at 2025-06-15 10:30:00 UTC"), "\(text.stdout)")
            #expect(text.stdout.contains("  Text: Ça marche 🎉 https://example.com/welcome"), "\(text.stdout)")
            #expect(text.stdout.contains("  Short URL: \(server.url.description)/s/"), "\(text.stdout)")
            #expect(text.stdout.contains("#2 status on linkedin as linkedin:5005 at 2025-06-15 10:31:00 UTC"), "\(text.stdout)")
            #expect(!text.stdout.contains("\u{1B}"), "\(text.stdout)")
            #expect(text.stdout.contains(#"Bonjour\u{1B}]0;owned\u{7} à tous"#), "\(text.stdout)")

            let json = try await InProcess.run(arguments + ["--format", "json"])
            #expect(json.status == 0, "\(json.stderr)")
            let entries = try #require(try JSONValue.parse(Array(json.stdout.utf8)).arrayValue)
            #expect(entries.count == 2)
            #expect(entries[0]["activity"] == EngageSharingTests.activity.json)
            #expect(entries[0]["provider"] == "twitter" && entries[0]["identifier"] == "twitter:4004")
            #expect(entries[0]["createdAt"] == .integer(ServerFixtures.start))
            #expect(entries[1]["kind"] == "status" && entries[1]["status"] == .string(status))

            let missing = try await InProcess.run(["feed", "--config", Repository.path("jump.yaml"), "--db", server.databasePath + ".none"])
            #expect(missing.status != 0 && missing.stderr.contains("no database"), "\(missing.stderr)")
        }
    }
}

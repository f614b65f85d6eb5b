import Foundation
import JumpCapture
import JumpCaptureServer
import JumpForms
import JumpSchema
import JumpFormsLoader
import Testing
import TestSupport

/// The server under test, set up as a user would set it up: a project folder with the
/// repository's flows, locales and identities (plus the replay's own test identities), and a
/// `jump.yaml` whose `server:` section says what the suite needs, loaded by `ProjectLoader`.
struct ReplayProject {
    enum Settings: String, Sendable {
        /// bcrypt cost 4 and an API key (`auth_info` for the token-URL replays).
        case plain
        /// Plus `writeWithToken` for the record writes the SDKs make; no entity-type schema.
        case records
        /// Plus `server.schema`: the repository's default Capture schema.
        case schema
    }

    static let apiKey = "replay-api-key-5f1c2e9a"

    let folder: TemporaryFolder
    var configPath: String { folder.path + "/jump.yaml" }
    var databasePath: String { folder.path + "/data/capture.sqlite" }

    init(_ settings: Settings) throws {
        folder = try TemporaryFolder("jump-sdk-replay")
        for item in ["flows", "locales"] {
            try FileManager.default.copyItem(atPath: Repository.path(item), toPath: folder.path + "/" + item)
        }
        try FileManager.default.createDirectory(atPath: folder.path + "/data", withIntermediateDirectories: true)
        let identities = try String(contentsOfFile: Repository.path("identities.yaml"), encoding: .utf8)
        try folder.write("identities.yaml", identities + ReplayIdentities.yaml)
        var server = """

            server:
              bcryptCost: 4
              apiKey: \(Self.apiKey)

            """
        switch settings {
        case .plain: break
        case .records:
            server += "  writeWithToken: [/aboutMe, /displayName, /primaryAddress]\n"
        case .schema:
            let schema = folder.path + "/schemas/default-schema.json"
            try FileManager.default.createDirectory(atPath: folder.path + "/schemas", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: Repository.path("schemas/default-schema.json"), toPath: schema)
            server += "  schema: \(schema)\n  writeWithToken: [/aboutMe, /displayName, /primaryAddress, /photos]\n"
        }
        let config = try String(contentsOfFile: Repository.path("jump.yaml"), encoding: .utf8)
        try folder.write("jump.yaml", config + server)
    }

    /// `ProjectLoader` on the folder's jump.yaml, and the identities file the way `serve`
    /// finds it; throws the rendered diagnostics when jump.yaml is refused.
    func load() throws -> (config: ClientConfig, flow: LoadedFlow, identities: [TestIdentity]) {
        let project = ProjectLoader(environment: [:]).load(paths: [configPath])
        if project.diagnostics.containsErrors {
            throw ReplayError("jump.yaml was refused:\n" + DiagnosticRenderer(sources: project.sources).render(project.diagnostics))
        }
        guard let config = project.config, let flow = project.primaryFlow else { throw ReplayError("jump.yaml loaded no config or flow") }
        let identities = IdentitiesLoader.load(path: folder.path + "/identities.yaml")
        if identities.diagnostics.containsErrors {
            throw ReplayError("identities.yaml was refused:\n" + DiagnosticRenderer(sources: identities.sources).render(identities.diagnostics))
        }
        return (config, flow, identities.identities)
    }
}

/// One server for a whole suite (`.replayServer(...)`), started with `EmbeddedCaptureServer`
/// on 127.0.0.1 with an ephemeral port, a fresh SQLite file and a clock the tests read.
final class ReplayServer: Sendable {
    let project: ReplayProject
    let embedded: EmbeddedCaptureServer
    let config: ClientConfig
    let flow: Flow
    let clock: TestClock

    /// `http://127.0.0.1:<port>`: where the replays go.
    var url: String { embedded.url }

    /// The suite's server (or why it could not start), set by `ReplayServerTrait`.
    @TaskLocal static var current: Result<ReplayServer, ReplayError>?

    /// The suite's server; a test of a suite whose server did not start fails here, with the
    /// reason (jump.yaml refused, say).
    static func get() throws -> ReplayServer {
        switch current {
        case .success(let server)?: return server
        case .failure(let error)?: throw error
        case nil: throw ReplayError("no replay server: the suite needs the .replayServer trait")
        }
    }

    private init(project: ReplayProject, embedded: EmbeddedCaptureServer, config: ClientConfig, flow: Flow, clock: TestClock) {
        self.project = project
        self.embedded = embedded
        self.config = config
        self.flow = flow
        self.clock = clock
    }

    static func start(_ settings: ReplayProject.Settings) async throws -> ReplayServer {
        let project = try ReplayProject(settings)
        do {
            let (config, loaded, identities) = try project.load()
            let clock = TestClock(ServerFixtures.start)
            var setup = CaptureServerSetup(
                config: config, flow: loaded.flow, localizer: loaded.localizer(), identities: identities,
                databasePath: project.databasePath, clock: { clock.now })
            // `server.schema` as `serve` reads it (LocalServer.schema): an absolute path here.
            if let named = config.server.schema {
                let schema = SchemaLoader.schema(path: named.value)
                guard let value = schema.value, !schema.diagnostics.containsErrors else {
                    throw ReplayError(
                        "the schema \(named.value) was refused:\n" + DiagnosticRenderer(sources: schema.sources).render(schema.diagnostics))
                }
                setup.schema = value
            }
            let embedded = try await EmbeddedCaptureServer.start(setup, logger: ServerFixtures.quietLogger)
            return ReplayServer(project: project, embedded: embedded, config: config, flow: loaded.flow, clock: clock)
        } catch {
            project.folder.remove()
            throw error
        }
    }

    func stop() async {
        await embedded.stop()
        project.folder.remove()
    }

    /// An iOS app configured for this server (JRCaptureConfig with the values of jump.yaml,
    /// and the flow it downloaded).
    var iOS: IOSApp { IOSApp(config: config, flow: flow, server: url, clock: clock) }

    /// An Android app configured for this server (JumpConfig with the values of jump.yaml).
    var android: AndroidApp { AndroidApp(config: config, flow: flow, server: url, clock: clock) }

    func send(_ request: SDKRequest) async throws -> SDKAnswer {
        try await SDKWire.send(request, to: url)
    }

    /// A provider's start path as both SDKs take it: `provider_info.<provider>.url` of the
    /// mobile configuration (JRSessionData.m:344, 1135; JRProvider.java:203).
    func providerPath(_ provider: String) async throws -> String {
        let answer = try await send(iOS.mobileConfiguration())
        guard let path = answer.json?["provider_info"]?[provider]?["url"]?.stringValue else {
            throw ReplayError("the mobile configuration gives no url for \(provider): \(answer)")
        }
        return path
    }
}

/// Starts one `ReplayServer` for the suite it is attached to, runs the suite's tests, and
/// stops it. When the server cannot start, every test of the suite fails with the reason.
struct ReplayServerTrait: SuiteTrait, TestScoping {
    var settings: ReplayProject.Settings
    var isRecursive: Bool { false }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        let result: Result<ReplayServer, ReplayError>
        do {
            result = .success(try await ReplayServer.start(settings))
        } catch let error as ReplayError {
            result = .failure(error)
        } catch {
            result = .failure(ReplayError("the server did not start: \(error)"))
        }
        do {
            try await ReplayServer.$current.withValue(result) { try await function() }
        } catch {
            if case .success(let server) = result { await server.stop() }
            throw error
        }
        if case .success(let server) = result { await server.stop() }
    }
}

extension Trait where Self == ReplayServerTrait {
    /// One server for the suite, with the given `server:` settings in its jump.yaml.
    static func replayServer(_ settings: ReplayProject.Settings) -> Self { ReplayServerTrait(settings: settings) }
}

/// The people the replays sign in as: one per test that needs its own, so that the suite's
/// tests can share a server and run in any order. Appended to the repository's identities.
enum ReplayIdentities {
    struct Person {
        var provider: String
        var identifier: String
        var email: String?
        var givenName: String
        var familyName: String
        var displayName: String
        var nativeToken: String
    }

    static let iosThin = Person(
        provider: "google", identifier: "https://www.google.com/profiles/replay-ios-thin", email: "ios.thin@replay.example.com",
        givenName: "Iris", familyName: "Thin", displayName: "ios_thin", nativeToken: "google-native-ios-thin")
    static let androidThin = Person(
        provider: "google", identifier: "https://www.google.com/profiles/replay-android-thin",
        email: "android.thin@replay.example.com", givenName: "Anders", familyName: "Thin", displayName: "android_thin",
        nativeToken: "google-native-android-thin")
    static let iosMerge = Person(
        provider: "google", identifier: "https://www.google.com/profiles/replay-ios-merge", email: "merge.ios@replay.example.com",
        givenName: "Mira", familyName: "Merge", displayName: "ios_merge_g", nativeToken: "google-native-ios-merge")
    static let androidMerge = Person(
        provider: "google", identifier: "https://www.google.com/profiles/replay-android-merge",
        email: "merge.android@replay.example.com", givenName: "Mats", familyName: "Merge", displayName: "android_merge_g",
        nativeToken: "google-native-android-merge")
    static let iosTwoStep = Person(
        provider: "twitter", identifier: "http://twitter.com/account/profile?user_id=9100001", email: nil,
        givenName: "Tove", familyName: "Step", displayName: "ios_two_step", nativeToken: "twitter-native-ios-two-step")
    static let androidTwoStep = Person(
        provider: "twitter", identifier: "http://twitter.com/account/profile?user_id=9100002", email: nil,
        givenName: "Tomas", familyName: "Step", displayName: "android_two_step", nativeToken: "twitter-native-android-two-step")
    static let iosLink = Person(
        provider: "facebook", identifier: "http://www.facebook.com/profile.php?id=9200001", email: "link.ios.fb@replay.example.com",
        givenName: "Lina", familyName: "Link", displayName: "ios_link_fb", nativeToken: "facebook-native-ios-link")
    static let androidLink = Person(
        provider: "facebook", identifier: "http://www.facebook.com/profile.php?id=9200002",
        email: "link.android.fb@replay.example.com", givenName: "Lars", familyName: "Link", displayName: "android_link_fb",
        nativeToken: "facebook-native-android-link")
    /// Sign in with Apple: the app gets an identity token (a JWT) from Apple.
    static let iosApple = Person(
        provider: "apple", identifier: "001234.replay0ios0apple.0999", email: "apple.ios@replay.example.com",
        givenName: "Abel", familyName: "Apple", displayName: "ios_apple",
        nativeToken: "eyJraWQiOiJyZXBsYXkiLCJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIwMDEyMzQucmVwbGF5MGlvczBhcHBsZS4wOTk5In0.c2lnbmF0dXJl")
    static let iosWebView = Person(
        provider: "google", identifier: "https://www.google.com/profiles/replay-ios-webview",
        email: "webview.ios@replay.example.com", givenName: "Wera", familyName: "View", displayName: "ios_webview",
        nativeToken: "google-native-ios-webview")
    static let androidDevice = Person(
        provider: "google", identifier: "https://www.google.com/profiles/replay-android-device",
        email: "device.android@replay.example.com", givenName: "Dag", familyName: "Device", displayName: "android_device",
        nativeToken: "google-native-android-device")
    static let androidServerCode = Person(
        provider: "google", identifier: "https://www.google.com/profiles/replay-android-code",
        email: "code.android@replay.example.com", givenName: "Cora", familyName: "Code", displayName: "android_code",
        nativeToken: "4/0AY0e-g7replay-android-server-auth-code")
    static let iosTokenURL = Person(
        provider: "facebook", identifier: "http://www.facebook.com/profile.php?id=9200003", email: "tokenurl.ios@replay.example.com",
        givenName: "Tia", familyName: "Url", displayName: "ios_token_url", nativeToken: "facebook-native-ios-token-url")
    static let androidTokenURL = Person(
        provider: "facebook", identifier: "http://www.facebook.com/profile.php?id=9200004",
        email: "tokenurl.android@replay.example.com", givenName: "Tor", familyName: "Url", displayName: "android_token_url",
        nativeToken: "facebook-native-android-token-url")
    static let iosUnlink = Person(
        provider: "facebook", identifier: "http://www.facebook.com/profile.php?id=9200005", email: "unlink.ios.fb@replay.example.com",
        givenName: "Una", familyName: "Link", displayName: "ios_unlink_fb", nativeToken: "facebook-native-ios-unlink")
    static let androidUnlink = Person(
        provider: "facebook", identifier: "http://www.facebook.com/profile.php?id=9200006",
        email: "unlink.android.fb@replay.example.com", givenName: "Ulf", familyName: "Link", displayName: "android_unlink_fb",
        nativeToken: "facebook-native-android-unlink")
    static let httpsAndroid = Person(
        provider: "google", identifier: "https://www.google.com/profiles/replay-https-android",
        email: "https.android@replay.example.com", givenName: "Hedda", familyName: "Tls", displayName: "https_android",
        nativeToken: "google-native-https-android")

    static let all: [Person] = [
        iosThin, androidThin, iosMerge, androidMerge, iosTwoStep, androidTwoStep, iosLink, androidLink, iosApple, iosWebView,
        androidDevice, androidServerCode, iosTokenURL, androidTokenURL, iosUnlink, androidUnlink, httpsAndroid
    ]

    static var yaml: String {
        var text = "\n  # The SDK replay suite's people (Tests/JumpCaptureServerTests/SDKReplay).\n"
        for person in all {
            text += "  - provider: \(person.provider)\n    identifier: \"\(person.identifier)\"\n"
            if let email = person.email { text += "    email: \(email)\n    verifiedEmail: true\n" }
            text += "    givenName: \(person.givenName)\n    familyName: \(person.familyName)\n    displayName: \(person.displayName)\n"
            text += "    nativeToken: \"\(person.nativeToken)\"\n"
        }
        return text
    }
}

import JumpCapture
import JumpForms
import JumpFormsLoader
import TestSupport

/// The repository's example project, loaded once, with builders pointed at a fixed server.
enum CaptureFixtures {
    static let project = ProjectLoader(environment: [:]).load(paths: [Repository.path("jump.yaml")])
    static var loaded: LoadedFlow { project.primaryFlow! }
    static var config: ClientConfig { project.config! }
    static let capture = ServerURL("https://example.us.janraincapture.com")!
    static let locale = LocaleTag("en-US")!
    static let today = CivilDate(year: 2025, month: 6, day: 15)!
    static let secret = RefreshSecret("0123456789abcdef0123456789abcdef01234567")!
    /// 2025-06-15 10:30:00 UTC
    static let epoch = 1_749_983_400

    static func builder(locale: LocaleTag = locale, flowVersion: String? = nil) -> RequestBuilder {
        RequestBuilder(config: config, flow: loaded.flow, localizer: loaded.localizer(), locale: locale, capture: capture, flowVersion: flowVersion)
    }

    /// An activity with every part JRActivityObject has: texts with characters that need
    /// escaping in JSON and in a form body.
    static let activity = SharedActivity(
        action: "joined Example & said \"hi\"", url: "https://example.com/welcome?from=app&x=1", userGeneratedContent: "Ça marche, 100% 🎉",
        title: "Welcome / Bienvenue", description: "A line\nand another", actionLinks: [.init(text: "Open the app", href: "https://example.com/app")],
        media: [
            .image(src: "https://example.com/a.png", href: "https://example.com/"),
            .mp3(src: "https://example.com/a.mp3", title: "Song", artist: nil, album: nil)
        ],
        properties: ["Level": "3"])

    /// An activity without a URL (posted as a status where the provider says so).
    static let activityWithoutURL = SharedActivity(action: "joined Example", userGeneratedContent: "Hello from Kraków")

    static var engage: EngageRequestBuilder {
        EngageRequestBuilder(config: config, engage: ServerURL("https://jump-test.rpxnow.com")!)
    }

    static var decoder: ResponseDecoder { ResponseDecoder(flow: loaded.flow, config: config) }

    /// Fixtures/project: a client that signs in by username, with a field whose schemaId is a
    /// map (`phone: {home: phones.home, work: phones.work}`).
    static let fixtureProject = ProjectLoader(environment: [:]).load(paths: [Repository.path("Tests/JumpCaptureTests/Fixtures/project/jump.yaml")])

    static func fixtureBuilder() -> RequestBuilder {
        let loaded = fixtureProject.primaryFlow!
        return RequestBuilder(config: fixtureProject.config!, flow: loaded.flow, localizer: loaded.localizer(), locale: locale, capture: capture)
    }

    static var fixtureDecoder: ResponseDecoder { ResponseDecoder(flow: fixtureProject.primaryFlow!.flow, config: fixtureProject.config!) }

    static let registration: FormValues = [
        "emailAddress": "ana.ruiz@example.com", "displayName": "ana_r", "firstName": "Ana", "lastName": "Ruiz",
        "newPassword": "correct horse battery", "newPasswordConfirm": "correct horse battery",
        "birthdate": "1990-04-01", "optIn": "true"
    ]
}

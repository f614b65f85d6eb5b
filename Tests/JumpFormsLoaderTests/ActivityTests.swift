import JumpForms
import JumpFormsLoader
import Testing
import TestSupport

/// Activities from real flow files: decoded with their places, rendered per locale with the
/// caller's arguments, and held to the providers' limits before anything is sent.
@Suite struct ActivityTests {
    static func load(_ relative: String) throws -> LoadedFlow {
        let project = ProjectLoader(environment: [:]).load(paths: [Repository.path(relative)])
        #expect(project.diagnostics.isEmpty, "\(project.diagnostics.map(\.message))")
        return try #require(project.primaryFlow)
    }

    static let fixture = "Tests/JumpFormsLoaderTests/Fixtures/diagnostics/valid-activities"

    static func renderer(_ relative: String = fixture) throws -> ActivityRenderer {
        let loaded = try load(relative)
        return ActivityRenderer(flow: loaded.flow, localizer: loaded.localizer())
    }

    static let french = LocaleTag("fr-FR")!
    static let english = LocaleTag("en-US")!

    @Test func decodesEveryPartWithItsPlace() throws {
        let flow = try Self.load(Self.fixture).flow
        #expect(flow.sharing.map(\.value) == ["twitter", "facebook", "linkedin"])
        let joined = try #require(flow.activity(named: "joined"))
        #expect(joined.action.value == "a.action")
        #expect(joined.action.location.line == 20)
        #expect(joined.arguments.map(\.value) == ["name", "count"])
        #expect(joined.userContent)
        #expect(joined.media.map(\.type.value) == [.image, .flash, .mp3])
        #expect(joined.properties.map(\.name) == ["Level", "Site"])
        // Strict scalars: `no` is the text written.
        #expect(joined.media[2].values["album"]?.value == "no")
        #expect(flow.messageKeyUses.map(\.value).suffix(5) == ["a.action", "a.title", "a.description", "a.link", "a.status"])
    }

    @Test func rendersFrenchWithArgumentsIntoJRActivityObjectsDictionary() throws {
        let shared = try Self.renderer().render(
            "joined", locale: Self.french, arguments: ["name": "Ana", "count": "2"], userContent: "Enfin !")
        #expect(shared.action == "Ana a rejoint Example.")
        #expect(shared.description == "2 amis ont rejoint aussi.")
        #expect(
            shared.json.serialized()
                == #"{"action":"Ana a rejoint Example.","url":"https://example.com/welcome","user_generated_content":"Enfin !","title":"Bienvenue","description":"2 amis ont rejoint aussi.","action_links":[{"text":"Essayer l’application","href":"https://example.com/app"}],"media":[{"type":"image","src":"https://example.com/a.png","href":"https://example.com/"},{"type":"flash","swfsrc":"https://example.com/a.swf","imgsrc":"https://example.com/a.png","width":"320","height":"240"},{"type":"mp3","src":"https://example.com/a.mp3","title":"Theme","artist":"Example","album":"no"}],"properties":{"Level":"3","Site":"Example"}}"#
        )
        let one = try Self.renderer().render("joined", locale: Self.french, arguments: ["name": "Ana", "count": "1"])
        #expect(one.description == "1 ami a rejoint aussi.")
        // Asked for, but not given: the words are empty, still sent.
        #expect(one.userGeneratedContent == "")
    }

    @Test func anActivityWithoutUserContentDropsTheWords() throws {
        let shared = try Self.renderer().render("status", locale: Self.english, userContent: "ignored")
        #expect(shared.userGeneratedContent == nil)
        #expect(shared.json.serialized() == #"{"action":"Having a good day.","url":""}"#)
    }

    @Test func argumentsMustBeTheDeclaredOnes() throws {
        let renderer = try Self.renderer()
        #expect(throws: ActivityRenderError.missingArguments(["count"], activity: "joined")) {
            try renderer.render("joined", locale: Self.english, arguments: ["name": "Ana"])
        }
        #expect(throws: ActivityRenderError.undeclaredArgument("nmae", activity: "joined", declared: ["name", "count"])) {
            try renderer.render("joined", locale: Self.english, arguments: ["name": "Ana", "count": "1", "nmae": "x"])
        }
        do {
            _ = try renderer.render("joind", locale: Self.english)
            Issue.record("an unknown activity rendered")
        } catch {
            #expect(error.description.contains("did you mean 'joined'?"))
        }
    }

    @Test func theExampleFlowSharesJoinedInFrench() throws {
        let shared = try Self.renderer("flows/standard.yaml").render("joined", locale: Self.french, arguments: ["name": "Ana"])
        #expect(shared.action == "Ana a rejoint Example.")
        #expect(shared.title == "Bienvenue sur Example")
    }

    // MARK: provider limits

    @Test func anOverlongTweetIsRefusedWithTheLocalizedMessage() throws {
        let renderer = try Self.renderer()
        let words = String(repeating: "a", count: 257)
        let shared = try renderer.render("joined", locale: Self.french, arguments: ["name": "Ana", "count": "1"], userContent: words)
        // 257 + a space + the URL's 23 = 281.
        #expect(SharingProvider.twitter.postedText(of: shared) == words + " https://example.com/welcome")
        #expect(
            throws: ActivityRenderError.tooLong(
                provider: "twitter", count: 281, limit: 280,
                message: "Le texte pour Twitter est trop long : 281/280 caractères. Raccourcissez-le et réessayez.")
        ) {
            try renderer.check(shared, for: "twitter", locale: Self.french)
        }
        // One character less fits; Facebook has no limit.
        var fitting = shared
        fitting.userGeneratedContent = String(words.dropLast())
        try renderer.check(fitting, for: "twitter", locale: Self.french)
        try renderer.check(shared, for: "facebook", locale: Self.french)
    }

    @Test func twitterCountsCJKTwiceURLsAs23AndEmojiAsTwo() {
        let twitter = ShareLimit(maximum: 280, counting: .twitter)
        #expect(twitter.count("abc") == 3)
        #expect(twitter.count("こんにちは") == 10)
        #expect(twitter.count("日本語 https://example.com/a/very/long/path/that/is/longer/than/twenty-three") == 6 + 1 + 23)
        #expect(twitter.count("👍") == 2)
        #expect(twitter.count("👩‍👩‍👧‍👦") == 2)
        #expect(twitter.count("é — “quoted”") == 12)
        // 140 CJK characters fill a tweet; one more does not fit.
        let cjk = String(repeating: "字", count: 140)
        #expect(twitter.count(cjk) == 280)
        #expect(SharingProvider.twitter.excess(of: SharedActivity(action: cjk)) == nil)
        #expect(SharingProvider.twitter.excess(of: SharedActivity(action: cjk + "字"))?.count == 282)
        // LinkedIn counts characters.
        #expect(ShareLimit(maximum: 700, counting: .characters).count("👩‍👩‍👧‍👦字") == 2)
    }

    @Test func statusOnlyWithoutURLForLinkedInAndYahoo() {
        #expect(SharingProvider.linkedin.postsStatus(SharedActivity(action: "x")))
        #expect(!SharingProvider.linkedin.postsStatus(SharedActivity(action: "x", url: "https://example.com")))
        #expect(!SharingProvider.twitter.postsStatus(SharedActivity(action: "x")))
    }
}

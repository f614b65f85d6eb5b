import Foundation
import JumpForms
import Testing
import TestSupport

/// `jump-forms share` (the built binary, embedded server with its Engage double): the flow's
/// activity rendered in the locale, the provider's limit checked before anything is sent, the
/// Engage sign-in that gives the device token, the post, and `jump-forms feed` showing it.
@Suite(.serialized, .timeLimit(.minutes(5))) struct ShareCommandTests {
    typealias Project = PromptTests.Project

    static func feed(_ project: Project) async throws -> [JSONValue] {
        let result = try await project.run(["feed", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        return try JSONValue.parse(result.stdout).arrayValue ?? []
    }

    @Test func sharesTheFrenchActivityAndTheFeedShowsIt() async throws {
        let project = try Project()
        defer { project.folder.remove() }
        try await project.registerAna()
        let share = try await project.run([
            "share", "joined", "--provider", "twitter", "--set", "name=Ana", "--locale", "fr-FR", "--set", "userContent=Enfin !"
        ])
        #expect(share.status == 0, "\(share.stdout)\(share.stderr)")
        #expect(share.stderr.contains("Partagé sur Twitter."), "\(share.stderr)")
        // The words asked for on a plain line (standard input here), in English this time; the
        // device token is the session's now: no second sign-in.
        let again = try await project.run(["share", "joined", "--provider", "twitter", "--set", "name=Bo"], input: "Hello there\n")
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
        #expect(again.stderr.contains("Your words for Twitter (Enter to skip):"), "\(again.stderr)")
        let entries = try await Self.feed(project)
        #expect(entries.count == 2)
        let first = try #require(entries.first)
        #expect(first["provider"]?.stringValue == "twitter")
        #expect(first["kind"]?.stringValue == "activity")
        #expect(first["identifier"]?.stringValue == "twitter:2002")
        #expect(first["activity"]?["action"]?.stringValue == "Ana a rejoint Example.")
        #expect(first["activity"]?["title"]?.stringValue == "Bienvenue sur Example")
        #expect(first["activity"]?["user_generated_content"]?.stringValue == "Enfin !")
        #expect(first["activity"]?["action_links"]?.arrayValue?.first?["text"]?.stringValue == "Essayer l’application")
        #expect(entries.last?["activity"]?["action"]?.stringValue == "Bo joined Example.")
        #expect(entries.last?["activity"]?["user_generated_content"]?.stringValue == "Hello there")
    }

    @Test func anOverlongTweetIsRefusedBeforeAnythingIsSent() async throws {
        let project = try Project()
        defer { project.folder.remove() }
        try await project.registerAna()
        let words = String(repeating: "é", count: 257)
        let share = try await project.run([
            "share", "joined", "--provider", "twitter", "--set", "name=Ana", "--locale", "fr-FR", "--set", "userContent=" + words
        ])
        #expect(share.status == 1, "\(share.stdout)\(share.stderr)")
        #expect(share.stderr.contains("Le texte pour Twitter est trop long : 281/280 caractères."), "\(share.stderr)")
        await #expect(try Self.feed(project).isEmpty)
        // Facebook takes it.
        let facebook = try await project.run([
            "share", "joined", "--provider", "facebook", "--set", "name=Ana", "--set", "userContent=" + words, "--non-interactive"
        ])
        #expect(facebook.status == 0, "\(facebook.stdout)\(facebook.stderr)")
        await #expect(try Self.feed(project).first?["provider"]?.stringValue == "facebook")
    }

    @Test func aStatusOnlyProviderGetsTheWordsAsAStatus() async throws {
        let project = try Project()
        defer { project.folder.remove() }
        let flowPath = project.path + "/flows/standard.yaml"
        let flow = try String(contentsOfFile: flowPath, encoding: .utf8)
            .replacingOccurrences(of: "sharing: [twitter, facebook]", with: "sharing: [twitter, facebook, linkedin]")
            .replacingOccurrences(
                of: "activities:\n", with: "activities:\n  status: { action: activities.joined.action, arguments: [name], userContent: true }\n")
        try project.folder.write("flows/standard.yaml", flow)
        try await project.registerAna()
        let share = try await project.run(["share", "status", "--provider", "linkedin", "--set", "name=Ana", "--set", "userContent=On my way"])
        #expect(share.status == 0, "\(share.stdout)\(share.stderr)")
        let entry = try await #require(try Self.feed(project).first)
        #expect(entry["kind"]?.stringValue == "status", "\(entry)")
        #expect(entry["provider"]?.stringValue == "linkedin")
    }

    @Test func mistakesAreUsageErrorsAndNothingIsSent() async throws {
        let project = try Project()
        defer { project.folder.remove() }
        let unknown = try await project.run(["share", "joind", "--provider", "twitter", "--set", "name=Ana"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("the flow has no activity 'joind' (did you mean 'joined'?)"), "\(unknown.stderr)")
        let argument = try await project.run(["share", "joined", "--provider", "twitter", "--set", "nmae=Ana"])
        #expect(argument.status == 2)
        #expect(argument.stderr.contains("activity 'joined' takes no argument 'nmae'"), "\(argument.stderr)")
        let missing = try await project.run(["share", "joined", "--provider", "twitter"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("activity 'joined' needs --set name=..."), "\(missing.stderr)")
        let provider = try await project.run(["share", "joined", "--provider", "google", "--set", "name=Ana"])
        #expect(provider.status == 2)
        #expect(provider.stderr.contains("the flow does not share with 'google'"), "\(provider.stderr)")
    }

    /// Sharing needs Engage's device sign-in alone, as JREngage's publishing does: no Capture
    /// session. The session file keeps the device token (a second share signs in to nothing),
    /// Capture commands still say "not signed in", and a Capture sign-in afterwards keeps it.
    @Test func sharesWithoutACaptureSignIn() async throws {
        let project = try Project()
        defer { project.folder.remove() }
        let first = try await project.run(["share", "joined", "--provider", "twitter", "--set", "name=Ana", "--set", "userContent=Hello"])
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        #expect(first.stderr.contains("Shared on Twitter."), "\(first.stderr)")
        let whoami = try await project.run(["whoami"])
        #expect(whoami.status == 1 && whoami.stderr.contains("You are not signed in."), "\(whoami.stderr)")
        // The device token is the session file's, kept through the Capture sign-in: the dialog
        // is not walked again (an identity that does not exist would fail it).
        try await project.registerAna()
        let second = try await project.run([
            "share", "joined", "--provider", "twitter", "--set", "name=Bo", "--set", "userContent=Again", "--identity", "twitter:nobody"
        ])
        #expect(second.status == 0, "\(second.stdout)\(second.stderr)")
        let entries = try await Self.feed(project)
        #expect(entries.count == 2 && entries.allSatisfy { $0["identifier"]?.stringValue == "twitter:2002" }, "\(entries)")
    }

    @Test func requestSharePrintsTheRequestWithTheDeviceTokenMasked() async throws {
        let project = try Project()
        defer { project.folder.remove() }
        let arguments = [
            "request", "share", "joined", "--provider", "twitter", "--set", "name=Ana", "--locale", "fr-FR", "--device-token",
            "dt-0123456789", "--format", "json"
        ]
        let masked = try await project.run(arguments)
        #expect(masked.status == 0, "\(masked.stderr)")
        #expect(!masked.stdout.contains("dt-0123456789"))
        let request = try JSONValue.parse(masked.stdout)
        #expect(request["url"]?.stringValue?.hasSuffix("/api/v2/activity") == true, "\(masked.stdout)")
        #expect(masked.stdout.contains("Ana a rejoint Example."), "\(masked.stdout)")
        let shown = try await project.run(arguments + ["--show-secrets"])
        #expect(shown.stdout.contains("dt-0123456789"))
        // No token given and none in the session: a usage error that says how to get one.
        let without = try await project.run(["request", "share", "joined", "--provider", "twitter", "--set", "name=Ana"])
        #expect(without.status == 2)
        #expect(without.stderr.contains("share needs a device token for twitter"), "\(without.stderr)")
        // The limit refuses before printing.
        let long = try await project.run(arguments + ["--set", "userContent=" + String(repeating: "字", count: 200)])
        #expect(long.status == 1)
        #expect(long.stderr.contains("trop long"), "\(long.stderr)")
    }
}

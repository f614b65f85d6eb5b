import Foundation
import Testing
import TestSupport

/// `jump-forms signout` (the built binary, embedded server): the server ends the session
/// before the CLI forgets it, so a copy of the session file no longer works.
@Suite(.serialized, .timeLimit(.minutes(5))) struct SignOutTests {
    /// The sealed session file of the example project's client.
    static func sessionFile(_ project: PromptTests.Project) throws -> String {
        let folder = project.path + "/state/jump-forms"
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasPrefix("session-") })
        return folder + "/" + name
    }

    @Test func signoutRevokesTheSessionAtTheServer() async throws {
        let project = try PromptTests.Project()
        defer { project.folder.remove() }
        try await project.registerAna()
        let file = try Self.sessionFile(project)
        let copy = try #require(FileManager.default.contents(atPath: file))

        let dryRun = try await project.run(["signout", "--dry-run"])
        #expect(dryRun.status == 0, "\(dryRun.stderr)")
        #expect(dryRun.stdout.hasPrefix("POST /oauth/revoke HTTP/1.1"), "\(dryRun.stdout)")
        #expect(dryRun.stdout.contains("token=********") && dryRun.stdout.contains("token_type_hint=access_token"), "\(dryRun.stdout)")
        await #expect(try project.run(["whoami"]).status == 0, "a dry run keeps the session")

        let signout = try await project.run(["signout"])
        #expect(signout.status == 0, "\(signout.stderr)")
        #expect(signout.stderr.contains("You are signed out."))
        #expect(!signout.stderr.contains("could not end"), "\(signout.stderr)")
        #expect(!FileManager.default.fileExists(atPath: file))
        // The forgotten session, put back, is refused by the server: it was revoked.
        #expect(FileManager.default.createFile(atPath: file, contents: copy, attributes: [.posixPermissions: 0o600]))
        let whoami = try await project.run(["whoami"])
        #expect(whoami.status == 1, "\(whoami.stdout)\(whoami.stderr)")
        #expect(whoami.stderr.contains("the access token is not valid"), "\(whoami.stderr)")
        let refresh = try await project.run(["refresh"])
        #expect(refresh.status == 1, "\(refresh.stderr)")
    }
}

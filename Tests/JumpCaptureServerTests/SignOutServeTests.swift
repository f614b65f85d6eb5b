import Foundation
import JumpCapture
import JumpForms
import Testing
import TestSupport
#if canImport(Glibc)
    import Glibc
#endif

/// `jump-forms signout` against a remote server (`jump-forms serve`, both the built binary):
/// the session is revoked there; with the server gone, the session is forgotten all the same
/// and the warning says the server could not end it.
@Suite(.serialized, .timeLimit(.minutes(5))) struct SignOutServeTests {
    @Test func signoutRevokesAtARemoteServerAndSaysSoWhenItIsGone() async throws {
        let project = try ServeProject()
        defer { project.remove() }
        let serve = try ServeProcess(["--port", "0", "--db", project.databasePath], project: project)
        defer { serve.stop() }
        let url = try await serve.waitForURL()
        let config = try String(contentsOfFile: project.path + "/jump.yaml", encoding: .utf8)
        try project.folder.write("jump.yaml", config.replacingOccurrences(of: "captureDomain: embedded", with: "captureDomain: \(url)"))
        let answers = try project.folder.write("ana.yaml", ExampleAnswers.anaRegistration)
        let register = try await project.run(["register", "--non-interactive", "--answers", answers])
        #expect(register.status == 0, "\(register.stdout)\(register.stderr)")
        let folder = project.path + "/state/jump-forms"
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasPrefix("session-") })
        let file = folder + "/" + name
        let copy = try #require(FileManager.default.contents(atPath: file))

        let signout = try await project.run(["signout"])
        #expect(signout.status == 0, "\(signout.stderr)")
        #expect(signout.stderr == "You are signed out.\n", "\(signout.stderr)")
        #expect(FileManager.default.createFile(atPath: file, contents: copy, attributes: [.posixPermissions: 0o600]))
        let whoami = try await project.run(["whoami"])
        #expect(whoami.status == 1 && whoami.stderr.contains("the access token is not valid"), "\(whoami.stderr)")

        let signin = try await project.run([
            "signin", "--non-interactive", "--set", "signInEmailAddress=ana@example.com",
            "--set", "currentPassword=correct horse battery"
        ])
        #expect(signin.status == 0, "\(signin.stderr)")
        serve.signal(SIGTERM)
        #expect(await serve.waitForExit()?.status == 0)
        let unreachable = try await project.run(["signout"])
        #expect(unreachable.status == 0, "\(unreachable.stderr)")
        #expect(unreachable.stderr.contains("The server could not end your session ("), "\(unreachable.stderr)")
        #expect(unreachable.stderr.contains("the session stays valid at the server until it expires"), "\(unreachable.stderr)")
        #expect(unreachable.stderr.hasSuffix("You are signed out.\n"), "\(unreachable.stderr)")
        #expect(!FileManager.default.fileExists(atPath: file))
    }
}

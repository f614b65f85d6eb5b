import Foundation
import JumpCaptureServer
import Testing
import TestSupport

/// `EmbeddedCaptureServer.start` returns once the server listens, or throws when it cannot:
/// the preview's reload restarts its server on the port it had, which another process may
/// have taken meanwhile.
@Suite(.timeLimit(.minutes(1))) struct EmbeddedServerStartTests {
    @Test func aPortInUseIsAnErrorNotAWait() async throws {
        let folder = try TemporaryFolder("embedded-start")
        defer { folder.remove() }
        let setup = CaptureServerSetup(
            config: ServerFixtures.config, flow: ServerFixtures.flow, localizer: ServerFixtures.localizer,
            databasePath: folder.path + "/capture.sqlite")
        let first = try await EmbeddedCaptureServer.start(setup, logger: ServerFixtures.quietLogger)
        let port = try #require(URLComponents(string: first.url)?.port)
        await #expect(throws: (any Error).self) {
            let second = try await EmbeddedCaptureServer.start(setup, port: port, logger: ServerFixtures.quietLogger)
            await second.stop()
        }
        await first.stop()
    }
}

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

    /// `stop()` closes the server's database connections (the preview starts a server on each
    /// reload): no descriptor of the process is left on the database file.
    @Test func stopClosesTheDatabase() async throws {
        let folder = try TemporaryFolder("embedded-stop")
        defer { folder.remove() }
        let path = folder.path + "/capture.sqlite"
        let setup = CaptureServerSetup(
            config: ServerFixtures.config, flow: ServerFixtures.flow, localizer: ServerFixtures.localizer, databasePath: path)
        let server = try await EmbeddedCaptureServer.start(setup, logger: ServerFixtures.quietLogger)
        _ = try await server.server.outbox()
        #expect(try Self.descriptors(on: path) > 0)
        await server.stop()
        #expect(try Self.descriptors(on: path) == 0)
    }

    /// The process's open descriptors on `path` (its WAL and shared-memory files included).
    static func descriptors(on path: String) throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").filter { fd in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + fd) else { return false }
            return target.hasPrefix(path)
        }.count
    }
}

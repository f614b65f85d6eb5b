import Foundation
import JumpCapture
import JumpCaptureNIO
import JumpCaptureServer
import JumpForms
import Synchronization
import Testing
import TestSupport
#if canImport(Glibc)
    import Glibc
#endif

/// kill -9 in the middle of a registration load: after a restart on the same database, every
/// registration the server acknowledged is there and can sign in.
@Suite(.timeLimit(.minutes(5))) struct CrashRecoveryTests {
    @Test func everyAcknowledgedRegistrationSurvivesKill9() async throws {
        let project = try ServeProject()
        defer { project.remove() }
        // The sign-ins after the restart all come at once: a password-hash queue for all of them.
        let written = try String(contentsOfFile: project.path + "/jump.yaml", encoding: .utf8)
        try project.folder.write("jump.yaml", written + "  passwordHashQueue: 10000\n")
        let serve = try ServeProcess(["--port", "0", "--db", project.databasePath], project: project)
        defer { serve.stop() }
        let url = try await serve.waitForURL()
        let config = ServerFixtures.project.config!
        let builder = RequestBuilder(
            config: config, flow: ServerFixtures.flow, localizer: ServerFixtures.localizer,
            locale: ServerFixtures.english, capture: ServerURL(url)!)
        let transport = AsyncHTTPTransport(timeoutSeconds: 10, client: ServerFixtures.client)
        let decoder = ResponseDecoder(flow: ServerFixtures.flow, config: config)

        let tally = Tally()
        let workers = 16
        let started = Date()
        let load = Task {
            await withTaskGroup(of: Void.self) { group in
                for worker in 0..<workers {
                    group.addTask {
                        var index = 0
                        while !Task.isCancelled {
                            let email = "user\(worker)-\(index)@example.com"
                            index += 1
                            guard
                                let request = try? builder.register(
                                    ServerFixtures.registration(email: email, displayName: "user\(worker)_\(index)"),
                                    refreshSecret: .generate(), today: ServerFixtures.today)
                            else { return }
                            tally.attempted.add(1, ordering: .relaxed)
                            guard let answer = try? await transport.send(request) else { return }  // the server is gone
                            if case .success(.signedIn) = decoder.decode(.register, status: answer.status, body: answer.body) {
                                tally.acknowledged.withLock { $0.append(email) }
                            }
                        }
                    }
                }
            }
        }
        // Let the load run until a good number of registrations went through, then kill -9:
        // 150, or at least 20 once 8 s have passed (a loaded machine answers slowly), or
        // whatever came within 80 s.
        while case let count = tally.acknowledged.withLock({ $0.count }), count < 150,
            case let elapsed = Date().timeIntervalSince(started), elapsed < 80, count < 20 || elapsed < 8
        {
            try await Task.sleep(for: .milliseconds(10))
        }
        serve.signal(SIGKILL)
        let killed = await serve.waitForExit()
        #expect(killed?.signaled == true)
        await load.value
        let acked = tally.acknowledged.withLock { $0 }
        #expect(acked.count >= 20, "too few registrations before the kill: \(acked.count)")
        #expect(tally.attempted.load(ordering: .relaxed) > acked.count, "the kill should interrupt requests in flight")

        // Restart on the same database: every acknowledged account signs in.
        let again = try ServeProcess(["--port", "0", "--db", project.databasePath], project: project)
        defer { again.stop() }
        let secondURL = try await again.waitForURL()
        let second = RequestBuilder(
            config: config, flow: ServerFixtures.flow, localizer: ServerFixtures.localizer,
            locale: ServerFixtures.english, capture: ServerURL(secondURL)!)
        let missing = await withTaskGroup(of: String?.self) { group in
            for (offset, email) in acked.enumerated() {
                group.addTask {
                    _ = offset
                    guard
                        let request = try? second.signIn(
                            ["signInEmailAddress": email, "currentPassword": ServerFixtures.password],
                            refreshSecret: .generate(), today: ServerFixtures.today),
                        let answer = try? await transport.send(request),
                        case .success(.signedIn) = decoder.decode(.signIn, status: answer.status, body: answer.body)
                    else { return email }
                    return nil
                }
            }
            var missing: [String] = []
            for await email in group { if let email { missing.append(email) } }
            return missing
        }
        #expect(missing.isEmpty, "acknowledged but lost: \(missing.sorted())")
        again.signal(SIGTERM)
        await #expect(await again.waitForExit()?.status == 0)

        // The file itself: no more accounts than attempts, at least as many as acknowledged.
        let setup = CaptureServerSetup(
            config: ServerFixtures.config, flow: ServerFixtures.flow, localizer: ServerFixtures.localizer,
            databasePath: project.databasePath)
        let count = try await CaptureServer(setup: setup, logger: ServerFixtures.quietLogger).accountCount()
        #expect(count >= acked.count)
        #expect(count <= tally.attempted.load(ordering: .relaxed))
        print("kill -9 test: \(tally.attempted.load(ordering: .relaxed)) registrations sent, \(acked.count) acknowledged, \(count) stored, 0 lost")
    }
}

/// What the load saw: registrations sent and acknowledged.
final class Tally: Sendable {
    let acknowledged = Mutex<[String]>([])
    let attempted = Atomic<Int>(0)
}

import AsyncHTTPClient
import Foundation
import JumpCapture
import JumpCaptureNIO
@testable import JumpCaptureServer
import JumpForms
import Logging
import Synchronization
import Testing
import TestSupport
#if canImport(Glibc)
    import Glibc
#endif

/// Guessing slowed down: failed password checks lock the account and the client address with
/// doubling waits (510 `retry_after`, before any bcrypt), emails per address are capped, the
/// bcrypt queue is bounded, failures are logged. The server's clock is the test's: no sleeps.
@Suite(.timeLimit(.minutes(5))) struct SignInThrottleTests {
    static let email = "ana.ruiz@example.com"

    /// A sign-in's raw answer: HTTP status, `Retry-After`, and the decoded Capture answer.
    static func signIn(
        _ server: TestServer, _ email: String, _ password: String,
        locale: LocaleTag = ServerFixtures.english
    ) async throws -> (status: Int, retryAfterHeader: String?, result: Result<CaptureSuccess, CaptureError>) {
        let request = try server.builder(locale).signIn(
            ["signInEmailAddress": email, "currentPassword": password], refreshSecret: .generate(),
            today: server.today)
        let answer = try await server.raw(.POST, request.path, body: request.body)
        let result = server.decoder.decode(.signIn, status: answer.status, body: Array(answer.body.utf8))
        return (answer.status, answer.headers.first(name: "retry-after"), result)
    }

    /// The account's fifth wrong password locks it for 1 s, the sixth for 2 s...; while locked
    /// even the right password is refused, uncompared; after the wait it works, and the count
    /// starts over.
    @Test func wrongPasswordsLockTheAccountWithDoublingWaits() async throws {
        try await withServer { server in
            try await server.register()
            let work = server.server.service.passwordWork
            for attempt in 1...5 {
                let answer = try await Self.signIn(server, Self.email, "wrong \(attempt)")
                #expect(answer.result.code == 210, "attempt \(attempt): \(answer.result)")
            }
            // Locked for 1 s: the right password is not even compared.
            let runs = work.runs
            let locked = try await Self.signIn(server, Self.email, ServerFixtures.password)
            #expect(locked.result.code == 510, "\(locked.result)")
            #expect(locked.result.error?.serverError?.error == "api_limit_error")
            #expect(locked.result.error?.serverError?.retryAfter == 1)
            #expect(locked.status == 429)
            #expect(locked.retryAfterHeader == "1")
            #expect(work.runs == runs, "a throttled attempt ran bcrypt")
            // The sixth failure doubles the wait; the answer is in the request's locale.
            server.clock.advance(1)
            #expect(try await Self.signIn(server, Self.email, "wrong 6").result.code == 210)
            let french = try await Self.signIn(server, Self.email, ServerFixtures.password, locale: ServerFixtures.french)
            #expect(french.result.error?.serverError?.retryAfter == 2)
            #expect(french.result.error?.serverError?.description == "Trop de tentatives. Réessayez dans 2 secondes.", "\(french.result)")
            server.clock.advance(1)
            #expect(try await Self.signIn(server, Self.email, ServerFixtures.password).result.error?.serverError?.retryAfter == 1)
            // After the wait, the right password works, and the count starts over.
            server.clock.advance(1)
            #expect(try await Self.signIn(server, Self.email, ServerFixtures.password).result.signedIn != nil)
            #expect(try await Self.signIn(server, Self.email, "wrong again").result.code == 210)
            #expect(try await Self.signIn(server, Self.email, "wrong again").result.code == 210)
        }
    }

    /// Waits double up to `signInMaximumWait`; an account that does not exist is throttled
    /// the same way (the answers do not tell which accounts exist); a count starts over after
    /// `signInFailureReset` without failures.
    @Test func waitsAreCappedAndUnknownAccountsAreThrottledAlike() async throws {
        try await withServer(configure: {
            $0.server.signInFailureLimit = 2
            $0.server.signInWait = 10
            $0.server.signInMaximumWait = 30
            $0.server.signInFailureReset = 3600
            $0.server.clientFailureLimit = 0
        }) { server in
            try await server.register()
            for email in [Self.email, "nobody@example.com"] {
                var waits: [Int] = []
                for _ in 1...5 {
                    // Fail until locked, note the wait, let it pass.
                    var answer = try await Self.signIn(server, email, "wrong")
                    while answer.result.code == 210 { answer = try await Self.signIn(server, email, "wrong") }
                    let wait = try #require(answer.result.error?.serverError?.retryAfter, "\(answer.result)")
                    waits.append(wait)
                    server.clock.advance(wait)
                }
                #expect(waits == [10, 20, 30, 30, 30], "\(email)")
            }
            // An hour without failures: the count starts over (two more failures before a lock).
            server.clock.advance(3600)
            #expect(try await Self.signIn(server, "nobody@example.com", "wrong").result.code == 210)
            #expect(try await Self.signIn(server, "nobody@example.com", "wrong").result.code == 210)
            #expect(try await Self.signIn(server, "nobody@example.com", "wrong").result.code == 510)
        }
    }

    /// Failures from one client address across many accounts lock the address; successes
    /// from it do not start its count over; the lock ends after its wait.
    @Test func burstsFromOneAddressSlowDown() async throws {
        try await withServer(.socket, configure: { $0.server.clientFailureLimit = 3 }) { server in
            try await server.register()
            for index in 1...3 {
                #expect(try await Self.signIn(server, "guess\(index)@example.com", "wrong").result.code == 210)
            }
            // Every account from this address waits now, the right password included.
            let locked = try await Self.signIn(server, Self.email, ServerFixtures.password)
            #expect(locked.result.code == 510, "\(locked.result)")
            #expect(locked.result.error?.serverError?.retryAfter == 1)
            server.clock.advance(1)
            #expect(try await Self.signIn(server, Self.email, ServerFixtures.password).result.signedIn != nil)
            // The success did not reset the address: the next failure locks it again, longer.
            #expect(try await Self.signIn(server, "guess4@example.com", "wrong").result.code == 210)
            #expect(try await Self.signIn(server, "guess5@example.com", "wrong").result.error?.serverError?.retryAfter == 2)
        }
    }

    /// Concurrent guesses at an account with failures are taken one at a time: the limit holds
    /// however many arrive together.
    @Test func concurrentGuessesDoNotOvershootTheLimit() async throws {
        try await withServer(configure: {
            $0.server.signInFailureLimit = 3; $0.server.clientFailureLimit = 0
        }) { server in
            try await server.register()
            #expect(try await Self.signIn(server, Self.email, "wrong").result.code == 210)
            let codes = try await withThrowingTaskGroup(of: Int?.self) { group in
                for index in 0..<12 { group.addTask { try await Self.signIn(server, Self.email, "wrong \(index)").result.code } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            // One failure before, at most two more compared, the rest refused.
            #expect(codes.filter { $0 == 210 }.count <= 2, "\(codes)")
            #expect(codes.filter { $0 == 210 }.count >= 1, "\(codes)")
            #expect(codes.allSatisfy { $0 == 210 || $0 == 510 }, "\(codes)")
        }
    }

    /// The change-password form's current password counts against the same account.
    @Test func theCurrentPasswordCheckIsThrottledToo() async throws {
        try await withServer(configure: { $0.server.signInFailureLimit = 2 }) { server in
            let (session, _) = try await server.register()
            func change(_ current: String) async throws -> Result<CaptureSuccess, CaptureError> {
                try await server.send(
                    try server.builder().changePassword(
                        ["currentPassword": current, "newPassword": "a new horse battery", "newPasswordConfirm": "a new horse battery"],
                        accessToken: session.accessToken, today: server.today))
            }
            #expect(try await change("wrong 1").code == 390)
            #expect(try await change("wrong 2").code == 390)
            #expect(try await change(ServerFixtures.password).code == 510)
            // The account is locked for sign-ins as well.
            #expect(try await Self.signIn(server, Self.email, ServerFixtures.password).result.code == 510)
            server.clock.advance(1)
            #expect(try await change(ServerFixtures.password).isOK)
        }
    }

    /// At most `emailsPerAddress` reset and verification emails per address per window; the
    /// requests still answer ok, for any address.
    @Test func emailsPerAddressAreCapped() async throws {
        try await withServer(configure: {
            $0.server.emailsPerAddress = 2; $0.server.emailWindow = 3600
        }) { server in
            try await server.register()
            func sent() async throws -> Int {
                try await server.server.outbox().filter { $0.recipient == Self.email }.count
            }
            let afterRegistration = try await sent()
            for _ in 1...4 {
                #expect(try await server.send(try server.builder().forgotPassword(["signInEmailAddress": Self.email], today: server.today)).isOK)
            }
            #expect(try await server.send(try server.builder().resendVerification(["signInEmailAddress": Self.email], today: server.today)).isOK)
            #expect(
                try await server.send(try server.builder().forgotPassword(["signInEmailAddress": "NOBODY@example.com"], today: server.today)).isOK)
            #expect(try await sent() == afterRegistration + 2)
            // The window moves on.
            server.clock.advance(3600)
            #expect(
                try await server.send(try server.builder().forgotPassword(["signInEmailAddress": "Ana.Ruiz@Example.com"], today: server.today)).isOK)
            #expect(try await sent() == afterRegistration + 3)
        }
    }

    /// A flood of sign-ins cannot queue bcrypt work without end: beyond `passwordHashQueue`
    /// waiting hashes a request answers 510 (HTTP 503, `Retry-After: 1`) at once, and the
    /// server signs people in again as soon as the flood stops.
    @Test func aFloodOfSignInsIsRefusedBeyondTheHashQueue() async throws {
        try await withServer(configure: {
            $0.server.bcryptCost = 8
            $0.server.passwordHashQueue = 1
            $0.server.signInFailureLimit = 0
            $0.server.clientFailureLimit = 0
        }) { server in
            try await server.register()
            let answers = try await withThrowingTaskGroup(of: (Int, Int?).self) { group in
                for index in 0..<24 {
                    group.addTask {
                        let answer = try await Self.signIn(server, "flood\(index)@example.com", "wrong")
                        return (answer.status, answer.result.code)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let refused = answers.filter { $0.1 == 510 }
            #expect(!refused.isEmpty, "\(answers)")
            #expect(refused.allSatisfy { $0.0 == 503 }, "\(answers)")
            #expect(answers.allSatisfy { $0.1 == 210 || $0.1 == 510 }, "\(answers)")
            #expect(server.server.service.passwordWork.load == (0, 0))
            #expect(try await Self.signIn(server, Self.email, ServerFixtures.password).result.signedIn != nil)
        }
    }

    /// `jump-forms signin` against `jump-forms serve`: the 510's wait, in the user's locale.
    @Test func theCLISaysTheWaitInTheUsersLocale() async throws {
        let project = try ServeProject()
        defer { project.remove() }
        let config = try String(contentsOfFile: project.path + "/jump.yaml", encoding: .utf8)
        try project.folder.write("jump.yaml", config + "  signInFailureLimit: 1\n  signInWait: 600\n")
        let serve = try ServeProcess(["--port", "0", "--db", project.databasePath], project: project)
        defer { serve.stop() }
        let url = try await serve.waitForURL()
        try project.folder.write("client.yaml", config.replacingOccurrences(of: "captureDomain: embedded", with: "captureDomain: \(url)"))
        let signIn = [
            "signin", "--config", "client.yaml", "--non-interactive", "--set", "signInEmailAddress=nobody@example.com",
            "--set", "currentPassword=a wrong guess"
        ]
        let first = try await project.run(signIn + ["--locale", "fr-FR"])
        #expect(first.status == 1, "\(first.stdout)\(first.stderr)")
        let french = try await project.run(signIn + ["--locale", "fr-FR"])
        #expect(french.status == 1)
        #expect(french.stderr == "Trop de tentatives\u{A0}: le serveur demande d’attendre 10 minutes avant de réessayer.\n", "\(french.stderr)")
        let polish = try await project.run(signIn + ["--locale", "pl-PL"])
        #expect(polish.stderr == "Zbyt wiele prób: serwer prosi, aby spróbować ponownie za 10 minut.\n", "\(polish.stderr)")
        serve.signal(SIGTERM)
        #expect(await serve.waitForExit()?.status == 0)
    }

    /// Failed sign-ins are logged at info with the identifier and the client address, never
    /// the password; so are refused ones.
    @Test func failedSignInsAreLoggedWithoutThePassword() async throws {
        let lines = RecordedLog()
        var logger = Logger(label: "jump-forms.test") { _ in lines }
        logger.logLevel = .info
        let server = try await TestServer.start(configure: { $0.server.signInFailureLimit = 2 }, logger: logger)
        let secret = "Secret-Guess-\u{1B}[31m-42"
        do {
            for _ in 1...3 { _ = try await Self.signIn(server, "mallory@example.com", secret) }
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
        let text = lines.text
        #expect(text.contains(#"info: failed sign-in for "mallory@example.com" from 127.0.0.1 (1 in a row for this account)"#), "\(text)")
        #expect(text.contains(#"info: failed sign-in for "mallory@example.com" from 127.0.0.1 (2 in a row for this account)"#), "\(text)")
        #expect(
            text.contains(#"info: sign-in for "mallory@example.com" from 127.0.0.1 refused unchecked: too many failed attempts (1 s to wait)"#),
            "\(text)")
        #expect(!text.contains("Secret-Guess"), "the password reached the log")
        #expect(!text.contains("\u{1B}"))
    }
}

/// A log handler that keeps `<level>: <message>` lines.
final class RecordedLog: LogHandler, @unchecked Sendable {
    private let lines = Mutex<[String]>([])
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lines.withLock { $0.append("\(event.level): \(event.message)") }
    }

    var text: String { lines.withLock { $0.joined(separator: "\n") } }
}

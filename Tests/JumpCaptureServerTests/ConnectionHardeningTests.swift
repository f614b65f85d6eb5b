import Foundation
import JumpCapture
@testable import JumpCaptureServer
import JumpForms
import Testing
import TestSupport
#if canImport(Glibc)
    import Glibc
#endif

/// HTTP as the documentation says, over real sockets with short injected timeouts: the idle
/// and request timeouts (a 408, not a silent close), `Host`, `Content-Encoding`, and the cap
/// on open connections.
@Suite(.timeLimit(.minutes(5))) struct ConnectionHardeningTests {
    func expectError(_ answer: RawHTTP.Answer, status: Int, code: Int, _ comment: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        #expect(answer.status == status, "\(comment): \(answer.head)", sourceLocation: sourceLocation)
        let json = try? JSONValue.parse(Array(answer.body.utf8))
        #expect(json?["code"] == .integer(code), "\(comment): \(answer.body)", sourceLocation: sourceLocation)
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// Runs blocking socket calls on a thread of their own.
    static func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
        }
    }

    /// Whether the server closed `fd` (end of stream or reset) within `milliseconds`, having
    /// sent nothing.
    static func closedByServer(_ fd: Int32, within milliseconds: Int32) -> Bool {
        var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&waiting, 1, milliseconds) > 0 else { return false }
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_DONTWAIT)) <= 0
    }

    /// A request head sent a byte every 300 ms used to be closed, unanswered, at the idle
    /// timeout (Hummingbird's idle timer counts decoded HTTP parts, and a head arriving byte by
    /// byte is none): it is answered 408 at the request timeout, as documented.
    @Test func aHeaderDripGets408AtTheRequestTimeoutNotASilentClose() async throws {
        try await withServer(.socket, idleTimeout: .seconds(1), requestTimeout: .seconds(3)) { server in
            let port = try #require(server.url.port)
            let head = "POST /oauth/auth_native HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            let drip = "X-Slow: " + String(repeating: "a", count: 40)
            let start = ContinuousClock.now
            let answer = try await RawHTTP.paced(port: port, [Array(head.utf8)] + drip.utf8.map { [$0] }, interval: .milliseconds(300))
            let seconds = Self.seconds(since: start)
            expectError(answer, status: 408, code: 408, "header drip")
            #expect(answer.head.lowercased().contains("connection: close"), "\(answer.head)")
            #expect(seconds >= 2.5 && seconds < 6, "answered after \(seconds) s")
        }
    }

    /// Silence in the middle of a request gets a 408 at the idle timeout; silence between
    /// requests closes the connection quietly at the idle timeout. (The request timeout is far
    /// from it, 30 s against 1 s, so that a slow test process still tells one from the other.)
    @Test func silenceIsAnswered408MidRequestAndClosedQuietlyBetweenRequests() async throws {
        try await withServer(.socket, idleTimeout: .seconds(1), requestTimeout: .seconds(30)) { server in
            let port = try #require(server.url.port)
            for (name, partial) in [
                ("head", "POST /oauth/auth_native HTTP/1.1\r\nHost: 127.0.0.1\r\n"),
                ("body", "POST /oauth/auth_native HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\nabc")
            ] {
                let start = ContinuousClock.now
                let answer = try await RawHTTP.exchange(port: port, Array(partial.utf8))
                let seconds = Self.seconds(since: start)
                expectError(answer, status: 408, code: 408, name)
                #expect(seconds >= 0.8 && seconds < 15, "\(name): answered after \(seconds) s")
            }
            // Nothing sent: closed without an answer.
            let start = ContinuousClock.now
            let silent = try await RawHTTP.exchange(port: port, [])
            #expect(silent.head.isEmpty && silent.body.isEmpty, "\(silent)")
            #expect(Self.seconds(since: start) < 15)
            // After an answer: kept open for the idle timeout, then closed quietly.
            let kept = try await RawHTTP.exchange(port: port, Array("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
            #expect(kept.status == 200)
            #expect(kept.body == #"{"stat":"ok"}"#, "\(kept.body)")
        }
    }

    /// An HTTP/1.1 request without `Host` (or with two) is 400; HTTP/1.0 needs none.
    @Test func http11NeedsOneHost() async throws {
        try await withServer(.socket) { server in
            let port = try #require(server.url.port)
            for (name, request) in [
                ("no Host", "GET /health HTTP/1.1\r\n\r\n"),
                ("two Hosts", "GET /health HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"),
                ("POST without Host", "POST /oauth/auth_native HTTP/1.1\r\nContent-Length: 3\r\n\r\nx=1")
            ] {
                let answer = try await RawHTTP.exchange(port: port, Array(request.utf8))
                expectError(answer, status: 400, code: 400, name)
                #expect(answer.body.contains("Host"), "\(name): \(answer.body)")
                #expect(answer.head.lowercased().contains("connection: close"), "\(name): \(answer.head)")
            }
            let old = try await RawHTTP.exchange(port: port, Array("GET /health HTTP/1.0\r\n\r\n".utf8))
            #expect(old.status == 200, "\(old.head)")
            let empty = try await RawHTTP.exchange(port: port, Array("GET /health HTTP/1.1\r\nHost:\r\nConnection: close\r\n\r\n".utf8))
            #expect(empty.status == 200, "an empty Host is a Host: \(empty.head)")
        }
    }

    /// A body with a `Content-Encoding` the server does not undo is 415, not read as plain text.
    @Test func anUnsupportedContentEncodingIs415() async throws {
        try await withServer(.socket) { server in
            let port = try #require(server.url.port)
            for coding in ["gzip", "br", "identity, gzip"] {
                let request =
                    "POST /oauth/forgot_password_native HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                    + "Content-Encoding: \(coding)\r\nContent-Length: 10\r\n\r\n\u{1F}\u{8B}\u{08}\u{00}abcdef"
                let answer = try await RawHTTP.exchange(port: port, Array(request.utf8))
                expectError(answer, status: 415, code: 415, coding)
                #expect(answer.body.contains("unsupported_content_encoding"), "\(answer.body)")
                #expect(answer.head.lowercased().contains("accept-encoding: identity"), "\(answer.head)")
            }
            // `identity` is no coding at all.
            let plain = try server.builder().forgotPassword(["signInEmailAddress": "ana.ruiz@example.com"], today: server.today)
            let body = String(decoding: plain.body, as: UTF8.self)
            let request =
                "POST \(plain.path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Encoding: identity\r\n"
                + "Content-Length: \(plain.body.count)\r\nConnection: close\r\n\r\n" + body
            let answer = try await RawHTTP.exchange(port: port, Array(request.utf8))
            #expect(answer.body == #"{"stat":"ok"}"#, "\(answer.head)\n\(answer.body)")
        }
    }

    /// Sends a keep-alive `GET /health` on `fd` and reads its answer: once it is back the
    /// server has the connection, idle since that answer.
    static func health(_ fd: Int32) -> Bool {
        RawHTTP.send(fd, Array("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !String(decoding: received, as: UTF8.self).hasSuffix(#"{"stat":"ok"}"#) {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return false }
            received += chunk[0..<count]
        }
        return true
    }

    /// At the connection cap, the longest-idle connection makes room for a new client; when
    /// every connection is busy, the new one is closed at once; a freed place serves again.
    /// The order of idleness comes from answered requests, not from waiting.
    @Test func theConnectionCapEvictsIdleSocketsAndRefusesWhenAllAreBusy() async throws {
        try await withServer(.socket, configure: { $0.server.maximumConnections = 4 }) { server in
            let port = try #require(server.url.port)
            // Four idle sockets fill the server, idle since their answers, oldest first.
            var idle: [Int32] = []
            defer { idle.forEach { close($0) } }
            for _ in 0..<4 {
                let fd = try RawHTTP.connect(port: port)
                idle.append(fd)
                #expect(try await Self.blocking { Self.health(fd) })
            }
            // A new client is served: the oldest idle socket is closed for it, the others stay.
            let served = try await RawHTTP.exchange(port: port, Array("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
            #expect(served.status == 200, "\(served.head)")
            let first = idle[0]
            #expect(try await Self.blocking { Self.closedByServer(first, within: 2000) }, "the oldest idle socket is still open")
            let second = idle[1]
            #expect(try await Self.blocking { Self.health(second) }, "an idle socket that was not the oldest was closed")
            // Four sockets in the middle of a request: busy, none is closed for a new one.
            var busy: [Int32] = []
            defer { busy.forEach { close($0) } }
            for fd in idle.dropFirst() {
                RawHTTP.send(fd, Array("POST /oauth/auth_native HTTP/1.1\r\nHost: 127.0.0.1\r\n".utf8))
            }
            let fourth = try RawHTTP.connect(port: port)
            busy.append(fourth)
            #expect(try await Self.blocking { Self.health(fourth) })
            RawHTTP.send(fourth, Array("POST /oauth/auth_native HTTP/1.1\r\nHost: 127.0.0.1\r\n".utf8))
            // The server reads those partial heads on its event loop: wait until it counts the
            // four connections busy (the request timeout is 60 s).
            let connections = server.server.connections
            #expect(try await waitFor("four busy connections") { connections.busyCount == 4 })
            let start = ContinuousClock.now
            let refused = try await RawHTTP.exchange(port: port, Array("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
            #expect(refused.status == 0 && refused.body.isEmpty, "\(refused)")
            #expect(Self.seconds(since: start) < 3)
            for fd in idle.dropFirst() + busy {
                #expect(!(try await Self.blocking { Self.closedByServer(fd, within: 100) }), "a busy connection was closed")
            }
            // A place frees (the server sees the close): served again.
            let freed = busy.removeFirst()
            shutdown(freed, Int32(SHUT_RDWR))
            close(freed)
            var again = RawHTTP.Answer(status: 0, head: "", body: "")
            for _ in 0..<300 where again.status != 200 {
                again = try await RawHTTP.exchange(port: port, Array("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
            }
            #expect(again.status == 200, "\(again.head)")
        }
    }
}

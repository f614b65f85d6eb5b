import Foundation
import JumpCapture
@testable import JumpCaptureServer
import JumpForms
import Testing
import TestSupport

/// Requests the server refuses at the HTTP level get Capture-shaped JSON: too large (the query
/// string counts), unparsable, a method the path does not take (with `Allow`, and HEAD where GET is).
@Suite(.timeLimit(.minutes(5))) struct CaptureHTTPErrorTests {
    /// The query string counts against `maximumRequestSize`, alone and with the body.
    @Test func theQueryStringCountsAgainstTheRequestLimit() async throws {
        try await withServer { server in
            let limit = server.config.server.maximumRequestSize
            let long = try await server.raw(.GET, "/entity?access_token=t&attribute_name=" + String(repeating: "a", count: limit))
            #expect(long.status == 413, "\(long.body)")
            let json = try JSONValue.parse(Array(long.body.utf8))
            #expect(json["stat"] == "error")
            #expect(json["code"] == .integer(413))
            #expect(json["error_description"]?.stringValue?.contains("query string") == true)
            // Under the limit: read, and refused for what it says.
            let short = try await server.raw(.GET, "/entity?access_token=t&attribute_name=" + String(repeating: "a", count: limit / 2))
            #expect(short.status == 200)
        }
        try await withServer(configure: { $0.server.maximumRequestSize = 1024 }) { server in
            let half = String(repeating: "b", count: 600)
            let both = try await server.raw(.POST, "/entity?attribute_name=" + half, form: "client_id=x&value=" + half)
            #expect(both.status == 413, "\(both.body)")
            #expect(try JSONValue.parse(Array(both.body.utf8))["code"] == .integer(413))
            let fits = String(repeating: "b", count: 300)
            let small = try await server.raw(.POST, "/entity?attribute_name=" + fits, form: "client_id=x&value=" + fits)
            #expect(small.status == 200)
            #expect(small.body.contains("\"stat\":\"error\""))
        }
    }

    /// What the HTTP parser refuses before any route runs gets Capture JSON too, not a bare 400.
    @Test func requestsTheParserRefusesGetCaptureJSON() async throws {
        try await withServer(.socket) { server in
            let port = try #require(server.url.port)
            let cases: [(name: String, request: String, status: Int)] = [
                ("garbage request line", "HELLO\u{1}THERE\r\n\r\n", 400),
                ("bad Content-Length", "POST /entity HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: abc\r\n\r\n", 400),
                ("two Content-Lengths", "POST /entity HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabc", 400),
                ("huge header", "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + String(repeating: "h", count: 82 * 1024) + "\r\n\r\n", 431),
                ("huge URL", "GET /health?" + String(repeating: "q", count: 82 * 1024) + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 431)
            ]
            for (name, request, status) in cases {
                let answer = try await RawHTTP.exchange(port: port, Array(request.utf8))
                #expect(answer.status == status, "\(name): \(answer.head)")
                #expect(answer.head.lowercased().contains("content-type: application/json"), "\(name): \(answer.head)")
                let json = try? JSONValue.parse(Array(answer.body.utf8))
                #expect(json?["stat"] == "error", "\(name): \(answer.body)")
                #expect(json?["code"] == .integer(status), "\(name): \(answer.body)")
                #expect(json?["error_description"]?.stringValue != nil, "\(name)")
            }
            // The server keeps serving.
            #expect(try await server.raw(.GET, "/health").status == 200)
        }
    }

    @Test func methodNotAllowedNamesTheMethodsAndHEADWorks() async throws {
        try await withServer { server in
            for (method, path, allowed) in [
                (HTTPMethodName.POST, "/health", "GET, HEAD"), (.GET, "/oauth/auth_native_traditional", "POST"),
                (.PUT, "/entity", "POST, GET, HEAD"), (.DELETE, "/password/reset", "GET, POST, HEAD")
            ] {
                let answer = try await server.raw(method.nio, path)
                #expect(answer.status == 405, "\(method) \(path)")
                #expect(answer.headers.first(name: "allow") == allowed, "\(method) \(path)")
            }
            let head = try await server.raw(.HEAD, "/health")
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.headers.first(name: "content-type")?.hasPrefix("application/json") == true)
        }
    }
}

import AsyncHTTPClient
import JumpForms
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import Testing

enum SDK: String, Sendable {
    case iOS = "iOS 5.5"
    case android = "Android 7.3.0"
}

/// One request exactly as an SDK puts it on the wire: method, path with query, header fields
/// and body bytes, and the SDK source lines it transcribes.
struct SDKRequest: Sendable, CustomStringConvertible {
    var sdk: SDK
    /// `File.m:12-34` of the SDK.
    var source: String
    var method: HTTPMethod
    /// Path and query, byte for byte (`/oauth/auth_native?client_id=...`).
    var target: String
    var headers: [(name: String, value: String)]
    /// nil: no body at all (a GET, or iOS's query-only POST).
    var body: String?

    var description: String {
        "\(sdk.rawValue) \(source): \(method.rawValue) \(target)" + (body.map { "\n  body: \($0)" } ?? "")
    }

    func header(_ name: String) -> String? {
        headers.last { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The form parameters the body holds (decoded as a server would), for building the next
    /// request of a flow.
    var bodyParameters: [String: String] {
        var result: [String: String] = [:]
        for part in (body ?? "").split(separator: "&") {
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            result[String(pair[0])] = pair.count > 1 ? SDKWire.decodeComponent(String(pair[1])) : ""
        }
        return result
    }
}

/// An answer as the SDK's HTTP stack hands it over: status, header fields and the (already
/// decompressed) body.
struct SDKAnswer: Sendable, CustomStringConvertible {
    var status: Int
    var headers: HTTPHeaders
    var body: String
    /// The body's bytes as they arrived (still compressed from a client that does not decompress).
    var bytes: [UInt8]
    var request: SDKRequest

    var description: String { "HTTP \(status) \(body.prefix(600))" }

    /// The body as JSON, or nil.
    var json: JSONValue? { try? JSONValue.parse(body) }
}

/// Sends `SDKRequest`s to a server (its `http://` or `https://` base URL) with the header
/// fields the platform's HTTP stack adds, and reads answers as the SDK does.
enum SDKWire {
    /// Follows no redirects (a provider dialog ends on one, which the SDK's web view
    /// intercepts); decompresses gzip, as NSURLSession and OkHttp do without being asked.
    static let client = HTTPClient(
        eventLoopGroup: HTTPClient.defaultEventLoopGroup,
        configuration: .init(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .seconds(15), read: .seconds(15)),
            decompression: .enabled(limit: .ratio(200))))

    /// The same without decompression: to see what the server put on the wire.
    static let rawClient = HTTPClient(
        eventLoopGroup: HTTPClient.defaultEventLoopGroup,
        configuration: .init(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .seconds(15), read: .seconds(15))))

    static func send(_ request: SDKRequest, to base: String, client: HTTPClient = SDKWire.client) async throws -> SDKAnswer {
        var outgoing = HTTPClientRequest(url: base + request.target)
        outgoing.method = request.method
        for (name, value) in request.headers { outgoing.headers.add(name: name, value: value) }
        if let body = request.body {
            outgoing.body = .bytes(ByteBuffer(string: body))
        } else if request.method == .POST {
            // NSURLSession sends a POST without a body as `Content-Length: 0`.
            outgoing.headers.replaceOrAdd(name: "Content-Length", value: "0")
        }
        let response = try await client.execute(outgoing, timeout: .seconds(15))
        let bytes = try await response.body.collect(upTo: 8 << 20)
        return SDKAnswer(
            status: Int(response.status.code), headers: response.headers, body: String(buffer: bytes), bytes: Array(buffer: bytes),
            request: request)
    }

    /// `%XX` and `+` decoded (what a server reads from a form body or query).
    static func decodeComponent(_ text: String) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), let high = iterator.next(), let low = iterator.next(),
                let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The query parameters of a URL (a redirect's `Location`).
    static func query(_ url: String) -> [String: String] {
        guard let mark = url.firstIndex(of: "?") else { return [:] }
        var result: [String: String] = [:]
        for part in url[url.index(after: mark)...].split(separator: "&") {
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            result[decodeComponent(String(pair[0]))] = pair.count > 1 ? decodeComponent(String(pair[1])) : ""
        }
        return result
    }
}

/// Failures of a replay that are not the server's answer (a test that cannot go on).
struct ReplayError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

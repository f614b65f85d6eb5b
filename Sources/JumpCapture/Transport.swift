import AsyncHTTPClient
import HTTPTypes
import JumpForms
import NIOCore
import NIOHTTP1

/// What a server answered.
public struct HTTPAnswer: Sendable, Hashable {
    public var status: Int
    public var contentType: String?
    public var body: [UInt8]

    public init(status: Int, contentType: String? = nil, body: [UInt8]) {
        self.status = status
        self.contentType = contentType
        self.body = body
    }
}

/// Why a request did not get an answer.
public enum TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Plain `http://` to a host that is not loopback.
    case insecureURL(String)
    case timedOut(url: String, seconds: Int)
    case connectionFailed(url: String, reason: String)
    case answerTooLarge(url: String, limit: Int)

    public var description: String {
        switch self {
        case .insecureURL(let url):
            "refusing to send credentials over plain http to \(url): use https, or a loopback address (127.0.0.1, ::1, localhost) for a local server"
        case let .timedOut(url, seconds): "no answer from \(url) within \(seconds) s"
        case let .connectionFailed(url, reason): "cannot reach \(url): \(reason)"
        case let .answerTooLarge(url, limit): "the answer from \(url) is larger than \(limit) bytes"
        }
    }
}

/// Sends requests. Tests and apps may provide their own; `AsyncHTTPTransport` is the real one.
public protocol HTTPTransport: Sendable {
    func send(_ request: CaptureRequest) async throws(TransportError) -> HTTPAnswer
}

/// The real transport, on AsyncHTTPClient (SwiftNIO): chosen over URLSession because it runs
/// the same on Linux and macOS without libcurl, shares SwiftNIO with the local server, has
/// per-request deadlines and a connection pool, and never follows redirects with a body.
public struct AsyncHTTPTransport: HTTPTransport {
    public var timeoutSeconds: Int
    public var maximumAnswerSize: Int
    let client: HTTPClient

    public init(timeoutSeconds: Int = 30, maximumAnswerSize: Int = 4 << 20, client: HTTPClient = .shared) {
        self.timeoutSeconds = timeoutSeconds
        self.maximumAnswerSize = maximumAnswerSize
        self.client = client
    }

    /// Refuses `http://` unless the host is a loopback address.
    public static func check(_ server: ServerURL) throws(TransportError) {
        if server.scheme == "http", !server.isLoopback { throw .insecureURL(server.description) }
    }

    public func send(_ request: CaptureRequest) async throws(TransportError) -> HTTPAnswer {
        try Self.check(request.server)
        let url = request.url
        var outgoing = HTTPClientRequest(url: url)
        outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
        for field in request.head.headerFields where field.name != .contentLength {
            outgoing.headers.add(name: field.name.canonicalName, value: field.value)
        }
        if request.method != .get {
            outgoing.body = .bytes(ByteBuffer(bytes: request.body))
        }
        do {
            let response = try await client.execute(outgoing, timeout: .seconds(Int64(timeoutSeconds)))
            var buffer = try await response.body.collect(upTo: maximumAnswerSize)
            let bytes = buffer.readBytes(length: buffer.readableBytes) ?? []
            return HTTPAnswer(status: Int(response.status.code), contentType: response.headers.first(name: "content-type"), body: bytes)
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
            throw .timedOut(url: url, seconds: timeoutSeconds)
        } catch let error as NIOTooManyBytesError {
            _ = error
            throw .answerTooLarge(url: url, limit: maximumAnswerSize)
        } catch {
            throw .connectionFailed(url: url, reason: "\(error)")
        }
    }
}

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
    /// The server answered with a redirect (3xx). Redirects are never followed: a body holding
    /// passwords or tokens must not go to another host, port or scheme.
    case redirected(url: String, status: Int, location: String?)

    public var description: String {
        switch self {
        case .insecureURL(let url):
            "refusing to send credentials over plain http to \(url): use https, or a loopback address (127.0.0.1, ::1, localhost) for a local server"
        case let .timedOut(url, seconds): "no answer from \(url) within \(seconds) s"
        case let .connectionFailed(url, reason): "cannot reach \(url): \(reason)"
        case let .answerTooLarge(url, limit): "the answer from \(url) is larger than \(limit) bytes"
        case let .redirected(url, status, location):
            "\(url) answered with a redirect (HTTP \(status))\(location.map { " to \($0)" } ?? ""); "
                + "jump-forms does not follow redirects, so nothing was sent further: point captureDomain (or --capture-url) at the server itself"
        }
    }
}

/// Sends requests. Tests and apps may provide their own; `AsyncHTTPTransport` is the real one.
public protocol HTTPTransport: Sendable {
    func send(_ request: CaptureRequest) async throws(TransportError) -> HTTPAnswer
}

/// The real transport, on AsyncHTTPClient (SwiftNIO): chosen over URLSession because it runs
/// the same on Linux and macOS without libcurl, shares SwiftNIO with the local server, and has
/// per-request deadlines and a connection pool.
///
/// Redirects are never followed: a 307 or 308 would send the body (passwords, tokens, the
/// refresh secret) again to wherever the `Location` points, another port, host or even plain
/// `http://`. The default client disallows them, and any 3xx answer becomes
/// `TransportError.redirected`.
public struct AsyncHTTPTransport: HTTPTransport {
    public var timeoutSeconds: Int
    public var maximumAnswerSize: Int
    let client: HTTPClient

    /// - Parameter client: the HTTP client; by default one shared client that never follows
    ///   redirects (`HTTPClient.shared` follows them and must not be passed). A client given
    ///   here must be configured with `redirectConfiguration: .disallow`.
    public init(timeoutSeconds: Int = 30, maximumAnswerSize: Int = 4 << 20, client: HTTPClient = AsyncHTTPTransport.sharedClient) {
        self.timeoutSeconds = timeoutSeconds
        self.maximumAnswerSize = maximumAnswerSize
        self.client = client
    }

    /// The client every transport uses unless given another: made on first use, for the life
    /// of the process (like `HTTPClient.shared`, it is never shut down), on the shared
    /// SwiftNIO event loops, with redirects disallowed.
    public static let sharedClient = HTTPClient(
        eventLoopGroup: HTTPClient.defaultEventLoopGroup,
        configuration: HTTPClient.Configuration(redirectConfiguration: .disallow)
    )

    /// Refuses `http://` unless the host is a loopback address.
    public static func check(_ server: ServerURL) throws(TransportError) {
        if server.scheme == "http", !server.isLoopback { throw .insecureURL(server.description) }
    }

    public func send(_ request: CaptureRequest) async throws(TransportError) -> HTTPAnswer {
        try Self.check(request.server)
        if let placeholder = request.server.portPlaceholder {
            throw .connectionFailed(url: request.server.description, reason: "the port is not known yet (\(placeholder)): the server is not running")
        }
        // Errors name the URL with secrets masked (a GET carries its parameters in the query).
        let url = "\(request.server.scheme)://\(request.server.authority)\(request.target(maskingSecrets: true))"
        var outgoing = HTTPClientRequest(url: request.url)
        outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
        for field in request.head.headerFields where field.name != .contentLength {
            outgoing.headers.add(name: field.name.canonicalName, value: field.value)
        }
        if request.method != .get {
            outgoing.body = .bytes(ByteBuffer(bytes: request.body))
        }
        do {
            let response = try await client.execute(outgoing, timeout: .seconds(Int64(timeoutSeconds)))
            if (300..<400).contains(response.status.code) {
                throw TransportError.redirected(url: url, status: Int(response.status.code), location: response.headers.first(name: "location"))
            }
            var buffer = try await response.body.collect(upTo: maximumAnswerSize)
            let bytes = buffer.readBytes(length: buffer.readableBytes) ?? []
            return HTTPAnswer(status: Int(response.status.code), contentType: response.headers.first(name: "content-type"), body: bytes)
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
            throw .timedOut(url: url, seconds: timeoutSeconds)
        } catch let error as TransportError {
            throw error
        } catch let error as NIOTooManyBytesError {
            _ = error
            throw .answerTooLarge(url: url, limit: maximumAnswerSize)
        } catch {
            throw .connectionFailed(url: url, reason: "\(error)")
        }
    }
}

import HTTPTypes
import JumpForms

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
        case let .connectionFailed(url, reason): "cannot reach \(url): \(Self.explained(reason, url: url))"
        case let .answerTooLarge(url, limit): "the answer from \(url) is larger than \(limit) bytes"
        case let .redirected(url, status, location):
            "\(url) answered with a redirect (HTTP \(status))\(location.map { " to \($0)" } ?? ""); "
                + "jump-forms does not follow redirects, so nothing was sent further: point captureDomain (or --capture-url) at the server itself"
        }
    }
}

extension TransportError {
    /// `reason`, and for a refused loopback connection the question a user needs: is the local
    /// server running?
    static func explained(_ reason: String, url: String) -> String {
        guard reason == "connection refused", let server = ServerURL(url), server.isLoopback else { return reason }
        return "connection refused: is jump-forms serve running at \(server.scheme)://\(server.authority)?"
    }
}

/// Sends requests. Tests and apps may provide their own; `URLSessionTransport` is the one apps
/// use, `AsyncHTTPTransport` (in JumpCaptureNIO) the one of servers and the CLI.
///
/// The contract every transport keeps: plain `http://` only to a loopback host, one deadline
/// for the whole exchange (`TransportError.timedOut`), redirects never followed (any 3xx is
/// `TransportError.redirected`), answers over a size limit refused, the request's header fields
/// sent as they are.
public protocol HTTPTransport: Sendable {
    func send(_ request: CaptureRequest) async throws(TransportError) -> HTTPAnswer
}

extension HTTPTransport {
    /// Refuses `http://` unless the host is a loopback address.
    public static func check(_ server: ServerURL) throws(TransportError) {
        if server.scheme == "http", !server.isLoopback { throw .insecureURL(server.description) }
    }

    /// Refuses what no transport may send: plain `http://` to a host that is not loopback, and
    /// a server whose port is not known yet.
    public static func check(_ request: CaptureRequest) throws(TransportError) {
        try check(request.server)
        if let placeholder = request.server.portPlaceholder {
            throw .connectionFailed(url: request.server.description, reason: "the port is not known yet (\(placeholder)): the server is not running")
        }
    }
}

extension CaptureRequest {
    /// The URL as errors name it: the full URL with secrets masked (a GET carries its
    /// parameters in the query).
    public var urlMaskingSecrets: String {
        "\(server.scheme)://\(server.authority)\(target(maskingSecrets: true))"
    }
}

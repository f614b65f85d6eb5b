import AsyncHTTPClient
import HTTPTypes
import JumpCapture
import JumpForms
import NIOCore
import NIOHTTP1

/// The transport of servers and the CLI, on AsyncHTTPClient (SwiftNIO): it runs the same on
/// Linux and macOS without libcurl, shares SwiftNIO with the local server, and has per-request
/// deadlines and a connection pool. Apps use `URLSessionTransport` (JumpCapture), which keeps
/// the same contract without SwiftNIO.
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

    public func send(_ request: CaptureRequest) async throws(TransportError) -> HTTPAnswer {
        try Self.check(request)
        let url = request.urlMaskingSecrets
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
            throw .connectionFailed(url: url, reason: ConnectionFailure.reason(error))
        }
    }
}

import AsyncHTTPClient
import JumpCapture
import JumpForms
import NIOCore

/// Downloads a flow document and reads its `version`. Only the version is read; nothing is
/// kept on disk (the document is small and one GET per run costs less than a cache that can go
/// stale).
public struct FlowVersionDownloader: Sendable {
    /// The largest document accepted, after decompression (the standard flow's is a few tens
    /// of kilobytes in every locale).
    public static let maximumSize = 8 << 20

    public var timeoutSeconds: Int
    let client: HTTPClient

    /// - Parameter client: by default one shared client that decompresses gzip (up to
    ///   `maximumSize`) and follows no redirect.
    public init(timeoutSeconds: Int = 30, client: HTTPClient? = nil) {
        self.timeoutSeconds = timeoutSeconds
        self.client = client ?? Self.sharedClient
    }

    /// Made on first use, for the life of the process, on the shared SwiftNIO event loops. A
    /// refused connection is reported at once, not retried until the deadline.
    static let sharedClient: HTTPClient = {
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow, decompression: .enabled(limit: .size(maximumSize)))
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    /// The document's `version`.
    public func version(of source: FlowDocumentSource) async throws(FlowDocumentError) -> String {
        let bytes = try await download(source)
        let document: JSONValue
        do {
            document = try JSONValue.parse(bytes)
        } catch {
            throw .notJSON(url: source.url, error: error)
        }
        guard let version = document["version"]?.stringValue else { throw .noVersion(url: source.url) }
        return version
    }

    /// The document's bytes, decompressed.
    func download(_ source: FlowDocumentSource) async throws(FlowDocumentError) -> [UInt8] {
        let url = source.url
        if source.domain.scheme == "http", !source.domain.isLoopback { throw .insecureURL(url) }
        var request = HTTPClientRequest(url: url)
        request.method = .GET
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "Accept-Encoding", value: "gzip")
        request.headers.add(name: "User-Agent", value: "jump-forms/\(JumpCaptureVersion.current)")
        do {
            let response = try await client.execute(request, timeout: .seconds(Int64(timeoutSeconds)))
            guard response.status == .ok else { throw FlowDocumentError.status(url: url, status: Int(response.status.code)) }
            var buffer = try await response.body.collect(upTo: Self.maximumSize)
            return buffer.readBytes(length: buffer.readableBytes) ?? []
        } catch let error as FlowDocumentError {
            throw error
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
            throw .timedOut(url: url, seconds: timeoutSeconds)
        } catch is NIOTooManyBytesError {
            throw .tooLarge(url: url, limit: Self.maximumSize)
        } catch {
            throw .unreachable(url: url, reason: ConnectionFailure.reason(error))
        }
    }
}

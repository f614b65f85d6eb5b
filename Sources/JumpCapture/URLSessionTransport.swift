import Foundation
import HTTPTypes
import JumpForms
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The transport apps use: Foundation's `URLSession` (on Linux, FoundationNetworking over
/// libcurl). It keeps `HTTPTransport`'s contract like `AsyncHTTPTransport` (JumpCaptureNIO),
/// without SwiftNIO:
///
/// - plain `http://` only to a loopback host (`TransportError.insecureURL`);
/// - one deadline of `timeoutSeconds` for the whole exchange (`TransportError.timedOut`);
/// - redirects never followed: a 307 or 308 would send the body (passwords, tokens, the
///   refresh secret) again to wherever `Location` points, so any 3xx answer becomes
///   `TransportError.redirected`;
/// - answers larger than `maximumAnswerSize` are cut off (`TransportError.answerTooLarge`);
/// - the request's header fields are sent as they are. URLSession adds what it always adds
///   (`Accept-Language`, `Accept-Encoding`, `Connection`), as the SDKs' own requests carry;
/// - no cookies, no cache and no stored credentials: each request carries only what it says.
///
/// All transports share one `URLSession` for the life of the process.
public struct URLSessionTransport: HTTPTransport {
    /// The deadline of one exchange, from sending to the answer's last byte.
    public var timeoutSeconds: Int
    /// The largest answer body read, in bytes.
    public var maximumAnswerSize: Int

    /// A transport with a deadline of `timeoutSeconds` per exchange, reading answers of up to
    /// `maximumAnswerSize` bytes (4 MiB by default, as `AsyncHTTPTransport`).
    public init(timeoutSeconds: Int = 30, maximumAnswerSize: Int = 4 << 20) {
        self.timeoutSeconds = timeoutSeconds
        self.maximumAnswerSize = maximumAnswerSize
    }

    public func send(_ request: CaptureRequest) async throws(TransportError) -> HTTPAnswer {
        try Self.check(request)
        let url = request.urlMaskingSecrets
        guard let target = URL(string: request.url) else {
            throw .connectionFailed(url: url, reason: "not a valid URL")
        }
        var outgoing = URLRequest(url: target, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: TimeInterval(timeoutSeconds))
        outgoing.httpMethod = request.method.rawValue
        outgoing.httpShouldHandleCookies = false
        for field in request.head.headerFields where field.name != .contentLength {
            outgoing.addValue(field.value, forHTTPHeaderField: field.name.canonicalName)
        }
        let body = request.body
        if request.method != .get, !body.isEmpty {
            outgoing.httpBody = Data(body)
        }
        let outcome = await URLSessionExchanges.shared.exchange(outgoing, timeoutSeconds: timeoutSeconds, limit: maximumAnswerSize)
        switch outcome {
        case .timedOut:
            throw .timedOut(url: url, seconds: timeoutSeconds)
        case .tooLarge:
            throw .answerTooLarge(url: url, limit: maximumAnswerSize)
        case .failed(let error):
            if error.code == .timedOut { throw .timedOut(url: url, seconds: timeoutSeconds) }
            throw .connectionFailed(url: url, reason: Self.reason(for: error))
        case let .answered(status, contentType, location, data):
            if (300..<400).contains(status) { throw .redirected(url: url, status: status, location: location) }
            return HTTPAnswer(status: status, contentType: contentType, body: [UInt8](data))
        }
    }

    /// A reason a person can read (a `URLError`'s own text is its domain and number on Linux).
    static func reason(for error: URLError) -> String {
        switch error.code {
        case .cannotConnectToHost: "connection refused"
        case .cannotFindHost, .dnsLookupFailed: "the host name is not known"
        case .networkConnectionLost: "the connection closed before the answer was complete"
        case .notConnectedToInternet: "not connected to a network"
        case .badServerResponse: "the answer is not HTTP"
        case .cancelled: "cancelled"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
            .serverCertificateHasUnknownRoot, .clientCertificateRejected, .clientCertificateRequired:
            "the TLS handshake failed (URL error \(error.code.rawValue))"
        default: "URL error \(error.code.rawValue)"
        }
    }
}

/// What became of one exchange.
enum URLSessionOutcome: Sendable {
    case answered(status: Int, contentType: String?, location: String?, body: Data)
    case failed(URLError)
    case timedOut
    case tooLarge
}

/// The one `URLSession` of the transports and its delegate, which collects each task's answer
/// up to its size limit, refuses every redirect and ends a task at its deadline.
final class URLSessionExchanges: NSObject, URLSessionDataDelegate, Sendable {
    /// One exchange under way.
    private struct Pending {
        var continuation: CheckedContinuation<URLSessionOutcome, Never>
        var limit: Int
        var data = Data()
        /// Set when the transport itself ended the task (deadline, size limit).
        var ending: URLSessionOutcome?
        var deadline: Task<Void, Never>?
    }

    /// The exchanges of every `URLSessionTransport`, on one session for the life of the process.
    static let shared = URLSessionExchanges()

    private let pending = Mutex<[Int: Pending]>([:])
    /// No cookies, no cache, no stored credentials; its delegate (this object) is called on a
    /// serial queue, so a task's data arrives before its end.
    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCache = nil
        configuration.urlCredentialStorage = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        return URLSession(configuration: configuration, delegate: shared, delegateQueue: queue)
    }()

    private override init() {
        super.init()
    }

    /// Sends `request` and waits for its outcome; a cancelled Swift task cancels the request.
    func exchange(_ request: URLRequest, timeoutSeconds: Int, limit: Int) async -> URLSessionOutcome {
        let task = Self.session.dataTask(with: request)
        let identifier = task.taskIdentifier
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // One deadline for the whole exchange (URLSession's own timeout is one between
                // packets on Apple platforms), cancelled when the exchange ends.
                let deadline = Task { [self] in
                    try? await Task.sleep(for: .seconds(max(0, timeoutSeconds)))
                    if !Task.isCancelled { end(identifier, task: task, as: .timedOut) }
                }
                pending.withLock { $0[identifier] = Pending(continuation: continuation, limit: limit, deadline: deadline) }
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
    }

    /// Ends the task early with `outcome` (reported when URLSession says the task ended).
    private func end(_ identifier: Int, task: URLSessionTask, as outcome: URLSessionOutcome) {
        let ends = pending.withLock { all -> Bool in
            guard all[identifier] != nil, all[identifier]?.ending == nil else { return false }
            all[identifier]?.ending = outcome
            return true
        }
        if ends { task.cancel() }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let identifier = dataTask.taskIdentifier
        let overLimit = pending.withLock { all -> Bool in
            guard let count = all[identifier]?.data.count, let limit = all[identifier]?.limit, all[identifier]?.ending == nil else {
                return false
            }
            if count + data.count > limit { return true }
            all[identifier]?.data.append(data)  // in place: no copy of what came before
            return false
        }
        if overLimit { end(identifier, task: dataTask, as: .tooLarge) }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // Never followed: the redirect itself is the answer.
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let exchange = pending.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        exchange.deadline?.cancel()
        let outcome: URLSessionOutcome
        if let ending = exchange.ending {
            outcome = ending
        } else if let error {
            outcome = .failed(error as? URLError ?? URLError(.unknown))
        } else if let response = task.response as? HTTPURLResponse {
            outcome = .answered(
                status: response.statusCode, contentType: response.value(forHTTPHeaderField: "Content-Type"),
                location: response.value(forHTTPHeaderField: "Location"), body: exchange.data)
        } else {
            outcome = .failed(URLError(.badServerResponse))
        }
        exchange.continuation.resume(returning: outcome)
    }
}

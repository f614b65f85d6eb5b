import Crypto
import HTTPTypes
import JumpForms

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A client of Capture's server API (the Entity API: `/entity.find`, `/entity.count`, ...), as
/// a back end calls it with a client id and secret, and as Janrain's client libraries sign
/// their requests by default: the secret never travels; each request carries `Date:
/// YYYY-MM-DD HH:MM:SS` (UTC) and `Authorization: Signature <client_id>:<Base64 of
/// HMAC-SHA1(secret, "<path>\n<Date>\n" and each parameter as a sorted "key=value\n" line)>`.
/// Works against Capture and against `jump-forms serve`. The secret is never in a
/// description, an error or a log.
public struct EntityAPIClient: Sendable, CustomStringConvertible {
    public let server: ServerURL
    public let clientID: String
    private let secret: SymmetricKeyBytes
    public let transport: any HTTPTransport
    /// Seconds since 1970 (the `Date` of each request).
    public let clock: @Sendable () -> Int

    /// The secret's bytes, kept out of every description.
    private struct SymmetricKeyBytes: Sendable, CustomStringConvertible {
        let bytes: [UInt8]
        var description: String { "<secret>" }
    }

    public init(
        server: ServerURL, clientID: String, clientSecret: String, transport: any HTTPTransport,
        clock: @escaping @Sendable () -> Int = { RefreshSignature.now }
    ) {
        self.server = server
        self.clientID = clientID
        self.secret = SymmetricKeyBytes(bytes: Array(clientSecret.utf8))
        self.transport = transport
        self.clock = clock
    }

    public var description: String { "EntityAPIClient(\(server), client \(clientID))" }

    /// The `Authorization` value of a signed request.
    public static func signature(clientID: String, secret: [UInt8], path: String, date: String, parameters: [(name: String, value: String)])
        -> String
    {
        let lines = parameters.map { "\($0.name)=\($0.value)" }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let message = path + "\n" + date + "\n" + lines.map { $0 + "\n" }.joined()
        let code = HMAC<Insecure.SHA1>.authenticationCode(for: Array(message.utf8), using: SymmetricKey(data: secret))
        return "Signature \(clientID):" + Data(code).base64EncodedString()
    }

    /// Calls `path` (`/entity.find`) with `parameters`, signed; the answer's JSON when its
    /// `stat` is `ok`.
    public func call(_ path: String, _ parameters: [(name: String, value: String)]) async throws(EntityAPIError) -> JSONValue {
        let date = RefreshSignature.dateString(epochSeconds: clock())
        var request = CaptureRequest(
            operation: .readRecord, server: server, path: path, parameters: parameters.map { RequestParameter($0.name, $0.value) })
        request.headers[.authorization] = Self.signature(clientID: clientID, secret: secret.bytes, path: path, date: date, parameters: parameters)
        request.headers[HTTPField.Name("Date")!] = date
        let answer: HTTPAnswer
        do {
            answer = try await transport.send(request)
        } catch {
            throw .transport(error)
        }
        let json = try? JSONValue.parse(String(decoding: answer.body, as: UTF8.self))
        if let json, json["stat"]?.stringValue == "ok", (200..<300).contains(answer.status) { return json }
        if let json, json["stat"]?.stringValue == "error" {
            throw .refused(
                status: answer.status, code: json["code"].flatMap { Int($0.description) } ?? 0, error: json["error"]?.stringValue ?? "",
                description: json["error_description"]?.stringValue ?? "")
        }
        throw .unexpectedAnswer(status: answer.status, path: path)
    }

    /// One page of `/entity.find`.
    public func find(
        typeName: String, filter: String?, sortOn: [String] = ["id"], maxResults: Int, attributes: [String]? = nil, showTotalCount: Bool = false
    ) async throws(EntityAPIError) -> EntityPage {
        var parameters: [(name: String, value: String)] = [
            ("type_name", typeName), ("sort_on", JSONValue.array(sortOn.map { .string($0) }).serialized()), ("max_results", String(maxResults))
        ]
        if let filter { parameters.append(("filter", filter)) }
        if let attributes { parameters.append(("attributes", JSONValue.array(attributes.map { .string($0) }).serialized())) }
        if showTotalCount { parameters.append(("show_total_count", "true")) }
        let answer = try await call("/entity.find", parameters)
        guard case .array(let results)? = answer["results"] else { throw .unexpectedAnswer(status: 200, path: "/entity.find") }
        return EntityPage(records: results, totalCount: answer["total_count"].flatMap { Int($0.description) })
    }
}

/// Records of one `/entity.find`.
public struct EntityPage: Sendable {
    public var records: [JSONValue]
    /// With `show_total_count`: how many records the filter matches.
    public var totalCount: Int?
}

/// Why a server API call did not succeed.
public enum EntityAPIError: Error, Sendable, CustomStringConvertible {
    case transport(TransportError)
    /// Capture's error answer (`stat: error`), with the HTTP status.
    case refused(status: Int, code: Int, error: String, description: String)
    /// An answer that is neither Capture's success nor its error (a proxy's error page).
    case unexpectedAnswer(status: Int, path: String)

    /// Whether trying again later may succeed: 510 (Capture's rate limit), an HTTP 5xx, no
    /// answer in time, or no connection.
    public var isRetryable: Bool {
        switch self {
        case .transport(.timedOut), .transport(.connectionFailed): true
        case .transport: false
        case .refused(let status, let code, _, _): code == 510 || status >= 500
        case .unexpectedAnswer(let status, _): status >= 500 || status == 429
        }
    }

    public var description: String {
        switch self {
        case .transport(let error): error.description
        case let .refused(_, code, error, description): "the server refused the call: \(code) \(error): \(description)"
        case let .unexpectedAnswer(status, path): "\(path) answered HTTP \(status) without a Capture answer"
        }
    }
}

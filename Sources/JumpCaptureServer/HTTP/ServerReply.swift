import HTTPTypes
import JumpForms
import JumpWebPages

/// What the server answers: Capture JSON, a redirect, or a small HTML page (Engage dialogs).
struct ServerReply: Sendable {
    var status: HTTPResponse.Status
    var contentType: String
    var body: String
    /// Headers besides the content type (`Location`, `Allow`).
    var headers: HTTPFields = [:]
    /// The body as bytes, sent instead of `body` when set (a gzipped flow document).
    var bytes: [UInt8]?

    static let jsonContentType = "application/json; charset=utf-8"

    static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok) -> ServerReply {
        ServerReply(status: status, contentType: jsonContentType, body: value.serialized())
    }

    static let ok = json(["stat": "ok"])

    /// A Capture error: `{"stat": "error", "code", "error", "error_description"}` plus `message`
    /// (localized, preferred by newer clients) and extra fields.
    static func error(
        _ code: Int, _ error: String, _ description: String, message: String? = nil,
        extra: [(key: String, value: JSONValue)] = [], status: HTTPResponse.Status = .ok
    ) -> ServerReply {
        var entries: [(key: String, value: JSONValue)] = [
            ("stat", "error"), ("code", .integer(code)), ("error", .string(error)), ("error_description", .string(description))
        ]
        if let message { entries.append(("message", .string(message))) }
        entries += extra
        return json(.object(entries), status: status)
    }

    static func missing(_ name: String) -> ServerReply {
        error(100, "missing_argument", "the parameter '\(name)' is required")
    }

    /// 201: a parameter given more than once.
    static func duplicate(_ name: String) -> ServerReply {
        error(201, "duplicate_argument", "the parameter '\(name)' is given more than once")
    }

    static func invalid(_ name: String, _ description: String) -> ServerReply {
        error(200, "invalid_argument", "\(name): \(description)")
    }

    /// 413: the body (with the query string, when there is one) is over `maximumRequestSize`.
    static func tooLarge(limit: Int, withQuery: Bool) -> ServerReply {
        let what = withQuery ? "the query string and the body together are" : "the request body is"
        return error(413, "request_too_large", "\(what) larger than \(limit) bytes", status: .contentTooLarge)
    }

    /// 408: a request did not arrive whole (request line, headers and body) within the
    /// server's request timeout.
    static let requestTimeout = error(408, "request_timeout", "the request did not arrive whole in time", status: .requestTimeout)

    static func redirect(_ location: String) -> ServerReply {
        ServerReply(status: .found, contentType: "text/plain; charset=utf-8", body: "Redirecting to \(location)\n", headers: [.location: location])
    }

    static let htmlContentType = "text/html; charset=utf-8"

    /// 303: where a submitted page continues (the browser follows it with a GET).
    static func seeOther(_ location: String) -> ServerReply {
        ServerReply(status: .seeOther, contentType: "text/plain; charset=utf-8", body: "Redirecting to \(location)\n", headers: [.location: location])
    }

    /// A page of text in the one layout (`JumpWebPages`): `language` sets its `lang` and `dir`.
    static func html(
        _ title: String, _ paragraphs: [String], links: [PageLink] = [], status: HTTPResponse.Status = .ok, language: LocaleTag
    ) -> ServerReply {
        ServerReply(
            status: status, contentType: htmlContentType,
            body: PageRenderer.message(MessagePage(locale: language, title: title, paragraphs: paragraphs, links: links)))
    }
}

/// The parameters of a request (query and form body), with the names a handler read, so that
/// unknown parameters can be refused.
struct RequestParameters: Sendable {
    private(set) var pairs: [(name: String, value: String)]
    private var index: [String: String] = [:]
    private(set) var duplicate: String?

    init(pairs: [(name: String, value: String)]) {
        self.pairs = pairs
        for pair in pairs {
            if index[pair.name] != nil, duplicate == nil { duplicate = pair.name }
            index[pair.name] = pair.value
        }
    }

    subscript(name: String) -> String? { index[name] }

    var names: [String] { pairs.map(\.name) }
}

import HTTPTypes
import JumpForms

/// One parameter of a request, and whether its value is a secret.
public struct RequestParameter: Sendable, Hashable {
    public var name: String
    public var value: String
    /// Secrets (passwords, tokens, refresh secrets, signatures) are masked in every printout
    /// unless the user asks otherwise.
    public var isSecret: Bool

    public init(_ name: String, _ value: String, secret: Bool = false) {
        self.name = name
        self.value = value
        self.isSecret = secret
    }
}

/// The base URL of a server: scheme, host, optional port and path prefix.
public struct ServerURL: Sendable, Hashable, CustomStringConvertible {
    public var scheme: String
    public var host: String
    public var port: Int?
    /// Shown instead of a port that is not known yet (`<embedded port>`); such a URL is
    /// printed, never sent.
    public var portPlaceholder: String?
    public var basePath: String

    /// Parses `https://host[:port][/prefix]`; nil for anything else.
    public init?(_ text: String) {
        guard let separator = text.firstRange(of: "://") else { return nil }
        let scheme = text[..<separator.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        let rest = text[separator.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        var path = String(rest[authorityEnd...].prefix { $0 != "?" && $0 != "#" })
        while path.hasSuffix("/") { path.removeLast() }
        var host = String(authority)
        var port: Int?
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = String(authority[...close])
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") {
                guard let number = Int(after.dropFirst()) else { return nil }
                port = number
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = String(authority[..<colon])
            guard let number = Int(authority[authority.index(after: colon)...]) else { return nil }
            port = number
        }
        guard !host.isEmpty, host.allSatisfy({ !$0.isWhitespace }) else { return nil }
        self.scheme = scheme
        self.host = host.lowercased()
        self.port = port
        self.basePath = path
    }

    /// The embedded server's URL before it runs (`captureDomain: embedded` in a dry run):
    /// `http://127.0.0.1:<embedded port>`, the port it gets when it starts.
    public static var embeddedPlaceholder: ServerURL {
        var url = ServerURL("http://127.0.0.1")!
        url.portPlaceholder = "<embedded port>"
        return url
    }

    /// `host[:port]`
    public var authority: String {
        if let portPlaceholder { return "\(host):\(portPlaceholder)" }
        return port.map { "\(host):\($0)" } ?? host
    }

    public var description: String { "\(scheme)://\(authority)\(basePath)" }

    /// Whether the host is a loopback address: an IPv4 literal `127.x.x.x` (four decimal
    /// numbers 0-255), `::1` (`[::1]`), or `localhost`. A name such as `127.example.com` is not.
    public var isLoopback: Bool {
        if host == "localhost" || host == "[::1]" || host == "::1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "127" else { return false }
        return parts.allSatisfy { part in
            !part.isEmpty && part.count <= 3 && part.utf8.allSatisfy { (0x30...0x39).contains($0) } && Int(part)! <= 255
        }
    }
}

/// A request ready to send: the operation, the HTTP head, and the form parameters (the body of
/// a POST, the query of a GET or of a POST whose parameters go in its URL).
public struct CaptureRequest: Sendable {
    public var operation: CaptureOperation
    public var server: ServerURL
    public var method: HTTPRequest.Method
    /// The path after the server's base path; it may hold a query of its own
    /// (`/signin/oauth_token?providername=google`), which the parameters of the URL follow.
    public var path: String
    public var parameters: [RequestParameter]
    /// A POST whose parameters are appended to its URL, with an empty body and no
    /// `Content-Type` (iOS's token-URL post, JRSessionData.m:1538-1544). A GET always sends
    /// them in its URL.
    public var parametersInURL: Bool
    /// Header fields sent besides those `head` makes (a signed server API call's `Date` and
    /// `Authorization`).
    public var headers: HTTPFields = [:]

    public init(
        operation: CaptureOperation, server: ServerURL, method: HTTPRequest.Method = .post, path: String,
        parameters: [RequestParameter], parametersInURL: Bool = false
    ) {
        self.operation = operation
        self.server = server
        self.method = method
        self.path = path
        self.parameters = parameters
        self.parametersInURL = parametersInURL
    }

    /// The parameter named `name`.
    public func parameter(_ name: String) -> String? {
        parameters.first { $0.name == name }?.value
    }

    /// Whether the parameters go in the URL (a GET, or `parametersInURL`) rather than a body.
    public var sendsParametersInURL: Bool { method == .get || parametersInURL }

    /// The `application/x-www-form-urlencoded` text of the parameters.
    public func encodedParameters(maskingSecrets: Bool = false) -> String {
        FormEncoding.encode(parameters.map { (name: $0.name, value: maskingSecrets && $0.isSecret ? RequestPrinter.mask : $0.value) })
    }

    /// The full path, with the parameters appended when they go in the URL (after `&` when
    /// the path has a query already).
    public func target(maskingSecrets: Bool = false) -> String {
        let full = server.basePath + path
        guard sendsParametersInURL, !parameters.isEmpty else { return full }
        return full + (full.contains("?") ? "&" : "?") + encodedParameters(maskingSecrets: maskingSecrets)
    }

    /// The body bytes (empty when the parameters go in the URL).
    public var body: [UInt8] {
        sendsParametersInURL ? [] : Array(encodedParameters().utf8)
    }

    /// The HTTP head (swift-http-types). A POST with its parameters in the URL has no
    /// `Content-Type` (as iOS sends it) and `Content-Length: 0`.
    public var head: HTTPRequest {
        var fields = HTTPFields()
        fields[.accept] = "application/json"
        fields[.userAgent] = "jump-forms/\(JumpCaptureVersion.current)"
        if method != .get {
            if !sendsParametersInURL { fields[.contentType] = "application/x-www-form-urlencoded; charset=utf-8" }
            fields[.contentLength] = String(body.count)
        }
        for field in headers { fields[field.name] = field.value }
        return HTTPRequest(method: method, scheme: server.scheme, authority: server.authority, path: target(), headerFields: fields)
    }

    /// The full URL (with the parameters when they go in it).
    public var url: String { "\(server.scheme)://\(server.authority)\(target())" }

    /// The request as sent once the client knows where Capture runs and which flow version
    /// it serves: requests are built before the embedded server has its port, and before the
    /// flow document is downloaded. The server is replaced, and with it a `redirect_uri`
    /// that is the old server's URL (the default, as iOS sends it); a `flow_version`
    /// parameter takes `flowVersion` when one is given.
    public func resolved(server newServer: ServerURL, flowVersion: String? = nil) -> CaptureRequest {
        var request = self
        let oldURL = server.description
        request.server = newServer
        for index in request.parameters.indices {
            switch request.parameters[index].name {
            case "redirect_uri" where request.parameters[index].value == oldURL:
                request.parameters[index].value = newServer.description
            case "flow_version":
                if let flowVersion { request.parameters[index].value = flowVersion }
            default:
                break
            }
        }
        return request
    }
}

/// The version jump-forms reports in its User-Agent.
public enum JumpCaptureVersion {
    public static let current = "0.1.0"
}

/// Prints requests as HTTP text, as a curl command or as JSON, masking secrets unless asked.
public enum RequestPrinter {
    /// What a masked secret looks like (its length is not revealed).
    public static let mask = "********"

    /// The request as HTTP/1.1 text, header names in their usual case (`Content-Type`). With
    /// secrets masked the `Content-Length` is not shown (the real one would tell the secrets'
    /// length, and the masked body's would not be what is sent): it says the body is masked.
    public static func http(_ request: CaptureRequest, showSecrets: Bool = false) -> String {
        let masked = !showSecrets && request.parameters.contains(where: \.isSecret)
        let head = request.head
        let body = request.sendsParametersInURL ? "" : request.encodedParameters(maskingSecrets: masked)
        var out = "\(head.method.rawValue) \(request.target(maskingSecrets: masked)) HTTP/1.1\n"
        out += "Host: \(request.server.authority)\n"
        for field in head.headerFields where field.name != .contentLength {
            out += "\(headerName(field.name.canonicalName)): \(field.value)\n"
        }
        if request.method != .get {
            out +=
                masked && !request.sendsParametersInURL
                ? "Content-Length: (not shown: secrets in the body are masked)\n"
                : "Content-Length: \(request.body.count)\n"
        }
        out += "\n"
        if !body.isEmpty { out += body + "\n" }
        return out
    }

    /// `content-type` -> `Content-Type`.
    static func headerName(_ name: String) -> String {
        name.split(separator: "-", omittingEmptySubsequences: false).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: "-")
    }

    public static func curl(_ request: CaptureRequest, showSecrets: Bool = false) -> String {
        let masked = !showSecrets
        var out = "curl -sS -X \(request.method.rawValue)"
        out += " -H 'Accept: application/json'"
        if request.sendsParametersInURL {
            out += " " + quote("\(request.server.scheme)://\(request.server.authority)\(request.target(maskingSecrets: masked))")
            return out + "\n"
        }
        for parameter in request.parameters {
            let value = masked && parameter.isSecret ? mask : parameter.value
            out += " \\\n  --data-urlencode " + quote("\(parameter.name)=\(value)")
        }
        out += " \\\n  " + quote(request.url)
        return out + "\n"
    }

    public static func json(_ request: CaptureRequest, showSecrets: Bool = false) -> JSONValue {
        [
            "operation": .string(request.operation.rawValue),
            "method": .string(request.method.rawValue),
            "url": .string("\(request.server.scheme)://\(request.server.authority)\(request.target(maskingSecrets: !showSecrets))"),
            "parameters": .array(
                request.parameters.map {
                    ["name": .string($0.name), "value": .string(!showSecrets && $0.isSecret ? mask : $0.value), "secret": .bool($0.isSecret)]
                })
        ]
    }

    /// Single-quotes for a POSIX shell.
    static func quote(_ text: String) -> String {
        "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}

import HTTPTypes
import Hummingbird
import JumpCapture

/// The headers every answer carries (`serve` and `preview`), unless the answer set its own:
///
/// - `Content-Security-Policy: default-src 'self'; frame-ancestors 'none'`: a page loads
///   nothing from elsewhere and runs no inline script, and no other site may frame it (a
///   sign-in form in a foreign frame is clickjacking). In preview mode the gallery frames
///   the forms, so `frame-ancestors 'self'`; the gallery allows its own inline style and
///   script by their hashes (`PreviewGallery.contentSecurityPolicy`).
/// - `X-Content-Type-Options: nosniff`: a browser takes the `Content-Type` as given.
/// - `Referrer-Policy: no-referrer`: codes and tokens travel in URLs (`/forms/...?code=`,
///   email links), which a `Referer` would hand to the next site.
struct SecurityHeaders: RouterMiddleware {
    typealias Context = CaptureRequestContext
    let isPreview: Bool

    static let contentSecurityPolicy = HTTPField.Name("Content-Security-Policy")!
    static let contentTypeOptions = HTTPField.Name("X-Content-Type-Options")!
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!

    /// The policy of every page but the preview gallery.
    static func policy(isPreview: Bool) -> String {
        "default-src 'self'; frame-ancestors \(isPreview ? "'self'" : "'none'")"
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        if response.headers[Self.contentSecurityPolicy] == nil {
            response.headers[Self.contentSecurityPolicy] = Self.policy(isPreview: isPreview)
        }
        response.headers[Self.contentTypeOptions] = "nosniff"
        response.headers[Self.referrerPolicy] = "no-referrer"
        return response
    }
}

/// Which hosts the server answers to, and which origins may post to it, against DNS
/// rebinding and cross-site posts:
///
/// - `Host` must name the address the server is bound to, an IP address (a rebinding attack
///   always comes under a DNS name of the attacker's), `localhost`, the host of
///   `server.publicURL`, or a name of `names` (`serve --tls-host`); else 421
///   `misdirected_request`. A request without `Host` (HTTP/1.0),
///   or with an empty one, passes: browsers always send a name.
/// - A POST from another site is refused (403 `forbidden_origin`): an `Origin` that is neither
///   the server's own (the origin of its `Host`) nor that of `server.publicURL`, or a
///   `Sec-Fetch-Site` other than `same-origin` or `none`. `Origin: null` alone decides
///   nothing: under `Referrer-Policy: no-referrer` browsers send it for the server's own form
///   posts too (Fetch, "append a request Origin header"), and `Sec-Fetch-Site` tells them
///   apart where the browser sends it (the CSRF token guards the forms either way). Clients
///   that are not browsers send neither.
struct HostCheck: RouterMiddleware {
    typealias Context = CaptureRequestContext
    /// The host the server is bound to, lower-cased.
    let boundHost: String
    /// `server.publicURL`, parsed.
    let publicURL: BrowserURL?
    /// More names the server answers to (`serve --tls-host`), bare.
    let names: Set<String>

    static let origin = HTTPField.Name("Origin")!
    static let fetchSite = HTTPField.Name("Sec-Fetch-Site")!

    init(boundHost: String, publicURL: String?, names: [String] = []) {
        self.boundHost = Self.bare(boundHost.lowercased())
        self.publicURL = publicURL.flatMap(BrowserURL.init)
        self.names = Set(names.map(Self.bare))
    }

    /// A host without brackets and one trailing dot, lower-cased.
    static func bare(_ host: String) -> String {
        var host = host.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.hasSuffix(".") { host.removeLast() }
        return host
    }

    /// The host of a `Host` value (`name`, `name:port`, `[v6]:port`), bare.
    static func host(ofAuthority authority: String) -> String {
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            return bare(String(authority[...close]))
        }
        return bare(String(authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)[0]))
    }

    /// Whether a bare host is an IPv4 address in dotted decimal or an IPv6 address.
    static func isAddress(_ host: String) -> Bool {
        if host.contains(":") { return host.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." || $0 == "%" } }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in part.count <= 3 && !part.isEmpty && part.allSatisfy { ("0"..."9").contains($0) } && Int(part)! <= 255 }
    }

    /// Whether the server answers to a request for `host` (bare).
    func answers(_ host: String) -> Bool {
        if host == "localhost" || host == boundHost || names.contains(host) || Self.isAddress(host) { return true }
        return publicURL?.host.map(Self.bare) == host
    }

    /// Whether a POST from `origin` may go on, for a request to `authority`.
    func allows(origin: String, authority: String?) -> Bool {
        guard let url = BrowserURL(origin), url.isHTTP, let host = url.host else { return false }
        let own = url.port.map { "\(host):\($0)" } ?? host
        if let authority, own == authority.lowercased() || own == Self.withoutDefaultPort(authority.lowercased()) { return true }
        guard let publicURL else { return false }
        return url.scheme == publicURL.scheme && url.host == publicURL.host && url.port == publicURL.port
    }

    /// Why a POST with these `Origin` and `Sec-Fetch-Site` values comes from another site (what
    /// the error names), or nil when it may go on.
    func refusal(origin: String?, site: String?, authority: String?) -> String? {
        if let origin, origin != "null", !allows(origin: origin, authority: authority) { return "Origin: \(origin)" }
        if let site, site != "same-origin", site != "none" { return "Sec-Fetch-Site: \(site)" }
        return nil
    }

    /// `host:80` and `host:443` as `host`: an origin leaves the default port out.
    static func withoutDefaultPort(_ authority: String) -> String {
        for suffix in [":80", ":443"] where authority.hasSuffix(suffix) { return String(authority.dropLast(suffix.count)) }
        return authority
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let authority = request.head.authority
        if let authority, !authority.isEmpty, !answers(Self.host(ofAuthority: authority)) {
            return ServerReply.error(
                421, "misdirected_request",
                "this server does not answer to the host \(authority.debugDescription): use its address, localhost, "
                    + "or the host of server.publicURL in jump.yaml", status: .misdirectedRequest
            ).response
        }
        if request.method == .post,
            let refusal = refusal(origin: request.headers[Self.origin], site: request.headers[Self.fetchSite], authority: authority)
        {
            return ServerReply.error(403, "forbidden_origin", "a page of another site (\(refusal)) may not post to this server", status: .forbidden)
                .response
        }
        return try await next(request, context)
    }
}

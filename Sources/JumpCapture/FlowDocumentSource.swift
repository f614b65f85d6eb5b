import JumpForms

/// Where the JUMP SDKs download a flow document from:
/// `GET <flow domain>/widget_data/flows/<captureAppId>/<flow>/<captureFlowVersion>/<locale>.json`
/// with `Accept-Encoding: gzip` (JRCaptureData.m:300-319, Jump.java:1001-1016). Its `version`
/// is what the SDKs send as `flow_version`.
public struct FlowDocumentSource: Sendable, Hashable {
    /// The SDKs' flow CDN when no flow domain is configured (JRCaptureData.m:312-313,
    /// Jump.java:1012-1013, JumpConfig.java:234). The SDKs do not derive it from the Capture
    /// domain or region: other regions (China) configure `captureFlowDomain`.
    public static let defaultDomain = "https://d1lqe9temigv1p.cloudfront.net"

    /// The flow domain (scheme, host, optional port and path prefix).
    public var domain: ServerURL
    public var appId: String
    public var flowName: String
    /// `captureFlowVersion`: `HEAD` (the default) or a version the flow document has had.
    public var version: String
    public var locale: String

    public init(domain: ServerURL, appId: String, flowName: String, version: String, locale: String) {
        self.domain = domain
        self.appId = appId
        self.flowName = flowName
        self.version = version
        self.locale = locale
    }

    /// What the client configuration says, for a Capture server at `capture`: the configured
    /// `captureFlowDomain`, else the Capture server itself when it is on loopback (`jump-forms
    /// serve` serves the flow documents; an app configured for it sets `captureFlowDomain` to
    /// the same URL), else the SDKs' CDN. Nil when `captureAppId` is not configured (the SDKs
    /// download nothing then: JRCaptureData.m:276-281, Jump.java:227-231) or the configured
    /// domain is not an http(s) URL.
    public init?(config: ClientConfig, capture: ServerURL, flowName: String, locale: LocaleTag) {
        guard let appId = config.captureAppId?.value, !appId.isEmpty else { return nil }
        let domain: ServerURL?
        if let configured = config.captureFlowDomain {
            domain = ServerURL(configured.value)
        } else if capture.isLoopback {
            domain = capture
        } else {
            domain = ServerURL(Self.defaultDomain)
        }
        guard let domain else { return nil }
        self.init(domain: domain, appId: appId, flowName: flowName, version: config.captureFlowVersion.value, locale: locale.identifier)
    }

    /// Where the flow document of `config` is before the app has a flow (an app without a flow
    /// file downloads it first): Capture at `captureDomain`, the flow `captureFlowName`, the
    /// locale `captureLocale` unless `locale` is given, the rest as
    /// `init(config:capture:flowName:locale:)`. Nil when `captureDomain` is not a URL, or
    /// `captureFlowName` or `captureAppId` is not set.
    public init?(config: ClientConfig, locale: LocaleTag? = nil) {
        guard case .url(let text) = config.captureDomain.value, let capture = ServerURL(text),
            let flowName = config.captureFlowName?.value, !flowName.isEmpty
        else { return nil }
        self.init(config: config, capture: capture, flowName: flowName, locale: locale ?? config.captureLocale.value)
    }

    /// The path on the flow domain, each part percent-encoded.
    public var path: String {
        let parts = [appId, flowName, version, locale + ".json"].map(FormEncoding.encodeComponent)
        return domain.basePath + "/widget_data/flows/" + parts.joined(separator: "/")
    }

    /// The document's URL.
    public var url: String { "\(domain.scheme)://\(domain.authority)\(path)" }
}

/// Why the flow document's version could not be had. Every case names the URL.
public enum FlowDocumentError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Plain `http://` to a host that is not loopback (the SDKs force https: JRCaptureData.m:307).
    case insecureURL(String)
    case unreachable(url: String, reason: String)
    case timedOut(url: String, seconds: Int)
    /// Any answer but 200 (redirects are not followed).
    case status(url: String, status: Int)
    case tooLarge(url: String, limit: Int)
    case notJSON(url: String, error: JSONParseError)
    /// Valid JSON without a string `version` at the top level (the SDKs read nothing else:
    /// JRCaptureData.m:236-242, CaptureFlowUtils.java:194-199).
    case noVersion(url: String)

    public var url: String {
        switch self {
        case .insecureURL(let url): url
        case let .unreachable(url, _), let .timedOut(url, _), let .status(url, _), let .tooLarge(url, _), let .notJSON(url, _),
            let .noVersion(url):
            url
        }
    }

    public var description: String {
        switch self {
        case .insecureURL(let url):
            "refusing to download the flow document over plain http from \(url): use https, or a loopback address for a local server"
        case let .unreachable(url, reason): "cannot download the flow document \(url): \(TransportError.explained(reason, url: url))"
        case let .timedOut(url, seconds): "no answer from \(url) within \(seconds) s"
        case let .status(url, status): "\(url) answered HTTP \(status), not the flow document"
        case let .tooLarge(url, limit): "the flow document \(url) is larger than \(limit) bytes"
        case let .notJSON(url, error): "the flow document \(url) is not JSON: \(error)"
        case .noVersion(let url): "the flow document \(url) has no string 'version' at its top level"
        }
    }
}

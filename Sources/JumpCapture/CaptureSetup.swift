import JumpForms

/// Why a client configuration cannot be used to reach Capture.
public enum CaptureSetupError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `captureDomain` (or the URL given instead) is not an http(s) URL.
    case notAServerURL(String)
    /// `engageDomain` is not an http(s) URL.
    case engageNotAURL(String)
    /// Against a remote Capture the flow document's URL needs `captureAppId`.
    case noAppId(configPath: String, capture: ServerURL)
    /// `captureFlowDomain` is not an http(s) URL.
    case flowDomainNotAURL(configPath: String, domain: String)

    public var description: String {
        switch self {
        case .notAServerURL(let text): "not a server URL: \(text)"
        case .engageNotAURL(let text): "not a URL: \(text)"
        case let .noAppId(path, capture):
            "\(path): captureAppId is not set: against a remote Capture (\(capture)) requests send the "
                + "downloaded flow document's version as flow_version, as the SDKs do, and the document's URL needs captureAppId"
        case let .flowDomainNotAURL(path, domain): "\(path): captureFlowDomain is not a server URL: \(domain)"
        }
    }
}

/// The protocol side of a client configuration and its flow: where Capture and Engage are,
/// the request builders and the response decoder, made once. `CaptureClient` sends through
/// it; `jump-forms request` prints its requests.
public struct CaptureSetup: Sendable {
    public let config: ClientConfig
    public let flow: Flow
    /// Where Capture is: `captureDomain`, the URL given instead, or for `captureDomain:
    /// embedded` a placeholder until the embedded server's URL is known (`with(capture:)`).
    public private(set) var capture: ServerURL
    /// Whether Capture is a server of its own (`captureDomain` a URL, or a URL given instead)
    /// rather than the embedded one: its requests send the downloaded flow document's
    /// `version` (`flowDocumentSource()`), as the SDKs do.
    public let isRemote: Bool
    public private(set) var builder: RequestBuilder
    public let engageBuilder: EngageRequestBuilder
    public let decoder: ResponseDecoder

    /// - Parameters:
    ///   - localizer: the flow's texts (the form's messages in `CaptureClientError`s).
    ///   - locale: the `locale` sent and the language of the messages; by default `captureLocale`.
    ///   - capture: where Capture is, instead of `captureDomain` (needed when it says
    ///     `embedded`: the embedded server's URL; without one, a placeholder that is printed,
    ///     never sent).
    ///   - flowVersion: the `flow_version` sent; by default the flow's own `version`.
    ///   - engage: where Engage is, instead of `engageDomain` (the local server, which serves
    ///     the Engage double at Capture's URL).
    public init(
        config: ClientConfig, flow: Flow, localizer: Localizer, locale: LocaleTag? = nil, capture: ServerURL? = nil,
        flowVersion: String? = nil, engage: ServerURL? = nil
    ) throws(CaptureSetupError) {
        self.config = config
        self.flow = flow
        let url: ServerURL
        switch (capture, config.captureDomain.value) {
        case (let given?, _):
            url = given
            isRemote = true
        case (nil, .url(let text)):
            guard let parsed = ServerURL(text) else { throw .notAServerURL(text) }
            url = parsed
            isRemote = true
        case (nil, .embedded):
            url = .embeddedPlaceholder
            isRemote = false
        }
        guard let engage = engage ?? ServerURL(config.engageDomain.value) else { throw .engageNotAURL(config.engageDomain.value) }
        self.capture = url
        self.builder = RequestBuilder(
            config: config, flow: flow, localizer: localizer, locale: locale ?? config.captureLocale.value, capture: url,
            flowVersion: flowVersion)
        self.engageBuilder = EngageRequestBuilder(config: config, engage: engage)
        self.decoder = ResponseDecoder(flow: flow, config: config)
    }

    /// The same setup pointed at another Capture URL (the embedded server once it runs) and
    /// sending `flowVersion` (by default the one it sends now).
    public func with(capture newCapture: ServerURL? = nil, flowVersion: String? = nil) -> CaptureSetup {
        var copy = self
        copy.capture = newCapture ?? capture
        copy.builder = RequestBuilder(
            config: config, flow: flow, localizer: builder.localizer, locale: builder.locale, capture: copy.capture,
            flowVersion: flowVersion ?? builder.flowVersion)
        return copy
    }

    /// The locale requests are sent in.
    public var locale: LocaleTag { builder.locale }

    /// The flow's texts.
    public var localizer: Localizer { builder.localizer }

    /// Where the flow document is, for the `flow_version` a remote Capture expects
    /// (`FlowVersionDownloader` reads it).
    public func flowDocumentSource() throws(CaptureSetupError) -> FlowDocumentSource {
        guard let appId = config.captureAppId?.value, !appId.isEmpty else { throw .noAppId(configPath: config.path, capture: capture) }
        guard let source = FlowDocumentSource(config: config, capture: capture, flowName: builder.flowName, locale: builder.locale) else {
            throw .flowDomainNotAURL(configPath: config.path, domain: config.captureFlowDomain?.value ?? "")
        }
        return source
    }

    /// What a session made through this setup is bound to, unless the client is told another:
    /// `captureDomain` as written (`embedded` for the embedded server).
    public var defaultSessionDomain: String { config.captureDomain.value.description }
}

import HTTPTypes
import JumpForms

/// Where an Engage sign-in dialog sends the user when it ends.
public enum EngageReturn: Sendable, Hashable {
    /// `token_url=<url>`: the dialog ends on a redirect whose query holds `token`.
    case tokenURL(String)
    /// `device=<device>`: a mobile device dialog.
    case device(String)
}

/// How the Engage token reaches the app's token URL. The SDKs differ; both are offered.
public enum TokenPlacement: String, Sendable, Hashable, CaseIterable {
    /// `token=<token>` as the form body of the POST (Android, JRSession.java:1169-1178). The
    /// default: the token is a credential, and a body stays out of the access logs and
    /// proxies that record URLs; it is also what a token URL reading POST form fields expects.
    case body
    /// `&token=<token>` appended to the token URL (`?token=` when it has no query), the POST
    /// with an empty body and no `Content-Type` (iOS, JRSessionData.m:1538-1544).
    case query
}

/// A URL the user opens in a browser to start a provider's sign-in dialog.
public struct EngageStartURL: Sendable, Hashable {
    public var provider: String
    public var kind: String
    public var url: String
}

/// Builds the Engage side: the mobile configuration request, provider start URLs, the native
/// token exchange and the token-URL post.
public struct EngageRequestBuilder: Sendable {
    public let config: ClientConfig
    /// Engage's base URL (`engageDomain`, or the `baseurl` of the mobile configuration).
    public let engage: ServerURL

    public init(config: ClientConfig, engage: ServerURL) {
        self.config = config
        self.engage = engage
    }

    /// `GET <engageDomain>/openid/mobile_config_and_baseurl?appId=<id>&device=android&app_name=jump-forms&version=<v>`:
    /// Android's parameters (JRSession.java:92-93, 820-829), the app being jump-forms. iOS
    /// sends `device=iphone` with `appName` and `version` (JRSessionData.m:730-758).
    public func mobileConfiguration(device: String = "android") -> CaptureRequest {
        CaptureRequest(
            operation: .engageMobileConfig, server: engage, method: .get, path: CaptureOperation.engageMobileConfig.path,
            parameters: [
                RequestParameter("appId", config.engageAppId?.value ?? ""), RequestParameter("device", device),
                RequestParameter("app_name", "jump-forms"), RequestParameter("version", JumpCaptureVersion.current)
            ])
    }

    /// The start URL of a provider's dialog. Built-in providers start at `/<provider>/start`
    /// (or the `url` path the mobile configuration gives), custom OpenID ones at
    /// `/openid/start` with `openid_identifier` (+ `opx_blob`), custom SAML ones at
    /// `/saml2/sso/start` with `saml_provider`; then `extended=true`, the return, optional
    /// `force_reauth=true`, `installation_id` and `applicationId`.
    public func startURL(
        for provider: ProviderDefinition, returnTo: EngageReturn, forceReauth: Bool = false,
        installationID: String, startPath: String? = nil
    ) -> EngageStartURL {
        var path: String
        var parameters: [(name: String, value: String)] = []
        let kind: String
        switch provider.kind {
        case .builtIn:
            path = startPath ?? "/\(provider.id.value)/start"
            kind = "built-in"
        case .openID(let identifier, let blob):
            path = "/openid/start"
            parameters.append(("openid_identifier", identifier?.value ?? ""))
            if let blob { parameters.append(("opx_blob", blob.value)) }
            kind = "custom OpenID"
        case .saml(let samlProvider):
            path = "/saml2/sso/start"
            parameters.append(("saml_provider", samlProvider?.value ?? ""))
            kind = "custom SAML"
        }
        parameters.append(("extended", "true"))
        switch returnTo {
        case .tokenURL(let url): parameters.append(("token_url", url))
        case .device(let device): parameters.append(("device", device))
        }
        if forceReauth { parameters.append(("force_reauth", "true")) }
        parameters.append(("installation_id", installationID))
        parameters.append(("applicationId", config.engageAppId?.value ?? ""))
        let query = parameters.map { FormEncoding.encodeComponent($0.name) + "=" + FormEncoding.encodeComponent($0.value) }.joined(separator: "&")
        path = engage.basePath + path
        return EngageStartURL(provider: provider.id.value, kind: kind, url: "\(engage.scheme)://\(engage.authority)\(path)?\(query)")
    }

    /// Exchanges a native provider SDK token for an Engage token:
    /// `POST <baseurl>/signin/oauth_token?providername=<p>` with `token` and `provider`
    /// (Twitter adds `token_secret`).
    public func nativeTokenExchange(provider: String, token: String, tokenSecret: String? = nil) -> CaptureRequest {
        var parameters = [RequestParameter("token", token, secret: true), RequestParameter("provider", provider)]
        if let tokenSecret { parameters.append(RequestParameter("token_secret", tokenSecret, secret: true)) }
        let path = CaptureOperation.engageTokenExchange.path + "?providername=" + FormEncoding.encodeComponent(provider)
        return CaptureRequest(operation: .engageTokenExchange, server: engage, path: path, parameters: parameters)
    }

    /// Posts an Engage token to the app's own token URL (which calls `auth_info` with its API
    /// key; the key never ships in a client). `path` is what follows the token URL's base
    /// (its path's end and query, `?app=1`): with `.query` the token is appended after it.
    /// - Parameter placement: `.body` (Android's form, the default) or `.query` (iOS's).
    public func tokenURLPost(tokenURL: ServerURL, path: String = "", token: String, placement: TokenPlacement = .body) -> CaptureRequest {
        // A request target starts with `/`, also for a token URL without a path.
        let path = tokenURL.basePath.isEmpty && !path.hasPrefix("/") ? "/" + path : path
        return CaptureRequest(
            operation: .tokenURLPost, server: tokenURL, path: path, parameters: [RequestParameter("token", token, secret: true)],
            parametersInURL: placement == .query)
    }
}

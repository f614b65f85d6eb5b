import HTTPTypes
import JumpCapture
import JumpForms
import JumpWebPages

/// The Engage double: the mobile configuration, provider dialogs that complete against the
/// test identities, native token exchange and `auth_info`. Tokens it issues live ten minutes.
extension CaptureService {
    static let engageTokenLifetime = 600

    /// The mobile configuration (`/openid/mobile_config_and_baseurl`), as both SDKs read it:
    /// `baseurl` and `provider_info` (iOS requires both), `enabled_providers`,
    /// `social_providers` (the providers of social *sharing*: the flow's `sharing` that can post,
    /// `SharingProvider`; the sharing endpoints themselves are in CaptureService+Sharing.swift)
    /// and `hide_tagline`. Per provider: `friendly_name`, `url` (a start path
    /// that names the provider, so that iOS 5.5, which adds no `openid_identifier` or
    /// `saml_provider` to it, starts the right one), `requires_input` as the *string*
    /// `"YES"`/`"NO"` (iOS compares it with `isEqualToString:`; Android takes either),
    /// `input_prompt` when it is `"YES"` (iOS keeps its last two words), and a custom
    /// provider's `openid_identifier` (+ `opx_blob`) or `saml_provider`. Every value is a string
    /// or a list of strings: Android casts them (`JRDictionary.getAsString`).
    ///
    /// The answer carries an `ETag` (a digest of its bytes); `If-None-Match` naming it (or `*`)
    /// answers 304 without a body, which Android sends with the tag it kept.
    func mobileConfiguration(ifNoneMatch: String? = nil) -> ServerReply {
        let base = baseURL.withLock { $0 }
        var info: [(key: String, value: JSONValue)] = []
        for provider in flow.providers {
            let prompt = provider.builtIn?.inputPrompt
            var entries: [(key: String, value: JSONValue)] = [
                ("friendly_name", .string(friendlyName(provider))),
                ("url", .string(startPath(provider))),
                ("requires_input", .string(prompt == nil ? "NO" : "YES"))
            ]
            if let prompt { entries.append(("input_prompt", .string(prompt))) }
            switch provider.kind {
            case .builtIn:
                if let template = provider.builtIn.flatMap(Self.openIDTemplate) { entries.append(("openid_identifier", .string(template))) }
            case .openID(let identifier, let blob):
                if let identifier { entries.append(("openid_identifier", .string(identifier.value))) }
                if let blob { entries.append(("opx_blob", .string(blob.value))) }
            case .saml(let name):
                if let name { entries.append(("saml_provider", .string(name.value))) }
            }
            if let sharing = sharingProviders.first(where: { $0.rawValue == provider.id.value }) {
                entries.append(("social_sharing_properties", Self.socialSharingProperties(sharing)))
            }
            info.append((provider.id.value, .object(entries)))
        }
        let enabled = JSONValue.array(flow.providers.map { .string($0.id.value) })
        let social = JSONValue.array(sharingProviders.map { .string($0.rawValue) })
        let body = JSONValue.object([
            ("stat", "ok"), ("baseurl", .string(base)), ("provider_info", .object(info)),
            ("enabled_providers", enabled), ("social_providers", social), ("hide_tagline", "NO")
        ]).serialized()
        let tag = "\"" + CaptureStore.hash(body).prefix(32) + "\""
        var reply = ServerReply(status: .ok, contentType: ServerReply.jsonContentType, body: body)
        if let ifNoneMatch, Self.entityTag(tag, matches: ifNoneMatch) {
            reply = ServerReply(status: .notModified, contentType: ServerReply.jsonContentType, body: "")
        }
        reply.headers[.eTag] = tag
        return reply
    }

    /// The providers of the flow's `sharing` that can post an activity and are sign-in
    /// providers too (the sharing dialogs look each one up in `provider_info`), in its order.
    var sharingProviders: [SharingProvider] {
        let signIn = Set(flow.providers.map(\.id.value))
        var seen = Set<SharingProvider>()
        return flow.sharing.compactMap { name in
            guard signIn.contains(name.value), let provider = SharingProvider(rawValue: name.value), seen.insert(provider).inserted else {
                return nil
            }
            return provider
        }
    }

    /// A provider's `social_sharing_properties`, which the sharing dialogs read
    /// (JRPublishActivityController.m:83-130, 884-897; JRPublishFragment.java:662-680,
    /// 1134-1145; JRProvider.java:441-450; JRSession.java:1113). iOS compares the flags with
    /// the *string* "YES" and reads numbers with `intValue` (so strings here); Android casts
    /// `shows_url_as` to a String and calls `equals` on it (present for every provider),
    /// reads `set_status_properties.max_characters` of a provider that turns an activity
    /// without URL into a status (present for those), and casts each of the first three
    /// `color_values` to `Double` (so numbers with a fraction; iOS wants four). `-1`: no limit.
    static func socialSharingProperties(_ provider: SharingProvider) -> JSONValue {
        func flag(_ value: Bool) -> JSONValue { value ? "YES" : "NO" }
        let maximum = JSONValue.string(String(provider.limit?.maximum ?? -1))
        var entries: [(key: String, value: JSONValue)] = [
            ("max_characters", maximum),
            ("content_replaces_action", flag(provider.contentReplacesAction)),
            ("url_reduces_max_chars", flag(provider.urlIsPartOfText)),
            ("shows_url_as", provider.urlIsPartOfText ? "url" : "title"),
            ("can_share_media", flag(provider == .facebook || provider == .linkedin)),
            ("uses_set_status_if_no_url", flag(provider.usesStatusWithoutURL))
        ]
        if provider.usesStatusWithoutURL { entries.append(("set_status_properties", ["max_characters": maximum])) }
        let colour: [String] =
            switch provider {
            case .facebook: ["0.231", "0.349", "0.596", "1.0"]
            case .twitter: ["0.114", "0.631", "0.949", "1.0"]
            case .linkedin: ["0.004", "0.467", "0.710", "1.0"]
            case .yahoo: ["0.376", "0.004", "0.824", "1.0"]
            }
        entries.append(("color_values", .array(colour.map { .number($0) })))
        return .object(entries)
    }

    /// Whether an `If-None-Match` value names `tag` (weak comparison: `W/` is ignored) or is `*`.
    static func entityTag(_ tag: String, matches header: String) -> Bool {
        for part in header.split(separator: ",") {
            var candidate = Substring(part.drop { $0 == " " || $0 == "\t" })
            while candidate.last == " " || candidate.last == "\t" { candidate.removeLast() }
            if candidate == "*" { return true }
            if candidate.hasPrefix("W/") { candidate.removeFirst(2) }
            if candidate == tag { return true }
        }
        return false
    }

    /// The `openid_identifier` of a built-in provider that takes the user's input: the SDKs
    /// put the input where `%@` stands.
    static func openIDTemplate(_ provider: BuiltInProvider) -> String? {
        switch provider {
        case .openid: "%@"
        case .blogger: "http://%@.blogspot.com/"
        case .wordpress: "http://%@.wordpress.com/"
        default: nil
        }
    }

    /// A provider's name: its `name` in `locale` (the app's `captureLocale` when nil), else the
    /// built-in provider's, else its id.
    func friendlyName(_ provider: ProviderDefinition, locale: LocaleTag? = nil) -> String {
        provider.name.map { setup.localizer.text($0.value, for: locale ?? config.captureLocale.value) } ?? provider.builtIn?.friendlyName
            ?? provider.id.value
    }

    /// The start path of a provider: `/<id>/start` for a built-in one,
    /// `/openid/start/<id>` and `/saml2/sso/start/<id>` for custom ones.
    func startPath(_ provider: ProviderDefinition) -> String {
        let id = FormEncoding.encodeComponent(provider.id.value)
        switch provider.kind {
        case .builtIn: return "/\(id)/start"
        case .openID: return "/openid/start/\(id)"
        case .saml: return "/saml2/sso/start/\(id)"
        }
    }

    /// Whether a path is a provider start path (`startPath`, and the bare `/openid/start` and
    /// `/saml2/sso/start` of custom providers the SDKs configure themselves).
    static func isEngageStartPath(_ path: String) -> Bool {
        guard path.hasPrefix("/") else { return false }
        let parts = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        if parts.contains(where: \.isEmpty) { return false }
        let saml = parts.count >= 3 && parts[0] == "saml2" && parts[1] == "sso" && parts[2] == "start"
        switch parts.count {
        case 2: return parts[1] == "start"
        case 3: return (parts[0] == "openid" && parts[1] == "start") || saml
        case 4: return saml
        default: return false
        }
    }

    /// What a start request names: one provider, custom providers to choose from (a bare
    /// `/openid/start` or `/saml2/sso/start` when several could be meant), or nothing.
    enum StartTarget {
        case provider(ProviderDefinition)
        case choice([ProviderDefinition])
        /// The message key (`jumpForms.page.<key>`) and its arguments.
        case unknown(String, [String: MessageArgument])
    }

    /// The provider a start request names:
    /// - `/<id>/start`: the flow's built-in provider `<id>`;
    /// - `/openid/start/<id>`, `/saml2/sso/start/<id>` (the `url` of the mobile configuration):
    ///   the custom provider `<id>` (an `openid_identifier` or `saml_provider` in the query is
    ///   not needed, and not compared: Android adds the configured value unencoded);
    /// - `/openid/start`: the custom OpenID provider whose identifier `openid_identifier`
    ///   gives, else the built-in `openid` provider (the identifier is the user's), else, without
    ///   `openid_identifier` (iOS 5.5 sends none for the custom providers an app configures
    ///   itself), the flow's only custom OpenID provider, or a choice between several;
    /// - `/saml2/sso/start`: likewise with `saml_provider` (no built-in one).
    func startTarget(path: String, _ parameters: RequestParameters) -> StartTarget {
        let parts = path.split(separator: "/").map(String.init)
        let customOpenID = flow.providers.filter { if case .openID = $0.kind { return true } else { return false } }
        let customSAML = flow.providers.filter { if case .saml = $0.kind { return true } else { return false } }
        func named(_ id: String, among providers: [ProviderDefinition]) -> StartTarget {
            providers.first { FormEncoding.encodeComponent($0.id.value) == id || $0.id.value == id }.map(StartTarget.provider)
                ?? .unknown("noSuchProvider", ["path": .string(path)])
        }
        func bare(
            _ providers: [ProviderDefinition], parameter: String, value: (ProviderDefinition) -> String?,
            builtIn: ProviderDefinition?
        ) -> StartTarget {
            if let given = parameters[parameter] {
                if let match = providers.first(where: { value($0) == given }) { return .provider(match) }
                if let builtIn { return .provider(builtIn) }
                return .unknown("noCustomProvider", ["parameter": .string(parameter), "value": .string(given)])
            }
            if let builtIn { return .provider(builtIn) }
            switch providers.count {
            case 0: return .unknown("noSuchProvider", ["path": .string(path)])
            case 1: return .provider(providers[0])
            default: return .choice(providers)
            }
        }
        switch parts.count {
        case 2 where parts == ["openid", "start"]:
            return bare(
                customOpenID, parameter: "openid_identifier",
                value: {
                    if case .openID(let identifier, _) = $0.kind { return identifier?.value } else { return nil }
                }, builtIn: flow.providers.first { $0.builtIn == .openid })
        case 2:
            return named(parts[0], among: flow.providers.filter { $0.builtIn != nil })
        case 3 where parts == ["saml2", "sso", "start"]:
            return bare(
                customSAML, parameter: "saml_provider",
                value: {
                    if case .saml(let name) = $0.kind { return name?.value } else { return nil }
                }, builtIn: nil)
        case 3:
            return named(parts[2], among: customOpenID)
        case 4:
            return named(parts[3], among: customSAML)
        default:
            return .unknown("noSuchProvider", ["path": .string(path)])
        }
    }

    /// A provider's dialog: with one identity (or `identity=` naming one by identifier or
    /// email) it completes at once, redirecting to the token URL with a new Engage token;
    /// with several it shows a page to choose from. Without `token_url`, a dialog started with
    /// `device=` (Android's default, token_profile) ends at `/signin/device?token=...`, any
    /// other at `/signin/complete?token=...`. Its pages speak the request's locale
    /// (`pageLocale`: `locale=`, else `Accept-Language`, else `captureLocale`).
    func engageStart(path: String, target: String, _ parameters: RequestParameters, headers: HTTPFields = [:]) async throws -> ServerReply {
        let locale = pageLocale(parameters, headers: headers)
        func page(_ title: String, _ key: String, _ arguments: [String: MessageArgument], status: HTTPResponse.Status) -> ServerReply {
            .html(pageText(title, locale), [pageText(key, locale, arguments)], status: status, language: locale)
        }
        let provider: ProviderDefinition
        switch startTarget(path: path, parameters) {
        case .provider(let found):
            provider = found
        case .unknown(let key, let arguments):
            return page("unknownProviderTitle", key, arguments, status: .notFound)
        case .choice(let providers):
            let query = target.firstIndex(of: "?").map { String(target[$0...]) } ?? ""
            let choices = providers.map { provider in
                ChoicePage.Choice(name: friendlyName(provider, locale: locale), href: startPath(provider) + query)
            }
            let title = pageText("chooseProviderTitle", locale)
            return CaptureService.page(PageRenderer.choices(ChoicePage(locale: locale, title: title, choices: choices)))
        }
        if let tokenURL = parameters["token_url"], !tokenURLAllowed(tokenURL) {
            // Without a whitelist, only an address without a host is refused.
            guard let whitelist = config.engageWhitelistedDomain?.value else {
                return page("tokenURLRefusedTitle", "tokenURLNotURL", ["url": .string(tokenURL)], status: .badRequest)
            }
            return page("tokenURLRefusedTitle", "tokenURLRefused", ["url": .string(tokenURL), "whitelist": .string(whitelist)], status: .badRequest)
        }
        let id = provider.id.value
        let name = friendlyName(provider, locale: locale)
        let candidates = setup.identities.filter { $0.provider == id }
        let chosen: TestIdentity?
        if let wanted = parameters["identity"] {
            chosen = candidates.first { $0.identifier == wanted || $0.email.map(normalizeEmail) == normalizeEmail(wanted) }
            if chosen == nil {
                return page("noIdentityTitle", "noSuchIdentity", ["provider": .string(id), "identity": .string(wanted)], status: .notFound)
            }
        } else if candidates.count == 1 {
            chosen = candidates.first
        } else if candidates.isEmpty {
            return page("noIdentityTitle", "noIdentity", ["provider": .string(id)], status: .notFound)
        } else {
            // The identity chooser: a big button per identity, with its name and email address.
            let choices = candidates.map { identity in
                ChoicePage.Choice(
                    name: Self.name(of: identity), detail: identity.email,
                    href: target + (target.contains("?") ? "&" : "?") + "identity=" + FormEncoding.encodeComponent(identity.identifier))
            }
            let title = pageText("chooseIdentityTitle", locale, ["provider": .string(name)])
            return CaptureService.page(PageRenderer.choices(ChoicePage(locale: locale, title: title, choices: choices)))
        }
        guard let identity = chosen else { return page("noIdentityTitle", "noIdentity", ["provider": .string(id)], status: .notFound) }
        let token = try await issueToken(for: identity)
        let base = baseURL.withLock { $0 }
        var destination = parameters["token_url"] ?? base + (parameters["device"] != nil ? "/signin/device" : "/signin/complete")
        // The closing page speaks the dialog's `locale=` too.
        if parameters["token_url"] == nil, parameters["device"] == nil, let asked = parameters["locale"].flatMap(LocaleTag.init) {
            destination += "?locale=" + FormEncoding.encodeComponent(asked.identifier)
        }
        return .redirect(destination + (destination.contains("?") ? "&" : "?") + "token=" + FormEncoding.encodeComponent(token))
    }

    /// `/signin/device?token=<t>[&auth_info=true]`: where Android's default dialog
    /// (token_profile, `device=android`) ends; the SDK loads it again with `auth_info=true`
    /// and reads `rpx_result`: `stat`, `token` and `auth_info` (`profile.identifier`,
    /// `profile.displayName`...), then signs in to Capture with the token. The token is not
    /// used up here. With `auth_info=true` it carries a new `device_token` for the identity and
    /// provider (`CaptureService+Sharing.swift`). A token that is not valid answers
    /// `rpx_result` with `stat: fail` and an `error` text (the SDK reads both).
    func signInDevice(_ parameters: RequestParameters) async throws -> ServerReply {
        func fail(_ message: String) -> ServerReply {
            .json(["rpx_result": ["stat": "fail", "error": .string(message)]])
        }
        if let name = parameters.duplicate { return fail("the parameter '\(name)' is given more than once") }
        guard let token = parameters["token"] else { return fail("token is missing") }
        guard let grant = try await store.engageGrant(token), grant.expiresAt > now else {
            return fail("the token is not valid, was used already, or has expired")
        }
        var result: [(key: String, value: JSONValue)] = [("stat", "ok"), ("token", .string(token))]
        if parameters["auth_info"] == "true" {
            result.append(("auth_info", ["stat": "ok", "profile": profile(of: grant)]))
            // The key sharing posts with, for this identity and provider (both SDKs read it
            // from `rpx_result`: JRSessionData.m:150-160, JRAuthenticatedUser.java:83).
            result.append(("device_token", .string(try await issueDeviceToken(for: grant))))
        }
        return .json(["rpx_result": .object(result)])
    }

    /// Engage hands tokens only to the app's whitelisted domain: a token URL on the host of
    /// `engageWhitelistedDomain` (or a subdomain of it), or on a loopback address (where the
    /// CLI and local apps listen). An app's own scheme (`myapp://host/`, which iOS apps
    /// whitelist: the SDK's WebView stops there without loading it) must name the whitelisted
    /// scheme and host. Without a whitelisted domain any URL with a host is accepted. Both URLs
    /// are read as a browser reads them (`BrowserURL`, the WHATWG URL parser): the host the
    /// redirect really goes to is the one compared.
    func tokenURLAllowed(_ text: String) -> Bool {
        guard let url = BrowserURL(text), let host = url.host, !host.isEmpty else { return false }
        if url.isHTTP, url.isLoopback { return true }
        guard let whitelist = config.engageWhitelistedDomain?.value else { return true }
        guard let whitelisted = BrowserURL(whitelist) else { return false }
        if url.isHTTP { return whitelisted.isHTTP && url.hostIsWithin(whitelisted) }
        return url.scheme == whitelisted.scheme && url.hostIsWithin(whitelisted)
    }

    func issueToken(for identity: TestIdentity) async throws -> String {
        var profile: JSONValue = [:]
        for (path, value) in identity.profile { profile = profile.setting(path: path, .string(value)) }
        if identity.verifiedEmail, let email = identity.email { profile = profile.setting("verifiedEmail", .string(email)) }
        return try await store.issueEngageToken(
            EngageGrant(
                provider: identity.provider, identifier: identity.identifier,
                profile: profile, expiresAt: now + Self.engageTokenLifetime), now: now)
    }

    /// `/signin/oauth_token`: a native SDK credential for an Engage token, in the forms the SDKs
    /// send it:
    /// - `?providername=<p>` with `token` and `provider` in the body (Twitter adds
    ///   `token_secret`; WeChat `openid` or `wechat.openid`);
    /// - iOS's Sign in with Apple: `?id_token=<t>&provider=apple` in the query and
    ///   `token=<t>&provider=apple` in the body (`provider` twice, with one value);
    /// - Android's server auth code: `?providername=<p>` with `code`, `provider`,
    ///   `redirect_uri` and `application_id`.
    /// Each is checked against the test identities' `nativeToken`. `provider` may repeat
    /// `providername` but not contradict it; the provider must be one of the flow's built-in
    /// (native SDK) providers.
    func exchangeNativeToken(_ parameters: RequestParameters) async throws -> ServerReply {
        var values: [String: Set<String>] = [:]
        for pair in parameters.pairs { values[pair.name, default: []].insert(pair.value) }
        let counts = Dictionary(parameters.pairs.map { ($0.name, 1) }, uniquingKeysWith: +)
        // A repeated parameter is refused, except `provider` repeated with one value (iOS's
        // Sign in with Apple sends it in the query and the body).
        if let name = parameters.pairs.map(\.name).first(where: {
            counts[$0, default: 0] > 1 && ($0 != "provider" || values[$0, default: []].count > 1)
        }) {
            return .duplicate(name)
        }
        guard let provider = parameters["providername"] ?? parameters["provider"] else { return Self.engageFail(1, "providername is missing") }
        if let other = parameters["provider"], other != provider {
            return Self.engageFail(1, "provider '\(other)' does not match providername '\(provider)'")
        }
        guard flow.providers.contains(where: { $0.id.value == provider && $0.builtIn != nil }) else {
            let known = flow.providers.filter { $0.builtIn != nil }.map(\.id.value).joined(separator: ", ")
            return Self.engageFail(1, "unknown provider '\(provider)' (this app's native providers: \(known.isEmpty ? "none" : known))")
        }
        if let token = parameters["token"], let idToken = parameters["id_token"], token != idToken {
            return Self.engageFail(1, "id_token does not match token")
        }
        guard let native = parameters["token"] ?? parameters["id_token"] ?? parameters["code"] else {
            return Self.engageFail(1, "token is missing (or id_token, or a server auth code in code)")
        }
        if provider == "twitter", parameters["code"] == nil, parameters["token_secret"] == nil {
            return Self.engageFail(1, "twitter needs token_secret")
        }
        guard let identity = setup.identities.first(where: { $0.provider == provider && $0.nativeToken == native }) else {
            return Self.engageFail(
                2, "the \(provider) \(parameters["token"] == nil && parameters["id_token"] == nil ? "code" : "token") is not valid")
        }
        return .json(["stat": "ok", "token": .string(try await issueToken(for: identity))])
    }

    /// `auth_info`: the profile behind an Engage token, as a token-URL server asks for it with
    /// the app's secret `apiKey` (`server.apiKey`; without one configured, auth_info is off).
    /// Engage's codes: 0 missing parameter, 2 data not found, 3 authentication error. The token
    /// is used up, as Engage's are. `client`: the connection's address, which wrong keys count
    /// against (`checkSecret`).
    func authInfo(_ parameters: RequestParameters, client: String? = nil) async throws -> ServerReply {
        if let name = parameters.duplicate { return .duplicate(name) }
        guard let configured = setup.settings.apiKey?.value, !configured.isEmpty else {
            return Self.engageFail(3, "auth_info is off: this server has no API key (server.apiKey in jump.yaml)")
        }
        guard let apiKey = parameters["apiKey"] else { return Self.engageFail(0, "apiKey is missing") }
        // Compared as digests, and counted per client address as wrong passwords are (510 with
        // `retry_after` once the address must wait).
        switch try await checkSecret(apiKey, against: configured, what: "API key at auth_info", client: client, locale: locale(parameters)) {
        case .refused(let reply): return reply
        case .wrong: return Self.engageFail(3, "the API key is not valid")
        case .matches: break
        }
        guard let token = parameters["token"] else { return Self.engageFail(0, "token is missing") }
        guard let grant = try await store.engageGrant(token), grant.expiresAt > now, try await store.useEngageTokens([token], now: now) else {
            return Self.engageFail(2, "the token is not valid, was used already, or has expired")
        }
        return .json(["stat": "ok", "profile": profile(of: grant)])
    }

    /// The profile of `auth_info` (and of `/signin/device`): `providerName`, `identifier`,
    /// `email`, `verifiedEmail`, `displayName`, `name`.
    func profile(of grant: EngageGrant) -> JSONValue {
        var profile: [(key: String, value: JSONValue)] = [("providerName", .string(grant.provider)), ("identifier", .string(grant.identifier))]
        for key in ["email", "verifiedEmail", "displayName"] {
            if let value = grant.profile[key] { profile.append((key, value)) }
        }
        if let name = grant.profile["name"] { profile.append(("name", name)) }
        return .object(profile)
    }

    static func engageFail(_ code: Int, _ message: String) -> ServerReply {
        .json(["stat": "fail", "err": ["code": .integer(code), "msg": .string(message)]])
    }

    /// The page an Engage dialog ends on without a token URL, in the request's locale.
    func signInComplete(_ parameters: RequestParameters, headers: HTTPFields = [:]) -> ServerReply {
        let locale = pageLocale(parameters, headers: headers)
        return .html(pageText("signInCompleteTitle", locale), [pageText("signInComplete", locale)], language: locale)
    }

    /// How the identity chooser names an identity: its display name, else its given and family
    /// names, else its identifier.
    static func name(of identity: TestIdentity) -> String {
        if let name = identity.displayName, !name.isEmpty { return name }
        let full = [identity.givenName, identity.familyName].compactMap { $0 }.joined(separator: " ")
        return full.isEmpty ? identity.identifier : full
    }

    // MARK: email links

    /// Confirms the address and says so in the locale the email was sent in (stored with the
    /// code), like the password-reset page.
    func verifyEmail(_ parameters: RequestParameters) async throws -> ServerReply {
        func text(_ key: String, _ locale: LocaleTag) -> String { self.text("jumpForms.server.\(key)", locale) }
        var pending: CaptureStore.PendingCode?
        if let code = parameters["code"] { pending = try await store.peekCode(code, kind: "verify_email", now: now) }
        let locale = pending?.locale.flatMap(LocaleTag.init) ?? config.captureLocale.value
        guard let code = parameters["code"], pending != nil,
            let userID = try await store.consumeCode(code, kind: "verify_email", now: now)
        else {
            return .html(text("resetPageInvalidTitle", locale), [text("verifyPageInvalid", locale)], status: .notFound, language: locale)
        }
        let stamp = Timestamps.capture(now)
        _ = try await store.updateUser(id: userID, unique: [], now: now) { $0.setting("emailVerified", .string(stamp)) }
        return .html(text("verifyPageTitle", locale), [text("verifyPageDone", locale)], language: locale)
    }

    /// The names of the reset page's two fields.
    static let resetPasswordField = "password"
    static let resetConfirmationField = "passwordConfirm"

    /// GET shows the form: the new password and its confirmation, with the flow's rules for the
    /// password listed up front. POST sets the password after those rules (the same rule engine,
    /// with the registration form's password and confirmation fields) and the confirmation.
    /// The page speaks the locale the email was sent in (stored with the code), through the
    /// flow's locale files and the built-in catalog as the emails do.
    func resetPassword(_ parameters: RequestParameters, isPost: Bool) async throws -> ServerReply {
        func text(_ key: String, _ locale: LocaleTag) -> String { self.text("jumpForms.server.\(key)", locale) }
        guard let code = parameters["code"], let pending = try await store.peekCode(code, kind: "forgot_password", now: now) else {
            let locale = config.captureLocale.value
            return .html(text("resetPageInvalidTitle", locale), [text("resetPageInvalid", locale)], status: .notFound, language: locale)
        }
        let locale = pending.locale.flatMap(LocaleTag.init) ?? config.captureLocale.value
        let flowField = passwordField(locale: locale)
        let flowConfirmation = flowField.flatMap { confirmationField(of: $0, locale: locale) }
        // The page's fields: the flow's texts and rules, under the page's own names.
        var password = flowField ?? FormModel.Field(name: Self.resetPasswordField, type: .password, label: "", location: .startOfFile("<reset page>"))
        password.name = Self.resetPasswordField
        password.label = text("resetPageLabel", locale)
        var confirmation =
            flowConfirmation ?? FormModel.Field(name: Self.resetConfirmationField, type: .password, label: "", location: .startOfFile("<reset page>"))
        confirmation.name = Self.resetConfirmationField
        confirmation.label = text("resetPageConfirmLabel", locale)
        confirmation.rules = confirmation.rules.filter { $0.kind == .required }
        let rules = (flowField?.rules ?? []).filter { $0.clientSide && !$0.kind.isServerOnly && $0.kind != .required && !$0.kind.isCrossField }
            .map { rule -> String in
                var arguments: [String: MessageArgument] = ["label": .string(password.label), "field": .string(Self.resetPasswordField)]
                if let argument = rule.argument { arguments["value"] = argument }
                return setup.localizer.text(rule.messageKey, for: locale, arguments)
            }
        var page = FormPage(
            formName: "passwordReset", locale: locale, title: text("resetPageTitle", locale), fields: [password, confirmation],
            words: FormPage.Words(
                submit: text("resetPageSave", locale), requiredNote: nil, chooseOne: "", year: "", month: "", day: ""),
            rules: rules, rulesField: Self.resetPasswordField,
            hiddenInputs: [("code", code)], action: "/password/reset")
        if !rules.isEmpty { page.intro = [text("resetPageRules", locale)] }
        guard isPost else { return CaptureService.page(PageRenderer.form(page)) }
        let newPassword = parameters[Self.resetPasswordField] ?? ""
        let repeated = parameters[Self.resetConfirmationField] ?? ""
        // The flow's rules, by the same engine, on the flow's own fields.
        if let flowField {
            var fields = [flowField]
            var values: FormValues = [flowField.name: newPassword]
            if let flowConfirmation {
                fields.append(flowConfirmation)
                values[flowConfirmation.name] = repeated
            }
            let model = FormModel(name: "passwordReset", flowName: flow.name.value, flowVersion: flow.version.value, locale: locale, fields: fields)
            let report = RuleEngine(form: model, today: CivilDate.utc(epochSeconds: now), side: .server).validate(values)
            for messages in setup.localizer.messages(for: report.violations, in: model) {
                let name = messages.field == flowField.name ? Self.resetPasswordField : Self.resetConfirmationField
                page.fieldErrors[name, default: []] += messages.messages
            }
        }
        if page.fieldErrors[Self.resetConfirmationField] == nil, newPassword != repeated {
            page.fieldErrors[Self.resetConfirmationField] = [text("resetPageMismatch", locale)]
        }
        if !page.fieldErrors.isEmpty { return CaptureService.page(PageRenderer.form(page), status: .badRequest) }
        guard let userID = try await store.consumeCode(code, kind: "forgot_password", now: now) else {
            return .html(text("resetPageInvalidTitle", locale), [text("resetPageInvalid", locale)], status: .notFound, language: locale)
        }
        let hash = try await hashPassword(newPassword)
        _ = try await store.updateUser(id: userID, unique: [], now: now, passwordHash: .some(hash)) { $0 }
        try await passwordReset(userID: userID)
        return .html(text("resetPageDoneTitle", locale), [text("resetPageDone", locale)], language: locale)
    }

    /// The field of the registration form that repeats `field` (its `match` rule names it).
    func confirmationField(of field: FormModel.Field, locale: LocaleTag) -> FormModel.Field? {
        form(config.captureTraditionalRegistrationFormName.value, locale: locale)?.fields.first { candidate in
            candidate.rules.contains { rule in
                guard rule.kind == .match, case .text(let other) = rule.value else { return false }
                return other == field.name
            }
        }
    }

    /// The field stored at `password` in the registration form, whose rules a new password meets.
    func passwordField(locale: LocaleTag) -> FormModel.Field? {
        form(config.captureTraditionalRegistrationFormName.value, locale: locale)?.fields.first {
            guard $0.type == .password, case .path(let path)? = $0.schemaId else { return false }
            return path.value == "password"
        }
    }
}

import JumpCapture
import JumpForms

/// The Engage double: the mobile configuration, provider dialogs that complete against the
/// test identities, native token exchange and `auth_info`. Tokens it issues live ten minutes.
extension CaptureService {
    static let engageTokenLifetime = 600

    func mobileConfiguration() -> ServerReply {
        let base = baseURL.withLock { $0 }
        var info: [(key: String, value: JSONValue)] = []
        for provider in flow.providers {
            var entries: [(key: String, value: JSONValue)] = [
                ("friendly_name", .string(friendlyName(provider))),
                ("url", .string(startPath(provider))),
                ("requires_input", .bool(provider.builtIn?.inputPrompt != nil)),
            ]
            if let prompt = provider.builtIn?.inputPrompt { entries.append(("input_prompt", .string(prompt))) }
            if case .openID(let identifier, _) = provider.kind, let identifier {
                entries.append(("openid_identifier", .string(identifier.value)))
            }
            info.append((provider.id.value, .object(entries)))
        }
        let enabled = JSONValue.array(flow.providers.map { .string($0.id.value) })
        let social = JSONValue.array(flow.providers.filter { $0.builtIn != nil }.map { .string($0.id.value) })
        return .json(["stat": "ok", "baseurl": .string(base), "provider_info": .object(info),
                      "enabled_providers": enabled, "social_providers": social])
    }

    func friendlyName(_ provider: ProviderDefinition) -> String {
        provider.name.map { setup.localizer.text($0.value, for: config.captureLocale.value) } ?? provider.builtIn?.friendlyName ?? provider.id.value
    }

    func startPath(_ provider: ProviderDefinition) -> String {
        switch provider.kind {
        case .builtIn: "/\(provider.id.value)/start"
        case .openID: "/openid/start"
        case .saml: "/saml2/sso/start"
        }
    }

    /// The provider a start path and its query name: `/<id>/start`, or the custom provider
    /// whose `openid_identifier` / `saml_provider` the query gives.
    func provider(startPath path: String, _ parameters: RequestParameters) -> ProviderDefinition? {
        switch path {
        case "/openid/start":
            return flow.providers.first {
                if case .openID(let identifier, _) = $0.kind { return identifier?.value == parameters["openid_identifier"] }
                return false
            }
        case "/saml2/sso/start":
            return flow.providers.first {
                if case .saml(let name) = $0.kind { return name?.value == parameters["saml_provider"] }
                return false
            }
        default:
            let id = path.dropFirst().split(separator: "/").first.map(String.init) ?? ""
            return flow.providers.first { $0.id.value == id && $0.builtIn != nil }
        }
    }

    /// A provider's dialog: with one identity (or `identity=` naming one by identifier or
    /// email) it completes at once, redirecting to the token URL with a new Engage token;
    /// with several it shows a page to choose from.
    func engageStart(path: String, target: String, _ parameters: RequestParameters) async throws -> ServerReply {
        guard let provider = provider(startPath: path, parameters) else {
            return .html("Unknown provider", "<p>This flow has no provider for \(ServerReply.escape(path)).</p>", status: .notFound)
        }
        if let tokenURL = parameters["token_url"], !tokenURLAllowed(tokenURL) {
            let whitelist = config.engageWhitelistedDomain?.value ?? "none"
            return .html("Token URL not allowed",
                         "<p>token_url \(ServerReply.escape(tokenURL)) is not on this app's whitelist (engageWhitelistedDomain: \(ServerReply.escape(whitelist)), and loopback addresses).</p>",
                         status: .badRequest)
        }
        let id = provider.id.value
        let candidates = setup.identities.filter { $0.provider == id }
        let chosen: TestIdentity?
        if let wanted = parameters["identity"] {
            chosen = candidates.first { $0.identifier == wanted || $0.email.map(normalizeEmail) == normalizeEmail(wanted) }
            if chosen == nil {
                return .html("No such test identity", "<p>identities.yaml has no \(ServerReply.escape(id)) identity '\(ServerReply.escape(wanted))'.</p>", status: .notFound)
            }
        } else if candidates.count == 1 {
            chosen = candidates.first
        } else if candidates.isEmpty {
            return .html("No test identity", "<p>identities.yaml has no identity for \(ServerReply.escape(id)).</p>", status: .notFound)
        } else {
            let links = candidates.map { identity in
                let link = target + (target.contains("?") ? "&" : "?") + "identity=" + FormEncoding.encodeComponent(identity.identifier)
                return "<li><a href=\"\(ServerReply.escape(link))\">\(ServerReply.escape(identity.displayName ?? identity.email ?? identity.identifier))</a></li>"
            }
            return .html("Sign in with \(friendlyName(provider))", "<ul>\n\(links.joined(separator: "\n"))\n</ul>")
        }
        guard let identity = chosen else { return .html("No test identity", "", status: .notFound) }
        let token = try await issueToken(for: identity)
        let base = baseURL.withLock { $0 }
        let destination = parameters["token_url"] ?? base + "/signin/complete"
        return .redirect(destination + (destination.contains("?") ? "&" : "?") + "token=" + FormEncoding.encodeComponent(token))
    }

    /// Engage hands tokens only to the app's whitelisted domain: a token URL on the host of
    /// `engageWhitelistedDomain` (or a subdomain of it), or on a loopback address (where the
    /// CLI and local apps listen). Without a whitelisted domain any http(s) URL is accepted.
    func tokenURLAllowed(_ text: String) -> Bool {
        guard let url = ServerURL(text) else { return false }
        if url.isLoopback { return true }
        guard let whitelisted = config.engageWhitelistedDomain.flatMap({ ServerURL($0.value) }) else { return true }
        return url.host == whitelisted.host || url.host.hasSuffix("." + whitelisted.host)
    }

    func issueToken(for identity: TestIdentity) async throws -> String {
        var profile: JSONValue = [:]
        for (path, value) in identity.profile { profile = profile.setting(path: path, .string(value)) }
        if identity.verifiedEmail, let email = identity.email { profile = profile.setting("verifiedEmail", .string(email)) }
        return try await store.issueEngageToken(EngageGrant(provider: identity.provider, identifier: identity.identifier,
                                                            profile: profile, expiresAt: now + Self.engageTokenLifetime), now: now)
    }

    /// `/signin/oauth_token?providername=p`: a native SDK token for an Engage token.
    /// `provider` (the body's) may repeat `providername` (the query's), but not contradict it;
    /// the provider must be one of the flow's built-in (native SDK) providers.
    func exchangeNativeToken(_ parameters: RequestParameters) async throws -> ServerReply {
        if let name = parameters.duplicate { return .duplicate(name) }
        guard let provider = parameters["providername"] ?? parameters["provider"] else { return Self.engageFail(1, "providername is missing") }
        if let other = parameters["provider"], other != provider {
            return Self.engageFail(1, "provider '\(other)' does not match providername '\(provider)'")
        }
        guard flow.providers.contains(where: { $0.id.value == provider && $0.builtIn != nil }) else {
            let known = flow.providers.filter { $0.builtIn != nil }.map(\.id.value).joined(separator: ", ")
            return Self.engageFail(1, "unknown provider '\(provider)' (this app's native providers: \(known.isEmpty ? "none" : known))")
        }
        guard let native = parameters["token"] else { return Self.engageFail(1, "token is missing") }
        if provider == "twitter", parameters["token_secret"] == nil { return Self.engageFail(1, "twitter needs token_secret") }
        guard let identity = setup.identities.first(where: { $0.provider == provider && $0.nativeToken == native }) else {
            return Self.engageFail(2, "the \(provider) token is not valid")
        }
        return .json(["stat": "ok", "token": .string(try await issueToken(for: identity))])
    }

    /// `auth_info`: the profile behind an Engage token, as a token-URL server asks for it with
    /// the app's secret `apiKey` (`server.apiKey`; without one configured, auth_info is off).
    /// Engage's codes: 0 missing parameter, 2 data not found, 3 authentication error. The token
    /// is used up, as Engage's are.
    func authInfo(_ parameters: RequestParameters) async throws -> ServerReply {
        if let name = parameters.duplicate { return .duplicate(name) }
        guard let configured = setup.settings.apiKey?.value, !configured.isEmpty else {
            return Self.engageFail(3, "auth_info is off: this server has no API key (server.apiKey in jump.yaml)")
        }
        guard let apiKey = parameters["apiKey"] else { return Self.engageFail(0, "apiKey is missing") }
        // Compared as digests: the time taken says nothing about how much of the key matched.
        guard CaptureStore.hash(apiKey) == CaptureStore.hash(configured) else { return Self.engageFail(3, "the API key is not valid") }
        guard let token = parameters["token"] else { return Self.engageFail(0, "token is missing") }
        guard let grant = try await store.engageGrant(token), grant.expiresAt > now, try await store.useEngageTokens([token], now: now) else {
            return Self.engageFail(2, "the token is not valid, was used already, or has expired")
        }
        var profile: [(key: String, value: JSONValue)] = [("providerName", .string(grant.provider)), ("identifier", .string(grant.identifier))]
        for key in ["email", "verifiedEmail", "displayName"] {
            if let value = grant.profile[key] { profile.append((key, value)) }
        }
        if let name = grant.profile["name"] { profile.append(("name", name)) }
        return .json(["stat": "ok", "profile": .object(profile)])
    }

    static func engageFail(_ code: Int, _ message: String) -> ServerReply {
        .json(["stat": "fail", "err": ["code": .integer(code), "msg": .string(message)]])
    }

    /// The page an Engage dialog ends on without a token URL.
    func signInComplete(_ parameters: RequestParameters) -> ServerReply {
        .html("Signed in", "<p>The provider dialog is complete. The app reads the token from this page's address.</p>")
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
              let userID = try await store.consumeCode(code, kind: "verify_email", now: now) else {
            return .html(text("resetPageInvalidTitle", locale), "<p>\(ServerReply.escape(text("verifyPageInvalid", locale)))</p>",
                         status: .notFound, language: locale)
        }
        let stamp = Timestamps.capture(now)
        _ = try await store.updateUser(id: userID, unique: [], now: now) { $0.setting("emailVerified", .string(stamp)) }
        return .html(text("verifyPageTitle", locale), "<p>\(ServerReply.escape(text("verifyPageDone", locale)))</p>", language: locale)
    }

    /// GET shows the form; POST sets the password after the flow's rules for the password field.
    /// The page speaks the locale the email was sent in (stored with the code), through the
    /// flow's locale files and the built-in catalog as the emails do.
    func resetPassword(_ parameters: RequestParameters, isPost: Bool) async throws -> ServerReply {
        func text(_ key: String, _ locale: LocaleTag) -> String { self.text("jumpForms.server.\(key)", locale) }
        guard let code = parameters["code"], let pending = try await store.peekCode(code, kind: "forgot_password", now: now) else {
            let locale = config.captureLocale.value
            return .html(text("resetPageInvalidTitle", locale), "<p>\(ServerReply.escape(text("resetPageInvalid", locale)))</p>", status: .notFound)
        }
        let locale = pending.locale.flatMap(LocaleTag.init) ?? config.captureLocale.value
        let title = text("resetPageTitle", locale)
        let form = """
        <form method="post" action="/password/reset">
        <input type="hidden" name="code" value="\(ServerReply.escape(code))">
        <label>\(ServerReply.escape(text("resetPageLabel", locale))) <input type="password" name="password" autocomplete="new-password"></label>
        <button type="submit">\(ServerReply.escape(text("resetPageSave", locale)))</button>
        </form>
        """
        guard isPost else { return .html(title, form, language: locale) }
        let password = parameters["password"] ?? ""
        if let field = passwordField(locale: locale) {
            let model = FormModel(name: "passwordReset", flowName: flow.name.value, flowVersion: flow.version.value, locale: locale, fields: [field])
            let report = RuleEngine(form: model, today: CivilDate.utc(epochSeconds: now), side: .server).validate([field.name: password])
            if !report.isValid {
                let messages = setup.localizer.messages(for: report.violations, in: model).flatMap(\.messages)
                return .html(title, "<p>\(messages.map(ServerReply.escape).joined(separator: "<br>"))</p>\n" + form, status: .badRequest, language: locale)
            }
        }
        guard let userID = try await store.consumeCode(code, kind: "forgot_password", now: now) else {
            return .html(text("resetPageInvalidTitle", locale), "<p>\(ServerReply.escape(text("resetPageInvalid", locale)))</p>",
                         status: .notFound, language: locale)
        }
        let hash = try await hashPassword(password)
        _ = try await store.updateUser(id: userID, unique: [], now: now, passwordHash: .some(hash)) { $0 }
        return .html(text("resetPageDoneTitle", locale), "<p>\(ServerReply.escape(text("resetPageDone", locale)))</p>", language: locale)
    }

    /// The field stored at `password` in the registration form, whose rules a new password meets.
    func passwordField(locale: LocaleTag) -> FormModel.Field? {
        form(config.captureTraditionalRegistrationFormName.value, locale: locale)?.fields.first {
            guard $0.type == .password, case .path(let path)? = $0.schemaId else { return false }
            return path.value == "password"
        }
    }
}

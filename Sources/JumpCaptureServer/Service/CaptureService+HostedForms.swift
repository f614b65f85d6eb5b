import Crypto
import HTTPTypes
import JumpCapture
import JumpForms
import JumpWebPages
import Synchronization

/// The signed-in sessions of the hosted pages: a random cookie value the server maps to the
/// access token of a hosted sign-in or registration (the page never holds the token). Kept in
/// the database (`page_sessions`: the cookie's SHA-256, the token sealed with the store's key),
/// each until its token expires, so that a session opened at one instance works at every other.
final class PageSessions: Sendable {
    let store: CaptureStore
    /// The key CSRF tokens are signed with: derived from the store's key, so that every
    /// instance with the same key file (every instance on one database needs it) accepts the
    /// tokens the others issued.
    private let csrfKey: [UInt8]

    init(store: CaptureStore) {
        self.store = store
        csrfKey = store.derivedKey("csrf")
    }

    /// A new CSRF token: a random nonce (32 hex digits) and its HMAC-SHA256 under the CSRF key
    /// (64 hex digits).
    func newCSRFToken() -> String {
        let nonce = String(CaptureStore.randomToken().prefix(32))
        return nonce + csrfSignature(nonce)
    }

    /// Whether this server (or another instance on its database) issued `token` (its signature
    /// is the nonce's, compared as digests): a value planted in the cookie and the form by
    /// someone else is not one.
    func issuedCSRF(_ token: String) -> Bool {
        guard token.utf8.count == 96, token.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else { return false }
        let nonce = String(token.prefix(32))
        return CaptureStore.hash(nonce + csrfSignature(nonce)) == CaptureStore.hash(token)
    }

    private func csrfSignature(_ nonce: String) -> String {
        Hex.encode(Array(HMAC<SHA256>.authenticationCode(for: Array(nonce.utf8), using: SymmetricKey(data: csrfKey))))
    }

    /// A new session for `accessToken`: the cookie value.
    func open(accessToken: String, expiresAt: Int) async throws -> String {
        let cookie = CaptureStore.randomToken()
        try await store.openPageSession(cookie: cookie, accessToken: accessToken, expiresAt: expiresAt)
        return cookie
    }

    /// The access token of a cookie value, while it has not expired.
    func accessToken(cookie: String, now: Int) async throws -> String? {
        try await store.pageSessionToken(cookie: cookie, now: now)
    }
}

/// `GET/POST /forms/<formName>?locale=TAG[&redirect_uri=..&response_type=code|token&state=..]`:
/// every form of the flow as a page (`JumpWebPages`), drawn from the same `FormModel` and
/// `Localizer` as the prompts. A POST is the JSON operation of that form, run through the same
/// code (`handle`): its rules, its `unique` checks, its messages, which the page shows next to
/// their fields. Sign-in and registration end as Capture's hosted login does: a 303 to
/// `redirect_uri` with `code` (an authorization code for `/oauth/token`) or, with
/// `response_type=token`, the access token in the fragment; without `redirect_uri`, a page
/// that says so. They also open a page session (cookie `jf_session`, HttpOnly, SameSite=Lax)
/// that the edit-profile and change-password pages need. Every POST carries a CSRF token
/// (`csrf_token`, equal to the `jf_csrf` cookie: a site that cannot read the cookie cannot
/// post the form) that this server issued (`PageSessions.issuedCSRF`: a value planted in the
/// cookie and the form is refused); `HostCheck` refuses a POST with a foreign `Origin`.
/// `response_type=token` sends the access token only to the configured `redirectUri`
/// itself (`tokenRedirectAllowed`).
extension CaptureService {
    static let sessionCookie = "jf_session"
    static let csrfCookie = "jf_csrf"
    static let csrfField = "csrf_token"
    static let hostedFormsPrefix = "/forms/"

    /// Whether a path is a hosted form's (`/forms/<name>`).
    static func isHostedFormPath(_ path: String) -> Bool {
        path.hasPrefix(hostedFormsPrefix) && path.count > hostedFormsPrefix.count && !path.dropFirst(hostedFormsPrefix.count).contains("/")
    }

    /// The operations with a hosted form, in the order their links are offered.
    static let hostedOperations: [CaptureOperation] = [
        .signIn, .register, .socialRegister, .forgotPassword, .resendVerification, .updateProfile, .changePassword
    ]

    /// The operation whose configured form is `name`.
    func hostedOperation(_ name: String) -> CaptureOperation? {
        Self.hostedOperations.first { $0.formName(in: config) == name }
    }

    /// The cookies of a request (`Cookie` fields), by name (the first of a name wins).
    static func cookies(_ headers: HTTPFields) -> [String: String] {
        var cookies: [String: String] = [:]
        for field in headers[values: .cookie] {
            for part in field.split(separator: ";") {
                let pair = part.split(separator: "=", maxSplits: 1)
                guard pair.count == 2 else { continue }
                let name = pair[0].trimmingCharacters(in: " ")
                if cookies[name] == nil { cookies[name] = pair[1].trimmingCharacters(in: " ") }
            }
        }
        return cookies
    }

    /// `Set-Cookie` for a page cookie: HttpOnly, SameSite, on `/`, Secure over HTTPS.
    func cookie(_ name: String, _ value: String, sameSite: String, maxAge: Int? = nil) -> String {
        var text = "\(name)=\(value); Path=/; HttpOnly; SameSite=\(sameSite)"
        if let maxAge { text += "; Max-Age=\(maxAge)" }
        if baseURL.withLock({ $0 }).hasPrefix("https:") { text += "; Secure" }
        return text
    }

    /// Whether a hosted page may send the browser to `uri`: the configured `redirectUri` (any
    /// path and query on its origin), or an http(s) URL on a loopback address (local apps and tests).
    func redirectAllowed(_ uri: String) -> Bool {
        guard let url = BrowserURL(uri), let host = url.host, !host.isEmpty, url.isHTTP else { return false }
        if url.isLoopback { return true }
        guard let configured = config.redirectUri?.value, let allowed = BrowserURL(configured) else { return false }
        return url.scheme == allowed.scheme && url.host == allowed.host && url.port == allowed.port
    }

    /// Whether a hosted page may send an access token (`response_type=token`, in the
    /// fragment) to `uri`: only the configured `redirectUri` itself, scheme, host, port and path
    /// exactly (a query may differ), not any page of its origin or of a loopback address (a
    /// page there that leaks its URL, by a link or a script, would leak the token).
    func tokenRedirectAllowed(_ uri: String) -> Bool {
        guard redirectAllowed(uri), let configured = config.redirectUri?.value, let url = BrowserURL(uri), let allowed = BrowserURL(configured),
            url.isHTTP, url.scheme == allowed.scheme, url.host == allowed.host, url.port == allowed.port
        else { return false }
        return Self.path(of: uri) == Self.path(of: configured)
    }

    /// The path of an absolute URL as written (`/` when it has none); nil when it is not
    /// written plainly (`BrowserURL.isWrittenPlainly`: browsers read it otherwise).
    static func path(of uri: String) -> String? {
        guard BrowserURL.isWrittenPlainly(uri), let separator = uri.firstRange(of: "://")
        else { return nil }
        let rest = uri[separator.upperBound...]
        guard let start = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) else { return "/" }
        let path = rest[start...].prefix { $0 != "?" && $0 != "#" }
        return path.isEmpty ? "/" : String(path)
    }

    /// The words of the form pages in `locale`.
    func pageText(_ key: String, _ locale: LocaleTag, _ arguments: [String: MessageArgument] = [:]) -> String {
        setup.localizer.text("jumpForms.page.\(key)", for: locale, arguments)
    }

    func formWords(_ operation: CaptureOperation, locale: LocaleTag) -> FormPage.Words {
        let submit: String
        switch operation {
        case .signIn: submit = pageText("signInSubmit", locale)
        case .register, .socialRegister: submit = pageText("registerSubmit", locale)
        case .forgotPassword, .resendVerification: submit = pageText("sendSubmit", locale)
        default: submit = pageText("saveSubmit", locale)
        }
        return FormPage.Words(
            submit: submit, requiredNote: pageText("requiredNote", locale), chooseOne: text("jumpForms.prompt.chooseOne", locale),
            year: pageText("year", locale), month: pageText("month", locale), day: pageText("day", locale))
    }

    func formTitle(_ operation: CaptureOperation, locale: LocaleTag) -> String {
        switch operation {
        case .signIn: pageText("signInTitle", locale)
        case .register: pageText("registerTitle", locale)
        case .socialRegister: pageText("socialRegisterTitle", locale)
        case .forgotPassword: pageText("forgotPasswordTitle", locale)
        case .resendVerification: pageText("resendVerificationTitle", locale)
        case .changePassword: pageText("changePasswordTitle", locale)
        default: pageText("editProfileTitle", locale)
        }
    }

    /// The address of another hosted form, keeping the locale and the way back.
    func hostedLink(_ operation: CaptureOperation, _ parameters: RequestParameters, locale: LocaleTag) -> PageLink? {
        guard let name = operation.formName(in: config), form(name, locale: locale) != nil else { return nil }
        var query = [("locale", locale.identifier)]
        for key in ["redirect_uri", "response_type", "state", "preview"] { if let value = parameters[key] { query.append((key, value)) } }
        let href = Self.hostedFormsPrefix + FormEncoding.encodeComponent(name) + "?" + FormEncoding.encode(query.map { (name: $0.0, value: $0.1) })
        let label: String
        switch operation {
        case .signIn: label = pageText("signInTitle", locale)
        case .register: label = pageText("registerTitle", locale)
        case .forgotPassword: label = pageText("forgotPasswordTitle", locale)
        case .resendVerification: label = pageText("resendVerificationTitle", locale)
        case .changePassword: label = pageText("changePasswordTitle", locale)
        default: label = pageText("editProfileTitle", locale)
        }
        return PageLink(label: label, href: href)
    }

    /// The links a form page offers below the form.
    func links(of operation: CaptureOperation, _ parameters: RequestParameters, locale: LocaleTag) -> [PageLink] {
        let others: [CaptureOperation]
        switch operation {
        case .signIn: others = [.register, .forgotPassword, .resendVerification]
        case .register: others = [.signIn]
        case .forgotPassword, .resendVerification: others = [.signIn]
        case .updateProfile: others = [.changePassword]
        case .changePassword: others = [.updateProfile]
        default: others = []
        }
        return others.compactMap { hostedLink($0, parameters, locale: locale) }
    }

    /// A page as a reply.
    static func page(_ html: String, status: HTTPResponse.Status = .ok) -> ServerReply {
        ServerReply(status: status, contentType: ServerReply.htmlContentType, body: html)
    }

    func messagePage(
        _ title: String, _ paragraphs: [String], locale: LocaleTag, links: [PageLink] = [], status: HTTPResponse.Status = .ok
    ) -> ServerReply {
        Self.page(PageRenderer.message(MessagePage(locale: locale, title: title, paragraphs: paragraphs, links: links)), status: status)
    }

    /// Answers a hosted form: GET draws it, POST runs its operation.
    func hostedForm(
        path: String, _ parameters: RequestParameters, headers: HTTPFields, isPost: Bool, client: String?
    ) async throws -> ServerReply {
        let name = FormEncoding.decode(path.dropFirst(Self.hostedFormsPrefix.count)) ?? ""
        let locale = pageLocale(parameters, headers: headers)
        guard let operation = hostedOperation(name), let form = form(name, locale: locale) else {
            return messagePage(
                pageText("notFoundTitle", locale), [pageText("noSuchForm", locale, ["name": .string(name)])], locale: locale, status: .notFound)
        }
        if let uri = parameters["redirect_uri"], !redirectAllowed(uri) {
            return messagePage(
                pageText("badRequestTitle", locale), [pageText("redirectRefused", locale, ["uri": .string(uri)])], locale: locale,
                status: .badRequest)
        }
        if let type = parameters["response_type"], type != "code", type != "token" {
            return messagePage(pageText("badRequestTitle", locale), [pageText("responseTypeRefused", locale)], locale: locale, status: .badRequest)
        }
        if parameters["response_type"] == "token", let uri = parameters["redirect_uri"], !tokenRedirectAllowed(uri) {
            return messagePage(
                pageText("badRequestTitle", locale), [pageText("redirectRefused", locale, ["uri": .string(uri)])], locale: locale,
                status: .badRequest)
        }
        // Preview (`jump-forms preview` only): no session needed, a submit only validates.
        let preview = setup.isPreview && parameters["preview"] == "1"
        let cookies = Self.cookies(headers)
        var setCookies: [String] = []
        // The page session, for the forms of a signed-in user.
        var accessToken: String?
        var user: StoredUser?
        if !preview, operation == .updateProfile || operation == .changePassword {
            if let cookie = cookies[Self.sessionCookie], let token = try await pageSessions.accessToken(cookie: cookie, now: now),
                let session = try await store.session(token, identities: false), session.token.expiresAt > now
            {
                accessToken = token
                user = session.user
            } else {
                return messagePage(
                    pageText("sessionRequiredTitle", locale), [pageText("sessionRequired", locale)], locale: locale,
                    links: hostedLink(.signIn, parameters, locale: locale).map { [$0] } ?? [], status: .forbidden)
            }
        }
        // The CSRF token: the cookie's when this server issued it, else a new one.
        var csrf = cookies[Self.csrfCookie] ?? ""
        let csrfWellFormed = pageSessions.issuedCSRF(csrf)
        if !csrfWellFormed {
            csrf = pageSessions.newCSRFToken()
            setCookies.append(cookie(Self.csrfCookie, csrf, sameSite: "Strict"))
        }
        var page = FormPage(
            formName: form.name, locale: locale, title: formTitle(operation, locale: locale), fields: form.fields,
            words: formWords(operation, locale: locale), hiddenInputs: [(Self.csrfField, csrf)],
            links: links(of: operation, parameters, locale: locale))
        if operation == .socialRegister, let token = parameters["token"] { page.hiddenInputs.append(("token", token)) }
        func reply(_ page: FormPage, status: HTTPResponse.Status = .ok) -> ServerReply {
            var reply = Self.page(PageRenderer.form(page), status: status)
            for value in setCookies { reply.headers.append(HTTPField(name: .setCookie, value: value)) }
            return reply
        }
        guard isPost else {
            page.values = try await initialValues(operation, form: form, user: user, token: parameters["token"])
            return reply(page)
        }
        var values = Self.values(of: form, parameters)
        // An unchecked checkbox is not sent: it is false.
        for field in form.fields where field.type == .checkbox && values[field.name] == nil { values[field.name] = "false" }
        page.values = values
        guard csrfWellFormed, let sent = parameters[Self.csrfField], CaptureStore.hash(sent) == CaptureStore.hash(csrf) else {
            page.formErrors = [pageText("csrfRefused", locale)]
            return reply(page, status: .forbidden)
        }
        if preview {
            // The rules alone, on the server's side, as the operation would run them.
            if let refused = check(values, form: form, locale: locale).reply, let json = try? JSONValue.parse(refused.body) {
                showRefusal(json, on: &page, form: form, locale: locale)
                return reply(page, status: .badRequest)
            }
            page.notices = [pageText("previewValid", locale)]
            return reply(page)
        }
        // The operation's own parameters: what the JSON API would be sent.
        var pairs: [(name: String, value: String)] = [
            ("client_id", config.captureClientId.value), ("locale", locale.identifier), ("form", form.name)
        ]
        let fieldNames = Self.fieldParameters(form)
        for pair in parameters.pairs where fieldNames.contains(pair.name) && pair.name != Self.csrfField { pairs.append(pair) }
        for field in form.fields where field.type == .checkbox && parameters[field.name] == nil { pairs.append((field.name, "false")) }
        let redirect = parameters["redirect_uri"]
        let wantsCode = redirect != nil && (parameters["response_type"] ?? "code") == "code"
        if [.signIn, .register, .socialRegister].contains(operation), wantsCode, let redirect {
            pairs += [("response_type", "code_and_token"), ("redirect_uri", redirect)]
        }
        if operation == .socialRegister, let token = parameters["token"] { pairs.append(("token", token)) }
        if let accessToken { pairs.append(("access_token", accessToken)) }
        let answer = try await handle(
            operation == .changePassword ? .updateProfile : operation, RequestParameters(pairs: pairs),
            client: Self.checksPasswords(operation) ? client : nil)
        let json = try? JSONValue.parse(answer.body)
        guard let json, json["stat"]?.stringValue == "ok" else {
            showRefusal(json, on: &page, form: form, locale: locale)
            return reply(page, status: answer.status == .ok ? .badRequest : answer.status)
        }
        return try await succeeded(operation, json: json, page: page, parameters: parameters, locale: locale, setCookies: setCookies)
    }

    /// A refusal of the JSON API on the page: each field's messages next to it (390's
    /// `invalid_fields`), the localized `message` (else `error_description`) for the whole form.
    func showRefusal(_ json: JSONValue?, on page: inout FormPage, form: FormModel, locale: LocaleTag) {
        if case .object(let fields)? = json?["invalid_fields"] {
            for (field, messages) in fields {
                let texts = (messages.arrayValue ?? []).compactMap { $0.stringValue }
                if form.field(named: field) != nil { page.fieldErrors[field, default: []] += texts } else { page.formErrors += texts }
            }
        }
        if let message = json?["message"]?.stringValue ?? json?["error_description"]?.stringValue {
            page.formErrors.insert(message, at: 0)
        } else if json == nil {
            page.formErrors.insert(text("jumpForms.server.invalidFields", locale), at: 0)
        }
    }

    /// What a form shows first: the record's values (edit profile), the Engage profile's (social
    /// registration), else the fields' defaults.
    func initialValues(_ operation: CaptureOperation, form: FormModel, user: StoredUser?, token: String?) async throws -> FormValues {
        var values = FormValues()
        if operation == .updateProfile, let record = user?.record {
            for field in form.fields {
                switch field.schemaId {
                case .path(let path)?:
                    guard field.type != .password, let value = record.value(atPath: path.value) else { continue }
                    if let bool = value.boolValue {
                        values[field.name] = bool ? "true" : "false"
                    } else if let text = value.stringValue {
                        values[field.name] = text
                    }
                case .map(let subs)?:
                    for sub in subs { if let text = record.value(atPath: sub.path.value)?.stringValue { values["\(field.name)[\(sub.key)]"] = text } }
                case nil:
                    continue
                }
            }
        }
        if operation == .socialRegister, let token, case .success(let grant) = try await grant(token) {
            values = prefillValues(grant, form: form)
        }
        return values
    }

    /// After the operation succeeded: the redirect, the session cookie, or a page that says so.
    func succeeded(
        _ operation: CaptureOperation, json: JSONValue, page: FormPage, parameters: RequestParameters, locale: LocaleTag,
        setCookies: [String]
    ) async throws -> ServerReply {
        var cookies = setCookies
        var page = page
        let email = json["capture_user"]?["email"]?.stringValue ?? ""
        switch operation {
        case .signIn, .register, .socialRegister:
            guard let token = json["access_token"]?.stringValue else { break }
            let lifetime = json["expires_in"]?.intValue ?? setup.settings.accessTokenLifetime
            let session = try await pageSessions.open(accessToken: token, expiresAt: now + lifetime)
            cookies.append(cookie(Self.sessionCookie, session, sameSite: "Lax", maxAge: lifetime))
            var reply: ServerReply
            if let redirect = parameters["redirect_uri"] {
                var location = redirect
                if (parameters["response_type"] ?? "code") == "code", let code = json["authorization_code"]?.stringValue {
                    var query = [(name: "code", value: code)]
                    if let state = parameters["state"] { query.append((name: "state", value: state)) }
                    location = Self.adding(query: query, to: redirect)
                } else {
                    var fragment = [
                        (name: "access_token", value: token), (name: "token_type", value: "Bearer"), (name: "expires_in", value: String(lifetime))
                    ]
                    if let state = parameters["state"] { fragment.append((name: "state", value: state)) }
                    location = (redirect.split(separator: "#", maxSplits: 1).first.map(String.init) ?? redirect) + "#" + FormEncoding.encode(fragment)
                }
                reply = .seeOther(location)
            } else {
                let key = operation == .signIn ? "jumpForms.cli.signedIn" : "jumpForms.cli.registered"
                reply = messagePage(
                    pageText("doneTitle", locale), [setup.localizer.text(key, for: locale, ["email": .string(email)])], locale: locale,
                    links: [hostedLink(.updateProfile, parameters, locale: locale), hostedLink(.changePassword, parameters, locale: locale)]
                        .compactMap { $0 })
            }
            for value in cookies { reply.headers.append(HTTPField(name: .setCookie, value: value)) }
            return reply
        case .forgotPassword, .resendVerification:
            let identifier = page.fields.first { $0.type.canIdentify }.flatMap { page.values[$0.name] } ?? ""
            let key = operation == .forgotPassword ? "jumpForms.cli.resetSent" : "jumpForms.cli.verificationSent"
            var reply = messagePage(
                pageText("emailSentTitle", locale), [setup.localizer.text(key, for: locale, ["email": .string(identifier)])], locale: locale,
                links: hostedLink(.signIn, parameters, locale: locale).map { [$0] } ?? [])
            for value in cookies { reply.headers.append(HTTPField(name: .setCookie, value: value)) }
            return reply
        default:
            break
        }
        // Edit profile, change password: back where the user came from, or the form again.
        if let redirect = parameters["redirect_uri"] { return .seeOther(redirect) }
        page.notices = [text(operation == .changePassword ? "jumpForms.cli.passwordChanged" : "jumpForms.cli.profileSaved", locale)]
        if operation == .changePassword { page.values = FormValues() }
        var reply = Self.page(PageRenderer.form(page))
        for value in cookies { reply.headers.append(HTTPField(name: .setCookie, value: value)) }
        return reply
    }

    /// `uri` with `query` added to its query string (before any fragment).
    static func adding(query: [(name: String, value: String)], to uri: String) -> String {
        let parts = uri.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let base = String(parts[0])
        let separator = base.contains("?") ? (base.hasSuffix("?") || base.hasSuffix("&") ? "" : "&") : "?"
        return base + separator + FormEncoding.encode(query) + (parts.count > 1 ? "#" + parts[1] : "")
    }
}

private extension Substring {
    func trimmingCharacters(in set: Character) -> String {
        var text = self
        while text.first == set { text.removeFirst() }
        while text.last == set { text.removeLast() }
        return String(text)
    }
}

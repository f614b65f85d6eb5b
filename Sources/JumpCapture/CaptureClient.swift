import JumpForms
import Logging

/// One Capture account for an app: the calls of the JUMP SDKs as `try await` methods, and the
/// session they make. After a sign-in or registration the client makes the `Session`, keeps it
/// through its `SessionStore`, sends its access token with the calls that need one, renews an
/// expired token once and sends the call again (Capture's 414), and publishes the sign-in
/// state (`signInStates()`).
///
/// Values are checked by the form's rules before anything is sent: a refusal names each field
/// with the form's localized messages, as a refusal of the server (390) does
/// (`CaptureClientError.fieldMessages`). The server's answers that ask something of the app
/// stay typed: two-step registration (310), merge (380), invalid fields (390).
///
/// Record paths: `readRecord(attribute:)`, `updateAttribute(_:to:)`, `replacePlural(_:with:)`
/// and `deleteAttribute(_:)` name an attribute the same way, by its path in the record, sent
/// as `attribute_name` as both SDKs send it: `/primaryAddress`, `/primaryAddress/city`, a
/// plural `/photos`, one of its elements by `id` `/photos#3`, an attribute in it
/// `/photos#3/value`. nil, `""` and `/` name the whole record; a path without its leading `/`
/// gets one (`primaryAddress/city` is `/primaryAddress/city`).
///
/// ```swift
/// let client = try CaptureClient(
///     config: config, flow: flow, localizer: localizer,
///     sessionStore: KeychainSessionStore(service: "com.example.app"))
/// do {
///     let signedIn = try await client.signIn(["signInEmailAddress": email, "currentPassword": password])
///     print(signedIn.record["displayName"] ?? "")
/// } catch .refused(.badCredentials) {
///     // offer forgot-password
/// }
/// ```
public actor CaptureClient {
    /// Where Capture is, the request builders and the response decoder.
    public nonisolated let setup: CaptureSetup
    /// What the sessions this client makes are bound to (`Session.captureDomain`); a stored
    /// session of another domain is not this client's.
    public nonisolated let sessionDomain: String
    /// Now and today.
    public nonisolated let clock: ClientClock
    let transport: any HTTPTransport
    let store: any SessionStore
    let logger: Logger

    /// The session, once read from the store (nil: signed out).
    private var current: Session?
    private var loaded = false
    private var state: SignInState = .signedOut
    private var observers: [Int: AsyncStream<SignInState>.Continuation] = [:]
    private var nextObserver = 0

    /// - Parameters:
    ///   - setup: where Capture is, and the builders and decoder for the configuration's flow.
    ///   - transport: how requests travel: by default `URLSessionTransport` (servers and the
    ///     CLI pass JumpCaptureNIO's `AsyncHTTPTransport`; tests and apps may pass their own).
    ///   - sessionStore: where the session is kept between runs.
    ///   - sessionDomain: what sessions are bound to; by default `captureDomain` as written.
    ///   - clock: now (token expiry, the refresh signature's date) and today (the rules' date).
    ///   - logger: the calls made and their outcome, at debug level; never a secret.
    public init(
        setup: CaptureSetup, transport: any HTTPTransport = URLSessionTransport(), sessionStore: any SessionStore,
        sessionDomain: String? = nil,
        clock: ClientClock = .system, logger: Logger = Logger(label: "jump-forms.capture-client")
    ) {
        self.setup = setup
        self.transport = transport
        self.store = sessionStore
        self.sessionDomain = sessionDomain ?? setup.defaultSessionDomain
        self.clock = clock
        self.logger = logger
    }

    /// A client of the Capture server `config` names (or `capture`, which `captureDomain:
    /// embedded` needs: the embedded server's URL), sending `flow`'s forms in `locale` (by
    /// default `captureLocale`).
    public init(
        config: ClientConfig, flow: Flow, localizer: Localizer, locale: LocaleTag? = nil, capture: ServerURL? = nil,
        transport: any HTTPTransport = URLSessionTransport(), sessionStore: any SessionStore, clock: ClientClock = .system,
        logger: Logger = Logger(label: "jump-forms.capture-client")
    ) throws(CaptureSetupError) {
        let setup = try CaptureSetup(config: config, flow: flow, localizer: localizer, locale: locale, capture: capture)
        self.init(setup: setup, transport: transport, sessionStore: sessionStore, clock: clock, logger: logger)
    }

    // MARK: the session

    /// The signed-in session of this server: read from the store on first use, then kept.
    /// Nil when signed out (or the stored session is another server's, or holds Engage device
    /// tokens only: `Session.engageOnly`).
    public func session() throws(CaptureClientError) -> Session? {
        try storedSession().flatMap { $0.hasCaptureSignIn ? $0 : nil }
    }

    /// The stored session of this server, a Capture sign-in or Engage device tokens only.
    private func storedSession() throws(CaptureClientError) -> Session? {
        if !loaded {
            let stored: Session?
            do { stored = try store.load() } catch { throw .sessionStore(error) }
            loaded = true
            current = stored?.captureDomain == sessionDomain ? stored : nil
            publish(Self.state(of: current))
        }
        return current
    }

    private static func state(of session: Session?) -> SignInState {
        guard let session, session.hasCaptureSignIn else { return .signedOut }
        return .signedIn(SignedInUser(record: session.record))
    }

    /// The sign-in state now.
    public var signInState: SignInState {
        if !loaded { _ = try? session() }
        return state
    }

    /// The sign-in state, now and at every change (signed in, signed out, session expired),
    /// until the caller stops listening. A store that cannot be read counts as signed out.
    public func signInStates() -> AsyncStream<SignInState> {
        let (stream, continuation) = AsyncStream.makeStream(of: SignInState.self)
        let now = signInState
        let id = nextObserver
        nextObserver += 1
        observers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.stopObserving(id) }
        }
        continuation.yield(now)
        return stream
    }

    private func stopObserving(_ id: Int) {
        observers[id] = nil
    }

    private func publish(_ new: SignInState) {
        guard new != state else { return }
        state = new
        for observer in observers.values { observer.yield(new) }
    }

    /// Keeps `session` (in memory, and in the store: a store that fails is logged, and the
    /// session still serves this client) and publishes it.
    private func keep(_ session: Session) {
        current = session
        loaded = true
        do {
            try store.save(session)
        } catch {
            logger.warning("the session is not saved", metadata: ["reason": "\(error)"])
        }
        publish(Self.state(of: session))
    }

    /// The session made by a sign-in or registration answered with `result`. The device
    /// tokens of an Engage-only session stay (the device signed in to the providers).
    private func start(_ result: SignInResult, secret: RefreshSecret) {
        let previous = (try? storedSession()) ?? nil
        let engageOnly = previous.flatMap { $0.hasCaptureSignIn ? nil : $0.deviceTokens } ?? [:]
        keep(
            Session(
                captureDomain: sessionDomain, clientId: setup.config.captureClientId.value, accessToken: result.accessToken,
                refreshSecret: secret, expiresAt: result.expiresIn.map { Session.date(epochSeconds: clock.now() + $0) }, record: result.record,
                deviceTokens: engageOnly))
    }

    // MARK: sending

    /// Sends a request and decodes the answer: a refusal is `.refused`.
    private func send(_ request: CaptureRequest, engageToken: String? = nil) async throws(CaptureClientError) -> CaptureSuccess {
        logger.debug("sending", metadata: ["operation": "\(request.operation.rawValue)"])
        let answer: HTTPAnswer
        do {
            answer = try await transport.send(request)
        } catch {
            logger.debug("not sent", metadata: ["operation": "\(request.operation.rawValue)", "reason": "\(error)"])
            throw .transport(error)
        }
        switch setup.decoder.decode(request.operation, status: answer.status, body: answer.body, engageToken: engageToken) {
        case .success(let success):
            return success
        case .failure(let error):
            logger.debug(
                "refused", metadata: ["operation": "\(request.operation.rawValue)", "code": "\(error.serverError?.code ?? 0)"])
            throw .refused(error)
        }
    }

    private func build(_ make: () throws(RequestError) -> CaptureRequest) throws(CaptureClientError) -> CaptureRequest {
        do { return try make() } catch { throw .request(error) }
    }

    /// Sends a request made with the session's access token; when the server says the token
    /// has expired (414), renews it once and sends the request again.
    private func authorized(_ make: (String) throws(RequestError) -> CaptureRequest) async throws(CaptureClientError) -> CaptureSuccess {
        guard var session = try session() else { throw .notSignedIn }
        var renewed = false
        while true {
            let token = session.accessToken
            let request = try build { () throws(RequestError) in try make(token) }
            do {
                return try await send(request)
            } catch .refused(.accessTokenExpired) where !renewed {
                renewed = true
                // Another call may have renewed it meanwhile.
                if let latest = current, latest.accessToken != token {
                    session = latest
                } else {
                    session = try await renew(session)
                }
            } catch .refused(.accessTokenExpired(let server)) {
                publish(.sessionExpired(SignedInUser(record: session.record)))
                throw .refused(.accessTokenExpired(server))
            }
        }
    }

    /// A new access token for `session`, kept; a refusal leaves the session expired.
    private func renew(_ session: Session) async throws(CaptureClientError) -> Session {
        let request = setup.builder.refreshAccessToken(
            accessToken: session.accessToken, refreshSecret: session.refreshSecret, epochSeconds: clock.now())
        let success: CaptureSuccess
        do {
            success = try await send(request)
        } catch {
            // A refusal (not a server trouble such as 510, try again later) ends the session.
            if case .refused(let refusal) = error, let code = refusal.serverError?.code, code < 500 {
                publish(.sessionExpired(SignedInUser(record: session.record)))
            }
            throw error
        }
        guard case .refreshed(let token, let expiresIn) = success else { throw .unexpectedAnswer(.refreshAccessToken, success) }
        var renewed = current ?? session
        renewed.accessToken = token
        renewed.expiresAt = expiresIn.map { Session.date(epochSeconds: clock.now() + $0) }
        keep(renewed)
        return renewed
    }

    private func signedIn(_ success: CaptureSuccess, _ operation: CaptureOperation, secret: RefreshSecret) throws(CaptureClientError) -> SignInResult
    {
        guard case .signedIn(let result) = success else { throw .unexpectedAnswer(operation, success) }
        start(result, secret: secret)
        return result
    }

    // MARK: signing in

    /// Traditional sign-in with the sign-in form's values (`captureSignInFormName`). With
    /// `mergeToken` (from a `.mergeRequired` refusal of a social sign-in whose account signs
    /// in with a password), the provider's identity is added to the account: the merge.
    public func signIn(_ values: FormValues, mergeToken: String? = nil) async throws(CaptureClientError) -> SignInResult {
        let secret = RefreshSecret.generate()
        let request = try build { () throws(RequestError) in
            try setup.builder.signIn(values, refreshSecret: secret, mergeToken: mergeToken, today: clock.today())
        }
        return try signedIn(await send(request), .signIn, secret: secret)
    }

    /// Sign-in with an Engage token. A new user is registered at once when the configuration
    /// enables thin registration (`SignInResult.isNew`); otherwise the refusal is
    /// `.registrationNeeded` (two-step registration: `register(_:socialToken:)`). An email
    /// address that belongs to another account is `.mergeRequired`: sign in there with the
    /// merge token.
    public func signIn(engageToken token: String, mergeToken: String? = nil) async throws(CaptureClientError) -> SignInResult {
        let secret = RefreshSecret.generate()
        let request = setup.builder.socialSignIn(token: token, refreshSecret: secret, mergeToken: mergeToken)
        return try signedIn(await send(request, engageToken: token), .socialSignIn, secret: secret)
    }

    /// Traditional registration with the registration form's values; signs the new user in.
    public func register(_ values: FormValues) async throws(CaptureClientError) -> SignInResult {
        let secret = RefreshSecret.generate()
        let request = try build { () throws(RequestError) in try setup.builder.register(values, refreshSecret: secret, today: clock.today()) }
        return try signedIn(await send(request), .register, secret: secret)
    }

    /// Two-step social registration: the social registration form's values (prefilled from
    /// `TwoStepRegistration.prefill`) with the social registration token
    /// (`TwoStepRegistration.token`); signs the new user in.
    public func register(_ values: FormValues, socialToken token: String) async throws(CaptureClientError) -> SignInResult {
        let secret = RefreshSecret.generate()
        let request = try build { () throws(RequestError) in
            try setup.builder.socialRegister(values, token: token, refreshSecret: secret, today: clock.today())
        }
        return try signedIn(await send(request, engageToken: token), .socialRegister, secret: secret)
    }

    /// Sends a password-reset email to the forgot-password form's address.
    public func forgotPassword(_ values: FormValues) async throws(CaptureClientError) {
        let request = try build { () throws(RequestError) in try setup.builder.forgotPassword(values, today: clock.today()) }
        _ = try await send(request)
    }

    /// Sends the verification email again, to the resend-verification form's address.
    public func resendVerification(_ values: FormValues) async throws(CaptureClientError) {
        let request = try build { () throws(RequestError) in try setup.builder.resendVerification(values, today: clock.today()) }
        _ = try await send(request)
    }

    // MARK: the signed-in user

    /// A new access token (the refresh signature), kept in the session. The client renews
    /// an expired token by itself; this is for an app that wants it renewed now.
    @discardableResult
    public func refresh() async throws(CaptureClientError) -> Session {
        guard let session = try session() else { throw .notSignedIn }
        return try await renew(session)
    }

    /// Saves the edit-profile form's values (`FormValues(record:form:)` fills them from the
    /// session's record). Read the record again to see them (`readRecord()`).
    public func updateProfile(_ values: FormValues) async throws(CaptureClientError) {
        _ = try await authorized { token throws(RequestError) in
            try setup.builder.updateProfile(values, accessToken: token, today: clock.today())
        }
    }

    /// Saves the change-password form's values.
    public func changePassword(_ values: FormValues) async throws(CaptureClientError) {
        _ = try await authorized { token throws(RequestError) in
            try setup.builder.changePassword(values, accessToken: token, today: clock.today())
        }
    }

    /// Adds the identity of an Engage token to the account.
    public func link(engageToken token: String) async throws(CaptureClientError) {
        _ = try await authorized { accessToken throws(RequestError) in setup.builder.linkAccount(accessToken: accessToken, token: token) }
    }

    /// Removes a linked identity (`profiles[].identifier` of the record).
    public func unlink(identifier: String) async throws(CaptureClientError) {
        _ = try await authorized { token throws(RequestError) in setup.builder.unlinkAccount(accessToken: token, identifier: identifier) }
    }

    // MARK: the record (paths as the type's documentation says)

    /// The record (`path` nil, `""` or `/`), or the value at a record path
    /// (`/primaryAddress/city`; see the record calls' path form above). The whole record is
    /// kept in the session.
    public func readRecord(attribute path: String? = nil) async throws(CaptureClientError) -> JSONValue {
        let name = Self.attributeName(path)
        let success = try await authorized { token throws(RequestError) in setup.builder.readRecord(accessToken: token, attribute: name) }
        guard case .record(let record) = success else { throw .unexpectedAnswer(.readRecord, success) }
        if name == nil, var session = current {
            session.record = record
            keep(session)
        }
        return record
    }

    /// Sets an object of the record as `entity.update` does: the keys given change, the
    /// others stay. `path` is the object's record path, as `readRecord(attribute:)` takes it
    /// (`/primaryAddress`; nil, `""` or `/` for the root).
    public func updateAttribute(_ path: String?, to value: JSONValue) async throws(CaptureClientError) {
        let name = Self.attributeName(path)
        _ = try await authorized { token throws(RequestError) in setup.builder.updateObject(accessToken: token, attribute: name, value: value) }
    }

    /// Replaces a plural of the record (`/photos`) with `value`, a list, as `entity.replace`.
    public func replacePlural(_ path: String, with value: JSONValue) async throws(CaptureClientError) {
        let name = Self.attributeName(path) ?? "/"
        _ = try await authorized { token throws(RequestError) in
            setup.builder.replacePlural(accessToken: token, attribute: name, value: value)
        }
    }

    /// Deletes a plural element (`/photos#3`), a plural, an object or a value, as `entity.delete`.
    public func deleteAttribute(_ path: String) async throws(CaptureClientError) {
        let name = Self.attributeName(path) ?? "/"
        _ = try await authorized { token throws(RequestError) in setup.builder.deleteAttribute(accessToken: token, attribute: name) }
    }

    /// `attribute_name` for a record path: nil for the whole record, else the path with its
    /// leading `/`.
    static func attributeName(_ path: String?) -> String? {
        guard let path, !path.isEmpty, path != "/" else { return nil }
        return path.hasPrefix("/") ? path : "/" + path
    }

    // MARK: sharing (Engage)

    /// Reads the end of an Engage device sign-in with `provider` (`engageToken` from its
    /// dialog: `GET /signin/device?token=&auth_info=true`) and keeps its `device_token` in the
    /// session, sealed with it, for `share(_:provider:)`. Needs no Capture sign-in, as
    /// JREngage's publishing does not: without one the store keeps an Engage-only session
    /// (`Session.engageOnly`).
    @discardableResult
    public func engageDeviceSignIn(engageToken token: String, provider: String) async throws(CaptureClientError) -> EngageDeviceSignIn {
        _ = try storedSession()
        let success = try await send(setup.engageBuilder.deviceSignIn(token: token))
        guard case .ok(let result) = success else { throw .unexpectedAnswer(.engageDeviceSignIn, success) }
        guard let deviceToken = result["device_token"]?.stringValue, !deviceToken.isEmpty else {
            throw .refused(.malformedResponse(MalformedResponse(status: 200, reason: "the device sign-in's rpx_result has no device_token")))
        }
        let profile = result["auth_info"]?["profile"] ?? .null
        var session =
            current
            ?? Session.engageOnly(captureDomain: sessionDomain, clientId: setup.config.captureClientId.value, deviceTokens: [:])
        session.deviceTokens[provider] = deviceToken
        keep(session)
        return EngageDeviceSignIn(
            provider: provider, identifier: profile["identifier"]?.stringValue, profile: profile, token: result["token"]?.stringValue ?? token,
            deviceToken: deviceToken)
    }

    /// The session's device token for `provider`, if an Engage device sign-in left one.
    public func deviceToken(for provider: String) throws(CaptureClientError) -> String? {
        try storedSession()?.deviceTokens[provider]
    }

    /// Shares `activity` with `provider` as the SDKs do (`EngageRequestBuilder.sharing`:
    /// `/api/v2/activity`, or `/api/v2/set_status` for a provider that posts an activity
    /// without a URL as a status), with the session's device token for the provider.
    /// `.noDeviceToken` when there is none: sign in with `engageDeviceSignIn` first. A refusal
    /// is `.refused(.engage(EngageError))`; when it says to sign in again
    /// (`EngageError.needsSignIn`) the session's token for the provider is forgotten.
    @discardableResult
    public func share(_ activity: SharedActivity, provider: String) async throws(CaptureClientError) -> EngagePost {
        try await share(activity, provider: provider, deviceToken: sessionDeviceToken(provider))
    }

    /// Shares `activity` with `provider` with a device token of the caller's.
    @discardableResult
    public func share(_ activity: SharedActivity, provider: String, deviceToken: String) async throws(CaptureClientError) -> EngagePost {
        try await post(
            setup.engageBuilder.sharing(activity, provider: provider, deviceToken: deviceToken), provider: provider, deviceToken: deviceToken)
    }

    /// Sets the person's status on `provider` (`/api/v2/set_status`) with the session's device
    /// token for it.
    @discardableResult
    public func setStatus(_ status: String, provider: String) async throws(CaptureClientError) -> EngagePost {
        try await setStatus(status, provider: provider, deviceToken: sessionDeviceToken(provider))
    }

    /// Sets the person's status on `provider` with a device token of the caller's.
    @discardableResult
    public func setStatus(_ status: String, provider: String, deviceToken: String) async throws(CaptureClientError) -> EngagePost {
        try await post(
            setup.engageBuilder.setStatus(status, provider: provider, deviceToken: deviceToken), provider: provider, deviceToken: deviceToken)
    }

    /// Short URLs for `urls` (`/openid/get_urls`): long URL -> short URL, for the URLs Engage
    /// shortened. jump-forms' server shortens only for a caller with a device token.
    public func shortenURLs(_ urls: [String], deviceToken: String? = nil) async throws(CaptureClientError) -> [String: String] {
        let success = try await send(setup.engageBuilder.shortenURLs(urls, deviceToken: deviceToken))
        guard case .ok(let answer) = success else { throw .unexpectedAnswer(.shortenURLs, success) }
        var short: [String: String] = [:]
        for (long, value) in answer["urls"]?["activity"]?.objectValue ?? [] {
            if let text = value.stringValue { short[long] = text }
        }
        return short
    }

    private func sessionDeviceToken(_ provider: String) throws(CaptureClientError) -> String {
        guard let token = try storedSession()?.deviceTokens[provider] else { throw .noDeviceToken(provider: provider) }
        return token
    }

    private func post(_ request: CaptureRequest, provider: String, deviceToken: String) async throws(CaptureClientError) -> EngagePost {
        do throws(CaptureClientError) {
            let success = try await send(request)
            guard case .ok(let answer) = success else { throw .unexpectedAnswer(request.operation, success) }
            return EngagePost(provider: provider, operation: request.operation, answer: answer)
        } catch .refused(.engage(let error)) where error.needsSignIn {
            if var session = current, session.deviceTokens[provider] == deviceToken {
                session.deviceTokens[provider] = nil
                keep(session)
            }
            throw .refused(.engage(error))
        } catch {
            throw error
        }
    }

    /// Ends the session: asks the server to revoke its access token (`/oauth/revoke`, which
    /// ends its refresh secret too), then forgets it here, whatever the server answered. The
    /// outcome says whether the server ended it; only a store that cannot be cleared throws.
    @discardableResult
    public func signOut() async throws(CaptureClientError) -> SignOutOutcome {
        var outcome = SignOutOutcome.noSession
        var stored = current
        if stored == nil {
            do { stored = try store.load() } catch { outcome = .forgottenLocally(.unreadableSession(error)) }
        }
        // An Engage-only session has no token to revoke: it is only forgotten.
        if let stored, stored.hasCaptureSignIn {
            if stored.captureDomain != sessionDomain {
                outcome = .forgottenLocally(.otherServer(stored.captureDomain))
            } else {
                do {
                    _ = try await send(setup.builder.revokeToken(stored.accessToken))
                    outcome = .revoked
                } catch {
                    switch error {
                    case .transport(let failure): outcome = .forgottenLocally(.transport(failure))
                    case .refused(let refusal): outcome = .forgottenLocally(.refused(refusal))
                    default: outcome = .forgottenLocally(.transport(.connectionFailed(url: setup.capture.description, reason: "\(error)")))
                    }
                }
            }
        }
        do { try store.clear() } catch { throw .sessionStore(error) }
        current = nil
        loaded = true
        publish(.signedOut)
        return outcome
    }
}

/// What Engage answered a shared activity or status.
public struct EngagePost: Sendable, Hashable {
    public var provider: String
    /// `.shareActivity` or `.setStatus`: how it was posted.
    public var operation: CaptureOperation
    /// Engage's answer (`{"stat": "ok"}`).
    public var answer: JSONValue

    public init(provider: String, operation: CaptureOperation, answer: JSONValue) {
        self.provider = provider
        self.operation = operation
        self.answer = answer
    }
}

/// Whether a user is signed in, as `CaptureClient.signInStates()` publishes it.
public enum SignInState: Sendable, Hashable {
    case signedOut
    case signedIn(SignedInUser)
    /// The server no longer accepts the session (its access token cannot be renewed): sign in
    /// again.
    case sessionExpired(SignedInUser)
}

/// Who is signed in, from the record.
public struct SignedInUser: Sendable, Hashable {
    /// The record's `uuid`, when it has one.
    public var uuid: String?
    public var email: String?
    public var displayName: String?

    public init(uuid: String? = nil, email: String? = nil, displayName: String? = nil) {
        self.uuid = uuid
        self.email = email
        self.displayName = displayName
    }

    /// The user a record describes.
    public init(record: JSONValue) {
        self.init(uuid: record["uuid"]?.stringValue, email: record["email"]?.stringValue, displayName: record["displayName"]?.stringValue)
    }
}

/// What `CaptureClient.signOut()` did: the session is forgotten here in every case.
public enum SignOutOutcome: Sendable, Hashable {
    /// The server ended the session.
    case revoked
    /// There was no session.
    case noSession
    /// The server did not end the session (its access token stays valid there until it
    /// expires), for this reason.
    case forgottenLocally(SignOutProblem)
}

/// Why a session was forgotten without the server ending it.
public enum SignOutProblem: Sendable, Hashable, CustomStringConvertible {
    /// The stored session cannot be read; it is removed.
    case unreadableSession(SessionStoreError)
    /// The session belongs to another server (its `captureDomain`).
    case otherServer(String)
    case transport(TransportError)
    case refused(CaptureError)

    public var description: String {
        switch self {
        case .unreadableSession(let error): error.description
        case .otherServer(let domain): "the session belongs to another server (\(domain))"
        case .transport(let error): error.description
        case .refused(let error): error.description
        }
    }
}

/// Why a `CaptureClient` call failed.
public enum CaptureClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nothing was sent: the values do not pass the form's rules (`.invalidValues`, with the
    /// form's localized messages), or the form cannot be had.
    case request(RequestError)
    /// The server refused: two-step registration, merge, invalid fields, wrong credentials ...
    case refused(CaptureError)
    /// No answer.
    case transport(TransportError)
    /// The call needs a signed-in user.
    case notSignedIn
    /// The session store cannot be read or cleared.
    case sessionStore(SessionStoreError)
    /// An answer of a kind the call never gives.
    case unexpectedAnswer(CaptureOperation, CaptureSuccess)
    /// Sharing needs a device token for the provider, and the session holds none: sign in to
    /// it through Engage first (`CaptureClient.engageDeviceSignIn`).
    case noDeviceToken(provider: String)

    /// The server's refusal, when it is one.
    public var captureError: CaptureError? {
        if case .refused(let error) = self { return error }
        return nil
    }

    /// The messages of refused values, field by field: the form's rules (nothing sent) or the
    /// server's (390); empty for other errors.
    public var fieldMessages: [FieldMessages] {
        switch self {
        case .request(.invalidValues(let failure)): failure.messages
        case .refused(.invalidFields(let invalid)): invalid.fields
        default: []
        }
    }

    public var description: String {
        switch self {
        case .request(let error): error.description
        case .refused(let error): error.description
        case .transport(let error): error.description
        case .notSignedIn: "not signed in"
        case .sessionStore(let error): error.description
        case let .unexpectedAnswer(operation, success): "unexpected answer to \(operation.rawValue): \(success)"
        case .noDeviceToken(let provider): "no Engage device token for \(provider): sign in to \(provider) first"
        }
    }
}

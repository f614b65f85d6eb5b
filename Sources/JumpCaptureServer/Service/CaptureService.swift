import HTTPTypes
import JumpCapture
import JumpForms
import JumpSchema
import Logging
import NIOPosix
import Synchronization

/// What the local server serves: the flow, its texts, the client configuration and the test
/// identities of the Engage double.
public struct CaptureServerSetup: Sendable {
    public var config: ClientConfig
    public var flow: Flow
    /// Localizes the server's messages by the request's `locale`.
    public var localizer: Localizer
    public var identities: [TestIdentity]
    /// The SQLite file (when `database` is nil), and beside it the key refresh secrets are
    /// sealed with (`<databasePath>.key`), whatever the database.
    public var databasePath: String
    /// The database when it is not the SQLite file at `databasePath` (`serve --database`):
    /// a PostgreSQL database, which any number of servers can share.
    public var database: DatabaseLocation?
    /// Whether the server applies the migrations the database lacks when it starts
    /// (`serve --no-migrate`: no; the schema must then be current).
    public var migrate = true
    /// Seconds since 1970; tests move it.
    public var clock: @Sendable () -> Int
    /// The entity-type schema records follow (`server.schema`, `serve --schema`): the entity
    /// calls check attributes, types, lengths and constraints against it. Without one, the
    /// flow's fields describe records.
    public var schema: EntitySchema?
    /// `jump-forms preview`'s gallery, served at `/preview` (nil: not served). Only preview
    /// sets it: a server with a gallery is in preview mode (`isPreview`).
    public var preview: PreviewGallery?
    /// What the server counts and measures (`GET /metrics`): by default a registry of its own.
    public var metrics = ServerMetrics()

    /// Preview mode (`jump-forms preview`): the hosted forms honour `preview=1`.
    public var isPreview: Bool { preview != nil }

    public init(
        config: ClientConfig, flow: Flow, localizer: Localizer, identities: [TestIdentity] = [], databasePath: String,
        clock: @escaping @Sendable () -> Int = { RefreshSignature.now }, schema: EntitySchema? = nil
    ) {
        self.config = config
        self.flow = flow
        self.localizer = localizer
        self.identities = identities
        self.databasePath = databasePath
        self.clock = clock
        self.schema = schema
    }

    var settings: ServerSettings { config.server }
}

/// The Capture protocol, served: every operation of the reference with the flow's rules
/// enforced by the same rule engine the client runs, plus `unique` against the database.
final class CaptureService: Sendable {
    let setup: CaptureServerSetup
    let store: CaptureStore
    let logger: Logger
    /// The server's own URL (known once it is bound): Engage's `baseurl` and the links of
    /// the outbox.
    let baseURL = Mutex<String>("")
    private let forms = Mutex<[String: FormModel]>([:])

    /// A password hash (at the configured cost) of a random password, checked against when an
    /// account does not exist so that the answer takes the same time.
    let timingHash: String
    /// The record attributes the flow's fields describe (the edit-profile form's first, then
    /// the registration form's): what the entity calls check writes against without a schema.
    let recordAttributes: RecordAttributes
    /// Slows password guessing (`SignInThrottle`), bounds the bcrypt work (`PasswordWork`) and
    /// the emails an address gets (`EmailRateLimit`).
    let throttle: SignInThrottle
    let passwordWork: PasswordWork
    let emailLimit: EmailRateLimit
    /// What the entity calls check reads and writes against: the schema, else the flow.
    let recordModel: RecordModel
    /// The signed-in sessions of the hosted pages (`/forms/...`), by cookie.
    let pageSessions: PageSessions
    /// The signed server API requests seen lately, none accepted twice (`authenticateAPICall`).
    let signedRequests: SignedRequestLog

    init(setup: CaptureServerSetup, logger: Logger) throws {
        self.setup = setup
        let recordAttributes = RecordAttributes(
            flow: setup.flow,
            preferredForms: [
                setup.config.editProfileFormName.value,
                setup.config.captureTraditionalRegistrationFormName.value
            ])
        let recordModel = setup.schema.map(RecordModel.schema) ?? .flow(recordAttributes)
        self.recordAttributes = recordAttributes
        self.recordModel = recordModel
        self.store = try CaptureStore(
            location: setup.database ?? .sqlite(path: setup.databasePath), keyPath: setup.databasePath + ".key",
            maximumRecordSize: setup.settings.maximumRecordSize,
            refreshLifetime: setup.settings.refreshLifetime, uniquePaths: CaptureStore.uniquePaths(of: setup.flow), recordModel: recordModel,
            migrate: setup.migrate, metrics: setup.metrics, connections: setup.settings.databaseConnections, logger: logger)
        self.logger = logger
        self.timingHash = PasswordHash.make(CaptureStore.randomToken(), cost: setup.settings.bcryptCost)
        self.throttle = SignInThrottle(policy: SignInThrottle.Policy(setup.settings), store: store)
        self.passwordWork = PasswordWork(queueLimit: setup.settings.passwordHashQueue)
        self.emailLimit = EmailRateLimit(limit: setup.settings.emailsPerAddress, window: setup.settings.emailWindow, store: store)
        self.pageSessions = PageSessions(store: store)
        self.signedRequests = SignedRequestLog(store: store)
    }

    /// At most this many (form, locale) models are kept.
    static let formCacheLimit = 256

    /// How many form models are cached (tests).
    var cachedFormCount: Int { forms.withLock { $0.count } }

    var now: Int { setup.clock() }
    var config: ClientConfig { setup.config }
    var flow: Flow { setup.flow }

    // MARK: parameters and forms

    static let common = ["client_id", "locale", "flow", "flow_version", "redirect_uri", "response_type"]

    /// The parameters an operation accepts besides its form's fields.
    static func accepted(_ operation: CaptureOperation) -> Set<String> {
        let base = Set(common)
        switch operation {
        // `user` and `password`: what both SDKs send before they have the flow document
        // (JRCaptureApidInterface.m:606-612, Capture.java:79).
        case .signIn: return base.union(["form", "refresh_secret", "merge_token", "user", "password"])
        case .socialSignIn: return base.union(["token", "thin_registration", "registration_form", "refresh_secret", "merge_token"])
        case .register: return base.union(["form", "refresh_secret"])
        case .socialRegister: return base.union(["form", "token", "refresh_secret"])
        case .forgotPassword, .resendVerification: return base.union(["form"])
        case .updateProfile, .changePassword: return base.union(["form", "access_token"])
        case .refreshAccessToken: return base.union(["access_token", "date", "signature"])
        case .linkAccount: return base.union(["access_token", "token"])
        case .unlinkAccount: return base.union(["access_token", "identifier_to_remove"])
        case .readRecord: return base.union(["access_token", "attribute_name"])
        case .updateObject, .replacePlural: return base.union(["access_token", "attribute_name", "value", "attributes", "include_record"])
        case .deleteAttribute: return base.union(["access_token", "attribute_name", "include_record"])
        case .engageMobileConfig, .engageTokenExchange, .tokenURLPost, .shareActivity, .setStatus, .shortenURLs, .engageDeviceSignIn: return base
        case .revokeToken: return base.union(["token", "token_type_hint", "client_secret"])
        }
    }

    /// `accepted(_:)` of every operation, computed once.
    static let acceptedByOperation: [CaptureOperation: Set<String>] = Dictionary(
        uniqueKeysWithValues: CaptureOperation.allCases.map { ($0, accepted($0)) })

    /// The parameter names a form's fields are sent under.
    static func fieldParameters(_ form: FormModel) -> Set<String> {
        var names = Set<String>()
        for field in form.fields {
            names.insert(field.name)
            if field.type == .dateselect {
                for part in ["year", "month", "day"] { names.insert("\(field.name)[dateselect_\(part)]") }
            }
            if case .map(let subs)? = field.schemaId {
                for sub in subs { names.insert("\(field.name)[\(sub.key)]") }
            }
        }
        return names
    }

    func locale(_ parameters: RequestParameters) -> LocaleTag {
        parameters["locale"].flatMap(LocaleTag.init) ?? config.captureLocale.value
    }

    func form(_ name: String, locale: LocaleTag) -> FormModel? {
        let key = name + "|" + locale.identifier
        if let cached = forms.withLock({ $0[key] }) { return cached }
        guard let model = try? FormInterpreter(flow: flow, localizer: setup.localizer).model(form: name, locale: locale) else { return nil }
        // The locale comes from the request: the cache is bounded, so that a stream of made-up
        // locales cannot grow it without end (beyond the bound, forms are interpreted per request).
        forms.withLock { cache in
            if cache.count < Self.formCacheLimit { cache[key] = model }
        }
        return model
    }

    func text(_ key: String, _ locale: LocaleTag) -> String {
        setup.localizer.text(key, for: locale)
    }

    /// The form values a request carries: `field`, `field[sub]`, and a dateselect's
    /// `[dateselect_year|month|day]` put back together as `yyyy-MM-dd`.
    static func values(of form: FormModel, _ parameters: RequestParameters) -> FormValues {
        var values = FormValues()
        for field in form.fields {
            if field.type == .dateselect, let year = parameters["\(field.name)[dateselect_year]"] {
                let month = parameters["\(field.name)[dateselect_month]"] ?? ""
                let day = parameters["\(field.name)[dateselect_day]"] ?? ""
                func pad(_ text: String) -> String { text.count == 1 ? "0" + text : text }
                values[field.name] = year.isEmpty && month.isEmpty && day.isEmpty ? "" : "\(year)-\(pad(month))-\(pad(day))"
                continue
            }
            if let value = parameters[field.name] { values[field.name] = value }
            if case .map(let subs)? = field.schemaId {
                for sub in subs {
                    if let value = parameters["\(field.name)[\(sub.key)]"] { values["\(field.name)[\(sub.key)]"] = value }
                }
            }
        }
        return values
    }

    /// Runs every rule of the form (those the client skips too) and the `unique` ones against
    /// the database; nil when the values pass, else the 390 reply.
    func check(_ values: FormValues, form: FormModel, locale: LocaleTag) -> (reply: ServerReply?, unique: [CaptureStore.UniqueCheck]) {
        let (report, unique) = validate(values, form: form)
        if report.isValid { return (nil, unique) }
        return (invalidFields(setup.localizer.messages(for: report.violations, in: form), locale: locale), unique)
    }

    /// `check` for the forms that write an account (registration, update profile): when a
    /// rule fails, the `unique` values of the fields that pass their rules are read against
    /// the database too, so that one 390 lists every field (the write's transaction checks
    /// them again when the rules pass). `userID`: the account being changed, whose own
    /// values are not taken.
    func checkWithUnique(
        _ values: FormValues, form: FormModel, locale: LocaleTag,
        excluding userID: Int64?
    ) async throws -> (reply: ServerReply?, unique: [CaptureStore.UniqueCheck]) {
        let (report, unique) = validate(values, form: form)
        if report.isValid { return (nil, unique) }
        let failing = Set(report.violations.map(\.field))
        let taken = try await store.taken(unique.filter { !failing.contains($0.field) }, excluding: userID)
        let messages = setup.localizer.messages(for: report.violations, in: form) + uniqueMessages(taken, form: form, locale: locale)
        let order = Dictionary(form.fields.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        let sorted = messages.enumerated().sorted {
            (order[$0.element.field] ?? Int.max, $0.offset) < (order[$1.element.field] ?? Int.max, $1.offset)
        }
        return (invalidFields(sorted.map(\.element), locale: locale), unique)
    }

    /// The server-side run of a form's rules, and its `unique` values (`unique` is deferred).
    private func validate(_ values: FormValues, form: FormModel) -> (report: ValidationReport, unique: [CaptureStore.UniqueCheck]) {
        let today = CivilDate.utc(epochSeconds: now)
        let report = RuleEngine(form: form, today: today, side: .server).validate(values)
        var unique: [CaptureStore.UniqueCheck] = []
        for deferred in report.deferred where deferred.rule == .unique {
            guard let field = form.field(named: deferred.field), case .path(let path)? = field.schemaId,
                let value = values[field.name], !FormValues.isBlank(value)
            else { continue }
            unique.append((field.name, path.value, value))
        }
        return (report, unique)
    }

    /// 390 with `invalid_fields` keyed by field name.
    func invalidFields(_ messages: [FieldMessages], locale: LocaleTag) -> ServerReply {
        let fields = JSONValue.object(messages.map { (key: $0.field, value: .array($0.messages.map(JSONValue.string))) })
        return .error(
            390, "invalid_form_fields", "some fields are invalid", message: text("jumpForms.server.invalidFields", locale),
            extra: [("invalid_fields", fields)])
    }

    /// The 390 for values another record already holds, with each field's `unique` message.
    func notUnique(_ fields: [String], form: FormModel, locale: LocaleTag) -> ServerReply {
        invalidFields(uniqueMessages(fields, form: form, locale: locale), locale: locale)
    }

    /// Each field's `unique` message, for values another record already holds.
    func uniqueMessages(_ fields: [String], form: FormModel, locale: LocaleTag) -> [FieldMessages] {
        fields.map { name -> FieldMessages in
            let field = form.field(named: name)
            let key = field?.rules.first { $0.kind == .unique }?.messageKey ?? "jumpForms.server.invalidFields"
            let text = setup.localizer.text(key, for: locale, ["label": .string(field?.label ?? name), "field": .string(name)])
            return FieldMessages(field: name, messages: [text])
        }
    }

    /// Applies a form's values to a record at their schema paths; returns the new record and
    /// the new password, if the form sets one (the field of type password stored at `password`).
    static func apply(_ values: FormValues, form: FormModel, to record: JSONValue) -> (record: JSONValue, password: String?) {
        var record = record
        var password: String?
        for field in form.fields {
            switch field.schemaId {
            case .path(let path)?:
                guard let value = values[field.name] else { continue }
                if field.type == .password {
                    if path.value == "password" { password = value }
                    continue
                }
                let json: JSONValue
                switch field.type {
                case .checkbox: json = .bool(value == "true")
                default: json = FormValues.isBlank(value) ? .null : .string(value)
                }
                record = record.setting(path: path.value, json)
            case .map(let subs)?:
                for sub in subs {
                    guard let value = values["\(field.name)[\(sub.key)]"] else { continue }
                    record = record.setting(path: sub.path.value, FormValues.isBlank(value) ? .null : .string(value))
                }
            case nil:
                continue
            }
        }
        return (record, password)
    }

    // MARK: records and tokens

    /// The record as clients see it: with `profiles` from the linked identities, without the
    /// password, and with a schema every attribute it has (`RecordModel.completed`).
    func publicRecord(_ user: StoredUser, identities known: [StoredIdentity]? = nil) async throws -> JSONValue {
        recordModel.completed(user.record).setting("profiles", Self.profiles(try await identities(of: user, known: known)))
    }

    /// `publicRecord(...).serialized()`, spliced from the stored text when it can be: the
    /// record's text as stored, with `"profiles"` written before its closing brace (where
    /// `setting` appends it). A record whose text names `"profiles"` anywhere is parsed instead.
    func publicRecordText(_ user: StoredUser, identities known: [StoredIdentity]? = nil) async throws -> String {
        let profiles = Self.profiles(try await identities(of: user, known: known))
        if recordModel.isSchema { return recordModel.completed(user.record).setting("profiles", profiles).serialized() }
        return Self.splice(profiles: profiles, into: user.recordText) ?? user.record.setting("profiles", profiles).serialized()
    }

    private func identities(of user: StoredUser, known: [StoredIdentity]?) async throws -> [StoredIdentity] {
        if let known { return known }
        return try await store.identities(of: user.id)
    }

    static func profiles(_ identities: [StoredIdentity]) -> JSONValue {
        JSONValue.array(
            identities.map { identity in
                var entries: [(key: String, value: JSONValue)] = [
                    ("identifier", .string(identity.identifier)),
                    ("domain", .string(Self.domain(of: identity.provider)))
                ]
                if let verified = identity.verifiedEmail { entries.append(("verifiedEmail", .string(verified))) }
                return .object(entries)
            })
    }

    private static let profilesName = Array(#""profiles""#.utf8)

    /// `text` (a compact JSON object as `serialized` writes it) with `"profiles":<profiles>`
    /// as its last member; nil when the text is not such an object or may hold `"profiles"`.
    static func splice(profiles: JSONValue, into text: String) -> String? {
        let name = profilesName
        var text = text
        return text.withUTF8 { bytes -> String? in
            guard bytes.count >= 2, bytes.first == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}") else { return nil }
            if bytes.count >= name.count {
                // `"p` first (rare), then the rest.
                for start in 0...(bytes.count - name.count) where bytes[start] == UInt8(ascii: "\"") && bytes[start + 1] == UInt8(ascii: "p") {
                    if name.withUnsafeBytes({ memcmp($0.baseAddress!, bytes.baseAddress! + start, name.count) }) == 0 { return nil }
                }
            }
            var out = String(decoding: UnsafeBufferPointer(rebasing: bytes.dropLast()), as: UTF8.self)
            if bytes.count > 2 { out += "," }
            out += #""profiles":"# + profiles.serialized() + "}"
            return out
        }
    }

    static func domain(of provider: String) -> String {
        switch provider {
        case "google": "google.com"
        case "facebook": "facebook.com"
        case "twitter": "twitter.com"
        case "apple": "apple.com"
        case "linkedin": "linkedin.com"
        default: provider
        }
    }

    /// The stored form of a password (`PasswordHash`, bcrypt at the configured cost), made on
    /// NIO's thread pool (`passwordWork`: throws `PasswordWork.Busy` when its queue is full).
    func hashPassword(_ password: String) async throws -> String {
        let cost = setup.settings.bcryptCost
        return try await passwordWork.run { PasswordHash.make(password, cost: cost) }
    }

    /// Whether `password` matches a stored hash (`PasswordHash.check`), on NIO's thread pool
    /// (`passwordWork`). A hash that cannot be checked (an imported type the server does not
    /// read) does not match, as a wrong password does not, and the log says why (the type, never
    /// the hash).
    func verify(_ password: String, hash: String) async throws -> Bool {
        let verification = try await passwordWork.run { PasswordHash.check(password, stored: hash) }
        if case .unreadable(let reason) = verification {
            logger.warning("a password check was refused as wrong: the account holds \(reason)")
        }
        return verification == .matches
    }

    /// The successful answer of a sign-in or registration.
    func signedIn(_ user: StoredUser, refreshSecret: String?, isNew: Bool, parameters: RequestParameters) async throws -> ServerReply {
        let secret = refreshSecret.flatMap(RefreshSecret.init)
        let (token, expiresAt) = try await store.issueToken(
            userID: user.id, refreshSecret: secret,
            lifetime: setup.settings.accessTokenLifetime, now: now)
        var entries: [(key: String, value: JSONValue)] = [
            ("stat", "ok"), ("access_token", .string(token)), ("expires_in", .integer(expiresAt - now)),
            ("is_new", .bool(isNew)), ("capture_user", try await publicRecord(user))
        ]
        if parameters["response_type"] == "code_and_token" {
            // Stored (hashed) for `/oauth/token`, bound to the redirect URI this call named.
            let code = try await store.issueAuthorizationCode(
                userID: user.id, redirectURI: parameters["redirect_uri"] ?? config.redirectUri?.value,
                lifetime: Self.authorizationCodeLifetime, now: now)
            entries.append(("authorization_code", .string(code)))
        }
        return .json(.object(entries))
    }

    /// The user of a valid, unexpired access token (with the user's identities when asked),
    /// or the reply that refuses it.
    func authorized(
        _ parameters: RequestParameters, allowExpired: Bool = false,
        identities: Bool = false
    ) async throws -> Result<(StoredUser, StoredToken, [StoredIdentity]?), ReplyError> {
        guard let token = parameters["access_token"] else { return .failure(ReplyError(.missing("access_token"))) }
        guard let session = try await store.session(token, identities: identities) else {
            return .failure(ReplyError(.error(200, "invalid_argument", "the access token is not valid")))
        }
        if !allowExpired, session.token.expiresAt <= now {
            return .failure(
                ReplyError(
                    .error(
                        414, "access_token_expired", "the access token has expired",
                        message: text("jumpForms.server.tokenExpired", locale(parameters)))))
        }
        return .success((session.user, session.token, session.identities))
    }

    /// The Engage grant of a token, or the reply that refuses it. The token stays valid: the
    /// write an operation completes with uses it up (an Engage token completes one operation).
    func grant(_ token: String?) async throws -> Result<EngageGrant, ReplyError> {
        guard let token else { return .failure(ReplyError(.missing("token"))) }
        guard let grant = try await store.engageGrant(token), grant.expiresAt > now else {
            return .failure(ReplyError(Self.engageTokenRefused))
        }
        return .success(grant)
    }

    static let engageTokenRefused = ServerReply.error(200, "invalid_argument", "the token is not valid, was used already, or has expired")

    /// Links the identity of an Engage grant to `user`, using up its token (and `signInToken`,
    /// a social sign-in's own, in the same transaction): nil when done (or already linked to
    /// `user`), else the reply that refuses it, having used up no token.
    func link(_ grant: EngageGrant, token: String, to user: StoredUser, signInToken: String? = nil) async throws -> ServerReply? {
        let tokens = [token] + (signInToken.map { [$0] } ?? [])
        if let owner = try await store.user(provider: grant.provider, identifier: grant.identifier) {
            guard owner.id == user.id else { return .error(361, "identifier_already_in_use", "the identity belongs to another account") }
            return try await store.useEngageTokens(tokens, now: now) ? nil : Self.engageTokenRefused
        }
        do {
            try await store.link(userID: user.id, identity: identity(grant), consuming: tokens, now: now)
        } catch StoreConflict.identityTaken {
            return .error(361, "identifier_already_in_use", "the identity belongs to another account")
        } catch StoreConflict.engageTokenUsed {
            return Self.engageTokenRefused
        }
        return nil
    }

    /// Links the identity a merge token stands for to `user`, if a merge token was sent: only
    /// the token of a sign-in that answered 380, and only into the account that 380 named.
    /// `signInToken` (a social sign-in's own token) is used up with the merge token; a refused
    /// merge uses up neither.
    func merge(_ parameters: RequestParameters, into user: StoredUser, signInToken: String? = nil) async throws -> ServerReply? {
        guard let mergeToken = parameters["merge_token"] else { return nil }
        switch try await grant(mergeToken) {
        case .failure(let error): return error.reply
        case .success(let grant):
            guard let account = grant.mergeUserID else {
                return .invalid("merge_token", "no sign-in with this token answered 380 (email address in use): there is nothing to merge")
            }
            guard account == user.id else {
                return .invalid("merge_token", "the 380 for this token named another account: the identity merges only into that one")
            }
            return try await link(grant, token: mergeToken, to: user, signInToken: signInToken)
        }
    }
}

/// A reply carried as an error through `Result`.
struct ReplyError: Error {
    var reply: ServerReply
    init(_ reply: ServerReply) { self.reply = reply }
}

extension CivilDate {
    /// The UTC date of a moment.
    static func utc(epochSeconds: Int) -> CivilDate {
        let text = RefreshSignature.dateString(epochSeconds: epochSeconds)
        return CivilDate(iso: String(text.prefix(10))) ?? CivilDate(year: 1970, month: 1, day: 1)!
    }
}

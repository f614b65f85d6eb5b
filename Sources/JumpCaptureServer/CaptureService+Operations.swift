import JumpCapture
import JumpForms

extension CaptureService {
    /// Answers one Capture operation. The parameters were already checked against the
    /// operation's accepted names (`validateParameters`).
    /// `client`: the client's IP address (the sign-in throttle counts failures by it).
    func handle(_ operation: CaptureOperation, _ parameters: RequestParameters, client: String? = nil) async throws -> ServerReply {
        switch operation {
        case .signIn: return try await signIn(parameters, client: client)
        case .socialSignIn: return try await socialSignIn(parameters)
        case .register: return try await register(parameters)
        case .socialRegister: return try await socialRegister(parameters)
        case .forgotPassword: return try await forgotPassword(parameters)
        case .resendVerification: return try await resendVerification(parameters)
        case .updateProfile, .changePassword: return try await updateProfile(parameters, client: client)
        case .refreshAccessToken: return try await refresh(parameters)
        case .linkAccount: return try await link(parameters)
        case .unlinkAccount: return try await unlink(parameters)
        case .readRecord: return try await readRecord(parameters)
        case .updateObject: return try await writeRecord(parameters, replace: false)
        case .replacePlural: return try await writeRecord(parameters, replace: true)
        case .engageMobileConfig, .engageTokenExchange, .tokenURLPost:
            return .error(404, "not_found", "not a Capture operation")
        }
    }

    /// The common checks: client id, flow, flow version, redirect URI, unknown and duplicate
    /// parameters. Nil when they pass.
    func validateParameters(_ operation: CaptureOperation, _ parameters: RequestParameters, form: FormModel?) -> ServerReply? {
        if let name = parameters.duplicate {
            return .duplicate(name)
        }
        var accepted = Self.acceptedByOperation[operation] ?? Self.accepted(operation)
        if let form { accepted.formUnion(Self.fieldParameters(form)) }
        if let unknown = parameters.names.first(where: { !accepted.contains($0) }) {
            let hint = Suggestion.hint(for: unknown, among: accepted).map { " (\($0))" } ?? ""
            return .invalid(unknown, "unknown parameter for \(operation.path)\(hint)")
        }
        guard let client = parameters["client_id"] else { return .missing("client_id") }
        guard client == config.captureClientId.value else { return .error(402, "invalid_client", "client_id is not a client of this server") }
        if let name = parameters["flow"], name != (config.captureFlowName?.value ?? flow.name.value) {
            return .invalid("flow", "this server serves flow '\(config.captureFlowName?.value ?? flow.name.value)'")
        }
        if let version = parameters["flow_version"], version != flow.version.value, version != "HEAD" {
            return .invalid("flow_version", "this server serves version '\(flow.version.value)' of the flow")
        }
        if let redirect = parameters["redirect_uri"], let expected = config.redirectUri?.value, redirect != expected {
            return .error(420, "redirect_uri_mismatch", "redirect_uri does not match the client's redirect URI")
        }
        if let type = parameters["response_type"], type != "token", type != "code_and_token" {
            return .invalid("response_type", "must be token or code_and_token")
        }
        if let thin = parameters["thin_registration"], thin != "true", thin != "false" {
            return .invalid("thin_registration", "must be true or false")
        }
        // A secret the refresh check could never use would leave a session that cannot refresh.
        if let secret = parameters["refresh_secret"], RefreshSecret(secret) == nil {
            return .invalid("refresh_secret", "expected 40 hexadecimal characters")
        }
        return nil
    }

    /// The forms an operation takes (`jump.yaml` names them): update_profile serves the
    /// edit-profile and the change-password forms, every other operation its own form only.
    func forms(of operation: CaptureOperation) -> [String] {
        switch operation {
        case .updateProfile, .changePassword: [config.editProfileFormName.value, config.changePasswordFormName.value]
        case .socialSignIn: [config.captureSocialRegistrationFormName.value]
        default: operation.formName(in: config).map { [$0] } ?? []
        }
    }

    /// The form a request names in `form` (or the operation's first form), checked to be one
    /// of that operation's forms: a registration form sent to update_profile would otherwise
    /// set a password without the current one. The request's parameters are then checked
    /// against the operation and that form (`validateParameters`).
    func requestForm(_ parameters: RequestParameters, operation: CaptureOperation) -> Result<FormModel, ReplyError> {
        let allowed = forms(of: operation)
        guard let name = parameters["form"] ?? allowed.first else {
            return .failure(ReplyError(.invalid("form", "\(operation.path) takes no form")))
        }
        guard allowed.contains(name) else {
            let list = allowed.map { "'\($0)'" }.joined(separator: " or ")
            return .failure(ReplyError(.invalid("form", "\(operation.path) takes the form \(list), not '\(name)'")))
        }
        guard let form = form(name, locale: locale(parameters)) else {
            return .failure(ReplyError(.invalid("form", "the flow has no form '\(name)'")))
        }
        if let refused = validateParameters(operation, parameters, form: form) { return .failure(ReplyError(refused)) }
        return .success(form)
    }

    // MARK: sign-in

    func signIn(_ parameters: RequestParameters, client: String? = nil) async throws -> ServerReply {
        let locale = locale(parameters)
        let form: FormModel
        switch requestForm(parameters, operation: .signIn) {
        case .failure(let error): return error.reply
        case .success(let value): form = value
        }
        let values = Self.values(of: form, parameters)
        if let reply = check(values, form: form, locale: locale).reply { return reply }
        guard let identifierField = form.fields.first(where: { $0.type.canIdentify }),
              let passwordField = form.fields.first(where: { $0.type == .password }) else {
            return .invalid("form", "'\(form.name)' has no identifier and password fields")
        }
        let identifier = values[identifierField.name] ?? ""
        let password = values[passwordField.name] ?? ""
        let user: StoredUser?
        let byUsername = identifierField.type == .text
        if byUsername, case .path(let path)? = identifierField.schemaId {
            user = try await store.user(path: path.value, value: identifier)
        } else {
            user = try await store.user(emailNormalized: normalizeEmail(identifier))
        }
        // Throttled by account (an unknown one by its identifier, so that the answers do not
        // tell which accounts exist) and by client address; without a hash, the same time is spent.
        let account = user.map { "user:\($0.id)" } ?? (byUsername ? "username:" + identifier.lowercased() : "email:" + normalizeEmail(identifier))
        let check = try await checkPassword(password, against: user?.passwordHash, account: account, shownAs: identifier, client: client,
                                            locale: locale, purpose: "sign-in")
        if case .refused(let reply) = check { return reply }
        guard let user, case .matches = check else {
            let key = byUsername ? "jumpForms.server.badUsernameCredentials" : "jumpForms.server.badCredentials"
            return .error(210, "bad username/password combo", "invalid credentials", message: text(key, locale))
        }
        if let refused = try await merge(parameters, into: user) { return refused }
        try await upgradePasswordHash(of: user, password: password)
        return try await signedIn(user, refreshSecret: parameters["refresh_secret"], isNew: false, parameters: parameters)
    }

    /// Stores `password` again, in the current format at the configured cost, when the
    /// account's hash (which it just matched) is in an older format or at a lower cost
    /// (`PasswordHash.needsUpgrade`). A hash set in the meantime is left as it is.
    func upgradePasswordHash(of user: StoredUser, password: String) async throws {
        guard let old = user.passwordHash, PasswordHash.needsUpgrade(old, cost: setup.settings.bcryptCost) else { return }
        try await store.replacePasswordHash(userID: user.id, old: old, new: try await hashPassword(password))
    }

    func socialSignIn(_ parameters: RequestParameters) async throws -> ServerReply {
        if let refused = validateParameters(.socialSignIn, parameters, form: nil) { return refused }
        let locale = locale(parameters)
        let grant: EngageGrant
        switch try await self.grant(parameters["token"]) {
        case .failure(let error): return error.reply
        case .success(let value): grant = value
        }
        if let user = try await store.user(provider: grant.provider, identifier: grant.identifier) {
            // With a merge token, the sign-in's token is used up with the merge: a refused
            // merge leaves both usable.
            if parameters["merge_token"] != nil {
                if let refused = try await merge(parameters, into: user, signInToken: parameters["token"]) { return refused }
            } else if try await !store.useEngageTokens([parameters["token"] ?? ""], now: now) {
                return Self.engageTokenRefused
            }
            return try await signedIn(user, refreshSecret: parameters["refresh_secret"], isNew: false, parameters: parameters)
        }
        // The email belongs to an existing account: the merge flow.
        if let email = grant.profile["email"]?.stringValue, let existing = try await store.user(emailNormalized: normalizeEmail(email)) {
            let identities = try await store.identities(of: existing.id)
            let provider = existing.passwordHash != nil ? "capture" : identities.first?.provider ?? "capture"
            // The merge token links the identity to this account only.
            try await store.bindMerge(parameters["token"] ?? "", to: existing.id)
            return .error(380, "email_address_in_use", "the email address is in use by another account",
                          message: text("jumpForms.server.emailInUse", locale),
                          extra: [("existing_provider", .string(provider)), ("conflicting_provider", .string(grant.provider))])
        }
        let formName = parameters["registration_form"] ?? config.captureSocialRegistrationFormName.value
        guard formName == config.captureSocialRegistrationFormName.value, let form = form(formName, locale: locale) else {
            return .invalid("registration_form", "takes the social registration form '\(config.captureSocialRegistrationFormName.value)', not '\(formName)'")
        }
        let prefill = prefillValues(grant, form: form)
        let thin = (parameters["thin_registration"] ?? "false") == "true" && config.enableThinRegistration.value
        if thin {
            let (refused, unique) = check(prefill, form: form, locale: locale)
            if refused == nil {
                let (record, _) = Self.apply(prefill, form: form, to: [:])
                do {
                    let user = try await store.createUser(record: record, passwordHash: nil, identity: identity(grant), unique: unique, now: now,
                                                          consuming: parameters["token"])
                    // Like a traditional registration: the address is confirmed by mail.
                    if let email = record["email"]?.stringValue {
                        try await sendMail(kind: "verify_email", to: email, userID: user.id, locale: locale)
                    }
                    return try await signedIn(user, refreshSecret: parameters["refresh_secret"], isNew: true, parameters: parameters)
                } catch StoreConflict.notUnique {
                    // Fall through to two-step registration.
                } catch StoreConflict.identityTaken {
                    return .error(361, "identifier_already_in_use", "the identity belongs to another account")
                } catch StoreConflict.engageTokenUsed {
                    return Self.engageTokenRefused
                }
            }
        }
        let fields = JSONValue.object(form.fields.compactMap { field in prefill[field.name].map { (key: field.name, value: .string($0)) } })
        return .error(310, "record_not_found", "no account uses this identity", message: text("jumpForms.server.recordNotFound", locale),
                      extra: [("prereg_fields", fields)])
    }

    /// The social registration form's fields filled from the Engage profile, by schema path.
    func prefillValues(_ grant: EngageGrant, form: FormModel) -> FormValues {
        var values = FormValues()
        for field in form.fields {
            guard case .path(let path)? = field.schemaId, let value = grant.profile.value(atPath: path.value)?.stringValue else { continue }
            values[field.name] = value
        }
        return values
    }

    func identity(_ grant: EngageGrant) -> StoredIdentity {
        StoredIdentity(provider: grant.provider, identifier: grant.identifier,
                       verifiedEmail: grant.profile["verifiedEmail"]?.stringValue)
    }

    // MARK: registration

    func register(_ parameters: RequestParameters) async throws -> ServerReply {
        try await registerUser(parameters, operation: .register)
    }

    func socialRegister(_ parameters: RequestParameters) async throws -> ServerReply {
        try await registerUser(parameters, operation: .socialRegister)
    }

    func registerUser(_ parameters: RequestParameters, operation: CaptureOperation) async throws -> ServerReply {
        let locale = locale(parameters)
        let form: FormModel
        switch requestForm(parameters, operation: operation) {
        case .failure(let error): return error.reply
        case .success(let value): form = value
        }
        var grant: EngageGrant?
        if operation == .socialRegister {
            switch try await self.grant(parameters["token"]) {
            case .failure(let error): return error.reply
            case .success(let value): grant = value
            }
        }
        let values = Self.values(of: form, parameters)
        let (refused, unique) = try checkWithUnique(values, form: form, locale: locale, excluding: nil)
        if let refused { return refused }
        var (record, password) = Self.apply(values, form: form, to: [:])
        if let grant, record["email"] == nil, let email = grant.profile["email"] {
            record = record.setting("email", email)
        }
        var hash: String?
        if let password { hash = try await hashPassword(password) }
        do {
            let user = try await store.createUser(record: record, passwordHash: hash, identity: grant.map(identity), unique: unique, now: now,
                                                  consuming: grant == nil ? nil : parameters["token"])
            if let email = record["email"]?.stringValue {
                try await sendMail(kind: "verify_email", to: email, userID: user.id, locale: locale)
            }
            return try await signedIn(user, refreshSecret: parameters["refresh_secret"], isNew: true, parameters: parameters)
        } catch StoreConflict.notUnique(let fields) {
            return notUnique(fields, form: form, locale: locale)
        } catch StoreConflict.identityTaken {
            return .error(361, "identifier_already_in_use", "the identity belongs to another account")
        } catch StoreConflict.engageTokenUsed {
            return Self.engageTokenRefused
        }
    }

    // MARK: emails

    func forgotPassword(_ parameters: RequestParameters) async throws -> ServerReply {
        try await mail(parameters, operation: .forgotPassword, kind: "forgot_password")
    }

    func resendVerification(_ parameters: RequestParameters) async throws -> ServerReply {
        try await mail(parameters, operation: .resendVerification, kind: "verify_email")
    }

    /// Forgot password and resend verification: the email goes to the outbox when the account
    /// exists; the answer is the same either way, so it does not tell who has an account.
    func mail(_ parameters: RequestParameters, operation: CaptureOperation, kind: String) async throws -> ServerReply {
        let locale = locale(parameters)
        let form: FormModel
        switch requestForm(parameters, operation: operation) {
        case .failure(let error): return error.reply
        case .success(let value): form = value
        }
        let values = Self.values(of: form, parameters)
        if let reply = check(values, form: form, locale: locale).reply { return reply }
        guard let field = form.fields.first(where: { $0.type.canIdentify }) else {
            return .invalid("form", "'\(form.name)' has no field to identify the account")
        }
        let identifier = values[field.name] ?? ""
        if let user = try await store.user(emailNormalized: normalizeEmail(identifier)), let email = user.record["email"]?.stringValue,
           mayEmail(email, kind: kind) {
            try await sendMail(kind: kind, to: email, userID: user.id, locale: locale)
        }
        return .ok
    }

    /// Writes a password-reset or verification email with a one-time link (valid 24 hours),
    /// in the request's locale (the built-in catalog's `jumpForms.server.*Subject|Body`, which
    /// a project's locale files may override).
    func sendMail(kind: String, to email: String, userID: Int64, locale: LocaleTag) async throws {
        let code = try await store.issueCode(userID: userID, kind: kind, locale: locale.identifier, lifetime: 86_400, now: now)
        let base = baseURL.withLock { $0 }
        let (key, path) = kind == "forgot_password" ? ("resetPassword", "/password/reset") : ("verifyEmail", "/email/verify")
        let arguments: [String: MessageArgument] = ["flow": .string(flow.name.value), "link": .string("\(base)\(path)?code=\(code)")]
        try await store.send(kind: kind, to: email, subject: setup.localizer.text("jumpForms.server.\(key)Subject", for: locale, arguments),
                             body: setup.localizer.text("jumpForms.server.\(key)Body", for: locale, arguments), now: now)
    }

    // MARK: profile

    func updateProfile(_ parameters: RequestParameters, client: String? = nil) async throws -> ServerReply {
        let locale = locale(parameters)
        let form: FormModel
        switch requestForm(parameters, operation: .updateProfile) {
        case .failure(let error): return error.reply
        case .success(let value): form = value
        }
        let user: StoredUser
        switch try await authorized(parameters) {
        case .failure(let error): return error.reply
        case .success(let value): user = value.0
        }
        let values = Self.values(of: form, parameters)
        let (refused, unique) = try checkWithUnique(values, form: form, locale: locale, excluding: user.id)
        if let refused { return refused }
        // The current password: a password field stored nowhere and matched by no other field.
        let matched = Set(form.fields.flatMap { $0.rules.compactMap { rule -> String? in
            guard rule.kind == .match, case .text(let other) = rule.value else { return nil }
            return other
        } })
        let confirmations = Set(form.fields.filter { $0.rules.contains { $0.kind == .match } }.map(\.name))
        if let current = form.fields.first(where: { $0.type == .password && $0.schemaId == nil && !confirmations.contains($0.name) && !matched.contains($0.name) }),
           let hash = user.passwordHash {
            switch try await checkPassword(values[current.name] ?? "", against: hash, account: "user:\(user.id)", shownAs: "account \(user.id)",
                                           client: client, locale: locale, purpose: "current-password check") {
            case .refused(let reply): return reply
            case .matches: break
            case .wrong:
                let message = text("jumpForms.server.currentPasswordWrong", locale)
                return invalidFields([FieldMessages(field: current.name, messages: [message])], locale: locale)
            }
        }
        let (_, password) = Self.apply(values, form: form, to: [:])
        var hash: String?
        if let password { hash = try await hashPassword(password) }
        do {
            _ = try await store.updateUser(id: user.id, unique: unique, now: now, passwordHash: hash == nil ? .none : .some(hash)) { record in
                Self.apply(values, form: form, to: record).record
            }
        } catch StoreConflict.notUnique(let fields) {
            return notUnique(fields, form: form, locale: locale)
        }
        return .ok
    }

    // MARK: tokens

    /// A refresh signed with the session's refresh secret, dated within five minutes of now.
    func refresh(_ parameters: RequestParameters) async throws -> ServerReply {
        if let refused = validateParameters(.refreshAccessToken, parameters, form: nil) { return refused }
        guard let date = parameters["date"] else { return .missing("date") }
        guard let signature = parameters["signature"] else { return .missing("signature") }
        // Only the token's row: refresh needs neither the record nor the identities.
        guard let accessToken = parameters["access_token"] else { return .missing("access_token") }
        guard let stored = try await store.token(accessToken) else {
            return .error(200, "invalid_argument", "the access token is not valid")
        }
        guard let moment = RefreshSignature.epochSeconds(of: date) else {
            return .invalid("date", "expected UTC yyyy-MM-dd HH:mm:ss")
        }
        guard abs(moment - now) <= 300 else {
            return .error(200, "invalid_argument", "date: more than 5 minutes from the server's time")
        }
        guard stored.expiresAt > now - CaptureStore.refreshWindow else {
            return .error(200, "invalid_argument", "the access token expired more than 30 days ago: sign in again")
        }
        guard let secret = stored.refreshSecret,
              RefreshSignature.verify(signature, accessToken: accessToken, date: date, secret: secret) else {
            return .error(200, "invalid_argument", "signature: does not match the session's refresh secret")
        }
        guard let (token, expiresAt) = try await store.rotate(stored, lifetime: setup.settings.accessTokenLifetime, now: now) else {
            return .error(200, "invalid_argument", "the access token is not valid")
        }
        return .json(["stat": "ok", "access_token": .string(token), "expires_in": .integer(expiresAt - now)])
    }

    func link(_ parameters: RequestParameters) async throws -> ServerReply {
        if let refused = validateParameters(.linkAccount, parameters, form: nil) { return refused }
        let user: StoredUser
        switch try await authorized(parameters) {
        case .failure(let error): return error.reply
        case .success(let value): user = value.0
        }
        let grant: EngageGrant
        switch try await self.grant(parameters["token"]) {
        case .failure(let error): return error.reply
        case .success(let value): grant = value
        }
        return try await link(grant, token: parameters["token"] ?? "", to: user) ?? .ok
    }

    /// Refuses to remove the last identity of an account that has no password.
    func unlink(_ parameters: RequestParameters) async throws -> ServerReply {
        if let refused = validateParameters(.unlinkAccount, parameters, form: nil) { return refused }
        let user: StoredUser
        switch try await authorized(parameters) {
        case .failure(let error): return error.reply
        case .success(let value): user = value.0
        }
        guard let identifier = parameters["identifier_to_remove"] else { return .missing("identifier_to_remove") }
        switch try await store.unlink(userID: user.id, identifier: identifier) {
        case .removed: return .ok
        case .notFound: return .invalid("identifier_to_remove", "the account has no such identity")
        case .lastIdentity:
            return .error(200, "invalid_argument", "identifier_to_remove: it is the last way to sign in to this account, which has no password")
        }
    }

    // MARK: entity

    func readRecord(_ parameters: RequestParameters) async throws -> ServerReply {
        if let refused = validateParameters(.readRecord, parameters, form: nil) { return refused }
        let user: StoredUser
        let identities: [StoredIdentity]?
        switch try await authorized(parameters, identities: true) {
        case .failure(let error): return error.reply
        case .success(let value): (user, identities) = (value.0, value.2)
        }
        guard let attribute = parameters["attribute_name"], attribute != "/" else {
            return ServerReply(status: .ok, contentType: ServerReply.jsonContentType,
                               body: #"{"stat":"ok","result":"# + (try await publicRecordText(user, identities: identities)) + "}")
        }
        let record = try await publicRecord(user, identities: identities)
        let path = Self.dotPath(attribute)
        if let value = record.value(atPath: path) { return .json(["stat": "ok", "result": value]) }
        // An attribute the record could hold (a flow field's, or one of the write list) but
        // does not: null, as Capture answers for an attribute of the schema that is not set.
        guard isAttribute(path, of: record) else {
            return .error(223, "unknown_attribute", "the record has no attribute \(attribute)")
        }
        return .json(["stat": "ok", "result": .null])
    }

    /// Whether a path the record does not hold names an attribute: one a flow field describes
    /// (a value or an object of them), or one in the write-with-token list, and not a part of
    /// a value the record holds (`/aboutMe/x`).
    func isAttribute(_ path: String, of record: JSONValue) -> Bool {
        var current: JSONValue? = record
        walk: for part in path.split(separator: ".") {
            switch current {
            case .object?: current = current?[String(part)]
            case nil, .null?: break walk
            default: return false
            }
        }
        switch recordAttributes.shape(of: path) {
        case .value, .object: return true
        case .insideValue: return false
        case .unknown: return writable(RecordAttributes.attribute(path.split(separator: ".")))
        }
    }

    static func dotPath(_ attribute: String) -> String {
        attribute.split(separator: "/").joined(separator: ".")
    }

    /// The attribute paths a token may write: `writeWithToken`, else the edit-profile form's.
    var writablePaths: Set<String> {
        if let list = setup.settings.writeWithToken { return Set(list.map(\.value)) }
        let form = flow.form(named: config.editProfileFormName.value)
        var paths = Set<String>()
        for name in form?.fields.map(\.value) ?? [] {
            for path in flow.field(named: name)?.schemaId?.paths ?? [] where path.value != "password" {
                paths.insert("/" + (path.value.split(separator: ".").first.map(String.init) ?? path.value))
            }
        }
        return paths
    }

    func writable(_ path: String) -> Bool {
        let paths = writablePaths
        var current = path
        while !current.isEmpty {
            if paths.contains(current) { return true }
            guard let slash = current.lastIndex(of: "/"), slash != current.startIndex else { break }
            current = String(current[..<slash])
        }
        return paths.contains(current)
    }

    /// `entity.update` merges an object; `entity.replace` replaces a plural whole. Attributes
    /// outside the write-with-token list get 223. A written value a flow field describes (by its
    /// schema path) must have the field's JSON type (200) and pass the field's rules (390,
    /// localized by `locale`, listing taken `unique` values too), `unique` alone 361.
    func writeRecord(_ parameters: RequestParameters, replace: Bool) async throws -> ServerReply {
        if let refused = validateParameters(replace ? .replacePlural : .updateObject, parameters, form: nil) { return refused }
        let user: StoredUser
        switch try await authorized(parameters) {
        case .failure(let error): return error.reply
        case .success(let value): user = value.0
        }
        let record = user.record
        guard let text = parameters["value"] ?? parameters["attributes"] else { return .missing("value") }
        let value: JSONValue
        do { value = try JSONValue.parse(text) } catch { return .invalid("value", "not JSON: \(error)") }
        let attribute = parameters["attribute_name"] ?? ""
        if let problem = RecordWriteShape.attributeProblem(attribute) { return .invalid("attribute_name", problem) }
        let patch: JSONValue
        let change: @Sendable (JSONValue) -> JSONValue
        if replace {
            guard !attribute.isEmpty, attribute != "/" else { return .missing("attribute_name") }
            guard case .array(let items) = value else { return .invalid("value", "entity.replace takes a list") }
            guard writable(attribute), !RecordChanges.reservedAttributes.contains(String(attribute.dropFirst())) else {
                return .error(223, "unknown_attribute", "\(attribute) cannot be written with an access token")
            }
            if let refused = notAPlural(Self.dotPath(attribute), record: record) { return refused }
            if let problem = RecordWriteShape.pluralProblem(replace: items, at: attribute, record: record)
                ?? RecordWriteShape.keyProblem(in: value, at: attribute) {
                return .invalid("value", problem)
            }
            let numbered = JSONValue.array(items.enumerated().map { index, item in item.setting("id", .integer(index + 1)) })
            let path = Self.dotPath(attribute)
            patch = JSONValue.object([]).setting(path: path, numbered)
            change = { $0.setting(path: path, numbered) }
        } else {
            guard case .object(let entries) = value else { return .invalid("value", "entity.update takes an object") }
            let base = attribute == "/" ? "" : attribute
            for (key, item) in entries {
                let path = base + "/" + key
                if base.isEmpty, RecordChanges.reservedAttributes.contains(key) || key == "password" || key == "profiles" {
                    return .error(223, "unknown_attribute", "/\(key) is set by the server")
                }
                guard writable(path) else { return .error(223, "unknown_attribute", "\(path) cannot be written with an access token") }
                if case .array = item, isObject(Self.dotPath(path), record: record) {
                    return .invalid("value", "\(path) is an object: entity.update takes an object for it, not a list")
                }
            }
            // Keys name attributes one by one, and plurals are written whole by entity.replace only.
            if let problem = RecordWriteShape.keyProblem(in: value, at: base)
                ?? RecordWriteShape.pluralProblem(update: value, at: base, record: record) {
                return .invalid("value", problem)
            }
            patch = base.isEmpty ? value : JSONValue.object([]).setting(path: Self.dotPath(base), value)
            change = { Self.merge(entries, at: base, into: $0) }
        }
        if let refused = try checkWrite(patch, record: change(record), locale: locale(parameters), userID: user.id) { return refused }
        do {
            _ = try await store.updateUser(id: user.id, unique: uniqueChecks(patch), now: now, change: change)
        } catch StoreConflict.notUnique(let fields) {
            return uniqueViolation(fields)
        }
        return .ok
    }

    /// The values of a write that flow fields describe: their JSON types (200) and the fields'
    /// rules (390), run on the record as the write leaves it (so `match` and `alongWith` see
    /// the other fields). When a rule fails, the 390 lists the `unique` values another record
    /// than `userID`'s holds too, as the forms' does. Nil when the write may go through.
    func checkWrite(_ patch: JSONValue, record: JSONValue, locale: LocaleTag, userID: Int64) throws -> ServerReply? {
        let written: [String]
        switch recordAttributes.writtenFields(patch) {
        case .failure(.wrongType(let attribute, let expected, let got)):
            return .invalid("value", "\(attribute) takes \(expected), not \(got)")
        case .success(let result):
            written = result.fields
        }
        if written.isEmpty { return nil }
        let interpreter = FormInterpreter(flow: flow, localizer: setup.localizer)
        guard let form = try? interpreter.model(fields: written, named: "entity", locale: locale) else { return nil }
        // Other fields the rules refer to (`match`, `alongWith`) take their values from the record.
        let others = form.fields.flatMap { $0.rules.compactMap { rule -> String? in
            guard rule.kind == .match || rule.kind == .alongWith, case .text(let other) = rule.value else { return nil }
            return written.contains(other) ? nil : other
        } }
        let context = (try? interpreter.model(fields: written + others, named: "entity", locale: locale)) ?? form
        return try checkWithUnique(FormValues(record: record, form: context), form: form, locale: locale, excluding: userID).reply
    }

    /// The 200 for `entity.replace` on an attribute that is not a plural: one a flow field
    /// describes as a value or an object, or one the record holds as something else than a list.
    func notAPlural(_ path: String, record: JSONValue) -> ServerReply? {
        let attribute = RecordAttributes.attribute(path.split(separator: "."))
        switch recordAttributes.shape(of: path) {
        case .value, .insideValue:
            return .invalid("attribute_name", "\(attribute) is not a plural: entity.replace replaces lists, entity.update writes values")
        case .object:
            return .invalid("attribute_name", "\(attribute) is an object: entity.replace replaces lists, entity.update writes objects")
        case .unknown:
            switch record.value(atPath: path) {
            case nil, .null?, .array?: return nil
            case .object?: return .invalid("attribute_name", "\(attribute) is an object: entity.replace replaces lists, entity.update writes objects")
            default: return .invalid("attribute_name", "\(attribute) is not a plural: entity.replace replaces lists, entity.update writes values")
            }
        }
    }

    /// Whether the flow or the record says an attribute is an object.
    func isObject(_ path: String, record: JSONValue) -> Bool {
        if recordAttributes.shape(of: path) == .object { return true }
        if case .object? = record.value(atPath: path) { return true }
        return false
    }

    /// `entity.update`'s merge: an object value merges into an object, anything else replaces.
    static func merge(_ entries: [(key: String, value: JSONValue)], at base: String, into record: JSONValue) -> JSONValue {
        var record = record
        for (key, item) in entries {
            let path = Self.dotPath(base + "/" + key)
            if case .object(let inner) = item, case .object = record.value(atPath: path) ?? .null {
                for (innerKey, innerValue) in inner { record = record.setting(path: path + "." + innerKey, innerValue) }
            } else {
                record = record.setting(path: path, item)
            }
        }
        return record
    }

    /// The values of a write that the flow says are `unique` (its fields' schema paths), and
    /// the email, which the database keeps unique: checked inside the write's transaction.
    func uniqueChecks(_ patch: JSONValue) -> [CaptureStore.UniqueCheck] {
        var checks: [CaptureStore.UniqueCheck] = []
        var paths = Set<String>()
        for field in flow.fields {
            guard field.validation.contains(where: { $0.kind == .unique }), case .path(let path)? = field.schemaId,
                  paths.insert(path.value).inserted else { continue }
            if let value = patch.value(atPath: path.value)?.stringValue, !FormValues.isBlank(value) {
                checks.append((field.name, path.value, value))
            }
        }
        if !paths.contains("email"), let email = patch["email"]?.stringValue, !FormValues.isBlank(email) {
            checks.append(("email", "email", email))
        }
        return checks
    }

    /// 361: a write gave a unique attribute a value another record holds.
    func uniqueViolation(_ fields: [String]) -> ServerReply {
        let paths = fields.map { name -> String in
            guard case .path(let path)? = flow.field(named: name)?.schemaId else { return "/" + name }
            return "/" + path.value.split(separator: ".").joined(separator: "/")
        }
        return .error(361, "unique_violation", "another record already has this value of \(paths.joined(separator: ", "))")
    }
}

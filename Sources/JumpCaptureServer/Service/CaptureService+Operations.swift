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
        case .updateObject: return try await writeRecord(parameters, kind: .update)
        case .replacePlural: return try await writeRecord(parameters, kind: .replace)
        case .deleteAttribute: return try await writeRecord(parameters, kind: .delete)
        case .revokeToken: return try await revoke(parameters, client: client)
        case .engageMobileConfig, .engageTokenExchange, .tokenURLPost, .shareActivity, .setStatus, .shortenURLs, .engageDeviceSignIn:
            return .error(404, "not_found", "not a Capture operation")
        }
    }

    /// The common checks: client id, flow, flow version, unknown and duplicate parameters. Nil
    /// when they pass. `redirect_uri` is taken as the SDKs send it (iOS: the Capture base URL,
    /// Android: `http://android.library`): Capture compares it only in `/oauth/token`.
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
        // The record calls are authenticated by the access token alone (the SDKs send no
        // client_id there); a client_id sent anyway must be this server's.
        if let client = parameters["client_id"] {
            guard client == config.captureClientId.value else { return .error(402, "invalid_client", "client_id is not a client of this server") }
        } else if !operation.isRecordCall {
            return .missing("client_id")
        }
        if let name = parameters["flow"], name != (config.captureFlowName?.value ?? flow.name.value) {
            return .invalid("flow", "this server serves flow '\(config.captureFlowName?.value ?? flow.name.value)'")
        }
        if let version = parameters["flow_version"], version != flow.version.value, version != "HEAD" {
            return .invalid("flow_version", "this server serves version '\(flow.version.value)' of the flow")
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
        guard let identifierField = form.fields.first(where: { $0.type.canIdentify }),
            let passwordField = form.fields.first(where: { $0.type == .password })
        else {
            return .invalid("form", "'\(form.name)' has no identifier and password fields")
        }
        var values = Self.values(of: form, parameters)
        // Without the flow document the SDKs send `user` and `password`: the form's two fields.
        for (field, legacy) in [(identifierField, "user"), (passwordField, "password")] where field.name != legacy {
            guard let value = parameters[legacy] else { continue }
            if values[field.name] != nil { return .invalid(legacy, "give '\(field.name)' or '\(legacy)', not both") }
            values[field.name] = value
        }
        if let reply = check(values, form: form, locale: locale).reply { return reply }
        let identifier = values[identifierField.name] ?? ""
        let password = values[passwordField.name] ?? ""
        var user: StoredUser?
        let byUsername = identifierField.type == .text
        func lookUp() async throws -> StoredUser? {
            if byUsername, case .path(let path)? = identifierField.schemaId {
                return try await store.user(path: path.value, value: identifier)
            }
            return try await store.user(emailNormalized: normalizeEmail(identifier))
        }
        user = try await lookUp()
        // Throttled by account (an unknown one by its identifier, so that the answers do not
        // tell which accounts exist) and by client address; without a hash, the same time is spent.
        let account = user.map { "user:\($0.id)" } ?? (byUsername ? "username:" + identifier.lowercased() : "email:" + normalizeEmail(identifier))
        // Not here: the legacy Capture's (`server.legacy`), moved when the password matches.
        var askLegacy: (() async throws -> Bool)?
        if user == nil, setup.settings.legacy != nil, !identifier.isEmpty {
            let attribute: String
            if byUsername, case .path(let path)? = identifierField.schemaId { attribute = path.value } else { attribute = "email" }
            askLegacy = {
                switch try await self.moveFromLegacy(attribute: attribute, identifier: identifier, password: password) {
                case .unavailable(let reply): throw LegacyUnavailable(reply: reply)
                case .moved: return true
                case .notMoved: return false
                }
            }
        }
        let check: PasswordCheck
        do {
            check = try await checkPassword(
                password, against: user?.passwordHash, account: account, shownAs: identifier, client: client,
                locale: locale, purpose: "sign-in", otherwise: askLegacy)
        } catch let unavailable as LegacyUnavailable {
            return unavailable.reply
        }
        if case .refused(let reply) = check { return reply }
        if user == nil, case .matches = check { user = try await lookUp() }
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
        var linked = try await store.user(provider: grant.provider, identifier: grant.identifier)
        if linked == nil, setup.settings.legacy != nil {
            switch try await moveFromLegacy(profileIdentifier: grant.identifier) {
            case .unavailable(let reply): return reply
            case .moved: linked = try await store.user(provider: grant.provider, identifier: grant.identifier)
            case .notMoved: break
            }
        }
        if let user = linked {
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
            return .error(
                380, "email_address_in_use", "the email address is in use by another account",
                message: text("jumpForms.server.emailInUse", locale),
                extra: [("existing_provider", .string(provider)), ("conflicting_provider", .string(grant.provider))])
        }
        let formName = parameters["registration_form"] ?? config.captureSocialRegistrationFormName.value
        guard formName == config.captureSocialRegistrationFormName.value, let form = form(formName, locale: locale) else {
            return .invalid(
                "registration_form", "takes the social registration form '\(config.captureSocialRegistrationFormName.value)', not '\(formName)'")
        }
        let prefill = prefillValues(grant, form: form)
        let thin = (parameters["thin_registration"] ?? "false") == "true" && config.enableThinRegistration.value
        if thin {
            let (refused, unique) = check(prefill, form: form, locale: locale)
            if refused == nil {
                let (record, _) = Self.apply(prefill, form: form, to: [:])
                do {
                    let user = try await store.createUser(
                        record: record, passwordHash: nil, identity: identity(grant), unique: unique, now: now,
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
                } catch let conflict as StoreConflict {
                    if let refused = refusal(conflict, userID: 0) { return refused }
                    throw conflict
                }
            }
        }
        let fields = JSONValue.object(form.fields.compactMap { field in prefill[field.name].map { (key: field.name, value: .string($0)) } })
        return .error(
            310, "record_not_found", "no account uses this identity", message: text("jumpForms.server.recordNotFound", locale),
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
        StoredIdentity(
            provider: grant.provider, identifier: grant.identifier,
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
        let (refused, unique) = try await checkWithUnique(values, form: form, locale: locale, excluding: nil)
        if let refused { return refused }
        var (record, password) = Self.apply(values, form: form, to: [:])
        if let grant, record["email"] == nil, let email = grant.profile["email"] {
            record = record.setting("email", email)
        }
        var hash: String?
        if let password { hash = try await hashPassword(password) }
        do {
            let user = try await store.createUser(
                record: record, passwordHash: hash, identity: grant.map(identity), unique: unique, now: now,
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
        } catch let conflict as StoreConflict {
            // The record's limits (`server.maximumRecordSize`).
            if let refused = refusal(conflict, userID: 0) { return refused }
            throw conflict
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
            try await mayEmail(email, kind: kind)
        {
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
        try await store.send(
            kind: kind, to: email, subject: setup.localizer.text("jumpForms.server.\(key)Subject", for: locale, arguments),
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
        let session: StoredToken
        switch try await authorized(parameters) {
        case .failure(let error): return error.reply
        case .success(let value): (user, session) = (value.0, value.1)
        }
        let values = Self.values(of: form, parameters)
        let (refused, unique) = try await checkWithUnique(values, form: form, locale: locale, excluding: user.id)
        if let refused { return refused }
        // The current password: a password field stored nowhere and matched by no other field.
        let matched = Set(
            form.fields.flatMap {
                $0.rules.compactMap { rule -> String? in
                    guard rule.kind == .match, case .text(let other) = rule.value else { return nil }
                    return other
                }
            })
        let confirmations = Set(form.fields.filter { $0.rules.contains { $0.kind == .match } }.map(\.name))
        if let current = form.fields.first(where: {
            $0.type == .password && $0.schemaId == nil && !confirmations.contains($0.name) && !matched.contains($0.name)
        }),
            let hash = user.passwordHash
        {
            switch try await checkPassword(
                values[current.name] ?? "", against: hash, account: "user:\(user.id)", shownAs: "account \(user.id)",
                client: client, locale: locale, purpose: "current-password check")
            {
            case .refused(let reply): return reply
            case .matches: break
            case .wrong:
                let message = text("jumpForms.server.currentPasswordWrong", locale)
                return invalidFields([FieldMessages(field: current.name, messages: [message])], locale: locale)
            }
        }
        let (_, password) = Self.apply(values, form: form, to: [:])
        if password != nil, let refused = privilegeRefusal(user, session, locale: locale) { return refused }
        var hash: String?
        if let password { hash = try await hashPassword(password) }
        do {
            _ = try await store.updateUser(id: user.id, unique: unique, now: now, passwordHash: hash == nil ? .none : .some(hash)) { record in
                Self.apply(values, form: form, to: record).record
            }
        } catch StoreConflict.notUnique(let fields) {
            return notUnique(fields, form: form, locale: locale)
        } catch let conflict as StoreConflict {
            if let refused = refusal(conflict, userID: user.id) { return refused }
            throw conflict
        }
        if hash != nil { try await passwordChanged(user, keeping: session) }
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
        let now = now
        let refreshLifetime = setup.settings.refreshLifetime
        let refreshed = try await store.refresh(accessToken, lifetime: setup.settings.accessTokenLifetime, now: now) { stored -> ServerReply? in
            guard let moment = RefreshSignature.epochSeconds(of: date) else {
                return .invalid("date", "expected UTC yyyy-MM-dd HH:mm:ss")
            }
            guard abs(moment - now) <= 300 else {
                return .error(200, "invalid_argument", "date: more than 5 minutes from the server's time")
            }
            // The chain's limit counts from the sign-in; refreshing does not extend it.
            guard stored.signedInAt + refreshLifetime > now else {
                return .error(
                    200, "invalid_argument",
                    "the session is older than \(Self.duration(refreshLifetime)) (server.refreshLifetime): sign in again")
            }
            guard let secret = stored.refreshSecret,
                RefreshSignature.verify(signature, accessToken: accessToken, date: date, secret: secret)
            else {
                return .error(200, "invalid_argument", "signature: does not match the session's refresh secret")
            }
            return nil
        }
        switch refreshed {
        case .notValid: return .error(200, "invalid_argument", "the access token is not valid")
        case .refused(let reply): return reply
        case .rotated(let token, let expiresAt):
            return .json(["stat": "ok", "access_token": .string(token), "expires_in": .integer(expiresAt - now)])
        }
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
}

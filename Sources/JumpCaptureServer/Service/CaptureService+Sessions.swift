import JumpCapture
import JumpForms

/// Sessions that end: `POST /oauth/revoke` (RFC 7009), the other sessions of an account whose
/// password changes, all of them when it is reset, and the recent sign-in that setting a first
/// password needs.
extension CaptureService {
    /// `POST /oauth/revoke` (RFC 7009): `token` (an access token, or a refresh token of
    /// `/oauth/token`), `client_id`, optional `token_type_hint` (`access_token` or
    /// `refresh_token`: where to look first; any other value is ignored, as RFC 7009 section
    /// 2.1 asks) and, for a confidential client, `client_secret`. The token's session ends at
    /// once: an access token with its refresh chain, a refresh token with its grant's access
    /// tokens. The answer is `{"stat": "ok"}` whether or not the token was known (RFC 7009
    /// section 2.2: an unknown token is no error, and the answer tells no one which tokens
    /// exist). Errors: 100 `token` or `client_id` missing, 201 repeated, 200 an unknown
    /// parameter, 402 another client or a wrong `client_secret`.
    /// `client`: the connection's address, which wrong secrets count against (`checkSecret`).
    func revoke(_ parameters: RequestParameters, client: String? = nil) async throws -> ServerReply {
        if let refused = validateParameters(.revokeToken, parameters, form: nil) { return refused }
        if let secret = parameters["client_secret"] {
            switch try await checkSecret(
                secret, against: setup.settings.clientSecret?.value, what: "client secret at /oauth/revoke", client: client,
                locale: locale(parameters))
            {
            case .refused(let reply): return reply
            case .wrong: return .error(402, "invalid_client", "the client secret is not valid")
            case .matches: break
            }
        }
        guard let token = parameters["token"] else { return .missing("token") }
        let revoked = try await store.revoke(token, hint: parameters["token_type_hint"])
        if revoked != .unknown { logger.info("revoked: \(revoked == .accessToken ? "an access token" : "a refresh token") and its session") }
        return .ok
    }

    /// The 403 for a password set on an account that has none (a social-only account) by a
    /// session that signed in longer ago than `privilegedSessionMaxAge`, as Ory Kratos refuses a
    /// settings change outside a privileged session: someone who picked up a signed-in device
    /// must not be able to add a password and keep the account. Nil when the change may go on.
    func privilegeRefusal(_ user: StoredUser, _ session: StoredToken, locale: LocaleTag) -> ServerReply? {
        guard user.passwordHash == nil else { return nil }
        let limit = setup.settings.privilegedSessionMaxAge
        let age = now - session.signedInAt
        guard age > limit else { return nil }
        return .error(
            403, "reauthentication_required",
            "setting a password on an account that has none needs a sign-in of the last \(Self.duration(limit)) "
                + "(server.privilegedSessionMaxAge); this session signed in \(Self.duration(age)) ago: sign in again, then retry",
            message: text("jumpForms.server.reauthenticate", locale),
            extra: [("max_age", .integer(limit))])
    }

    /// After a password change: every other session of the account ends (the one that made the
    /// change goes on), and so do its pending password-reset links.
    func passwordChanged(_ user: StoredUser, keeping session: StoredToken) async throws {
        let ended = try await store.revokeSessions(userID: user.id, keeping: session)
        try await store.revokeCodes(userID: user.id, kinds: ["forgot_password"])
        if ended > 0 { logger.info("password changed: \(ended) other session tokens of account \(user.uuid) revoked") }
    }

    /// After a reset through the email link: every session of the account ends (whoever knew
    /// the old password is out), and every other link the account was sent stops working.
    func passwordReset(userID: Int64) async throws {
        let ended = try await store.revokeSessions(userID: userID)
        try await store.revokeCodes(userID: userID)
        if ended > 0 { logger.info("password reset: \(ended) session tokens of account #\(userID) revoked") }
    }

    /// Seconds in words, for error descriptions: `30 days`, `5 minutes`, `90 seconds`.
    static func duration(_ seconds: Int) -> String {
        func unit(_ count: Int, _ name: String) -> String { "\(count) \(name)\(count == 1 ? "" : "s")" }
        if seconds >= 86_400, seconds % 86_400 == 0 { return unit(seconds / 86_400, "day") }
        if seconds >= 3600, seconds % 3600 == 0 { return unit(seconds / 3600, "hour") }
        if seconds >= 60, seconds % 60 == 0 { return unit(seconds / 60, "minute") }
        return unit(seconds, "second")
    }
}

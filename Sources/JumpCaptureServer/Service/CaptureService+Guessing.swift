import HTTPTypes
import JumpCapture
import JumpForms

extension CaptureService {
    /// Whether an operation compares a password, or the client secret (`/oauth/revoke`): the
    /// dispatcher hands it the client's address, which failures count against.
    static func checksPasswords(_ operation: CaptureOperation) -> Bool {
        operation == .signIn || operation == .updateProfile || operation == .changePassword || operation == .revokeToken
    }

    /// How a throttled password check ended.
    enum PasswordCheck: Sendable {
        case matches, wrong
        /// Not compared: the account or the client address must wait (510).
        case refused(ServerReply)
    }

    /// Checks `password` against `hash` (nil: the account does not exist or has no password;
    /// the timing hash is checked instead, so that the answer takes as long) under the sign-in
    /// throttle: a locked account (`account`, the throttle's key) or client address is refused
    /// before any bcrypt runs. Failures and refusals are logged at info, with `shownAs` (what
    /// names the account: the identifier sent, escaped) and the client address, never the
    /// password. Without a hash, `otherwise` (when given) decides instead of the timing hash:
    /// the legacy Capture's check of a sign-in (`server.legacy`).
    func checkPassword(
        _ password: String, against hash: String?, account: String, shownAs name: String, client: String?,
        locale: LocaleTag, purpose: String, otherwise: (() async throws -> Bool)? = nil
    ) async throws -> PasswordCheck {
        let from = client ?? "an unknown address"
        let attempt: SignInThrottle.Attempt
        switch try await throttle.begin(account: account, client: client, now: now) {
        case .wait(let seconds):
            setup.metrics.signInThrottled.increment()
            logger.info("\(purpose) for \(name.debugDescription) from \(from) refused unchecked: too many failed attempts (\(seconds) s to wait)")
            return .refused(tooManyAttempts(seconds, locale: locale))
        case .proceed(let value):
            attempt = value
        }
        let matches: Bool
        do {
            if let hash {
                matches = try await verify(password, hash: hash)
            } else if let otherwise {
                matches = try await otherwise()
            } else {
                _ = try await verify(password, hash: timingHash)
                matches = false
            }
        } catch {
            _ = try? await throttle.finish(attempt, .abandoned, now: now)
            throw error
        }
        let failures = try await throttle.finish(attempt, matches ? .succeeded : .failed, now: now)
        if !matches {
            setup.metrics.signInFailures.increment()
            logger.info("failed \(purpose) for \(name.debugDescription) from \(from) (\(failures) in a row for this account)")
        }
        return matches ? .matches : .wrong
    }

    /// Compares a secret of the app that a request sent (`client_secret`, `apiKey`; `what`
    /// names it in the log) with the configured one, as digests (the time taken says nothing
    /// about how much of it matched), under the sign-in throttle's count of the client address:
    /// a wrong secret counts as a failed password check from that address, and an address that
    /// must wait is refused (510 with `retry_after`) before anything is compared. Nil
    /// `configured` (none set) never matches.
    func checkSecret(_ sent: String, against configured: String?, what: String, client: String?, locale: LocaleTag) async throws -> PasswordCheck {
        try await checkSecret(what: what, client: client, locale: locale) {
            configured.map { !$0.isEmpty && CaptureStore.hash(sent) == CaptureStore.hash($0) } ?? false
        }
    }

    /// `checkSecret` with the comparison given (`compare`, run once unless the address must
    /// wait): a signed request's signature, for one.
    func checkSecret(what: String, client: String?, locale: LocaleTag, matches compare: () -> Bool) async throws -> PasswordCheck {
        let from = client ?? "an unknown address"
        let attempt: SignInThrottle.Attempt
        switch try await throttle.begin(account: nil, client: client, now: now) {
        case .wait(let seconds):
            logger.info("\(what) from \(from) refused unchecked: too many failed attempts (\(seconds) s to wait)")
            return .refused(tooManyAttempts(seconds, locale: locale))
        case .proceed(let value):
            attempt = value
        }
        let matches = compare()
        try await throttle.finish(attempt, matches ? .succeeded : .failed, now: now)
        if !matches { logger.info("wrong \(what) from \(from)") }
        return matches ? .matches : .wrong
    }

    /// 510 `api_limit_error` with `retry_after` (seconds) and a `message` in the request's
    /// locale; HTTP 429 with `Retry-After` (the SDKs read the JSON whatever the status).
    func tooManyAttempts(_ seconds: Int, locale: LocaleTag) -> ServerReply {
        let message =
            seconds >= 120
            ? setup.localizer.text("jumpForms.server.retryAfterMinutes", for: locale, ["minutes": .int((seconds + 59) / 60)])
            : setup.localizer.text("jumpForms.server.retryAfter", for: locale, ["seconds": .int(seconds)])
        var reply = ServerReply.error(
            510, "api_limit_error", "too many failed attempts: try again in \(seconds) seconds", message: message,
            extra: [("retry_after", .integer(seconds))], status: .tooManyRequests)
        reply.headers[.retryAfter] = String(seconds)
        return reply
    }

    /// 510 `api_limit_error` when the password-hash queue is full (`PasswordWork.Busy`): HTTP
    /// 503 with `Retry-After: 1`.
    /// The answer while the database cannot be reached (a PostgreSQL server restarting):
    /// nothing was done, try again.
    static let storeUnavailable: ServerReply = {
        var reply = ServerReply.error(
            503, "database_unavailable", "the server cannot reach its database: try again in a moment",
            extra: [("retry_after", .integer(5))], status: .serviceUnavailable)
        reply.headers[.retryAfter] = "5"
        return reply
    }()

    static let passwordWorkBusy: ServerReply = {
        var reply = ServerReply.error(
            510, "api_limit_error", "the server is busy checking passwords: try again in a moment",
            extra: [("retry_after", .integer(1))], status: .serviceUnavailable)
        reply.headers[.retryAfter] = "1"
        return reply
    }()

    /// Whether one more password-reset or verification email may go to `email` (at most
    /// `emailsPerAddress` per `emailWindow`); a refusal is logged at info.
    func mayEmail(_ email: String, kind: String) async throws -> Bool {
        if try await emailLimit.allow(normalizeEmail(email), now: now) { return true }
        logger.info("\(kind) email to \(email.debugDescription) not sent: \(emailLimit.limit) were sent in the last \(emailLimit.window) s")
        return false
    }
}

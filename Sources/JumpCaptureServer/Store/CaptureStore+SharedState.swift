import Crypto
import JumpCapture
import SQLKit
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One count of the sign-in throttle, as stored (`SignInThrottle` decides what it means).
struct ThrottleCount: Sendable, Equatable {
    var failures = 0
    var lastFailure = 0
    var lockedUntil = 0
    /// Password checks under way that count as failures to come, and when the last began.
    var inFlight = 0
    var inFlightAt = 0
    /// When the row can be deleted (the purge's).
    var forgetAt = 0
}

/// What the instances on one database share, so that any of them answers any request: the
/// sign-in throttle's counts (`SignInThrottle`), the reset and verification emails sent per
/// address (`EmailRateLimit`), the hosted pages' sessions (`PageSessions`) and the signed server
/// API requests seen (`SignedRequestLog`). Rows are keyed by SHA-256 digests (no address, email
/// or cookie in clear); a page session's access token is sealed with the store's key. Each row
/// says when it can go, and the purge deletes it then.
extension CaptureStore {
    // MARK: sign-in throttle

    /// The stored counts of `keys` (digests), outside a transaction: what the throttle's fast
    /// path reads (no row: nothing to wait for, nothing to count).
    func throttleCounts(_ keys: [String]) async throws -> [String: ThrottleCount] {
        try await read { db in
            var counts: [String: ThrottleCount] = [:]
            for key in keys {
                if let row = try await db.raw(
                    "SELECT failures, last_failure, locked_until, in_flight, in_flight_at, forget_at FROM throttle_counts WHERE key_hash = \(bind: key)"
                ).first() {
                    counts[key] = try ThrottleCount(row)
                }
            }
            return counts
        }
    }

    /// Changes the counts of `keys` in one write transaction: each key's row is made when
    /// missing and locked (instances changing one count at once take turns, in the order of the
    /// keys, so that two never wait for each other), handed to `change` (an all-zero count for
    /// a new row), and written back; a count `change` removes is deleted.
    func changeThrottleCounts<R: Sendable>(
        _ keys: [String], now: Int, _ change: @escaping @Sendable (inout [String: ThrottleCount]) -> R
    ) async throws -> R {
        let engine = database.engine
        return try await write { db in
            let sorted = Array(Set(keys)).sorted()
            var counts: [String: ThrottleCount] = [:]
            for key in sorted {
                try await db.raw(
                    """
                    INSERT INTO throttle_counts (key_hash, failures, last_failure, locked_until, in_flight, in_flight_at, forget_at)
                    VALUES (\(bind: key), 0, 0, 0, 0, 0, 0) ON CONFLICT (key_hash) DO NOTHING
                    """
                ).run()
                let row = try await db.raw(
                    """
                    SELECT failures, last_failure, locked_until, in_flight, in_flight_at, forget_at FROM throttle_counts
                    WHERE key_hash = \(bind: key)\(unsafeRaw: engine.lockingRows)
                    """
                ).first()
                counts[key] = try row.map { try ThrottleCount($0) } ?? ThrottleCount()
            }
            let result = change(&counts)
            for key in sorted {
                if let count = counts[key] {
                    try await db.raw(
                        """
                        UPDATE throttle_counts SET failures = \(bind: count.failures), last_failure = \(bind: count.lastFailure),
                        locked_until = \(bind: count.lockedUntil), in_flight = \(bind: count.inFlight), in_flight_at = \(bind: count.inFlightAt),
                        forget_at = \(bind: count.forgetAt) WHERE key_hash = \(bind: key)
                        """
                    ).run()
                } else {
                    try await db.raw("DELETE FROM throttle_counts WHERE key_hash = \(bind: key)").run()
                }
            }
            try await self.purgeIfDue(db, now: now)
            return result
        }
    }

    // MARK: emails per address

    /// Whether one more email may go to the address whose digest is `address` (at most `limit`
    /// in any `window` seconds); if so it is counted. One write transaction, the address's
    /// row locked: instances sending at once take turns.
    func countEmail(to address: String, limit: Int, window: Int, now: Int) async throws -> Bool {
        let engine = database.engine
        return try await write { db in
            try await db.raw(
                "INSERT INTO email_sends (address_hash, moments, forget_at) VALUES (\(bind: address), '', 0) ON CONFLICT (address_hash) DO NOTHING"
            ).run()
            let row = try await db.raw(
                "SELECT moments FROM email_sends WHERE address_hash = \(bind: address)\(unsafeRaw: engine.lockingRows)"
            ).first()
            var moments = (try row?.string("moments") ?? "").split(separator: ",").compactMap { Int($0) }.filter { now - $0 < window }
            let allowed = moments.count < limit
            if allowed { moments.append(now) }
            if let last = moments.last {
                let text = moments.map(String.init).joined(separator: ",")
                try await db.raw(
                    "UPDATE email_sends SET moments = \(bind: text), forget_at = \(bind: last + window) WHERE address_hash = \(bind: address)"
                ).run()
            } else {
                try await db.raw("DELETE FROM email_sends WHERE address_hash = \(bind: address)").run()
            }
            return allowed
        }
    }

    // MARK: page sessions

    /// Keeps a hosted page's session: the digest of its cookie, the access token sealed.
    func openPageSession(cookie: String, accessToken: String, expiresAt: Int) async throws {
        let sealed = try Data(sealText(accessToken))
        try await write { db in
            try await db.raw(
                "INSERT INTO page_sessions (cookie_hash, access_token, expires_at) VALUES (\(bind: Self.hash(cookie)), \(bind: sealed), \(bind: expiresAt))"
            ).run()
        }
    }

    /// The access token of a page session's cookie, while the session has not expired.
    func pageSessionToken(cookie: String, now: Int) async throws -> String? {
        let sealed = try await read { db -> Data? in
            guard
                let row = try await db.raw(
                    "SELECT access_token FROM page_sessions WHERE cookie_hash = \(bind: Self.hash(cookie)) AND expires_at > \(bind: now)"
                ).first()
            else { return nil }
            return try row.decode(column: "access_token", as: Data.self)
        }
        return sealed.flatMap { openText(Array($0)) }
    }

    // MARK: signed requests

    /// Whether a signed request's signature (its digest) is new, noting it until `expiresAt`;
    /// one noted before that has expired by `now` counts as new. One statement: two instances
    /// given the same signature at once accept it once.
    func firstUse(ofSignature signature: String, expiresAt: Int, now: Int) async throws -> Bool {
        try await write { db in
            try await db.raw(
                """
                INSERT INTO signed_requests (signature_hash, expires_at) VALUES (\(bind: signature), \(bind: expiresAt))
                ON CONFLICT (signature_hash) DO UPDATE SET expires_at = excluded.expires_at WHERE signed_requests.expires_at < \(bind: now)
                RETURNING signature_hash
                """
            ).first() != nil
        }
    }

    // MARK: purge, sealing

    /// Deletes the shared state that no longer matters (part of `purge`). On PostgreSQL a row
    /// another transaction has locked (a throttle count being changed) is left for the next
    /// purge rather than waited for: two purges, or a purge and a change of counts, never wait
    /// for each other.
    static func purgeSharedState(_ db: any SQLDatabase, now: Int, engine: StoreEngine) async throws {
        let skip = engine.skippingLockedRows
        try await db.raw(
            """
            DELETE FROM throttle_counts WHERE key_hash IN
            (SELECT key_hash FROM throttle_counts WHERE forget_at <= \(bind: now)\(unsafeRaw: skip))
            """
        ).run()
        try await db.raw(
            """
            DELETE FROM email_sends WHERE address_hash IN
            (SELECT address_hash FROM email_sends WHERE forget_at <= \(bind: now)\(unsafeRaw: skip))
            """
        ).run()
        try await db.raw(
            """
            DELETE FROM page_sessions WHERE cookie_hash IN
            (SELECT cookie_hash FROM page_sessions WHERE expires_at <= \(bind: now)\(unsafeRaw: skip))
            """
        ).run()
        try await db.raw(
            """
            DELETE FROM signed_requests WHERE signature_hash IN
            (SELECT signature_hash FROM signed_requests WHERE expires_at < \(bind: now)\(unsafeRaw: skip))
            """
        ).run()
    }

    /// `text` sealed with AES-GCM under the store's key.
    func sealText(_ text: String) throws -> [UInt8] {
        guard let combined = try AES.GCM.seal(Array(text.utf8), using: SymmetricKey(data: secretsKey)).combined else { return [] }
        return Array(combined)
    }

    /// What `sealText` sealed; nil when it was not sealed with this key.
    func openText(_ sealed: [UInt8]) -> String? {
        guard let box = try? AES.GCM.SealedBox(combined: sealed), let plain = try? AES.GCM.open(box, using: SymmetricKey(data: secretsKey)) else {
            return nil
        }
        return String(decoding: plain, as: UTF8.self)
    }

    /// A key for `purpose` derived from the store's key (HKDF-SHA256): the same at every
    /// instance that has the same key file.
    func derivedKey(_ purpose: String) -> [UInt8] {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: secretsKey), info: Array(("jump-forms " + purpose).utf8), outputByteCount: 32
        ).withUnsafeBytes { Array($0) }
    }
}

extension ThrottleCount {
    init(_ row: any SQLRow) throws {
        self.init(
            failures: try row.int("failures"), lastFailure: try row.int("last_failure"), lockedUntil: try row.int("locked_until"),
            inFlight: try row.int("in_flight"), inFlightAt: try row.int("in_flight_at"), forgetAt: try row.int("forget_at"))
    }
}

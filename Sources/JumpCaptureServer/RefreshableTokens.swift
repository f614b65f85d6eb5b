import JumpCapture
import Synchronization

/// The rows of the refreshable access tokens this server issued or rotated lately, in memory,
/// so that a refresh reads neither SQLite nor the sealed secret. Under 64 connections of
/// chained refreshes this took a refresh from ~94 to ~67 µs of server CPU: the read of a row
/// that group commits keep rewriting walks the WAL index, takes file locks, and the secret's
/// AES-GCM opening sets up a key each time (docs/PERFORMANCE.md, "Local server").
///
/// Safe by construction: a refresh is decided by the rotation's `UPDATE ... WHERE token_hash
/// = old`, which changes nothing when the token is gone (purged, or rotated by a concurrent
/// refresh or by another process on the same database). An entry can only be stale in that
/// way, and then the refresh is refused as before. An entry never outlives what it copies: the
/// row's user, sign-in and sealed secret never change, and its expiry changes only with its
/// hash. A revocation (sign-out, password change or reset) deletes the rows first and then the
/// entries (`revoke`); a refresh that slips in between finds its row gone and is refused.
///
/// The secrets stay in this process's memory only (never written, logged or shown), as they
/// are while a refresh is checked. At most `limit` entries: past it the table starts over,
/// and tokens it forgot are read from SQLite.
final class RefreshableTokens: Sendable {
    struct Entry: Sendable {
        var userID: Int64
        var expiresAt: Int
        /// When the session signed in: it cannot be refreshed `refreshLifetime` after.
        var signedInAt: Int
        var secret: RefreshSecret
    }

    private let entries = Mutex<[String: Entry]>([:])
    let limit: Int

    init(limit: Int = 100_000) {
        self.limit = limit
    }

    /// The entry of the token whose SHA-256 (hex) is `hash`.
    subscript(hash: String) -> Entry? {
        entries.withLock { $0[hash] }
    }

    /// A token issued with a refresh secret.
    func issued(_ hash: String, _ entry: Entry) {
        entries.withLock { insert(hash, entry, into: &$0) }
    }

    /// A rotation's outcome: the old token is gone either way; the new one (when it rotated)
    /// takes its place.
    func rotated(from old: String, to new: (hash: String, entry: Entry)?) {
        entries.withLock { entries in
            entries[old] = nil
            if let new { insert(new.hash, new.entry, into: &entries) }
        }
    }

    /// Forgets a revoked token.
    func revoke(_ hash: String) {
        entries.withLock { $0[hash] = nil }
    }

    /// Forgets every token of `userID` but `kept` (the hash of the session that stays).
    func revoke(userID: Int64, keeping kept: String? = nil) {
        entries.withLock { entries in
            entries = entries.filter { $0.value.userID != userID || $0.key == kept }
        }
    }

    /// Adds an entry, first starting the table over when it is full.
    private func insert(_ hash: String, _ entry: Entry, into entries: inout [String: Entry]) {
        if entries.count >= limit { entries.removeAll(keepingCapacity: true) }
        entries[hash] = entry
    }

    var count: Int { entries.withLock { $0.count } }
}

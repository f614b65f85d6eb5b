import JumpForms

/// Slows password guessing down, as Keycloak's brute-force detection does ("lockout
/// temporarily"), with waits that double instead of growing by a fixed increment. Guesses at
/// the app's secrets (`client_secret` at `/oauth/token` and `/oauth/revoke`, `apiKey` at
/// `/api/v2/auth_info`) count against the client address the same way.
///
/// Two counts are kept, in the database (`throttle_counts`, by the SHA-256 of their key), so
/// that every instance on one database sees them: the consecutive failed password checks of one
/// account (`signInFailureLimit`; a success starts it over) and the failed checks from one
/// client address (`clientFailureLimit`; successes do not start it over, so that an attacker
/// with an account of their own cannot reset it between guesses). A count with no failure for
/// its reset time (`signInFailureReset`, `clientFailureReset`) starts over. Once a count reaches
/// its limit, each further failure locks the account (or the address) for `signInWait` seconds,
/// doubled with each further failure, at most `signInMaximumWait`. An attempt while locked is
/// answered at once, before any password is compared (no timing oracle), and does not count.
///
/// While a count holds failures, attempts under way count as failures to come: an account
/// with four failures (limit five) takes one guess at a time, however many arrive together at
/// however many instances (an attempt under way counts for `inFlightLease` seconds at most, so
/// that an instance killed during a check leaves no count behind for long). A limit of 0 turns
/// its count off. An account or address with no count costs one read per attempt; writes come
/// with failures.
final class SignInThrottle: Sendable {
    /// The settings (`server:` in jump.yaml).
    struct Policy: Sendable {
        var accountLimit: Int
        var clientLimit: Int
        var firstWait: Int
        var maximumWait: Int
        var accountReset: Int
        var clientReset: Int

        init(_ settings: ServerSettings) {
            accountLimit = settings.signInFailureLimit
            clientLimit = settings.clientFailureLimit
            firstWait = settings.signInWait
            maximumWait = settings.signInMaximumWait
            accountReset = settings.signInFailureReset
            clientReset = settings.clientFailureReset
        }
    }

    /// What a count is kept for.
    enum Key: Hashable, Sendable {
        /// An account: `user:<id>`, or the normalized identifier when no account has it (so
        /// that the answers do not tell which accounts exist).
        case account(String)
        /// A client's IP address.
        case client(String)
    }

    /// An attempt that may compare its password: hand it back to `finish`.
    struct Attempt: Sendable {
        fileprivate let keys: [Key]
        /// Whether the attempt is counted as under way (its keys had counts when it began).
        fileprivate let counted: Bool
    }

    enum Decision: Sendable {
        case proceed(Attempt)
        /// Locked (or, with failures, busy with another attempt): try again in this many seconds.
        case wait(seconds: Int)
    }

    enum Outcome: Sendable {
        case succeeded, failed
        /// The check did not run to its end (an error): it counts for nothing.
        case abandoned
    }

    /// Seconds an attempt under way counts for at most.
    static let inFlightLease = 60

    let policy: Policy
    let store: CaptureStore

    init(policy: Policy, store: CaptureStore) {
        self.policy = policy
        self.store = store
    }

    func limit(of key: Key) -> Int {
        switch key {
        case .account: policy.accountLimit
        case .client: policy.clientLimit
        }
    }

    func reset(of key: Key) -> Int {
        switch key {
        case .account: policy.accountReset
        case .client: policy.clientReset
        }
    }

    /// The row of `key`: the SHA-256 of its kind and value.
    static func storageKey(_ key: Key) -> String {
        switch key {
        case .account(let name): CaptureStore.hash("account:" + name)
        case .client(let address): CaptureStore.hash("client:" + address)
        }
    }

    /// Whether a password check for `account` from `client` may run now; if so it is counted as
    /// under way until `finish`. Without an account (a client secret, an API key: secrets of
    /// the app, not of a user) only the client address counts.
    func begin(account: String?, client: String?, now: Int) async throws -> Decision {
        let keys = ((account.map { [Key.account($0)] } ?? []) + (client.map { [Key.client($0)] } ?? [])).filter { limit(of: $0) > 0 }
        guard !keys.isEmpty else { return .proceed(Attempt(keys: [], counted: false)) }
        // The common case: no count for any key, nothing to wait for or to count.
        if try await store.throttleCounts(keys.map(Self.storageKey)).isEmpty { return .proceed(Attempt(keys: keys, counted: false)) }
        return try await store.changeThrottleCounts(keys.map(Self.storageKey), now: now) { counts in
            var wait = 0
            for key in keys {
                var entry = counts[Self.storageKey(key)] ?? ThrottleCount()
                self.forgetStale(&entry, key: key, now: now)
                if entry.lockedUntil > now {
                    wait = max(wait, entry.lockedUntil - now)
                } else if entry.failures > 0, entry.inFlight > 0, entry.failures + entry.inFlight >= self.limit(of: key) {
                    wait = max(wait, 1)
                }
                counts[Self.storageKey(key)] = entry
            }
            if wait == 0 {
                for key in keys {
                    counts[Self.storageKey(key), default: ThrottleCount()].inFlight += 1
                    counts[Self.storageKey(key), default: ThrottleCount()].inFlightAt = now
                }
            }
            self.settle(&counts, keys: keys, now: now)
            return wait > 0 ? .wait(seconds: wait) : .proceed(Attempt(keys: keys, counted: true))
        }
    }

    /// Records how an attempt ended. Returns the account's count of consecutive failures.
    @discardableResult
    func finish(_ attempt: Attempt, _ outcome: Outcome, now: Int) async throws -> Int {
        // Uncounted and not a failure: there is nothing to change.
        guard !attempt.keys.isEmpty, attempt.counted || outcome == .failed else { return 0 }
        let keys = attempt.keys
        return try await store.changeThrottleCounts(keys.map(Self.storageKey), now: now) { counts in
            var failures = 0
            for key in keys {
                var entry = counts[Self.storageKey(key)] ?? ThrottleCount()
                if attempt.counted { entry.inFlight = max(0, entry.inFlight - 1) }
                self.forgetStale(&entry, key: key, now: now)
                switch outcome {
                case .abandoned:
                    break
                case .succeeded:
                    if case .account = key { entry = ThrottleCount(inFlight: entry.inFlight, inFlightAt: entry.inFlightAt) }
                case .failed:
                    entry.failures += 1
                    entry.lastFailure = now
                    let threshold = self.limit(of: key)
                    if entry.failures >= threshold {
                        entry.lockedUntil = max(entry.lockedUntil, now + self.wait(after: entry.failures - threshold))
                    }
                }
                if case .account = key { failures = entry.failures }
                counts[Self.storageKey(key)] = entry
            }
            self.settle(&counts, keys: keys, now: now)
            return failures
        }
    }

    /// The wait after the limit's failure plus `extra` more: `firstWait` doubled `extra` times,
    /// at most `maximumWait`.
    func wait(after extra: Int) -> Int {
        var wait = policy.firstWait
        for _ in 0..<min(extra, 62) where wait < policy.maximumWait { wait *= 2 }
        return min(wait, policy.maximumWait)
    }

    /// Starts a count over when its last failure is older than the reset time (and no lock
    /// runs); forgets attempts under way that began `inFlightLease` seconds ago or more (their
    /// instance is gone).
    private func forgetStale(_ entry: inout ThrottleCount, key: Key, now: Int) {
        if entry.failures > 0, entry.lockedUntil <= now, now - entry.lastFailure >= reset(of: key) {
            entry.failures = 0
            entry.lockedUntil = 0
        }
        if entry.inFlight > 0, now - entry.inFlightAt >= Self.inFlightLease {
            entry.inFlight = 0
        }
    }

    /// Drops the counts that say nothing any more (no failure, none under way, no lock); sets
    /// when the others can go.
    private func settle(_ counts: inout [String: ThrottleCount], keys: [Key], now: Int) {
        for key in keys {
            let name = Self.storageKey(key)
            guard var entry = counts[name] else { continue }
            if entry.failures == 0, entry.inFlight == 0, entry.lockedUntil <= now {
                counts[name] = nil
                continue
            }
            entry.forgetAt = max(
                entry.lockedUntil, entry.failures > 0 ? entry.lastFailure + reset(of: key) : 0,
                entry.inFlight > 0 ? entry.inFlightAt + Self.inFlightLease : 0, now + 1)
            counts[name] = entry
        }
    }
}

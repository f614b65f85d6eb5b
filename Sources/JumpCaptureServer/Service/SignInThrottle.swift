import JumpForms
import Synchronization

/// Slows password guessing down, as Keycloak's brute-force detection does ("lockout
/// temporarily"), with waits that double instead of growing by a fixed increment. Guesses at
/// the app's secrets (`client_secret` at `/oauth/token` and `/oauth/revoke`, `apiKey` at
/// `/api/v2/auth_info`) count against the client address the same way.
///
/// Two counts are kept, in memory: the consecutive failed password checks of one account
/// (`signInFailureLimit`; a success starts it over) and the failed checks from one client
/// address (`clientFailureLimit`; successes do not start it over, so that an attacker with an
/// account of their own cannot reset it between guesses). A count with no failure for its reset
/// time (`signInFailureReset`, `clientFailureReset`) starts over. Once a count reaches its
/// limit, each further failure locks the account (or the address) for `signInWait` seconds,
/// doubled with each further failure, at most `signInMaximumWait`. An attempt while locked is
/// answered at once, before any password is compared (no timing oracle), and does not count.
///
/// While a count holds failures, attempts under way count as failures to come: an account
/// with four failures (limit five) takes one guess at a time, however many arrive together.
/// A limit of 0 turns its count off.
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

    /// One count.
    struct Entry: Sendable {
        var failures = 0
        var lastFailure = 0
        var lockedUntil = 0
        var inFlight = 0
    }

    /// An attempt that may compare its password: hand it back to `finish`.
    struct Attempt: Sendable {
        fileprivate let keys: [Key]
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

    /// At most this many counts are kept; beyond it, those that no longer matter are dropped
    /// first, then those that hold no lock.
    static let maximumEntries = 100_000

    let policy: Policy
    private let state = Mutex<(entries: [Key: Entry], lastPurge: Int)>(([:], Int.min))

    init(policy: Policy) {
        self.policy = policy
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

    /// Whether a password check for `account` from `client` may run now; if so it is counted as
    /// under way until `finish`. Without an account (a client secret, an API key: secrets of
    /// the app, not of a user) only the client address counts.
    func begin(account: String?, client: String?, now: Int) -> Decision {
        let keys = ((account.map { [Key.account($0)] } ?? []) + (client.map { [Key.client($0)] } ?? [])).filter { limit(of: $0) > 0 }
        return state.withLock { state -> Decision in
            var wait = 0
            for key in keys {
                guard var entry = state.entries[key] else { continue }
                forgetStale(&entry, key: key, now: now)
                if entry.lockedUntil > now {
                    wait = max(wait, entry.lockedUntil - now)
                } else if entry.failures > 0, entry.inFlight > 0, entry.failures + entry.inFlight >= limit(of: key) {
                    wait = max(wait, 1)
                }
                state.entries[key] = entry
            }
            if wait > 0 { return .wait(seconds: wait) }
            for key in keys {
                if state.entries[key] == nil, !makeRoom(&state, now: now) { continue }
                state.entries[key, default: Entry()].inFlight += 1
            }
            return .proceed(Attempt(keys: keys))
        }
    }

    /// Records how an attempt ended. Returns the account's count of consecutive failures.
    @discardableResult
    func finish(_ attempt: Attempt, _ outcome: Outcome, now: Int) -> Int {
        state.withLock { state -> Int in
            var failures = 0
            for key in attempt.keys {
                guard var entry = state.entries[key] else { continue }
                entry.inFlight = max(0, entry.inFlight - 1)
                forgetStale(&entry, key: key, now: now)
                switch outcome {
                case .abandoned:
                    break
                case .succeeded:
                    if case .account = key { entry = Entry(inFlight: entry.inFlight) }
                case .failed:
                    entry.failures += 1
                    entry.lastFailure = now
                    let threshold = limit(of: key)
                    if entry.failures >= threshold {
                        entry.lockedUntil = max(entry.lockedUntil, now + wait(after: entry.failures - threshold))
                    }
                }
                if case .account = key { failures = entry.failures }
                if entry.failures == 0, entry.inFlight == 0, entry.lockedUntil <= now {
                    state.entries[key] = nil
                } else {
                    state.entries[key] = entry
                }
            }
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

    /// Starts a count over when its last failure is older than the reset time (and no lock runs).
    private func forgetStale(_ entry: inout Entry, key: Key, now: Int) {
        if entry.failures > 0, entry.lockedUntil <= now, now - entry.lastFailure >= reset(of: key) {
            entry.failures = 0
            entry.lockedUntil = 0
        }
    }

    /// Makes room for one more count; false when the table is full of counts that matter (the
    /// attempt then goes uncounted for that key).
    private func makeRoom(_ state: inout (entries: [Key: Entry], lastPurge: Int), now: Int) -> Bool {
        guard state.entries.count >= Self.maximumEntries else { return true }
        // At most one purge a second: a table full of locks would make every attempt scan it.
        guard state.lastPurge != now else { return false }
        state.lastPurge = now
        state.entries = state.entries.filter { key, entry in
            entry.inFlight > 0 || entry.lockedUntil > now || (entry.failures > 0 && now - entry.lastFailure < reset(of: key))
        }
        if state.entries.count >= Self.maximumEntries {
            state.entries = state.entries.filter { $0.value.inFlight > 0 || $0.value.lockedUntil > now }
        }
        return state.entries.count < Self.maximumEntries
    }

    /// How many counts are kept (tests).
    var count: Int { state.withLock { $0.entries.count } }
}

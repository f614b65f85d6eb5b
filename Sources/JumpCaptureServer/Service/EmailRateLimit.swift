import Synchronization

/// At most `limit` password-reset and verification emails per address in any `window` seconds
/// (`emailsPerAddress`, `emailWindow`), so that forgot-password and resend-verification cannot
/// flood someone's mailbox. Kept in memory, by the normalized address of the account the email
/// goes to (only addresses of accounts get emails, so the table grows with the accounts asked
/// for, at most `limit` moments each).
final class EmailRateLimit: Sendable {
    let limit: Int
    let window: Int
    /// Address -> when its recent emails were sent, oldest first.
    private let sent = Mutex<[String: [Int]]>([:])

    /// Beyond this many addresses, those with no email in the window are dropped.
    static let purgeThreshold = 10_000

    init(limit: Int, window: Int) {
        self.limit = limit
        self.window = window
    }

    /// Whether one more email may go to `address` now; if so it is counted.
    func allow(_ address: String, now: Int) -> Bool {
        sent.withLock { sent in
            if sent.count > Self.purgeThreshold {
                sent = sent.filter { _, moments in moments.last.map { now - $0 < window } ?? false }
            }
            var moments = (sent[address] ?? []).filter { now - $0 < window }
            guard moments.count < limit else {
                sent[address] = moments
                return false
            }
            moments.append(now)
            sent[address] = moments
            return true
        }
    }
}

/// At most `limit` password-reset and verification emails per address in any `window` seconds
/// (`emailsPerAddress`, `emailWindow`), so that forgot-password and resend-verification cannot
/// flood someone's mailbox. Kept in the database (`email_sends`, by the SHA-256 of the
/// normalized address of the account the email goes to), so that every instance on one
/// database counts the same emails.
final class EmailRateLimit: Sendable {
    let limit: Int
    let window: Int
    let store: CaptureStore

    init(limit: Int, window: Int, store: CaptureStore) {
        self.limit = limit
        self.window = window
        self.store = store
    }

    /// Whether one more email may go to `address` (normalized) now; if so it is counted.
    func allow(_ address: String, now: Int) async throws -> Bool {
        try await store.countEmail(to: CaptureStore.hash(address), limit: limit, window: window, now: now)
    }
}

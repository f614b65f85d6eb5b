import JumpCapture
import JumpForms
import SQLKit

/// The outbox: the emails the server would send.
extension CaptureStore {
    func send(kind: String, to recipient: String, subject: String, body: String, now: Int) async throws {
        try await write { db in
            try await db.raw(
                """
                INSERT INTO outbox (kind, recipient, subject, body, created_at)
                VALUES (\(bind: kind), \(bind: recipient), \(bind: subject), \(bind: body), \(bind: now))
                """
            ).run()
        }
    }

    func outbox() async throws -> [OutboxMessage] {
        try await read { db in
            try await db.raw("SELECT id, kind, recipient, subject, body, created_at FROM outbox ORDER BY id").all().map {
                OutboxMessage(
                    id: try $0.int64("id"), kind: try $0.string("kind"), recipient: try $0.string("recipient"), subject: try $0.string("subject"),
                    body: try $0.string("body"), createdAt: try $0.int("created_at"))
            }
        }
    }

    func userCount() async throws -> Int {
        try await read { db in try await db.raw("SELECT count(*) AS users FROM users").first()?.int("users") ?? 0 }
    }
}

import GRDB
import JumpCapture
import JumpForms

/// The outbox: the emails the server would send.
extension CaptureStore {
    func send(kind: String, to recipient: String, subject: String, body: String, now: Int) async throws {
        try await pool.write { db in
            try db.execute(
                sql: "INSERT INTO outbox (kind, recipient, subject, body, created_at) VALUES (?, ?, ?, ?, ?)",
                arguments: [kind, recipient, subject, body, now])
        }
    }

    func outbox() async throws -> [OutboxMessage] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM outbox ORDER BY id").map {
                OutboxMessage(
                    id: $0["id"], kind: $0["kind"], recipient: $0["recipient"], subject: $0["subject"], body: $0["body"], createdAt: $0["created_at"])
            }
        }
    }

    func userCount() async throws -> Int {
        try await pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM users") ?? 0 }
    }
}

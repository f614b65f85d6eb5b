import GRDB
import JumpCapture
import JumpForms

/// The Engage double's sharing: device tokens, the feed, short URLs.
extension CaptureStore {
    /// A new device token for an identity of `provider` (kept hashed).
    func issueDeviceToken(provider: String, identifier: String, expiresAt: Int, now: Int) async throws -> String {
        let token = Self.randomToken()
        try await pool.write { db in
            try db.execute(
                sql: "INSERT INTO device_tokens (token_hash, provider, identifier, expires_at, created_at) VALUES (?, ?, ?, ?, ?)",
                arguments: [Self.hash(token), provider, identifier, expiresAt, now])
        }
        return token
    }

    /// The identity a device token stands for (expired ones too: the caller tells them apart).
    func deviceTokenGrant(_ token: String) async throws -> DeviceTokenGrant? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM device_tokens WHERE token_hash = ?", arguments: [Self.hash(token)]).map {
                DeviceTokenGrant(provider: $0["provider"], identifier: $0["identifier"], expiresAt: $0["expires_at"])
            }
        }
    }

    func appendFeed(
        kind: String, provider: String, identifier: String, posted: String, text: String, shortURL: String?, device: String?,
        appName: String?, now: Int
    ) async throws {
        try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO feed (kind, provider, identifier, posted, text, short_url, device, app_name, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [kind, provider, identifier, posted, text, shortURL, device, appName, now])
        }
    }

    /// The text of the identity's last post on `provider`, if any.
    func lastFeedText(provider: String, identifier: String) async throws -> String? {
        try await pool.read { db in
            try String.fetchOne(
                db, sql: "SELECT text FROM feed WHERE provider = ? AND identifier = ? ORDER BY id DESC LIMIT 1", arguments: [provider, identifier])
        }
    }

    /// Everything posted, oldest first.
    func feed() async throws -> [FeedEntry] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM feed ORDER BY id").map {
                FeedEntry(
                    id: $0["id"], kind: $0["kind"], provider: $0["provider"], identifier: $0["identifier"], posted: $0["posted"],
                    text: $0["text"], shortURL: $0["short_url"], device: $0["device"], appName: $0["app_name"], createdAt: $0["created_at"])
            }
        }
    }

    /// The short code of `url`: the one it has, or a new one.
    func shortCode(for url: String, now: Int) async throws -> String {
        try await pool.write { db in
            if let code = try String.fetchOne(db, sql: "SELECT code FROM short_urls WHERE url = ?", arguments: [url]) { return code }
            let code = String(Self.randomToken().prefix(10))
            try db.execute(sql: "INSERT INTO short_urls (code, url, created_at) VALUES (?, ?, ?)", arguments: [code, url, now])
            return code
        }
    }

    /// The URL a short code stands for.
    func longURL(code: String) async throws -> String? {
        try await pool.read { db in try String.fetchOne(db, sql: "SELECT url FROM short_urls WHERE code = ?", arguments: [code]) }
    }
}

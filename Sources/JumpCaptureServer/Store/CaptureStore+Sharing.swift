import JumpCapture
import JumpForms
import SQLKit

/// The Engage double's sharing: device tokens, the feed, short URLs.
extension CaptureStore {
    /// A new device token for an identity of `provider` (kept hashed).
    func issueDeviceToken(provider: String, identifier: String, expiresAt: Int, now: Int) async throws -> String {
        let token = Self.randomToken()
        let hash = Self.hash(token)
        try await write { db in
            try await db.raw(
                """
                INSERT INTO device_tokens (token_hash, provider, identifier, expires_at, created_at)
                VALUES (\(bind: hash), \(bind: provider), \(bind: identifier), \(bind: expiresAt), \(bind: now))
                """
            ).run()
        }
        return token
    }

    /// The identity a device token stands for (expired ones too: the caller tells them apart).
    func deviceTokenGrant(_ token: String) async throws -> DeviceTokenGrant? {
        let hash = Self.hash(token)
        return try await read { db in
            try await db.raw("SELECT provider, identifier, expires_at FROM device_tokens WHERE token_hash = \(bind: hash)").first().map {
                DeviceTokenGrant(provider: try $0.string("provider"), identifier: try $0.string("identifier"), expiresAt: try $0.int("expires_at"))
            }
        }
    }

    func appendFeed(
        kind: String, provider: String, identifier: String, posted: String, text: String, shortURL: String?, device: String?,
        appName: String?, now: Int
    ) async throws {
        try await write { db in
            try await db.raw(
                """
                INSERT INTO feed (kind, provider, identifier, posted, text, short_url, device, app_name, created_at)
                VALUES (\(bind: kind), \(bind: provider), \(bind: identifier), \(bind: posted), \(bind: text), \(bind: shortURL), \(bind: device),
                \(bind: appName), \(bind: now))
                """
            ).run()
        }
    }

    /// The text of the identity's last post on `provider`, if any.
    func lastFeedText(provider: String, identifier: String) async throws -> String? {
        try await read { db in
            try await db.raw(
                "SELECT text FROM feed WHERE provider = \(bind: provider) AND identifier = \(bind: identifier) ORDER BY id DESC LIMIT 1"
            ).first()?.string("text")
        }
    }

    /// Everything posted, oldest first.
    func feed() async throws -> [FeedEntry] {
        try await read { db in
            try await db.raw(
                "SELECT id, kind, provider, identifier, posted, text, short_url, device, app_name, created_at FROM feed ORDER BY id"
            ).all().map {
                FeedEntry(
                    id: try $0.int64("id"), kind: try $0.string("kind"), provider: try $0.string("provider"), identifier: try $0.string("identifier"),
                    posted: try $0.string("posted"), text: try $0.string("text"), shortURL: try $0.optionalString("short_url"),
                    device: try $0.optionalString("device"), appName: try $0.optionalString("app_name"), createdAt: try $0.int("created_at"))
            }
        }
    }

    /// The short code of `url`: the one it has, or a new one (of two instances shortening one
    /// URL at once, the first insert wins and both answer its code).
    func shortCode(for url: String, now: Int) async throws -> String {
        try await write { db in
            if let code = try await db.raw("SELECT code FROM short_urls WHERE url = \(bind: url)").first()?.string("code") { return code }
            let code = String(Self.randomToken().prefix(10))
            try await db.raw(
                "INSERT INTO short_urls (code, url, created_at) VALUES (\(bind: code), \(bind: url), \(bind: now)) ON CONFLICT (url) DO NOTHING"
            ).run()
            return try await db.raw("SELECT code FROM short_urls WHERE url = \(bind: url)").first()?.string("code") ?? code
        }
    }

    /// The URL a short code stands for.
    func longURL(code: String) async throws -> String? {
        try await read { db in try await db.raw("SELECT url FROM short_urls WHERE code = \(bind: code)").first()?.string("url") }
    }
}

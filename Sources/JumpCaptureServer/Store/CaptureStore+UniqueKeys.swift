import SQLKit
import JumpForms
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Unique values compared by their look-alike keys (`LookAlike`), so that `ａdmin` or `аdmin`
/// is taken when `admin` is: the email by `users.email_key` (its NFKC_Casefold, under a
/// unique index), the flow's other `unique` values by `unique_values` (one row per user and
/// path: the key the path's field type asks for, a skeleton for `text` fields).
///
/// The keys are written with every record (`storeUniqueKeys`), and made again at start-up
/// for every path whose keys are missing or were made by other data or another comparison
/// (`unique_paths` remembers which): a flow that makes a field unique, or a new version of the
/// tables, fills them for the records already stored.
extension CaptureStore {
    /// The record paths a flow keeps unique (fields with a `unique` rule and a schema path),
    /// each with the comparison of its field's type; a path two fields share takes the
    /// stricter (skeleton). The email is kept unique by `users.email_key`, whatever the flow says.
    static func uniquePaths(of flow: Flow) -> [String: LookAlike.Comparison] {
        var paths: [String: LookAlike.Comparison] = [:]
        for field in flow.fields where field.validation.contains(where: { $0.kind == .unique }) {
            guard case .path(let path)? = field.schemaId, path.value != "email" else { continue }
            let comparison = LookAlike.Comparison(fieldType: field.type.value)
            if paths[path.value] != .skeleton { paths[path.value] = comparison }
        }
        return paths
    }

    /// The key the email's unique index holds: the normalized email (`normalizeEmail`), folded.
    static func emailKey(_ emailNormalized: String?) -> String? {
        emailNormalized.map(LookAlike.folded)
    }

    /// What `unique_paths` says of keys made with `comparison` and the current tables.
    static func keyTag(_ comparison: LookAlike.Comparison) -> String {
        comparison.rawValue + " " + LookAlike.version
    }

    /// Writes the keys of a user's record (inside the write that stores the record): its
    /// email's, which the unique index checks, and one per unique path holding text.
    func storeUniqueKeys(userID: Int64, record: JSONValue, emailNormalized: String?, _ db: any SQLDatabase) async throws {
        try await db.raw("UPDATE users SET email_key = \(bind: Self.emailKey(emailNormalized)) WHERE id = \(bind: userID)").run()
        guard !uniquePaths.isEmpty else { return }
        try await db.raw("DELETE FROM unique_values WHERE user_id = \(bind: userID)").run()
        for (path, comparison) in uniquePaths {
            guard let value = record.value(atPath: path)?.stringValue, !FormValues.isBlank(value) else { continue }
            try await db.raw(
                "INSERT INTO unique_values (user_id, path, value_key) VALUES (\(bind: userID), \(bind: path), \(bind: comparison.key(value)))"
            ).run()
        }
    }

    /// Whether another user than `userID` holds a value whose key is `value`'s, at `path`.
    func holds(_ path: String, _ value: String, excluding userID: Int64?, _ db: any SQLDatabase) async throws -> Bool? {
        if path == "email" {
            let normalized = normalizeEmail(value)
            return try await db.raw(
                """
                SELECT 1 AS found FROM users WHERE (email_key = \(bind: Self.emailKey(normalized)) OR email_normalized = \(bind: normalized))
                AND id IS DISTINCT FROM \(bind: userID)
                """
            ).first() != nil
        }
        guard let comparison = uniquePaths[path] else { return nil }
        return try await db.raw(
            """
            SELECT 1 AS found FROM unique_values WHERE path = \(bind: path) AND value_key = \(bind: comparison.key(value))
            AND user_id IS DISTINCT FROM \(bind: userID)
            """
        ).first() != nil
    }

    /// Makes the keys again where they are missing or stale (see the type's comment), and
    /// forgets those of paths the flow no longer keeps unique. Runs at start-up.
    static func refreshUniqueKeys(_ paths: [String: LookAlike.Comparison], _ db: any SQLDatabase) async throws {
        var stored: [String: String] = [:]
        for row in try await db.raw("SELECT path, comparison FROM unique_paths").all() {
            stored[try row.string("path")] = try row.string("comparison")
        }
        if stored["email"] != keyTag(.folded) { try await refillEmailKeys(db) }
        for path in stored.keys where path != "email" && paths[path] == nil {
            try await db.raw("DELETE FROM unique_values WHERE path = \(bind: path)").run()
            try await db.raw("DELETE FROM unique_paths WHERE path = \(bind: path)").run()
        }
        for (path, comparison) in paths.sorted(by: { $0.key < $1.key }) where stored[path] != keyTag(comparison) {
            try await db.raw("DELETE FROM unique_values WHERE path = \(bind: path)").run()
            for row in try await db.raw("SELECT id, record FROM users").all() {
                let record = CaptureStore.record(fromText: try row.optionalString("record"))
                guard let value = record.value(atPath: path)?.stringValue, !FormValues.isBlank(value) else { continue }
                let id = try row.int64("id")
                try await db.raw(
                    "INSERT INTO unique_values (user_id, path, value_key) VALUES (\(bind: id), \(bind: path), \(bind: comparison.key(value)))"
                ).run()
            }
            try await setKeyTag(path: path, keyTag(comparison), db)
        }
    }

    private static func setKeyTag(path: String, _ tag: String, _ db: any SQLDatabase) async throws {
        try await db.raw(
            """
            INSERT INTO unique_paths (path, comparison) VALUES (\(bind: path), \(bind: tag))
            ON CONFLICT (path) DO UPDATE SET comparison = excluded.comparison
            """
        ).run()
    }

    /// Makes every email key again, oldest account first, and (re)creates their unique index.
    /// Two accounts stored before keys existed may have emails that differ only by look-alikes
    /// (`ana@x` and `ａna@x`): the older keeps the key; the newer keeps its record, its sign-in
    /// and its old unique index (`email_normalized`), without a key. Nothing is lost.
    static func refillEmailKeys(_ db: any SQLDatabase) async throws {
        try await db.raw("DROP INDEX IF EXISTS users_email_key").run()
        try await db.raw("UPDATE users SET email_key = NULL").run()
        let rows = try await db.raw("SELECT id, email_normalized FROM users WHERE email_normalized IS NOT NULL ORDER BY id").all()
        var taken = Set<String>()
        for row in rows {
            guard let key = emailKey(try row.optionalString("email_normalized")), taken.insert(key).inserted else { continue }
            let id = try row.int64("id")
            try await db.raw("UPDATE users SET email_key = \(bind: key) WHERE id = \(bind: id)").run()
        }
        try await db.raw("CREATE UNIQUE INDEX users_email_key ON users(email_key) WHERE email_key IS NOT NULL").run()
        try await setKeyTag(path: "email", keyTag(.folded), db)
    }
}

import SQLKit

/// Plain statements with `?` placeholders, for the tests and maintenance that look at the
/// database beside the store's own queries (the store's queries bind through `\(bind:)`).
extension CaptureStore {
    /// `sql` with each `?` bound to the next of `binds`.
    static func query(_ sql: String, _ binds: [any Encodable & Sendable]) -> SQLQueryString {
        var query: SQLQueryString = ""
        var rest = binds[...]
        for (index, piece) in sql.split(separator: "?", omittingEmptySubsequences: false).enumerated() {
            if index > 0, let bind = rest.popFirst() { query = "\(query)\(bind: bind)" }
            query = "\(query)\(unsafeRaw: String(piece))"
        }
        return query
    }

    /// Runs one statement in a transaction of its own.
    func execute(_ sql: String, _ binds: [any Encodable & Sendable] = []) async throws {
        let query = Self.query(sql, binds)
        try await write { db in try await db.raw(query).run() }
    }

    /// The first column of every row (or `column`), as text (nil for NULL).
    func texts(_ sql: String, _ binds: [any Encodable & Sendable] = [], column named: String? = nil) async throws -> [String?] {
        let query = Self.query(sql, binds)
        return try await read { db in
            try await db.raw(query).all().map { row in
                guard let column = named ?? row.allColumns.first else { return nil }
                return try row.decodeNil(column: column) ? nil : row.decode(column: column, as: String.self)
            }
        }
    }

    /// The first column of every row, as an integer (nil for NULL).
    func integers(_ sql: String, _ binds: [any Encodable & Sendable] = []) async throws -> [Int?] {
        let query = Self.query(sql, binds)
        return try await read { db in
            try await db.raw(query).all().map { row in
                guard let column = row.allColumns.first else { return nil }
                return try row.decodeNil(column: column) ? nil : row.decode(column: column, as: Int.self)
            }
        }
    }
}

extension StoreDatabase {
    /// Runs one statement (`?` placeholders) in a transaction of its own.
    func execute(_ sql: String, _ binds: [any Encodable & Sendable] = []) async throws {
        let query = CaptureStore.query(sql, binds)
        try await transaction { db in try await db.raw(query).run() }
    }
}

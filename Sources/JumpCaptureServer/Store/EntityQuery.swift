import JumpCapture
import JumpForms
import SQLKit

/// An Entity API query (`/entity.find`): a filter, an order, a page. It becomes one SQL
/// statement, written once for both engines, with every value bound (`\(bind:)`), never
/// spliced into the text. The record's own columns answer `id`, `uuid`, `created` and
/// `lastUpdated` (so `filter "id > N"` with `sort_on ["id"]`, the data library's paging, reads
/// the primary key's index, not the table), `email =` also reads the email's index, and
/// `profiles.identifier` the linked identities; every other path reads the record's JSON.
struct EntityQuery: Sendable {
    var filter: EntityFilter?
    var sort: [EntitySort] = []
    var limit: Int = 100
    var offset: Int = 0
}

/// One key of `sort_on`: an attribute path, `-` before it for descending.
struct EntitySort: Sendable, Hashable {
    var path: [String]
    var descending: Bool
}

/// A filter or sort the store cannot run (a value of the wrong kind for a column, a plural
/// it does not read), in words.
struct EntityQueryError: Error, Sendable, Hashable, CustomStringConvertible {
    var description: String
}

/// What an attribute path reads.
enum EntityColumn: Sendable, Hashable {
    case id, uuid, created, lastUpdated
    /// `profiles.identifier`: a linked identity's identifier.
    case profileIdentifier
    case record([String])

    init(_ path: [String]) {
        switch path {
        case ["id"]: self = .id
        case ["uuid"]: self = .uuid
        case ["created"]: self = .created
        case ["lastUpdated"]: self = .lastUpdated
        case ["profiles", "identifier"]: self = .profileIdentifier
        default: self = .record(path)
        }
    }

    /// The column of a value the users table keeps beside the record.
    var tableColumn: String? {
        switch self {
        case .id: "users.id"
        case .uuid: "users.uuid"
        case .created: "users.created"
        case .lastUpdated: "users.last_updated"
        case .profileIdentifier, .record: nil
        }
    }
}

extension StoreEngine {
    /// The number at the dot path `path` of the record's JSON, NULL when it holds no number.
    func recordNumber(_ path: [String]) -> SQLQueryString {
        switch self {
        case .sqlite:
            let at = "$." + path.joined(separator: ".")
            return "(CASE WHEN json_type(users.record, \(bind: at)) IN ('integer', 'real') THEN json_extract(users.record, \(bind: at)) END)"
        case .postgres:
            let at = "{" + path.joined(separator: ",") + "}"
            return
                "(CASE WHEN jsonb_typeof(users.record::jsonb #> CAST(\(bind: at) AS text[])) = 'number' THEN (users.record::jsonb #>> CAST(\(bind: at) AS text[]))::numeric END)"
        }
    }

    /// The boolean at the dot path `path` of the record's JSON, NULL when it holds none.
    func recordBool(_ path: [String]) -> SQLQueryString {
        switch self {
        case .sqlite:
            let at = "$." + path.joined(separator: ".")
            return "(CASE WHEN json_type(users.record, \(bind: at)) IN ('true', 'false') THEN json_extract(users.record, \(bind: at)) END)"
        case .postgres:
            let at = "{" + path.joined(separator: ",") + "}"
            return
                "(CASE WHEN jsonb_typeof(users.record::jsonb #> CAST(\(bind: at) AS text[])) = 'boolean' THEN (users.record::jsonb #>> CAST(\(bind: at) AS text[]))::boolean END)"
        }
    }

    /// The filter as a condition on `users`.
    func condition(_ filter: EntityFilter) throws(EntityQueryError) -> SQLQueryString {
        switch filter {
        case .and(let left, let right):
            return "(" + (try condition(left)) + " AND " + (try condition(right)) + ")"
        case .or(let left, let right):
            return "(" + (try condition(left)) + " OR " + (try condition(right)) + ")"
        case .isNull(let path, let negated):
            let column = EntityColumn(path)
            switch column {
            case .profileIdentifier:
                return "\(unsafeRaw: negated ? "" : "NOT ")EXISTS (SELECT 1 FROM identities WHERE identities.user_id = users.id)"
            case .record(let path):
                return recordText("users.record", path: path.joined(separator: ".")) + " IS \(unsafeRaw: negated ? "NOT " : "")NULL"
            default:
                return "\(unsafeRaw: column.tableColumn!) IS \(unsafeRaw: negated ? "NOT " : "")NULL"
            }
        case .comparison(let path, let comparison, let value):
            let op = comparison.rawValue
            let name = path.joined(separator: ".")
            switch EntityColumn(path) {
            case .id:
                guard case .number(let number) = value, let id = Int64(number) else {
                    throw EntityQueryError(description: "id compares with a whole number")
                }
                return "users.id \(unsafeRaw: op) \(bind: id)"
            case .uuid, .created, .lastUpdated:
                let text: String
                switch value {
                case .text(let value), .date(let value): text = value
                default: throw EntityQueryError(description: "\(name) compares with a quoted text or a date")
                }
                return "\(unsafeRaw: EntityColumn(path).tableColumn!) \(unsafeRaw: op) \(bind: text)"
            case .profileIdentifier:
                guard case .text(let identifier) = value, comparison == .equal || comparison == .notEqual else {
                    throw EntityQueryError(description: "profiles.identifier compares with = or != and a quoted text")
                }
                let exists: SQLQueryString =
                    "EXISTS (SELECT 1 FROM identities WHERE identities.user_id = users.id AND identities.identifier = \(bind: identifier))"
                return comparison == .equal ? exists : "NOT " + exists
            case .record(let path):
                switch value {
                case .text(let text), .date(let text):
                    let compared = recordText("users.record", path: name) + " \(unsafeRaw: op) \(bind: text)"
                    // The email's index finds the candidates; the record's text decides.
                    if path == ["email"], comparison == .equal {
                        return "(users.email_normalized = \(bind: normalizeEmail(text)) AND " + compared + ")"
                    }
                    return compared
                case .number(let number):
                    if let whole = Int64(number) { return recordNumber(path) + " \(unsafeRaw: op) \(bind: whole)" }
                    guard let fraction = Double(number) else { throw EntityQueryError(description: "\(number) is not a number") }
                    return recordNumber(path) + " \(unsafeRaw: op) \(bind: fraction)"
                case .bool(let flag):
                    guard comparison == .equal || comparison == .notEqual else {
                        throw EntityQueryError(description: "\(name) compares with true or false by = or != only")
                    }
                    return recordBool(path) + " \(unsafeRaw: op) \(bind: flag)"
                }
            }
        }
    }

    /// What `sort` orders by.
    func order(_ sort: EntitySort) throws(EntityQueryError) -> SQLQueryString {
        let direction = sort.descending ? " DESC" : " ASC"
        switch EntityColumn(sort.path) {
        case .profileIdentifier:
            throw EntityQueryError(description: "profiles.identifier cannot be sorted on")
        case .record(let path):
            return recordText("users.record", path: path.joined(separator: ".")) + "\(unsafeRaw: direction)"
        case let column:
            return "\(unsafeRaw: column.tableColumn!)\(unsafeRaw: direction)"
        }
    }

    /// The `SELECT` of `query`: the user columns of `CaptureStore.userColumns`, ordered by the
    /// sort keys and then by id (so that pages never overlap nor skip a record).
    func select(_ query: EntityQuery) throws(EntityQueryError) -> SQLQueryString {
        var sql: SQLQueryString = "SELECT users.id, users.uuid, users.record, users.password_hash, users.email_normalized FROM users"
        if let filter = query.filter { sql += " WHERE " + (try condition(filter)) }
        var keys: [SQLQueryString] = []
        for sort in query.sort { keys.append(try order(sort)) }
        if query.sort.first?.path != ["id"] { keys.append("users.id ASC") }
        sql += " ORDER BY " + keys.joined(separator: ", ")
        sql += " LIMIT \(bind: query.limit) OFFSET \(bind: query.offset)"
        return sql
    }

    /// The `SELECT COUNT(*)` of the records `filter` matches.
    func count(_ filter: EntityFilter?) throws(EntityQueryError) -> SQLQueryString {
        var sql: SQLQueryString = "SELECT COUNT(*) AS total FROM users"
        if let filter { sql += " WHERE " + (try condition(filter)) }
        return sql
    }
}

extension CaptureStore {
    /// The records `query` selects, in its order.
    func findUsers(_ query: EntityQuery) async throws -> [StoredUser] {
        let sql = try database.engine.select(query)
        return try await read { db in try await db.raw(sql).all().map(Self.user) }
    }

    /// How many records `filter` matches.
    func countUsers(_ filter: EntityFilter?) async throws -> Int {
        let sql = try database.engine.count(filter)
        return try await read { db in try await db.raw(sql).first()?.int("total") ?? 0 }
    }

    /// The linked identities of several users, by user, in one query.
    func identities(of userIDs: [Int64]) async throws -> [Int64: [StoredIdentity]] {
        if userIDs.isEmpty { return [:] }
        return try await read { db in
            var found: [Int64: [StoredIdentity]] = [:]
            let rows = try await db.raw(
                "SELECT user_id, provider, identifier, verified_email FROM identities WHERE user_id IN (\(binds: userIDs)) ORDER BY id"
            ).all()
            for row in rows {
                let identity = StoredIdentity(
                    provider: try row.string("provider"), identifier: try row.string("identifier"),
                    verifiedEmail: try row.optionalString("verified_email"))
                found[try row.int64("user_id"), default: []].append(identity)
            }
            return found
        }
    }

    /// The user of a `uuid`.
    func user(uuid: String) async throws -> StoredUser? {
        try await read { db in
            try await db.raw("SELECT \(unsafeRaw: Self.userColumns) FROM users WHERE uuid = \(bind: uuid)").first().map(Self.user)
        }
    }

    /// Deletes a user and what is kept with it (identities, sessions, codes: by their foreign
    /// keys). False when there was none.
    func deleteUser(id: Int64) async throws -> Bool {
        try await write { db in
            let found = try await db.raw("SELECT 1 AS found FROM users WHERE id = \(bind: id)").first() != nil
            if found { try await db.raw("DELETE FROM users WHERE id = \(bind: id)").run() }
            return found
        }
    }

    /// SQLite's plan of `query` (`EXPLAIN QUERY PLAN`, its `detail` lines): how the store
    /// reads it (tests check that paging uses an index).
    func queryPlan(_ query: EntityQuery) async throws -> [String] {
        let sql = "EXPLAIN QUERY PLAN " + (try database.engine.select(query))
        return try await read { db in try await db.raw(sql).all().map { try $0.string("detail") } }
    }
}

import Logging
import PostgresKit
import SQLKit
import Synchronization

/// A read the store sends for every request of a busy route (a record read's session, a
/// refresh's token), which PostgreSQL keeps parsed and planned on each connection: a named
/// prepared statement, where SQLKit's statements are unnamed and PostgreSQL parses and plans
/// them at every execution (two thirds of its CPU for a record read).
///
/// Its SQL is `query`, the one text of the statement on both engines. On PostgreSQL it is
/// serialized by the dialect at every execution, as any statement is (for its binds); the
/// first execution's text is what every connection prepares, at its first use of the read
/// (again on a new connection after a reconnect), and an execution whose text or bind types
/// differ from it runs unnamed. On SQLite the read runs as any statement.
protocol PreparedRead: Sendable {
    /// The statement, with this read's values bound.
    var query: SQLQueryString { get }
}

extension SQLDatabase {
    /// The rows of `read`: on a PostgreSQL connection of the store's pool, through the
    /// connection's named prepared statement; otherwise as any statement.
    func all<Read: PreparedRead>(_ read: Read) async throws -> [any SQLRow] {
        if let counted = self as? CountedDatabase, let connection = counted.postgres {
            return try await counted.allPrepared(read, on: connection)
        }
        return try await raw(read.query).all()
    }
}

extension CountedDatabase {
    fileprivate func allPrepared<Read: PreparedRead>(_ read: Read, on connection: PostgresConnection) async throws -> [any SQLRow] {
        let (sql, binds) = serialize(read.query)
        guard let (bindings, types) = PreparedTexts.bindings(binds), PreparedTexts.shared.matches(Read.self, sql: sql, types: types) else {
            return try await raw(read.query).all()
        }
        tally?.add()
        do {
            var rows: [any SQLRow] = []
            for try await row in try await connection.execute(NamedStatement<Read>(bindings: bindings), logger: connection.logger) {
                rows.append(row.sql())
            }
            return rows
        } catch let error as PSQLError where error.code == .server {
            // PostgresNIO keeps a failed preparation for the connection's life (every later
            // execution of the name fails with its error), and a prepared statement whose
            // result changed type (another instance migrated) fails until prepared again: the
            // connection is closed (before it goes back to the pool, which then drops it), so
            // that the next lease gets a new one.
            _ = try? await connection.close()
            throw error
        }
    }
}

/// The text and bind types each prepared read is prepared with (its first execution's), by
/// its type.
final class PreparedTexts: Sendable {
    static let shared = PreparedTexts()

    struct Text: Sendable {
        var name: String
        var sql: String
        var types: [PostgresDataType]
    }

    private let texts = Mutex<[ObjectIdentifier: Text]>([:])

    /// Whether `sql` with binds of `types` is `read`'s prepared text (it becomes it at the
    /// first call).
    func matches<Read: PreparedRead>(_ read: Read.Type, sql: String, types: [PostgresDataType]) -> Bool {
        texts.withLock { texts in
            if let text = texts[ObjectIdentifier(read)] { return text.sql == sql && text.types == types }
            texts[ObjectIdentifier(read)] = Text(name: "jump_" + String(describing: read), sql: sql, types: types)
            return true
        }
    }

    /// `read`'s prepared text (`matches` has set it).
    func text<Read: PreparedRead>(of read: Read.Type) -> Text {
        texts.withLock { $0[ObjectIdentifier(read)] } ?? Text(name: "jump_" + String(describing: read), sql: "", types: [])
    }

    /// SQLKit's binds as PostgreSQL's, and their types; nil when one is NULL or of a type that
    /// encodes only through `Encodable` (such a read runs unnamed, as SQLKit sends it).
    static func bindings(_ binds: [any Encodable & Sendable]) -> (PostgresBindings, [PostgresDataType])? {
        var bindings = PostgresBindings(capacity: binds.count)
        var types: [PostgresDataType] = []
        types.reserveCapacity(binds.count)
        for bind in binds {
            // A NULL (an Optional's none) casts to none: it has no type of its own.
            guard let value = bind as? any PostgresThrowingDynamicTypeEncodable else { return nil }
            guard (try? bindings.append(value)) != nil else { return nil }
            types.append(value.psqlType)
        }
        return (bindings, types)
    }
}

/// A prepared read as PostgresNIO executes it: its name and text, and its rows as they come
/// (the store reads them as SQLKit's rows, by column name).
private struct NamedStatement<Read: PreparedRead>: PostgresPreparedStatement {
    typealias Row = PostgresRow

    static var name: String { PreparedTexts.shared.text(of: Read.self).name }
    static var sql: String { PreparedTexts.shared.text(of: Read.self).sql }
    static var bindingDataTypes: [PostgresDataType] { PreparedTexts.shared.text(of: Read.self).types }

    let bindings: PostgresBindings

    func makeBindings() -> PostgresBindings { bindings }

    func decodeRow(_ row: PostgresRow) -> PostgresRow { row }
}

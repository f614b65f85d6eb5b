import Logging
import PostgresKit
import SQLKit
import Synchronization

/// A statement the store sends for every request of a busy route (a record read's session, a
/// refresh's token and its rotation, a sign-in's new token), which PostgreSQL keeps parsed and
/// planned on each connection: a named prepared statement, where SQLKit's statements are
/// unnamed and PostgreSQL parses and plans them at every execution (two thirds of its CPU for a
/// record read).
///
/// Its SQL is `query`, the one text of the statement on both engines. On PostgreSQL it is
/// serialized by the dialect at every execution, as any statement is (for its binds); the
/// first execution's text is what every connection prepares, at its first use of the statement
/// (again on a new connection after a reconnect), and an execution whose text or bind types
/// differ from it runs unnamed. On SQLite the statement runs as any other.
protocol PreparedStatement: Sendable {
    /// The statement, with this execution's values bound.
    var query: SQLQueryString { get }
}

extension SQLDatabase {
    /// The rows of `statement` (a write's: those of its `RETURNING`): on a PostgreSQL
    /// connection of the store's pool, through the connection's named prepared statement;
    /// otherwise as any statement.
    func all<Statement: PreparedStatement>(_ statement: Statement) async throws -> [any SQLRow] {
        if let counted = self as? CountedDatabase, let connection = counted.postgres {
            return try await counted.allPrepared(statement, on: connection)
        }
        return try await raw(statement.query).all()
    }
}

extension CountedDatabase {
    fileprivate func allPrepared<Statement: PreparedStatement>(_ statement: Statement, on connection: PostgresConnection) async throws -> [any SQLRow]
    {
        let (sql, binds) = serialize(statement.query)
        guard let (bindings, types) = PreparedTexts.bindings(binds), PreparedTexts.shared.matches(Statement.self, sql: sql, types: types) else {
            return try await raw(statement.query).all()
        }
        tally?.add()
        do {
            var rows: [any SQLRow] = []
            for try await row in try await connection.execute(NamedStatement<Statement>(bindings: bindings), logger: connection.logger) {
                rows.append(row.sql())
            }
            return rows
        } catch let error as PSQLError where error.code == .server {
            // PostgresNIO keeps a failed preparation for the connection's life (every later
            // execution of the name fails with its error), and a prepared statement whose
            // result changed type (another instance migrated) fails until prepared again: the
            // connection is closed (before it goes back to the pool, which then drops it), so
            // that the next lease gets a new one. (A write refused at its execution, such as a
            // new token whose user was just deleted, costs its connection too: rare enough.)
            _ = try? await connection.close()
            throw error
        }
    }
}

/// The text and bind types each prepared statement is prepared with (its first execution's),
/// by its type.
final class PreparedTexts: Sendable {
    static let shared = PreparedTexts()

    struct Text: Sendable {
        var name: String
        var sql: String
        var types: [PostgresDataType]
    }

    private let texts = Mutex<[ObjectIdentifier: Text]>([:])

    /// Whether `sql` with binds of `types` is `statement`'s prepared text (it becomes it at the
    /// first call).
    func matches<Statement: PreparedStatement>(_ statement: Statement.Type, sql: String, types: [PostgresDataType]) -> Bool {
        texts.withLock { texts in
            if let text = texts[ObjectIdentifier(statement)] { return text.sql == sql && text.types == types }
            texts[ObjectIdentifier(statement)] = Text(name: "jump_" + String(describing: statement), sql: sql, types: types)
            return true
        }
    }

    /// `statement`'s prepared text (`matches` has set it).
    func text<Statement: PreparedStatement>(of statement: Statement.Type) -> Text {
        texts.withLock { $0[ObjectIdentifier(statement)] } ?? Text(name: "jump_" + String(describing: statement), sql: "", types: [])
    }

    /// SQLKit's binds as PostgreSQL's, and their types; nil when one is NULL or of a type that
    /// encodes only through `Encodable` (such a statement runs unnamed, as SQLKit sends it).
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

/// A prepared statement as PostgresNIO executes it: its name and text, and its rows as they
/// come (the store reads them as SQLKit's rows, by column name).
private struct NamedStatement<Statement: PreparedStatement>: PostgresPreparedStatement {
    typealias Row = PostgresRow

    static var name: String { PreparedTexts.shared.text(of: Statement.self).name }
    static var sql: String { PreparedTexts.shared.text(of: Statement.self).sql }
    static var bindingDataTypes: [PostgresDataType] { PreparedTexts.shared.text(of: Statement.self).types }

    let bindings: PostgresBindings

    func makeBindings() -> PostgresBindings { bindings }

    func decodeRow(_ row: PostgresRow) -> PostgresRow { row }
}

import JumpCapture
import Logging

/// The server's schema, for `jump-forms db migrate`: the migrations of this version, applied
/// to a database without starting a server.
public enum ServerSchema {
    /// The schema version this server makes (its last migration's number).
    public static var version: Int { CaptureStore.schemaVersion }

    /// Applies the migrations the database at `location` lacks, in one transaction under the
    /// migrations' lock (servers starting at the same time wait, and apply none again); returns
    /// the identifiers applied, in order (none: it was current). A SQLite file is made (mode
    /// 0600) when missing. Throws `DatabaseUnusable` (one line, no password): the database
    /// cannot be reached, or its schema is newer than this server's (naming both versions).
    public static func migrate(_ location: DatabaseLocation, logger: Logger) async throws -> [String] {
        let database: StoreDatabase
        do {
            if case .sqlite(let path) = location { try PrivateFile.create(path) }
            database = try StoreDatabase(location, logger: logger)
        } catch {
            throw CaptureStore.unusable(error, location)
        }
        do {
            let applied = try await CaptureStore.migrate(database)
            await database.shutdown()
            return applied
        } catch {
            await database.shutdown()
            throw CaptureStore.unusable(error, location)
        }
    }

    /// The tables the migrations make, in the order they make them.
    static var tables: [String] {
        CaptureStore.migrations.flatMap(\.statements).compactMap { statement -> String? in
            guard statement.hasPrefix("CREATE TABLE ") else { return nil }
            return statement.dropFirst("CREATE TABLE ".count).split(separator: " ").first.map(String.init)
        } + ["schema_migrations"]
    }

    /// Drops every table of the server's schema in the database at `location` (`jump-forms
    /// reset` on PostgreSQL: a SQLite file is deleted instead), the last made first, so that no
    /// table is dropped before one that refers to it. Returns the tables dropped.
    public static func erase(_ location: DatabaseLocation, logger: Logger) async throws -> [String] {
        let database: StoreDatabase
        do {
            database = try StoreDatabase(location, logger: logger)
        } catch {
            throw CaptureStore.unusable(error, location)
        }
        do {
            let dropped = try await database.transaction { db in
                for table in tables.reversed() { try await db.raw("DROP TABLE IF EXISTS \(ident: table)").run() }
                return Array(tables.reversed())
            }
            await database.shutdown()
            return dropped
        } catch {
            await database.shutdown()
            throw CaptureStore.unusable(error, location)
        }
    }
}

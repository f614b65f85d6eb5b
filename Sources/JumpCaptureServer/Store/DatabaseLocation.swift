#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where the server's data lives: a SQLite file (the embedded default, no server needed) or a
/// PostgreSQL database (any number of `serve` instances share it).
///
/// Written as `serve --database` takes it: `postgres://user[:password]@host[:port]/db[?sslmode=...]`
/// (also `postgresql://`), else a path or `sqlite:PATH`. What it says of itself
/// (`description`) never shows a password.
public enum DatabaseLocation: Sendable, Hashable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(PostgresLocation)

    /// Reads a `--database` value; `environment` gives `PGPASSWORD` when the URL has no password.
    public init(parsing text: String, environment: [String: String] = [:]) throws(DatabaseLocationError) {
        if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            self = .postgres(try PostgresLocation(parsing: text, environment: environment))
        } else if text.hasPrefix("sqlite:") {
            let path = String(text.dropFirst("sqlite:".count))
            guard !path.isEmpty else { throw DatabaseLocationError(message: "sqlite: needs a path (sqlite:data/capture.sqlite)") }
            self = .sqlite(path: path)
        } else if text.contains("://") {
            let scheme = text.prefix { $0 != ":" }
            throw DatabaseLocationError(
                message: "unknown database scheme '\(scheme)' (expected postgres://user@host:port/db, sqlite:PATH or a path)")
        } else {
            guard !text.isEmpty else { throw DatabaseLocationError(message: "the database is empty (expected a URL or a path)") }
            self = .sqlite(path: text)
        }
    }

    /// The location with its password masked.
    public var description: String {
        switch self {
        case .sqlite(let path): path
        case .postgres(let location): location.description
        }
    }
}

/// A `--database` value that cannot be used.
public struct DatabaseLocationError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// A PostgreSQL database: where it is, who connects, and how (TLS).
public struct PostgresLocation: Sendable, Hashable, CustomStringConvertible {
    /// `sslmode`: `disable` (plain), `require` (TLS, any certificate), `verify-full` (TLS, the
    /// certificate checked against the system's roots and the host name). `prefer` (the
    /// default of libpq) is read as `require`: a server that offers no TLS is refused rather
    /// than talked to in the clear; write `disable` for a server on a private network.
    public enum TLSMode: String, Sendable, Hashable, CaseIterable {
        case disable
        case require
        case verifyFull = "verify-full"
    }

    public var host: String
    public var port: Int
    public var user: String
    /// Never printed or logged.
    public var password: String?
    public var database: String
    public var tls: TLSMode

    public init(host: String, port: Int = 5432, user: String, password: String? = nil, database: String, tls: TLSMode = .disable) {
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.database = database
        self.tls = tls
    }

    /// `postgres://user[:password]@host[:port]/db[?sslmode=disable|require|verify-full]`.
    public init(parsing text: String, environment: [String: String] = [:]) throws(DatabaseLocationError) {
        let masked = Self.masked(text)
        func refuse(_ why: String) -> DatabaseLocationError {
            DatabaseLocationError(message: "\(masked): \(why) (expected postgres://user[:password]@host[:port]/database)")
        }
        guard let components = URLComponents(string: text) else { throw refuse("not a URL") }
        guard let user = components.user.flatMap({ $0.removingPercentEncoding ?? $0 }), !user.isEmpty else { throw refuse("no user") }
        guard let host = components.host, !host.isEmpty else { throw refuse("no host") }
        let name = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        guard !name.isEmpty, !name.contains("/") else { throw refuse("no database name") }
        var tls = TLSMode.require
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                switch item.value ?? "" {
                case "disable": tls = .disable
                case "require", "prefer", "allow", "verify-ca": tls = .require
                case "verify-full": tls = .verifyFull
                default: throw refuse("sslmode '\(item.value ?? "")' is not disable, require or verify-full")
                }
            default:
                throw refuse("unknown parameter '\(item.name)' (only sslmode is read)")
            }
        }
        let password = components.password.map { $0.removingPercentEncoding ?? $0 } ?? environment["PGPASSWORD"]
        self.init(
            host: host, port: components.port ?? 5432, user: user, password: password, database: name.removingPercentEncoding ?? name,
            tls: tls)
    }

    /// `host:port`, as the one line about an unreachable database names it.
    public var address: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// The URL with the password shown as `***`.
    public var description: String {
        "postgres://\(user)\(password == nil ? "" : ":***")@\(address)/\(database)?sslmode=\(tls.rawValue)"
    }

    /// `text` with a URL's password replaced by `***` (for messages about a URL that could not
    /// be read at all).
    public static func masked(_ text: String) -> String {
        guard let scheme = text.range(of: "://"), let at = text[scheme.upperBound...].lastIndex(of: "@") else { return text }
        let credentials = text[scheme.upperBound..<at]
        guard let colon = credentials.firstIndex(of: ":") else { return text }
        return String(text[..<colon]) + ":***" + String(text[at...])
    }
}

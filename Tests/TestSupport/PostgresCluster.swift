import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A private PostgreSQL cluster for the tests: made in a temporary folder (`initdb`), listening
/// on a free port of 127.0.0.1 (its socket in the folder), started once per test process when
/// a test first asks for a database, and stopped when the process exits (failed tests too).
/// Each test gets a database of its own (`makeDatabase()`).
///
/// The binaries come from `/usr/lib/postgresql/<version>/bin` or PATH (Debian's `postgresql`).
/// PostgreSQL refuses to run as root: as root the cluster runs as the `postgres` user
/// (`runuser`), which owns the folder.
public final class PostgresCluster: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The folder holding `initdb` and `pg_ctl`, nil without PostgreSQL.
    public static let binaries: String? = {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        for version in versions.sorted(by: { (Int($0) ?? 0) > (Int($1) ?? 0) }) {
            let folder = "/usr/lib/postgresql/\(version)/bin"
            if FileManager.default.isExecutableFile(atPath: folder + "/initdb") { return folder }
        }
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        where FileManager.default.isExecutableFile(atPath: folder + "/initdb") && FileManager.default.isExecutableFile(atPath: folder + "/pg_ctl") {
            return folder
        }
        return nil
    }()

    /// Whether the tests that need PostgreSQL can run: its binaries are here. Without them
    /// those tests are skipped, unless `JUMP_REQUIRE_POSTGRES=1` (CI), where they run and fail.
    public static var isAvailable: Bool {
        binaries != nil || ProcessInfo.processInfo.environment["JUMP_REQUIRE_POSTGRES"] == "1"
    }

    /// The engine the server tests run on: `JUMP_TEST_DATABASE` (`sqlite`, the default, or `postgres`).
    public static var testsUsePostgres: Bool {
        ProcessInfo.processInfo.environment["JUMP_TEST_DATABASE"] == "postgres"
    }

    public let folder: String
    public let port: Int
    private let bin: String
    private let asPostgres: Bool
    private let counter = NSLock()
    private nonisolated(unsafe) var made = 0

    private static let lock = NSLock()
    private nonisolated(unsafe) static var started: Result<PostgresCluster, Failure>?

    /// The process's cluster, started on first use.
    public static func shared() throws -> PostgresCluster {
        try lock.withLock {
            if let started { return try started.get() }
            let result = Result { () throws(Failure) -> PostgresCluster in try PostgresCluster() }
            started = result
            if case .success = result { atexit { PostgresCluster.stopShared() } }
            return try result.get()
        }
    }

    private static func stopShared() {
        if case .success(let cluster)? = started { cluster.stop() }
    }

    private init() throws(Failure) {
        guard let bin = Self.binaries else {
            throw Failure(description: "PostgreSQL is not installed (no initdb under /usr/lib/postgresql or on PATH): apt-get install postgresql")
        }
        self.bin = bin
        asPostgres = getuid() == 0
        folder = NSTemporaryDirectory() + "jump-postgres-" + UUID().uuidString
        guard mkdir(folder, 0o700) == 0 else { throw Failure(description: "cannot create \(folder)") }
        if asPostgres {
            guard let user = getpwnam("postgres") else {
                throw Failure(description: "running as root, and there is no postgres user to run PostgreSQL as")
            }
            chown(folder, user.pointee.pw_uid, user.pointee.pw_gid)
        }
        port = try Self.freePort()
        try run("initdb", ["-D", folder + "/data", "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"])
        try run(
            "pg_ctl",
            [
                "-D", folder + "/data", "-l", folder + "/log", "-w", "-t", "60", "-o",
                "-p \(port) -k \(folder) -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=1000 -c shared_buffers=16MB", "start"
            ])
    }

    /// A new, empty database: its URL (`postgres://postgres@127.0.0.1:<port>/<name>?sslmode=disable`).
    public func makeDatabase() throws -> String {
        let name = counter.withLock { () -> String in
            made += 1
            return "jump_test_\(made)"
        }
        try run("createdb", ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", name])
        return "postgres://postgres@127.0.0.1:\(port)/\(name)?sslmode=disable"
    }

    /// Stops the server at once and deletes the folder.
    public func stop() {
        _ = try? run("pg_ctl", ["-D", folder + "/data", "-m", "immediate", "-w", "stop"])
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Runs one of the binaries (as `postgres` when this process is root) and waits for it
    /// (`ChildProcess`, which reaps it with `waitpid`).
    @discardableResult
    private func run(_ tool: String, _ arguments: [String]) throws(Failure) -> String {
        let executable = asPostgres ? "/usr/sbin/runuser" : bin + "/" + tool
        let all = asPostgres ? ["-u", "postgres", "--", bin + "/" + tool] + arguments : arguments
        do {
            let child = try ChildProcess(executable, all, in: "/")
            let ended = try child.finishBlocking(timeout: 120)
            guard ended.code == 0 else {
                let log = (try? String(contentsOfFile: folder + "/log", encoding: .utf8)) ?? ""
                throw Failure(description: "\(tool) \(arguments.joined(separator: " ")) failed (\(ended)): \(child.stdout)\(child.stderr)\(log)")
            }
            return child.stdout
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(description: "cannot run \(tool): \(error)")
        }
    }

    /// A port nobody listens on now (the kernel's pick for a socket bound to port 0).
    private static func freePort() throws(Failure) -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0 else { throw Failure(description: "bind: \(String(cString: strerror(errno)))") }
        let named = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        guard named == 0 else { throw Failure(description: "getsockname: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

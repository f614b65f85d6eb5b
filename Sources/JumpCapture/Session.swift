import Crypto
import JumpFiles
import JumpForms
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A signed-in user: the access token, the refresh secret and the record.
public struct Session: Sendable, Hashable {
    /// The Capture server the session belongs to.
    public var captureDomain: String
    public var clientId: String
    public var accessToken: String
    public var refreshSecret: RefreshSecret
    /// When the access token expires (seconds since 1970), when known.
    public var expiresAt: Int?
    public var record: JSONValue

    public init(captureDomain: String, clientId: String, accessToken: String, refreshSecret: RefreshSecret,
                expiresAt: Int? = nil, record: JSONValue) {
        self.captureDomain = captureDomain
        self.clientId = clientId
        self.accessToken = accessToken
        self.refreshSecret = refreshSecret
        self.expiresAt = expiresAt
        self.record = record
    }

    var json: JSONValue {
        [
            "captureDomain": .string(captureDomain),
            "clientId": .string(clientId),
            "accessToken": .string(accessToken),
            "refreshSecret": .string(refreshSecret.value),
            "expiresAt": expiresAt.map(JSONValue.integer) ?? .null,
            "record": record,
        ]
    }

    init?(json: JSONValue) {
        guard let domain = json["captureDomain"]?.stringValue, let client = json["clientId"]?.stringValue,
              let token = json["accessToken"]?.stringValue,
              let secret = json["refreshSecret"]?.stringValue.flatMap(RefreshSecret.init) else { return nil }
        self.init(captureDomain: domain, clientId: client, accessToken: token, refreshSecret: secret,
                  expiresAt: json["expiresAt"]?.intValue, record: json["record"] ?? .null)
    }
}

/// Why the session store failed.
public enum SessionStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    case io(path: String, reason: String)
    case unreadable(path: String, reason: String)

    public var description: String {
        switch self {
        case let .io(path, reason): "session store \(path): \(reason)"
        case let .unreadable(path, reason): "session file \(path) cannot be read: \(reason); sign in again (jump-forms signout removes it)"
        }
    }
}

/// Keeps the session between runs.
public protocol SessionStore: Sendable {
    func load() throws(SessionStoreError) -> Session?
    func save(_ session: Session) throws(SessionStoreError)
    func clear() throws(SessionStoreError)
}

/// A session file under the XDG state directory, mode 0600, never in clear text: the JSON is
/// sealed with AES-GCM under a 256-bit key kept in a separate file (mode 0600) under the XDG
/// config directory, or given by `JUMP_FORMS_SESSION_KEY` (64 hex characters). This keeps
/// tokens out of backups, logs and `cat` of the state folder; it does not protect against
/// someone who can read the user's files (no desktop keychain is assumed).
public struct FileSessionStore: SessionStore {
    public let path: String
    public let keyPath: String
    let keyOverride: String?

    /// - Parameters:
    ///   - name: distinguishes sessions of different clients (e.g. the client id).
    public init(name: String, environment: [String: String]) {
        let home = environment["HOME"] ?? "/tmp"
        let state = environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.local/state"
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.config"
        let safe = String(name.unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }.prefix(64))
        self.path = "\(state)/jump-forms/session-\(safe.isEmpty ? "default" : safe).sealed"
        self.keyPath = "\(config)/jump-forms/session.key"
        self.keyOverride = environment["JUMP_FORMS_SESSION_KEY"]
    }

    public init(path: String, keyPath: String) {
        self.path = path
        self.keyPath = keyPath
        self.keyOverride = nil
    }

    public func load() throws(SessionStoreError) -> Session? {
        let sealed: [UInt8]
        do {
            guard let read = try PrivateFile.read(path) else { return nil }
            sealed = read
        } catch {
            throw .io(path: error.path, reason: error.reason)
        }
        guard let key = try key(create: false) else {
            throw .unreadable(path: path, reason: "its key \(keyPath) is missing")
        }
        do {
            let box = try AES.GCM.SealedBox(combined: sealed)
            let plain = try AES.GCM.open(box, using: key)
            guard let session = Session(json: try JSONValue.parse(Array(plain))) else {
                throw SessionStoreError.unreadable(path: path, reason: "it does not hold a session")
            }
            return session
        } catch let error as SessionStoreError {
            throw error
        } catch {
            throw .unreadable(path: path, reason: "it does not open with the session key")
        }
    }

    public func save(_ session: Session) throws(SessionStoreError) {
        guard let key = try key(create: true) else { throw .io(path: keyPath, reason: "no session key") }
        let plain = Array(session.json.serialized().utf8)
        do {
            let sealed = try AES.GCM.seal(plain, using: key)
            guard let combined = sealed.combined else { throw SessionStoreError.io(path: path, reason: "sealing failed") }
            try PrivateFile.write(Array(combined), to: path)
        } catch let error as SessionStoreError {
            throw error
        } catch let error as PrivateFileError {
            throw .io(path: error.path, reason: error.reason)
        } catch {
            throw .io(path: path, reason: "sealing failed: \(error)")
        }
    }

    public func clear() throws(SessionStoreError) {
        if unlink(path) != 0, errno != ENOENT { throw .io(path: path, reason: String(cString: strerror(errno))) }
    }

    func key(create: Bool) throws(SessionStoreError) -> SymmetricKey? {
        if let keyOverride {
            guard let bytes = Hex.decode(keyOverride), bytes.count == 32 else {
                throw .io(path: "JUMP_FORMS_SESSION_KEY", reason: "must be 64 hexadecimal characters")
            }
            return SymmetricKey(data: bytes)
        }
        do {
            return create ? try PrivateFile.key(at: keyPath) : try PrivateFile.existingKey(at: keyPath)
        } catch {
            throw .unreadable(path: error.path, reason: error.reason)
        }
    }
}

/// Lower-case hexadecimal text of bytes, and back.
public enum Hex {
    public static func encode(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    public static func decode(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        var index = 0
        while index < digits.count {
            guard let byte = UInt8(String(decoding: digits[index..<(index + 2)], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
            index += 2
        }
        return bytes
    }
}

/// A file-system failure, with the path.
public struct PrivateFileError: Error, Sendable, Hashable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "\(path): \(reason)" }
}

/// Files only the user may read: created with mode 0600 in folders with mode 0700, written
/// to a temporary name and renamed, so a crash never leaves half a file.
public enum PrivateFile {
    static func failure(_ path: String) -> PrivateFileError {
        PrivateFileError(path: path, reason: String(cString: strerror(errno)))
    }

    /// The file's bytes, or nil when it does not exist.
    public static func read(_ path: String) throws(PrivateFileError) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw failure(path)
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(path)
            }
            if count == 0 { break }
            bytes += chunk[0..<count]
            if bytes.count > 16 << 20 { throw PrivateFileError(path: path, reason: "file too large") }
        }
        return bytes
    }

    /// Writes the whole file atomically with mode 0600, synced to disk before it replaces the
    /// old one.
    public static func write(_ bytes: [UInt8], to path: String) throws(PrivateFileError) {
        try makeDirectories(for: path)
        do {
            try AtomicFile.write(bytes, to: path, mode: 0o600, ignoringUmask: true, sync: true)
        } catch {
            throw PrivateFileError(path: error.path, reason: error.reason)
        }
    }

    /// Creates an empty file with mode 0600 (and the folders above it, 0700) unless it exists.
    /// SQLite gives a database's `-wal` and `-shm` files the mode of the database file.
    public static func create(_ path: String) throws(PrivateFileError) {
        try makeDirectories(for: path)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor < 0 {
            if errno == EEXIST { return }
            throw failure(path)
        }
        close(descriptor)
    }

    /// Creates the folders above `path` (mode 0700).
    public static func makeDirectories(for path: String) throws(PrivateFileError) {
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/").dropLast() {
            current += "/" + part
            if mkdir(current, 0o700) != 0, errno != EEXIST { throw failure(current) }
        }
    }

    /// The 256-bit key kept in its own 0600 file, or nil when there is none yet.
    public static func existingKey(at path: String) throws(PrivateFileError) -> SymmetricKey? {
        guard let bytes = try read(path) else { return nil }
        guard bytes.count == 32 else { throw PrivateFileError(path: path, reason: "the key file is not 32 bytes") }
        return SymmetricKey(data: bytes)
    }

    /// The 256-bit key kept in its own 0600 file, made on first use.
    public static func key(at path: String) throws(PrivateFileError) -> SymmetricKey {
        if let key = try existingKey(at: path) { return key }
        let key = SymmetricKey(size: .bits256)
        try write(key.withUnsafeBytes { Array($0) }, to: path)
        return key
    }
}

private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

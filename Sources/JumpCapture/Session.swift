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
///
/// Its JSON form (`Codable`, and `jsonText` without Foundation) is what `FileSessionStore`
/// seals, one object:
///
/// ```json
/// {"captureDomain": "https://example.us.janraincapture.com", "clientId": "...",
///  "accessToken": "...", "refreshSecret": "<40 hex digits>", "expiresAt": 1749987000,
///  "record": {"email": "ana@example.com", ...}}
/// ```
///
/// `expiresAt` is whole seconds since 1970 (a `Date` in Swift) or null; `record` is the Capture record (never the
/// password). After an Engage device sign-in (`CaptureClient.engageDeviceSignIn`) it holds
/// `"deviceTokens": {"<provider>": "<device_token>"}` too (left out while there is none).
/// The text holds the access token, the refresh secret and the device tokens in clear: a
/// store keeps it where only the user can read it (sealed, as `FileSessionStore` does, or in
/// the Keychain, as `KeychainSessionStore` does). `description`, `debugDescription` and `dump` mask them.
public struct Session: Sendable, Hashable {
    /// What the session is bound to: the Capture server's URL (or `embedded:<database>` for
    /// the CLI's embedded server). A client ignores a stored session of another server.
    public var captureDomain: String
    /// The `captureClientId` of the sign-in.
    public var clientId: String
    /// The current access token (secret).
    public var accessToken: String
    /// The secret the refresh signature is made with (secret).
    public var refreshSecret: RefreshSecret
    /// When the access token expires, when known (the server's `expires_in` after the
    /// client's clock). Stored in whole seconds.
    public var expiresAt: Date?
    /// The user's record as last read (`capture_user` of the sign-in, or `/entity`).
    public var record: JSONValue
    /// Engage device tokens by provider (secrets): what sharing posts with
    /// (`EngageRequestBuilder.shareActivity`), as the SDKs keep one per provider
    /// (JRSessionData.m:150-160, JRAuthenticatedUser.java:83).
    public var deviceTokens: [String: String]

    public init(
        captureDomain: String, clientId: String, accessToken: String, refreshSecret: RefreshSecret,
        expiresAt: Date? = nil, record: JSONValue, deviceTokens: [String: String] = [:]
    ) {
        self.captureDomain = captureDomain
        self.clientId = clientId
        self.accessToken = accessToken
        self.refreshSecret = refreshSecret
        self.expiresAt = expiresAt
        self.record = record
        self.deviceTokens = deviceTokens
    }

    var json: JSONValue {
        var entries: [(key: String, value: JSONValue)] = [
            ("captureDomain", .string(captureDomain)),
            ("clientId", .string(clientId)),
            ("accessToken", .string(accessToken)),
            ("refreshSecret", .string(refreshSecret.value)),
            ("expiresAt", expiresAt.map { .integer(Self.epochSeconds($0)) } ?? .null),
            ("record", record)
        ]
        if !deviceTokens.isEmpty {
            entries.append(("deviceTokens", .object(deviceTokens.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })))
        }
        return .object(entries)
    }

    init?(json: JSONValue) {
        guard let domain = json["captureDomain"]?.stringValue, let client = json["clientId"]?.stringValue,
            let token = json["accessToken"]?.stringValue,
            let secret = json["refreshSecret"]?.stringValue.flatMap(RefreshSecret.init)
        else { return nil }
        var deviceTokens: [String: String] = [:]
        for (provider, value) in json["deviceTokens"]?.objectValue ?? [] {
            guard let text = value.stringValue else { return nil }
            deviceTokens[provider] = text
        }
        self.init(
            captureDomain: domain, clientId: client, accessToken: token, refreshSecret: secret,
            expiresAt: json["expiresAt"]?.intValue.map(Self.date(epochSeconds:)), record: json["record"] ?? .null, deviceTokens: deviceTokens)
    }

    /// Whole seconds since 1970, as the JSON form keeps `expiresAt`.
    static func epochSeconds(_ date: Date) -> Int { Int(date.timeIntervalSince1970.rounded(.down)) }

    static func date(epochSeconds: Int) -> Date { Date(timeIntervalSince1970: Double(epochSeconds)) }

    /// The session's JSON text (the object above, compact), as `FileSessionStore` seals it.
    /// It holds secrets: store it, never print or log it.
    public var jsonText: String { json.serialized() }

    /// A session from its JSON text (`jsonText`, or `JSONEncoder`'s form); nil when the text is
    /// not JSON or lacks a field (the record's key order is kept).
    public init?(jsonText: String) {
        guard let json = try? JSONValue.parse(jsonText) else { return nil }
        self.init(json: json)
    }
}

extension Session: Codable {
    enum CodingKeys: String, CodingKey {
        case captureDomain, clientId, accessToken, refreshSecret, expiresAt, record, deviceTokens
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let secretText = try container.decode(String.self, forKey: .refreshSecret)
        guard let secret = RefreshSecret(secretText) else {
            // The message never quotes the secret.
            throw DecodingError.dataCorruptedError(forKey: .refreshSecret, in: container, debugDescription: "not 40 hexadecimal digits")
        }
        self.init(
            captureDomain: try container.decode(String.self, forKey: .captureDomain),
            clientId: try container.decode(String.self, forKey: .clientId),
            accessToken: try container.decode(String.self, forKey: .accessToken),
            refreshSecret: secret,
            expiresAt: try container.decodeIfPresent(Int.self, forKey: .expiresAt).map(Self.date(epochSeconds:)),
            record: try container.decodeIfPresent(JSONValue.self, forKey: .record) ?? .null,
            deviceTokens: try container.decodeIfPresent([String: String].self, forKey: .deviceTokens) ?? [:])
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(captureDomain, forKey: .captureDomain)
        try container.encode(clientId, forKey: .clientId)
        try container.encode(accessToken, forKey: .accessToken)
        try container.encode(refreshSecret.value, forKey: .refreshSecret)
        try container.encode(expiresAt.map(Self.epochSeconds), forKey: .expiresAt)
        try container.encode(record, forKey: .record)
        if !deviceTokens.isEmpty { try container.encode(deviceTokens, forKey: .deviceTokens) }
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

/// Keeps the session between runs. The library ships three: `FileSessionStore` (a sealed
/// file, what `jump-forms` uses on Linux), `KeychainSessionStore` (Apple platforms: the
/// Keychain) and `MemorySessionStore` (for the process's life: tests, previews, a run that
/// must leave nothing behind). Another store keeps `Session`'s `Codable` form (or `jsonText`)
/// wherever only the user can read it.
///
/// Pass one to `CaptureClient(setup:transport:sessionStore:)`.
public protocol SessionStore: Sendable {
    /// The stored session, or nil when there is none.
    func load() throws(SessionStoreError) -> Session?
    /// Replaces the stored session.
    func save(_ session: Session) throws(SessionStoreError)
    /// Forgets the stored session (no error when there is none).
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
    /// No folder for the files: neither HOME, the password database nor XDG_*_HOME names one.
    let homeless: Bool

    /// - Parameters:
    ///   - name: distinguishes sessions of different clients (e.g. the client id).
    public init(name: String, environment: [String: String]) {
        // HOME comes from the password database when it is not set, never from a guess.
        let state = HomeFolder.xdg("XDG_STATE_HOME", default: ".local/state", environment)
        let config = HomeFolder.xdg("XDG_CONFIG_HOME", default: ".config", environment)
        let safe = String(name.unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }.prefix(64))
        self.path = state.map { "\($0)/jump-forms/session-\(safe.isEmpty ? "default" : safe).sealed" } ?? ""
        self.keyPath = config.map { "\($0)/jump-forms/session.key" } ?? ""
        self.keyOverride = environment["JUMP_FORMS_SESSION_KEY"]
        self.homeless = state == nil || (config == nil && keyOverride == nil)
    }

    /// The session file of the configuration's client (named by its `captureClientId`), as
    /// `jump-forms` keeps it.
    public init(config: ClientConfig, environment: [String: String]) {
        self.init(name: config.captureClientId.value, environment: environment)
    }

    public init(path: String, keyPath: String) {
        self.path = path
        self.keyPath = keyPath
        self.keyOverride = nil
        self.homeless = false
    }

    public func load() throws(SessionStoreError) -> Session? {
        try requireHome()
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
        try requireHome()
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
        try requireHome()
        if unlink(path) != 0, errno != ENOENT { throw .io(path: path, reason: String(cString: strerror(errno))) }
    }

    private func requireHome() throws(SessionStoreError) {
        if homeless { throw .io(path: "~", reason: HomeFolder.unknownReason) }
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
            throw .io(path: error.path, reason: error.reason)
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

/// Files only the user may read (the session, the session key, the local server's key):
/// written with mode 0600 in folders made with mode 0700, through `AtomicFile` (a temporary
/// file made as `mkstemp` does, flushed and renamed), and refused, on reading and writing,
/// when others could read or replace them (`PrivateAccess`: the folder must be writable by no
/// one else, the file private to its owner), as ssh refuses such keys.
public enum PrivateFile {
    static func failure(_ path: String) -> PrivateFileError {
        PrivateFileError(path: path, reason: String(cString: strerror(errno)))
    }

    static func converted(_ failure: FileFailure) -> PrivateFileError {
        PrivateFileError(path: failure.path, reason: failure.reason)
    }

    /// The file's bytes, or nil when it does not exist.
    public static func read(_ path: String) throws(PrivateFileError) -> [UInt8]? {
        do {
            return try PrivateAccess.read(path)
        } catch {
            throw converted(error)
        }
    }

    /// Writes the whole file atomically with mode 0600, synced to disk before it replaces the
    /// old one (the folders above it are made with mode 0700). Certificates and keys of the
    /// server are written with it too.
    public static func write(_ bytes: [UInt8], to path: String) throws(PrivateFileError) {
        do {
            try AtomicFile.writePrivate(bytes, to: path)
        } catch {
            throw converted(error)
        }
    }

    /// Creates an empty file with mode 0600 (and the folders above it, 0700) unless it exists;
    /// the folder is checked as for every private file (no one else may write in it).
    /// SQLite gives a database's `-wal` and `-shm` files the mode of the database file.
    public static func create(_ path: String) throws(PrivateFileError) {
        try makeDirectories(for: path)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if descriptor < 0 {
            if errno == EEXIST { return }
            throw failure(path)
        }
        close(descriptor)
        AtomicFile.syncFolder(PathText.folder(of: path))
    }

    /// Creates the folders above `path` that are missing (mode 0700) and checks the one that
    /// holds it.
    public static func makeDirectories(for path: String) throws(PrivateFileError) {
        do {
            try PrivateAccess.makeFolder(PathText.folder(of: path))
        } catch {
            throw converted(error)
        }
    }

    /// The 256-bit key kept in its own 0600 file, or nil when there is none yet.
    public static func existingKey(at path: String) throws(PrivateFileError) -> SymmetricKey? {
        guard let bytes = try read(path) else { return nil }
        guard bytes.count == 32 else { throw PrivateFileError(path: path, reason: "the key file is not 32 bytes") }
        return SymmetricKey(data: bytes)
    }

    /// The 256-bit key kept in its own 0600 file, made on first use. Made beside it, then
    /// linked into place: of processes making it at once (server instances starting together),
    /// the first one's stays and the others read it, so that all of them use one key.
    public static func key(at path: String) throws(PrivateFileError) -> SymmetricKey {
        if let key = try existingKey(at: path) { return key }
        let key = SymmetricKey(size: .bits256)
        let made = path + ".\(getpid())-\(UInt32.random(in: 0...UInt32.max)).new"
        try write(key.withUnsafeBytes { Array($0) }, to: made)
        defer { unlink(made) }
        guard link(made, path) == 0 else {
            guard errno == EEXIST else { throw failure(path) }
            guard let existing = try existingKey(at: path) else { throw PrivateFileError(path: path, reason: "the key file vanished") }
            return existing
        }
        return key
    }
}

extension Session {
    /// A session without a Capture sign-in, holding Engage device tokens only (an empty access
    /// token): sharing needs Engage's device sign-in alone, as JREngage's publishing does
    /// (its device tokens are kept apart from any Capture session, JRSessionData.m:150-160).
    /// `CaptureClient.session()` does not count it as signed in.
    public static func engageOnly(captureDomain: String, clientId: String, deviceTokens: [String: String]) -> Session {
        Session(
            captureDomain: captureDomain, clientId: clientId, accessToken: "", refreshSecret: .generate(), record: .null,
            deviceTokens: deviceTokens)
    }

    /// Whether it holds a Capture sign-in (an access token), not only Engage device tokens.
    public var hasCaptureSignIn: Bool { !accessToken.isEmpty }
}

import JumpCapture
import JumpFiles
import NIOSSL
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the server serves HTTPS with: a certificate chain and its private key, read from PEM
/// files (`serve --tls-cert/--tls-key`, or the files `LocalCertificateAuthority` makes).
///
/// TLS 1.2 and 1.3 only. For TLS 1.2 the suites are ECDHE with AES-GCM or ChaCha20-Poly1305,
/// among them the two of Android's OkHttp configuration that BoringSSL has
/// (ECDHE-ECDSA-AES128-GCM-SHA256 with an ECDSA certificate such as the local CA's,
/// ECDHE-RSA-AES128-GCM-SHA256 with an RSA one); its third, DHE-RSA-AES128-GCM-SHA256, is not
/// in BoringSSL. TLS 1.3's suites are BoringSSL's fixed set. ALPN offers `http/1.1`.
public struct ServerTLS: Sendable {
    public let certificatePath: String
    public let keyPath: String
    let chain: [NIOSSLCertificate]
    let key: NIOSSLPrivateKey

    /// The TLS 1.2 suites served.
    public static let cipherSuites: [NIOTLSCipher] = [
        .TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
        .TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384, .TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
        .TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256, .TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256
    ]

    /// Reads a certificate (chain) and its key from PEM files. A key file that its group or
    /// other users may read is refused, as is a key that does not belong to the (first)
    /// certificate.
    public static func load(certificatePath: String, keyPath: String) throws(ServerTLSError) -> ServerTLS {
        try PrivateKeyFile.checkMode(keyPath)
        let certificateBytes = try ServerTLSError.reading(certificatePath, isKey: false)
        let keyBytes = try ServerTLSError.reading(keyPath, isKey: true)
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMBytes(certificateBytes)
        } catch {
            throw .notPEM(path: certificatePath, what: "a certificate", reason: "\(error)")
        }
        guard !chain.isEmpty else { throw .notPEM(path: certificatePath, what: "a certificate", reason: "no CERTIFICATE block") }
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(bytes: keyBytes, format: .pem)
        } catch {
            throw .notPEM(path: keyPath, what: "a private key", reason: "\(error)")
        }
        let tls = ServerTLS(certificatePath: certificatePath, keyPath: keyPath, chain: chain, key: key)
        // BoringSSL checks that the key belongs to the certificate when the context is made.
        do {
            _ = try NIOSSLContext(configuration: tls.configuration)
        } catch {
            throw .unusable(certificatePath: certificatePath, keyPath: keyPath, reason: "\(error)")
        }
        return tls
    }

    /// The server's TLS configuration.
    public var configuration: TLSConfiguration {
        var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        configuration.minimumTLSVersion = .tlsv12
        configuration.maximumTLSVersion = .tlsv13
        configuration.cipherSuiteValues = Self.cipherSuites
        configuration.applicationProtocols = ["http/1.1"]
        return configuration
    }
}

/// Why the server cannot serve HTTPS, naming the file.
public enum ServerTLSError: Error, Sendable, Hashable, CustomStringConvertible {
    case cannotRead(path: String, reason: String)
    case cannotWrite(path: String, reason: String)
    /// A private key file its group or other users may read (`mode`, octal).
    case keyReadableByOthers(path: String, mode: String)
    case notPEM(path: String, what: String, reason: String)
    /// The certificate and the key do not go together (or BoringSSL refuses them).
    case unusable(certificatePath: String, keyPath: String, reason: String)
    /// One of the local CA's two files is there and the other is not.
    case authorityIncomplete(present: String, missing: String)
    /// The local CA's certificate is no longer valid.
    case authorityExpired(path: String)
    /// The local CA's Name Constraints do not permit a `--tls-host` name (it was made without it).
    case hostNotPermitted(host: String, path: String, permitted: [String])
    case cannotIssue(reason: String)

    public var description: String {
        switch self {
        case let .cannotRead(path, reason): "cannot read \(path): \(reason)"
        case let .cannotWrite(path, reason): "cannot write \(path): \(reason)"
        case let .keyReadableByOthers(path, mode):
            "\(path): the private key file may be read by other users (mode \(mode)); make it private: chmod 600 \(path)"
        case let .notPEM(path, what, reason): "\(path): not \(what) in PEM form (\(reason))"
        case let .hostNotPermitted(host, path, permitted):
            "the local CA \(path) may sign \(permitted.joined(separator: ", ")) only, not \(host): delete its folder to make a new CA "
                + "with --tls-host \(host) (which devices must trust again)"
        case let .unusable(certificate, key, reason): "\(certificate) and \(key) cannot serve TLS: \(reason)"
        case let .authorityIncomplete(present, missing):
            """
            the local CA is incomplete: \(present) exists but \(missing) does not; restore it, or delete the folder to make a new CA (which apps \
            must trust again)
            """
        case let .authorityExpired(path):
            "the local CA \(path) has expired: delete its folder to make a new CA (which apps must trust again)"
        case let .cannotIssue(reason): "cannot make a certificate: \(reason)"
        }
    }

    /// The bytes of a PEM file: a key as a private file (no link, no folder others may write),
    /// a certificate as any file.
    static func reading(_ path: String, isKey: Bool) throws(ServerTLSError) -> [UInt8] {
        let bytes: [UInt8]?
        do {
            bytes = isKey ? try PrivateAccess.read(path) : try PrivateAccess.readPublic(path)
        } catch {
            throw .cannotRead(path: path, reason: error.reason)
        }
        guard let bytes else { throw .cannotRead(path: path, reason: "no such file") }
        return bytes
    }
}

/// Private key files: 0600, refused when others may read them.
enum PrivateKeyFile {
    /// Refuses a key file its group or others may read or write (as ssh does).
    static func checkMode(_ path: String) throws(ServerTLSError) {
        var info = stat()
        guard stat(path, &info) == 0 else { throw .cannotRead(path: path, reason: String(cString: strerror(errno))) }
        let permissions = info.st_mode & 0o777
        if permissions & 0o077 != 0 { throw .keyReadableByOthers(path: path, mode: "0" + String(permissions, radix: 8)) }
    }

    static func write(_ text: String, to path: String) throws(ServerTLSError) {
        do {
            try PrivateFile.write(Array(text.utf8), to: path)
        } catch {
            throw .cannotWrite(path: error.path, reason: error.reason)
        }
    }
}

import Crypto
import SwiftASN1
import X509
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The local certificate authority of `serve --tls`: made once in a folder (the data folder's
/// `tls/`), with mode 0700 and 0600 files:
///
/// - `ca.pem`, `ca-key.pem`: the CA (P256, valid 10 years), which a device or simulator
///   trusts once; it can sign no DNS name but `localhost` (`nameConstraints`);
/// - `localhost.pem`, `localhost-key.pem`: the server's certificate for `localhost`,
///   `127.0.0.1` and `::1` (P256, valid 397 days: Apple refuses server certificates valid
///   longer than 825 days, and public ones longer than 398), signed by the CA.
///
/// The CA is kept as long as its files are there; the server certificate is made again when
/// it is missing, was not signed by this CA, lacks one of the names, or expires within 30
/// days. Keys come from swift-crypto, certificates from swift-certificates.
public struct LocalCertificateAuthority: Sendable {
    public let folder: String
    /// DNS names besides `localhost` (`serve --tls-host`): in the server certificate, and in the
    /// CA's Name Constraints when it is made.
    public let hosts: [String]

    public init(folder: String, hosts: [String] = []) {
        self.folder = folder
        self.hosts = hosts
    }

    public var certificatePath: String { folder + "/ca.pem" }
    public var keyPath: String { folder + "/ca-key.pem" }
    public var serverCertificatePath: String { folder + "/localhost.pem" }
    public var serverKeyPath: String { folder + "/localhost-key.pem" }

    static let authorityLifetime: TimeInterval = 10 * 365 * 86_400
    static let serverLifetime: TimeInterval = 397 * 86_400
    /// A server certificate that expires sooner than this is made again.
    static let renewal: TimeInterval = 30 * 86_400
    /// Certificates are valid from an hour before they are made (a device's clock may lag).
    static let backdating: TimeInterval = 3600

    /// The names of the server certificate: `defaultServerNames` and the `hosts`.
    var serverNames: [GeneralName] { Self.defaultServerNames + hosts.map { .dnsName($0) } }

    /// The names of every server certificate: DNS `localhost`, IP `127.0.0.1` and `::1`.
    static let defaultServerNames: [GeneralName] = [
        .dnsName("localhost"),
        .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])),
        .ipAddress(ASN1OctetString(contentBytes: ArraySlice([UInt8](repeating: 0, count: 15) + [1])))
    ]

    /// What the CA may sign (its Name Constraints, critical): the DNS name `localhost` (and
    /// names under it), and the `hosts` it is made with, and no other. A device that trusts the CA then trusts it for no site:
    /// a copy of `ca-key.pem` cannot mint a certificate that `bank.example` would pass with.
    /// IP addresses are left unconstrained: BoringSSL (swift-nio-ssl, and every client built
    /// on it) refuses any certificate whose CA constrains IP addresses
    /// (`X509_V_ERR_UNSUPPORTED_CONSTRAINT_TYPE`), the server's `127.0.0.1` and `::1` included.
    /// The constraints cannot be added to a CA made before them: delete its folder to make a
    /// new one (which devices trust again).
    var nameConstraints: NameConstraints { NameConstraints(permittedDNSDomains: ["localhost"] + hosts) }

    /// What `prepare` did.
    public struct Prepared: Sendable {
        public var tls: ServerTLS
        /// The CA was made now (else it was read from its files).
        public var madeAuthority: Bool
        /// The server certificate was made now.
        public var madeServerCertificate: Bool
    }

    /// Reads the CA (making it the first time), makes the server certificate when it must,
    /// and returns what the server serves.
    public func prepare(now: Date = Date()) throws(ServerTLSError) -> Prepared {
        let (authority, authorityKey, madeAuthority) = try loadOrMakeAuthority(now: now)
        var madeServer = false
        if try !serverCertificateIsCurrent(authority: authority, now: now) {
            try makeServerCertificate(authority: authority, authorityKey: authorityKey, now: now)
            madeServer = true
        }
        let tls = try ServerTLS.load(certificatePath: serverCertificatePath, keyPath: serverKeyPath)
        return Prepared(tls: tls, madeAuthority: madeAuthority, madeServerCertificate: madeServer)
    }

    private func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    private func loadOrMakeAuthority(now: Date) throws(ServerTLSError) -> (Certificate, Certificate.PrivateKey, Bool) {
        switch (exists(certificatePath), exists(keyPath)) {
        case (false, false):
            return try makeAuthority(now: now)
        case (true, false):
            throw .authorityIncomplete(present: certificatePath, missing: keyPath)
        case (false, true):
            throw .authorityIncomplete(present: keyPath, missing: certificatePath)
        case (true, true):
            try PrivateKeyFile.checkMode(keyPath)
            let certificate = try Self.certificate(at: certificatePath)
            let key = try Self.privateKey(at: keyPath)
            guard key.publicKey == certificate.publicKey else {
                throw .unusable(certificatePath: certificatePath, keyPath: keyPath, reason: "the key does not belong to the certificate")
            }
            guard certificate.notValidAfter > now else { throw .authorityExpired(path: certificatePath) }
            // A CA from before the constraints has none, and signs any host.
            if let constraints = try? certificate.extensions.nameConstraints {
                let permitted = Array(constraints.permittedDNSDomains)
                for host in hosts where !permitted.contains(where: { host == $0 || host.hasSuffix("." + $0) }) {
                    throw .hostNotPermitted(host: host, path: certificatePath, permitted: permitted)
                }
            }
            return (certificate, key, false)
        }
    }

    private func makeAuthority(now: Date) throws(ServerTLSError) -> (Certificate, Certificate.PrivateKey, Bool) {
        let signingKey = P256.Signing.PrivateKey()
        let key = Certificate.PrivateKey(signingKey)
        do {
            let name = try DistinguishedName {
                OrganizationName("jump-forms")
                CommonName("jump-forms local development CA")
            }
            let certificate = try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: key.publicKey,
                notValidBefore: now - Self.backdating, notValidAfter: now + Self.authorityLifetime,
                issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                    Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                    Critical(nameConstraints)
                    SubjectKeyIdentifier(hash: key.publicKey)
                },
                issuerPrivateKey: key)
            // The key first: a certificate without its key would read as an incomplete CA.
            try PrivateKeyFile.write(signingKey.pemRepresentation, to: keyPath)
            try PrivateKeyFile.write(certificate.serializeAsPEM().pemString + "\n", to: certificatePath)
            return (certificate, key, true)
        } catch let error as ServerTLSError {
            throw error
        } catch {
            throw .cannotIssue(reason: "\(error)")
        }
    }

    /// Whether the server certificate is there, signed by `authority`, names every server name,
    /// is valid for 30 days more, and goes with its key.
    private func serverCertificateIsCurrent(authority: Certificate, now: Date) throws(ServerTLSError) -> Bool {
        guard exists(serverCertificatePath), exists(serverKeyPath) else { return false }
        try PrivateKeyFile.checkMode(serverKeyPath)
        guard let certificate = try? Self.certificate(at: serverCertificatePath),
            let key = try? Self.privateKey(at: serverKeyPath)
        else { return false }
        guard certificate.issuer == authority.subject, authority.publicKey.isValidSignature(certificate.signature, for: certificate),
            key.publicKey == certificate.publicKey, certificate.notValidBefore <= now,
            certificate.notValidAfter > now + Self.renewal
        else { return false }
        let alternativeNames = try? certificate.extensions.subjectAlternativeNames
        let names = alternativeNames.map { Array($0) } ?? []
        return serverNames.allSatisfy(names.contains)
    }

    private func makeServerCertificate(authority: Certificate, authorityKey: Certificate.PrivateKey, now: Date) throws(ServerTLSError) {
        let signingKey = P256.Signing.PrivateKey()
        let key = Certificate.PrivateKey(signingKey)
        do {
            let authorityKeyID = try authority.extensions.subjectKeyIdentifier?.keyIdentifier
            let certificate = try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: key.publicKey,
                notValidBefore: now - Self.backdating, notValidAfter: min(now + Self.serverLifetime, authority.notValidAfter),
                issuer: authority.subject,
                subject: try DistinguishedName {
                    OrganizationName("jump-forms")
                    CommonName("localhost")
                },
                signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.notCertificateAuthority)
                    Critical(KeyUsage(digitalSignature: true))
                    try ExtendedKeyUsage([.serverAuth])
                    SubjectAlternativeNames(serverNames)
                    SubjectKeyIdentifier(hash: key.publicKey)
                    if let authorityKeyID { AuthorityKeyIdentifier(keyIdentifier: authorityKeyID) }
                },
                issuerPrivateKey: authorityKey)
            try PrivateKeyFile.write(signingKey.pemRepresentation, to: serverKeyPath)
            try PrivateKeyFile.write(certificate.serializeAsPEM().pemString + "\n", to: serverCertificatePath)
        } catch let error as ServerTLSError {
            throw error
        } catch {
            throw .cannotIssue(reason: "\(error)")
        }
    }

    static func certificate(at path: String) throws(ServerTLSError) -> Certificate {
        let bytes = try ServerTLSError.reading(path, isKey: false)
        do {
            return try Certificate(pemEncoded: String(decoding: bytes, as: UTF8.self))
        } catch {
            throw .notPEM(path: path, what: "a certificate", reason: "\(error)")
        }
    }

    static func privateKey(at path: String) throws(ServerTLSError) -> Certificate.PrivateKey {
        let bytes = try ServerTLSError.reading(path, isKey: true)
        do {
            return try Certificate.PrivateKey(pemEncoded: String(decoding: bytes, as: UTF8.self))
        } catch {
            throw .notPEM(path: path, what: "a private key", reason: "\(error)")
        }
    }
}

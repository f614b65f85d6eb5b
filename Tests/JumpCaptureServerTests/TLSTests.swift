import _CryptoExtras
import AsyncHTTPClient
import Crypto
import Foundation
import JumpCapture
import JumpCaptureServer
import JumpServerTLS
import JumpForms
import NIOCore
import NIOSSL
import SwiftASN1
import Testing
import TestSupport
import X509
#if canImport(Glibc)
    import Glibc
#endif

/// `serve --tls`: the local CA, the server certificate, the key files' modes, and HTTPS as the
/// SDKs speak it (Android's OkHttp: TLS 1.2 with ECDHE-ECDSA/RSA-AES128-GCM-SHA256;
/// engage/net/AsyncHttpClient.java:110-116), through clients that trust the CA alone.
@Suite(.timeLimit(.minutes(5))) struct TLSTests {
    static let now = Date(timeIntervalSince1970: TimeInterval(ServerFixtures.start))

    /// OkHttp's suites that BoringSSL has (its third, DHE-RSA-AES128-GCM-SHA256, is not there).
    static let okHttpSuites: [NIOTLSCipher] = [.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256]

    static func mode(_ path: String) -> mode_t {
        var info = stat()
        _ = stat(path, &info)
        return info.st_mode & 0o777
    }

    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    /// A client trusting `roots` only (nil: the system's roots), limited to the given TLS
    /// versions and (TLS 1.2) suites.
    static func client(
        trusting roots: [NIOSSLCertificate]?, minimum: TLSVersion = .tlsv12, maximum: TLSVersion = .tlsv13,
        suites: [NIOTLSCipher]? = nil
    ) -> HTTPClient {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let roots { tls.trustRoots = .certificates(roots) }
        tls.minimumTLSVersion = minimum
        tls.maximumTLSVersion = maximum
        if let suites { tls.cipherSuiteValues = suites }
        return HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: .init(tlsConfiguration: tls, timeout: .init(connect: .seconds(5), read: .seconds(10))))
    }

    /// `GET url` with a client made for it, which is shut down after.
    static func get(_ url: String, _ client: HTTPClient) async throws -> (status: Int, body: String) {
        do {
            let answer = try await client.get(url)
            try await client.shutdown()
            return answer
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    // MARK: the local CA

    @Test func theCAIsMadeOnceWithPrivateKeysAndReused() throws {
        let folder = try TemporaryFolder("jump-tls-test")
        defer { folder.remove() }
        let authority = LocalCertificateAuthority(folder: folder.path + "/share/jump-forms/tls")
        let first = try authority.prepare(now: Self.now)
        #expect(first.madeAuthority && first.madeServerCertificate)
        #expect(Self.mode(authority.folder) == 0o700)
        #expect(Self.mode(authority.keyPath) == 0o600)
        #expect(Self.mode(authority.serverKeyPath) == 0o600)
        let ca = try Self.bytes(authority.certificatePath)
        let server = try Self.bytes(authority.serverCertificatePath)
        // The next start reads both.
        let second = try authority.prepare(now: Self.now + 86_400)
        #expect(!second.madeAuthority && !second.madeServerCertificate)
        #expect(try Self.bytes(authority.certificatePath) == ca)
        #expect(try Self.bytes(authority.serverCertificatePath) == server)
        // A server certificate that expires within 30 days is made again, by the same CA.
        let later = try authority.prepare(now: Self.now + 380 * 86_400)
        #expect(!later.madeAuthority && later.madeServerCertificate)
        #expect(try Self.bytes(authority.certificatePath) == ca)
        #expect(try Self.bytes(authority.serverCertificatePath) != server)
    }

    /// What devices require of the two certificates: the CA is a CA (Android's trust anchors,
    /// iOS's root store), the server certificate names localhost, 127.0.0.1 and ::1 in its
    /// subject alternative names, is for server authentication, and lasts at most 398 days.
    @Test func theCertificatesAreWhatDevicesAccept() throws {
        let folder = try TemporaryFolder("jump-tls-test")
        defer { folder.remove() }
        let authority = LocalCertificateAuthority(folder: folder.path + "/tls")
        _ = try authority.prepare(now: Self.now)
        let ca = try Certificate(pemEncoded: String(decoding: try Self.bytes(authority.certificatePath), as: UTF8.self))
        let server = try Certificate(pemEncoded: String(decoding: try Self.bytes(authority.serverCertificatePath), as: UTF8.self))
        #expect(try ca.extensions.basicConstraints == .isCertificateAuthority(maxPathLength: 0))
        #expect(try ca.extensions.keyUsage?.keyCertSign == true)
        #expect(ca.issuer == ca.subject)
        #expect(server.issuer == ca.subject)
        #expect(ca.publicKey.isValidSignature(server.signature, for: server))
        #expect(try server.extensions.basicConstraints == .notCertificateAuthority)
        #expect(try server.extensions.extendedKeyUsage?.contains(.serverAuth) == true)
        let names = Array(try #require(try server.extensions.subjectAlternativeNames))
        #expect(names.contains(.dnsName("localhost")))
        #expect(names.contains(.ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1]))))
        #expect(names.contains(.ipAddress(ASN1OctetString(contentBytes: ArraySlice([UInt8](repeating: 0, count: 15) + [1])))))
        #expect(server.notValidAfter.timeIntervalSince(server.notValidBefore) <= 398 * 86_400)
        #expect(server.notValidBefore <= Self.now)
    }

    /// The CA signs no DNS name but `localhost` (critical Name Constraints): a certificate its
    /// key signs for another name fails RFC 5280 path validation, the server's passes. IP
    /// addresses stay unconstrained (BoringSSL refuses IP constraints, see
    /// `LocalCertificateAuthority.nameConstraints`): the TLS tests below connect through it.
    @Test func theCACanOnlySignLoopbackNames() async throws {
        let folder = try TemporaryFolder("jump-tls-test")
        defer { folder.remove() }
        let authority = LocalCertificateAuthority(folder: folder.path + "/tls")
        // Now: the verifier checks validity against the current time.
        let now = Date()
        _ = try authority.prepare(now: now)
        let ca = try Certificate(pemEncoded: String(decoding: try Self.bytes(authority.certificatePath), as: UTF8.self))
        let caKey = try Certificate.PrivateKey(pemEncoded: String(decoding: try Self.bytes(authority.keyPath), as: UTF8.self))
        let server = try Certificate(pemEncoded: String(decoding: try Self.bytes(authority.serverCertificatePath), as: UTF8.self))
        let constraints = try #require(try ca.extensions.nameConstraints)
        #expect(ca.extensions[oid: .X509ExtensionID.nameConstraints]?.critical == true)
        #expect(constraints.permittedSubtrees == [.dnsName("localhost")])
        #expect(constraints.excludedSubtrees.isEmpty)

        func validates(_ leaf: Certificate) async -> Bool {
            var verifier = Verifier(rootCertificates: CertificateStore([ca])) { RFC5280Policy() }
            if case .validCertificate = await verifier.validate(leaf: leaf, intermediates: CertificateStore()) { return true }
            return false
        }
        #expect(await validates(server))
        // What a leaked ca-key.pem could sign.
        for names in [
            [GeneralName.dnsName("bank.example")], [.dnsName("localhost"), .dnsName("accounts.example.com")], [.dnsName("localhost.example")]
        ] {
            let key = P256.Signing.PrivateKey()
            let forged = try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
                notValidBefore: now - 60, notValidAfter: now + 86_400, issuer: ca.subject,
                subject: try DistinguishedName { CommonName("forged") }, signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.notCertificateAuthority)
                    try ExtendedKeyUsage([.serverAuth])
                    SubjectAlternativeNames(names)
                },
                issuerPrivateKey: caKey)
            #expect(ca.publicKey.isValidSignature(forged.signature, for: forged))
            #expect(await !validates(forged), "\(names)")
        }
    }

    @Test func keyFilesOthersCanReadAreRefused() throws {
        let folder = try TemporaryFolder("jump-tls-test")
        defer { folder.remove() }
        let authority = LocalCertificateAuthority(folder: folder.path + "/tls")
        _ = try authority.prepare(now: Self.now)
        for mode: mode_t in [0o644, 0o640, 0o604] {
            chmod(authority.keyPath, mode)
            #expect(throws: ServerTLSError.keyReadableByOthers(path: authority.keyPath, mode: "0" + String(mode, radix: 8))) {
                try authority.prepare(now: Self.now)
            }
        }
        chmod(authority.keyPath, 0o600)
        chmod(authority.serverKeyPath, 0o644)
        #expect(throws: ServerTLSError.self) { try authority.prepare(now: Self.now) }
        #expect(throws: ServerTLSError.keyReadableByOthers(path: authority.serverKeyPath, mode: "0644")) {
            try ServerTLS.load(certificatePath: authority.serverCertificatePath, keyPath: authority.serverKeyPath)
        }
        #expect("\(ServerTLSError.keyReadableByOthers(path: "/k.pem", mode: "0644"))".contains("chmod 600 /k.pem"))
        // A CA whose key is gone is not silently replaced (apps trust the old one).
        chmod(authority.serverKeyPath, 0o600)
        unlink(authority.keyPath)
        #expect(throws: ServerTLSError.authorityIncomplete(present: authority.certificatePath, missing: authority.keyPath)) {
            try authority.prepare(now: Self.now)
        }
    }

    // MARK: HTTPS

    /// TLS 1.2 restricted to OkHttp's suites, and TLS 1.3, with the local CA as the only trust
    /// root, to 127.0.0.1 and localhost; a client that does not trust the CA, or speaks TLS 1.1,
    /// gets no answer. The Engage `baseurl` is the https URL.
    @Test func httpsWithTheLocalCA() async throws {
        let folder = try TemporaryFolder("jump-tls-test")
        defer { folder.remove() }
        let authority = LocalCertificateAuthority(folder: folder.path + "/tls")
        let prepared = try authority.prepare()
        let ca = try NIOSSLCertificate.fromPEMFile(authority.certificatePath)
        try await withTLSServer(prepared.tls, folder: folder) { url in
            #expect(url.hasPrefix("https://127.0.0.1:"))
            let port = try #require(ServerURL(url)?.port)
            for host in ["127.0.0.1", "localhost"] {
                let tls12 = try await Self.get(
                    "https://\(host):\(port)/health", Self.client(trusting: ca, maximum: .tlsv12, suites: Self.okHttpSuites))
                #expect(tls12.status == 200 && tls12.body == #"{"stat":"ok"}"#, "\(host)")
            }
            let tls13 = try await Self.get(url + "/health", Self.client(trusting: ca, minimum: .tlsv13, maximum: .tlsv13))
            #expect(tls13.status == 200)
            let config = try await Self.get(url + "/openid/mobile_config_and_baseurl?appId=x&device=android", Self.client(trusting: ca))
            #expect(try JSONValue.parse(config.body)["baseurl"] == .string(url))
            await #expect(throws: (any Error).self) { _ = try await Self.get(url + "/health", Self.client(trusting: nil)) }
            await #expect(throws: (any Error).self) {
                _ = try await Self.get(url + "/health", Self.client(trusting: ca, minimum: .tlsv1, maximum: .tlsv11))
            }
        }
    }

    /// `--tls-cert/--tls-key`: your own PEM files, here an RSA certificate, which TLS 1.2 serves
    /// with ECDHE-RSA-AES128-GCM-SHA256 (the client offers nothing else); a key that is not
    /// the certificate's is refused up front.
    @Test func ownCertificateAndKey() async throws {
        let folder = try TemporaryFolder("jump-tls-test")
        defer { folder.remove() }
        let (caPEM, certificatePEM, keyPEM) = try Self.rsaServerCertificate()
        let certificatePath = try folder.write("server.pem", certificatePEM)
        let keyPath = try folder.write("server-key.pem", keyPEM)
        chmod(keyPath, 0o600)
        let tls = try ServerTLS.load(certificatePath: certificatePath, keyPath: keyPath)
        let ca = try NIOSSLCertificate.fromPEMBytes(Array(caPEM.utf8))
        try await withTLSServer(tls, folder: folder) { url in
            let answer = try await Self.get(
                url + "/health", Self.client(trusting: ca, maximum: .tlsv12, suites: [.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256]))
            #expect(answer.status == 200)
            await #expect(throws: (any Error).self) {
                _ = try await Self.get(
                    url + "/health", Self.client(trusting: ca, maximum: .tlsv12, suites: [.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256]))
            }
        }
        let otherKey = try folder.write("other-key.pem", P256.Signing.PrivateKey().pemRepresentation)
        chmod(otherKey, 0o600)
        #expect {
            try ServerTLS.load(certificatePath: certificatePath, keyPath: otherKey)
        } throws: { error in
            guard case .unusable(let certificate, let key, _)? = error as? ServerTLSError else { return false }
            return certificate == certificatePath && key == otherKey
        }
        #expect {
            try ServerTLS.load(certificatePath: keyPath, keyPath: keyPath)
        } throws: { error in
            if case .notPEM(let path, _, _)? = error as? ServerTLSError { return path == keyPath }
            return false
        }
    }

    /// A test CA (P256) and an RSA 2048 server certificate it signed for 127.0.0.1, as PEM.
    static func rsaServerCertificate() throws -> (ca: String, certificate: String, key: String) {
        let caKey = Certificate.PrivateKey(P256.Signing.PrivateKey())
        let caName = try DistinguishedName { CommonName("jump-forms test CA") }
        let ca = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: caKey.publicKey, notValidBefore: Date() - 3600,
            notValidAfter: Date() + 86_400, issuer: caName, subject: caName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true))
            }, issuerPrivateKey: caKey)
        let rsa = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let server = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(rsa.publicKey), notValidBefore: Date() - 3600,
            notValidAfter: Date() + 86_400, issuer: caName, subject: try DistinguishedName { CommonName("127.0.0.1") },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames([.ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1]))])
            }, issuerPrivateKey: caKey)
        return (try ca.serializeAsPEM().pemString, try server.serializeAsPEM().pemString, rsa.pemRepresentation)
    }

    // MARK: the built binary

    /// `jump-forms serve --tls` prints the URL (https) and `CA certificate: <path>` with how to
    /// trust it; a client trusting that file alone reads `/health`. The next start reuses the
    /// CA. `--tls-cert/--tls-key` serve those files, and with a key others may read end with status 2.
    @Test func serveTLSBinary() async throws {
        let project = try ServeProject()
        defer { project.remove() }
        let caPath = project.path + "/share/jump-forms/tls/ca.pem"
        var firstCA = Data()
        for round in 0..<2 {
            let serve = try ServeProcess(["--port", "0", "--db", project.databasePath, "--tls"], project: project)
            defer { serve.stop() }
            let (url, printedCA) = try await Self.waitForTLSLines(serve)
            #expect(printedCA == caPath)
            #expect(serve.stdout.contains("xcrun simctl keychain booted add-root-cert \(caPath)"))
            #expect(Self.mode(project.path + "/share/jump-forms/tls/ca-key.pem") == 0o600)
            let ca = try NIOSSLCertificate.fromPEMFile(printedCA)
            let health = try await Self.get(url + "/health", Self.client(trusting: ca, maximum: .tlsv12, suites: Self.okHttpSuites))
            #expect(health.status == 200 && health.body == #"{"stat":"ok"}"#)
            if round == 0 { firstCA = try Self.bytes(caPath) } else { #expect(try Self.bytes(caPath) == firstCA) }
            serve.signal(SIGTERM)
            await #expect(await serve.waitForExit()?.status == 0, "\(serve.stderr)")
        }
        let authority = LocalCertificateAuthority(folder: project.path + "/share/jump-forms/tls")
        chmod(authority.serverKeyPath, 0o644)
        let refused = try await project.run([
            "serve", "--port", "0", "--db", project.databasePath,
            "--tls-cert", authority.serverCertificatePath, "--tls-key", authority.serverKeyPath
        ])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("chmod 600 \(authority.serverKeyPath)"), "\(refused.stderr)")
        // The same files, private again, served as your own: no CA line.
        chmod(authority.serverKeyPath, 0o600)
        let own = try ServeProcess(
            [
                "--port", "0", "--db", project.databasePath, "--tls-cert", authority.serverCertificatePath,
                "--tls-key", authority.serverKeyPath
            ], project: project)
        defer { own.stop() }
        let url = try await Self.waitForHTTPSURL(own)
        let health = try await Self.get(url + "/health", Self.client(trusting: try NIOSSLCertificate.fromPEMFile(caPath), minimum: .tlsv13))
        #expect(health.status == 200)
        #expect(!own.stdout.contains("CA certificate:"))
        own.signal(SIGTERM)
        await #expect(await own.waitForExit()?.status == 0, "\(own.stderr)")
        let alone = try await project.run(["serve", "--tls-cert", authority.serverCertificatePath])
        #expect(alone.status == 2)
        #expect(alone.stderr.contains("--tls-cert and --tls-key go together"), "\(alone.stderr)")
        // --tls-host: a DNS name, with --tls.
        for (arguments, message) in [
            (["--tls", "--tls-host", "192.168.1.2"], "--tls-host takes a DNS name"),
            (["--tls", "--tls-host", "Dev.Example"], "--tls-host takes a DNS name"),
            (["--tls-host", "dev.example.test"], "it goes with --tls")
        ] {
            let refused = try await project.run(["serve"] + arguments)
            #expect(refused.status == 2, "\(arguments)")
            #expect(refused.stderr.contains(message), "\(arguments): \(refused.stderr)")
        }
    }

    /// `--tls-host`: the server certificate names it, a CA made with it permits it (and names
    /// under it), and a CA made without it refuses to sign it, saying what to do.
    @Test func aTLSHostIsPermittedWhenTheCAIsMadeWithIt() async throws {
        let folder = try TemporaryFolder("jump-tls-test")
        defer { folder.remove() }
        let now = Date()
        let authority = LocalCertificateAuthority(folder: folder.path + "/tls", hosts: ["dev.example.test"])
        _ = try authority.prepare(now: now)
        let ca = try Certificate(pemEncoded: String(decoding: try Self.bytes(authority.certificatePath), as: UTF8.self))
        #expect(try ca.extensions.nameConstraints?.permittedSubtrees == [.dnsName("localhost"), .dnsName("dev.example.test")])
        func serverNames() throws -> [GeneralName] {
            let server = try Certificate(pemEncoded: String(decoding: try Self.bytes(authority.serverCertificatePath), as: UTF8.self))
            return Array(try #require(try server.extensions.subjectAlternativeNames))
        }
        #expect(try serverNames().contains(.dnsName("dev.example.test")))
        #expect(try serverNames().contains(.dnsName("localhost")))
        var verifier = Verifier(rootCertificates: CertificateStore([ca])) { RFC5280Policy() }
        let server = try Certificate(pemEncoded: String(decoding: try Self.bytes(authority.serverCertificatePath), as: UTF8.self))
        guard case .validCertificate = await verifier.validate(leaf: server, intermediates: CertificateStore()) else {
            Issue.record("the server certificate does not validate under its CA"); return
        }
        // A name under it: a new server certificate, the same CA.
        let deeper = LocalCertificateAuthority(folder: authority.folder, hosts: ["api.dev.example.test"])
        let prepared = try deeper.prepare(now: now)
        #expect(!prepared.madeAuthority && prepared.madeServerCertificate)
        // Another name: refused, with what to do.
        let other = LocalCertificateAuthority(folder: authority.folder, hosts: ["other.example"])
        #expect(
            throws: ServerTLSError.hostNotPermitted(
                host: "other.example", path: authority.certificatePath, permitted: ["localhost", "dev.example.test"])
        ) {
            try other.prepare(now: now)
        }
        #expect(
            ServerTLSError.hostNotPermitted(host: "other.example", path: "/x/ca.pem", permitted: ["localhost"]).description
                == "the local CA /x/ca.pem may sign localhost only, not other.example: delete its folder to make a new CA with --tls-host other.example (which devices must trust again)"
        )
    }

    /// The https URL `serve` printed.
    static func waitForHTTPSURL(_ serve: ServeProcess, timeout: Double = 20) async throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let late = Date() >= deadline
            let text = serve.stdout
            if let at = text.range(of: " at https://"), let end = text[at.upperBound...].firstIndex(of: "\n") {
                return "https://" + text[at.upperBound..<end]
            }
            if !serve.child.isRunning { break }
            if late { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw HarnessError.unexpected("serve printed no https URL; stdout: \(serve.stdout) stderr: \(serve.stderr)")
    }

    /// The https URL and the CA path `serve --tls` printed.
    static func waitForTLSLines(_ serve: ServeProcess, timeout: Double = 20) async throws -> (url: String, ca: String) {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let late = Date() >= deadline
            let text = serve.stdout
            if let at = text.range(of: " at https://"), let end = text[at.upperBound...].firstIndex(of: "\n"),
                let ca = text.range(of: "CA certificate: "), let caEnd = text[ca.upperBound...].firstIndex(of: "\n")
            {
                return ("https://" + text[at.upperBound..<end], String(text[ca.upperBound..<caEnd]))
            }
            if !serve.child.isRunning { break }
            if late { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw HarnessError.unexpected("serve --tls printed no URL and CA; stdout: \(serve.stdout) stderr: \(serve.stderr)")
    }
}

/// An embedded server over HTTPS for one test.
func withTLSServer(_ tls: ServerTLS, folder: TemporaryFolder, _ body: (String) async throws -> Void) async throws {
    let setup = CaptureServerSetup(
        config: ServerFixtures.config, flow: ServerFixtures.flow, localizer: ServerFixtures.localizer,
        identities: ServerFixtures.identities, databasePath: folder.path + "/capture.sqlite")
    let embedded = try await EmbeddedCaptureServer.start(setup, tls: tls.configuration, logger: ServerFixtures.quietLogger)
    do {
        try await body(embedded.url)
        await embedded.stop()
    } catch {
        await embedded.stop()
        throw error
    }
}

import AsyncHTTPClient
import Foundation
import JumpCapture
import JumpForms
import NIOHTTPCompression
import NIOSSL
import Testing
import TestSupport
#if canImport(Glibc)
    import Glibc
#endif

/// Both SDKs force `https://` (JRCaptureData.m:44-54; CaptureApiConnection.java:44-45), so
/// an app reaches `jump-forms serve --tls`: the built binary, run as a user runs it, trusted
/// through the CA certificate it prints. Android's OkHttp offers TLS 1.2 only, with
/// ECDHE-ECDSA/RSA-AES128-GCM-SHA256 (and DHE-RSA, which BoringSSL clients cannot offer)
/// (AsyncHttpClient.java:109-125). docs/sdk-calls.md, "Transport".
@Suite(.tlsReplayServer, .timeLimit(.minutes(5)))
struct HTTPSReplayTests {
    @Test(
        "Android AsyncHttpClient.java:109-125 over TLS 1.2 with OkHttp's cipher suites: mobile configuration, flow document, native sign-in, /entity")
    func androidOverTLS12() async throws {
        let server = try TLSReplayServer.get()
        let android = server.android
        let client = server.okHttpClient
        let configuration = try await SDKWire.send(android.mobileConfiguration(etag: ""), to: server.url, client: client)
        #expect(configuration.status == 200, "\(configuration)")
        // The Engage base URL the app will use next must be the https one.
        #expect(configuration.json?["baseurl"]?.stringValue?.hasPrefix("https://") == true, "baseurl: \(configuration)")
        let flow = try await SDKWire.send(android.flowDownload(), to: server.url, client: client)
        #expect(try flow.read().object()["version"] == .string(server.flow.version.value), "\(flow)")
        let person = ReplayIdentities.httpsAndroid
        let token = try EngageReplayTests.readNativeToken(
            try await SDKWire.send(
                android.nativeTokenExchange(provider: "google", token: person.nativeToken),
                to: server.url, client: client))
        let signedIn = try await SDKWire.send(
            android.socialSignIn(token: token, refreshSecret: AndroidApp.newRefreshSecret()), to: server.url, client: client
        )
        .read().signedIn()
        let entity = try await SDKWire.send(android.entity(accessToken: signedIn.accessToken), to: server.url, client: client).read().entityResult()
        #expect(entity["email"] == person.email.map(JSONValue.string))
    }

    @Test("iOS over HTTPS (the certificate for 127.0.0.1): traditional sign-in, hand-built entity.update, /entity")
    func iOSOverTLS() async throws {
        let server = try TLSReplayServer.get()
        let iOS = server.iOS
        let client = server.iOSClient
        let account = try await Arrange.register(
            url: server.url, config: server.config, flow: server.flow, client: client,
            email: "https.ios@replay.example.com", displayName: "https_ios")
        let signedIn = try await SDKWire.send(
            iOS.traditionalSignIn(user: account.email, password: account.password, refreshSecret: IOSApp.newRefreshSecret()),
            to: server.url, client: client
        ).read().signedIn()
        let update = iOS.recordWrite(
            .updateObject, ["address1": "Seestrasse 12", "city": "Zürich"], path: "/primaryAddress", accessToken: signedIn.accessToken)
        let json = try await SDKWire.send(update, to: server.url, client: client).read().ok()
        #expect(json["result"] != nil, "iOS fails the update without `result` (JRCaptureObject.m:130-132): \(json)")
        let entity = try await SDKWire.send(
            iOS.entity(accessToken: signedIn.accessToken, source: "JRCaptureApidInterface.m:217-227"),
            to: server.url, client: client
        ).read().entityResult()
        #expect(entity.at(path: "primaryAddress.city") == .string("Zürich"), "\(entity)")
    }

    @Test("the certificate names localhost as well as 127.0.0.1 (what the simulator and the emulator's host alias reach)")
    func localhostCertificate() async throws {
        let server = try TLSReplayServer.get()
        let port = try #require(server.url.split(separator: ":").last.flatMap { Int($0) })
        let response = try await server.iOSClient.execute(HTTPClientRequest(url: "https://localhost:\(port)/health"), timeout: .seconds(10))
        #expect(response.status.code == 200)
    }
}

/// `jump-forms serve --tls --port 0` on a replay project, with clients that trust only the CA
/// certificate it prints.
final class TLSReplayServer: Sendable {
    let project: ReplayProject
    let process: ChildProcess
    /// `https://127.0.0.1:<port>`.
    let url: String
    let caPath: String
    let config: ClientConfig
    let flow: Flow
    /// OkHttp's connection spec: TLS 1.2 only, its AES-128-GCM suites.
    let okHttpClient: HTTPClient
    /// NSURLSession's: TLS 1.2 or 1.3 (ATS), default suites.
    let iOSClient: HTTPClient
    let clock = TestClock(Int(Date().timeIntervalSince1970))

    @TaskLocal static var current: Result<TLSReplayServer, ReplayError>?

    static func get() throws -> TLSReplayServer {
        switch current {
        case .success(let server)?: return server
        case .failure(let error)?: throw error
        case nil: throw ReplayError("no TLS replay server: the suite needs the .tlsReplayServer trait")
        }
    }

    var iOS: IOSApp { IOSApp(config: config, flow: flow, server: url, clock: clock) }
    var android: AndroidApp { AndroidApp(config: config, flow: flow, server: url, clock: clock) }

    private init(project: ReplayProject, process: ChildProcess, url: String, caPath: String, config: ClientConfig, flow: Flow) throws {
        self.project = project
        self.process = process
        self.url = url
        self.caPath = caPath
        self.config = config
        self.flow = flow
        let ca = try NIOSSLCertificate.fromPEMFile(caPath)
        var okHttp = TLSConfiguration.makeClientConfiguration()
        okHttp.trustRoots = .certificates(ca)
        okHttp.minimumTLSVersion = .tlsv12
        okHttp.maximumTLSVersion = .tlsv12
        okHttp.cipherSuiteValues = [.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256]
        var iOS = TLSConfiguration.makeClientConfiguration()
        iOS.trustRoots = .certificates(ca)
        iOS.minimumTLSVersion = .tlsv12
        okHttpClient = Self.client(okHttp)
        iOSClient = Self.client(iOS)
    }

    static func client(_ tls: TLSConfiguration) -> HTTPClient {
        HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: .init(
                tlsConfiguration: tls, redirectConfiguration: .disallow, timeout: .init(connect: .seconds(5), read: .seconds(15)),
                decompression: .enabled(limit: .ratio(200))))
    }

    static func start() async throws -> TLSReplayServer {
        let project = try ReplayProject(.plain)
        let (config, loaded, _) = try project.load()
        let path = project.folder.path
        let environment = [
            "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": path, "XDG_DATA_HOME": path + "/share",
            "XDG_STATE_HOME": path + "/state", "NO_COLOR": "1"
        ]
        let process = try ChildProcess(
            Executable.productsFolder + "/jump-forms",
            ["serve", "--tls", "--port", "0", "--config", project.configPath, "--db", project.databasePath],
            in: path, environment: environment)
        do {
            let (url, caPath) = try await waitForStart(process)
            return try TLSReplayServer(project: project, process: process, url: url, caPath: caPath, config: config, flow: loaded.flow)
        } catch {
            process.kill9()
            project.folder.remove()
            throw error
        }
    }

    /// The `https://127.0.0.1:<port>` URL and the `CA certificate: <path>` line serve prints.
    static func waitForStart(_ process: ChildProcess, timeout: Double = 20) async throws -> (String, String) {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let late = Date() >= deadline
            let output = process.stdout + "\n" + process.stderr
            if let url = match(output, after: "https://127.0.0.1:", until: { !$0.isNumber }).map({ "https://127.0.0.1:" + $0 }),
                let ca = match(output, after: "CA certificate: ", until: { $0.isNewline })
            {
                return (url, ca.trimmingCharacters(in: .whitespaces))
            }
            if !process.isRunning { break }
            if late { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw ReplayError(
            "`jump-forms serve --tls` printed no https URL and CA certificate\n  stdout: \(process.stdout)\n  stderr: \(process.stderr)")
    }

    static func match(_ text: String, after marker: String, until end: (Character) -> Bool) -> String? {
        guard let range = text.range(of: marker) else { return nil }
        let rest = text[range.upperBound...]
        let value = rest.prefix { !end($0) }
        guard !value.isEmpty, value.endIndex < rest.endIndex else { return nil }
        return String(value)
    }

    func stop() async {
        try? await okHttpClient.shutdown()
        try? await iOSClient.shutdown()
        process.signal(SIGTERM)
        if await process.wait(timeout: 10) == nil { process.kill9() }
        project.folder.remove()
    }
}

struct TLSReplayServerTrait: SuiteTrait, TestScoping {
    var isRecursive: Bool { false }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        let result: Result<TLSReplayServer, ReplayError>
        do {
            result = .success(try await TLSReplayServer.start())
        } catch let error as ReplayError {
            result = .failure(error)
        } catch {
            result = .failure(ReplayError("`jump-forms serve --tls` did not start: \(error)"))
        }
        do {
            try await TLSReplayServer.$current.withValue(result) { try await function() }
        } catch {
            if case .success(let server) = result { await server.stop() }
            throw error
        }
        if case .success(let server) = result { await server.stop() }
    }
}

extension Trait where Self == TLSReplayServerTrait {
    /// `jump-forms serve --tls` for the suite.
    static var tlsReplayServer: Self { TLSReplayServerTrait() }
}

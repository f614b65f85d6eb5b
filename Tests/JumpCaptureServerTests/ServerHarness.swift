import AsyncHTTPClient
import Foundation
import HTTPTypes
import HummingbirdTesting
import JumpCapture
import JumpCaptureNIO
import JumpCaptureServer
import JumpForms
import JumpFormsLoader
import JumpSchema
import Logging
import NIOCore
import NIOHTTP1
import Synchronization
import Testing
import TestSupport

/// A clock the tests move: the server's `CaptureServerSetup.clock`.
final class TestClock: Sendable {
    private let seconds: Mutex<Int>

    init(_ start: Int) { seconds = Mutex(start) }

    var now: Int { seconds.withLock { $0 } }

    func advance(_ delta: Int) { seconds.withLock { $0 += delta } }
}

/// The repository's example project and the test identities, loaded once.
enum ServerFixtures {
    static let project = ProjectLoader(environment: [:]).load(paths: [Repository.path("jump.yaml")])
    static var loaded: LoadedFlow { project.primaryFlow! }
    static let localizer = project.primaryFlow!.localizer()
    static var flow: Flow { loaded.flow }

    /// The example configuration with bcrypt cost 4 (tests hash a lot of passwords).
    static var config: ClientConfig {
        var config = project.config!
        config.server.bcryptCost = 4
        return config
    }

    static let english = LocaleTag("en-US")!
    static let french = LocaleTag("fr-FR")!
    /// 2025-06-15 10:30:00 UTC
    static let start = 1_749_983_400
    static let today = CivilDate(year: 2025, month: 6, day: 15)!

    static let here = SourceLocation(file: "ServerHarness.swift", line: 1, column: 1)

    /// The Engage double's people in these tests (the repository's identities.yaml is checked
    /// separately).
    static let identities: [TestIdentity] = [
        TestIdentity(
            provider: "google", identifier: "https://www.google.com/profiles/1001", email: "marta.keller@example.com",
            verifiedEmail: true, givenName: "Marta", familyName: "Keller", displayName: "marta_k",
            nativeToken: "google-native-marta", location: here),
        TestIdentity(
            provider: "google", identifier: "https://www.google.com/profiles/1002", email: "ana.ruiz@example.com",
            verifiedEmail: true, givenName: "Ana", familyName: "Ruiz", displayName: "ana_google",
            nativeToken: "google-native-ana", location: here),
        TestIdentity(
            provider: "facebook", identifier: "facebook:3003", email: "tomasz.nowak@example.net", verifiedEmail: true,
            givenName: "Tomasz", familyName: "Nowak", displayName: "tomasz_n", nativeToken: "facebook-native-tomasz", location: here),
        TestIdentity(
            provider: "twitter", identifier: "twitter:4004", givenName: "Jun", familyName: "Sato", displayName: "jun_sato",
            nativeToken: "twitter-native-jun", location: here),
        TestIdentity(
            provider: "corp_openid", identifier: "https://id.example.com/openid/u/lea.martin", email: "lea.martin@corp.example.com",
            verifiedEmail: true, givenName: "Léa", familyName: "Martin", displayName: "lea_martin", location: here),
        TestIdentity(
            provider: "corp_saml", identifier: "saml:example_saml_implementation:E204518", email: "samuel.okafor@corp.example.com",
            givenName: "Samuel", familyName: "Okafor", displayName: "sokafor", location: here)
    ]

    static let password = "correct horse battery"

    static func registration(email: String = "ana.ruiz@example.com", displayName: String = "ana_r") -> FormValues {
        [
            "emailAddress": email, "displayName": displayName, "firstName": "Ana", "lastName": "Ruiz",
            "newPassword": password, "newPasswordConfirm": password, "birthdate": "1990-04-01", "optIn": "true"
        ]
    }

    /// A client that never follows redirects (the Engage double's dialogs end on one) and
    /// opens up to 256 connections per server (AsyncHTTPClient's default is 8), so that
    /// concurrent requests really are concurrent on the wire.
    static let client = HTTPClient(
        eventLoopGroup: HTTPClient.defaultEventLoopGroup,
        configuration: .init(
            redirectConfiguration: .disallow, timeout: .init(connect: .seconds(5), read: .seconds(30)),
            connectionPool: .init(idleTimeout: .seconds(30), concurrentHTTP1ConnectionsPerHostSoftLimit: 256)))

    /// The database of a test server: nil (the SQLite file in its folder), or with
    /// `JUMP_TEST_DATABASE=postgres` a fresh database of the test process's PostgreSQL cluster.
    static func testDatabase() throws -> DatabaseLocation? {
        guard PostgresCluster.testsUsePostgres else { return nil }
        return try DatabaseLocation(parsing: try PostgresCluster.shared().makeDatabase())
    }

    static var quietLogger: Logger {
        var logger = Logger(label: "jump-forms.test-server")
        logger.logLevel = .error
        return logger
    }
}

/// A local server for one test: a fresh SQLite file, an injected clock, and the client side
/// (request builders, the real transport, the response decoder) pointed at it.
struct TestServer: Sendable {
    /// How a test's requests reach the server.
    enum Wire: Sendable {
        /// Hummingbird's router test mode: each request goes to the application's responder, with
        /// no socket, connection handlers or HTTP parser. For what the handlers answer.
        case router
        /// A real HTTP server on 127.0.0.1 with an ephemeral port (`EmbeddedCaptureServer`): for
        /// what only the network path shows (connections, HTTP parsing and limits, TLS, the
        /// browser hops of the Engage double, which answer with the server's own URL).
        case socket
    }

    let server: CaptureServer
    /// The listening server (socket wire only).
    let embedded: EmbeddedCaptureServer?
    /// The router test client (router wire only).
    let router: (any TestClientProtocol)?
    let folder: TemporaryFolder
    let clock: TestClock
    let config: ClientConfig
    /// Where requests are addressed; on the router wire a placeholder no socket listens on.
    let url: ServerURL
    let transport: any HTTPTransport
    let decoder: ResponseDecoder

    var databasePath: String { folder.path + "/capture.sqlite" }

    static func setup(
        configure: (inout ClientConfig) -> Void, identities: [TestIdentity], schema: EntitySchema?
    ) throws -> (CaptureServerSetup, TemporaryFolder, TestClock, ClientConfig) {
        let folder = try TemporaryFolder("jump-server-test")
        var config = ServerFixtures.config
        configure(&config)
        let clock = TestClock(ServerFixtures.start)
        var setup = CaptureServerSetup(
            config: config, flow: ServerFixtures.flow, localizer: ServerFixtures.localizer,
            identities: identities, databasePath: folder.path + "/capture.sqlite",
            clock: { clock.now }, schema: schema)
        setup.database = try ServerFixtures.testDatabase()
        return (setup, folder, clock, config)
    }

    static func start(
        configure: (inout ClientConfig) -> Void = { _ in }, identities: [TestIdentity] = ServerFixtures.identities,
        idleTimeout: Duration = CaptureServer.defaultIdleTimeout,
        requestTimeout: Duration = CaptureServer.defaultRequestTimeout, schema: EntitySchema? = nil,
        logger: Logger = ServerFixtures.quietLogger
    ) async throws -> TestServer {
        let (setup, folder, clock, config) = try Self.setup(configure: configure, identities: identities, schema: schema)
        let embedded = try await EmbeddedCaptureServer.start(
            setup, idleTimeout: idleTimeout, requestTimeout: requestTimeout, logger: logger)
        return TestServer(
            server: embedded.server, embedded: embedded, router: nil, folder: folder, clock: clock, config: config,
            url: ServerURL(embedded.url)!, transport: AsyncHTTPTransport(timeoutSeconds: 30, client: ServerFixtures.client),
            decoder: ResponseDecoder(flow: ServerFixtures.flow, config: config))
    }

    /// A server whose requests go through Hummingbird's router test mode, running `body`.
    static func withRouter<T: Sendable>(
        configure: (inout ClientConfig) -> Void, identities: [TestIdentity], schema: EntitySchema?,
        _ body: (TestServer) async throws -> T
    ) async throws -> T {
        let (setup, folder, clock, config) = try Self.setup(configure: configure, identities: identities, schema: schema)
        defer { folder.remove() }
        let captureServer = try CaptureServer(setup: setup, logger: ServerFixtures.quietLogger)
        let application = captureServer.application(host: "127.0.0.1", port: 0)
        // `test` takes a @Sendable closure and `body` is not one: the client is handed out of the
        // closure, which waits until `body` is done (the router client only calls the responder).
        let (clients, handOver) = AsyncStream.makeStream(of: (any TestClientProtocol).self)
        let (finished, finish) = AsyncStream.makeStream(of: Void.self)
        async let testing: Void = application.test(.router) { client in
            handOver.yield(client)
            handOver.finish()
            for await _ in finished {}
        }
        defer { finish.finish() }
        guard let client = await clients.first(where: { _ in true }) else { throw HarnessError.unexpected("no router test client") }
        let server = TestServer(
            server: captureServer, embedded: nil, router: client, folder: folder, clock: clock, config: config,
            url: ServerURL("http://127.0.0.1:9")!, transport: RouterTransport(client: client),
            decoder: ResponseDecoder(flow: ServerFixtures.flow, config: config))
        let value = try await body(server)
        finish.finish()
        try await testing
        return value
    }

    func stop() async {
        await embedded?.stop()
        folder.remove()
    }

    func builder(_ locale: LocaleTag = ServerFixtures.english) -> RequestBuilder {
        RequestBuilder(config: config, flow: ServerFixtures.flow, localizer: ServerFixtures.localizer, locale: locale, capture: url)
    }

    var engage: EngageRequestBuilder { EngageRequestBuilder(config: config, engage: url) }

    var today: CivilDate { ServerFixtures.today }

    // MARK: sending

    func answer(_ request: CaptureRequest) async throws -> HTTPAnswer {
        try await transport.send(request)
    }

    /// Sends a request and decodes the answer.
    func send(_ request: CaptureRequest, engageToken: String? = nil) async throws -> Result<CaptureSuccess, CaptureError> {
        let answer = try await transport.send(request)
        return decoder.decode(request.operation, status: answer.status, body: answer.body, engageToken: engageToken)
    }

    /// A raw request with any method, path, content type and body bytes.
    func raw(
        _ method: HTTPMethod, _ target: String, body: [UInt8]? = nil,
        contentType: String? = "application/x-www-form-urlencoded"
    ) async throws -> (status: Int, headers: HTTPHeaders, body: String) {
        if let router {
            var fields = HTTPFields()
            if body != nil, let contentType { fields[.contentType] = contentType }
            let response = try await router.executeRequest(
                uri: target, method: HTTPRequest.Method(rawValue: method.rawValue)!, headers: fields, body: body.map { ByteBuffer(bytes: $0) })
            var headers = HTTPHeaders()
            for field in response.headers { headers.add(name: field.name.canonicalName, value: field.value) }
            return (Int(response.status.code), headers, String(buffer: response.body))
        }
        var request = HTTPClientRequest(url: url.description + target)
        request.method = method
        if let body {
            if let contentType { request.headers.add(name: "Content-Type", value: contentType) }
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let response = try await ServerFixtures.client.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 1 << 22)
        return (Int(response.status.code), response.headers, String(buffer: bytes))
    }

    func raw(_ method: HTTPMethod, _ target: String, form: String) async throws -> (status: Int, headers: HTTPHeaders, body: String) {
        try await raw(method, target, body: Array(form.utf8))
    }

    // MARK: common steps

    /// Registers `values` and returns the session: access token and the refresh secret used.
    @discardableResult
    func register(
        _ values: FormValues = ServerFixtures.registration(), locale: LocaleTag = ServerFixtures.english,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) async throws -> (result: SignInResult, secret: RefreshSecret) {
        let secret = RefreshSecret.generate()
        let request = try builder(locale).register(values, refreshSecret: secret, today: today)
        let result = try await send(request)
        guard case .success(.signedIn(let signedIn)) = result else {
            Issue.record("registration failed: \(result)", sourceLocation: sourceLocation)
            throw HarnessError.unexpected("\(result)")
        }
        return (signedIn, secret)
    }

    func signIn(
        _ email: String, _ password: String = ServerFixtures.password, secret: RefreshSecret = .generate(),
        mergeToken: String? = nil, locale: LocaleTag = ServerFixtures.english
    ) async throws -> Result<CaptureSuccess, CaptureError> {
        let request = try builder(locale).signIn(
            ["signInEmailAddress": email, "currentPassword": password], refreshSecret: secret,
            mergeToken: mergeToken, today: today)
        return try await send(request)
    }

    /// Opens a provider's start URL (as a browser would) choosing a test identity, and returns
    /// the Engage token of the redirect to the token URL.
    func engageToken(_ provider: String, identity: String? = nil, tokenURL: String = "https://example.com/token") async throws -> String {
        guard let definition = ServerFixtures.flow.providers.first(where: { $0.id.value == provider }) else {
            throw HarnessError.unexpected("the flow has no provider \(provider)")
        }
        var start = engage.startURL(for: definition, returnTo: .tokenURL(tokenURL), installationID: "7d0c1a3e-3f43-4a4e-9d56-0b6c1e0f2a11").url
        if let identity { start += "&identity=" + FormEncoding.encodeComponent(identity) }
        var request = HTTPClientRequest(url: start)
        request.method = .GET
        let response = try await ServerFixtures.client.execute(request, timeout: .seconds(30))
        _ = try await response.body.collect(upTo: 1 << 20)
        guard response.status == .found, let location = response.headers.first(name: "location") else {
            throw HarnessError.unexpected("\(provider) start answered \(response.status)")
        }
        guard let token = Self.query(location)["token"] else { throw HarnessError.unexpected("no token in \(location)") }
        return token
    }

    /// Social sign-in with a token.
    func socialSignIn(
        _ token: String, secret: RefreshSecret = .generate(), mergeToken: String? = nil,
        locale: LocaleTag = ServerFixtures.english
    ) async throws -> Result<CaptureSuccess, CaptureError> {
        try await send(builder(locale).socialSignIn(token: token, refreshSecret: secret, mergeToken: mergeToken), engageToken: token)
    }

    func readRecord(_ accessToken: String, attribute: String? = nil) async throws -> Result<CaptureSuccess, CaptureError> {
        try await send(builder().readRecord(accessToken: accessToken, attribute: attribute))
    }

    /// The record of a session (fails the test otherwise).
    func record(_ accessToken: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) async throws -> JSONValue {
        let result = try await readRecord(accessToken)
        guard case .success(.record(let record)) = result else {
            Issue.record("read record failed: \(result)", sourceLocation: sourceLocation)
            throw HarnessError.unexpected("\(result)")
        }
        return record
    }

    /// The query parameters of a URL.
    static func query(_ url: String) -> [String: String] {
        guard let mark = url.firstIndex(of: "?") else { return [:] }
        var result: [String: String] = [:]
        for pair in FormEncoding.decode(pairs: String(url[url.index(after: mark)...])) ?? [] { result[pair.name] = pair.value }
        return result
    }
}

enum HarnessError: Error, CustomStringConvertible {
    case unexpected(String)
    var description: String {
        switch self {
        case .unexpected(let text): text
        }
    }
}

extension TestServer {
    /// A test server over a socket, started by the caller.
    init(
        embedded: EmbeddedCaptureServer, folder: TemporaryFolder, clock: TestClock, config: ClientConfig, url: ServerURL,
        transport: AsyncHTTPTransport, decoder: ResponseDecoder
    ) {
        self.init(
            server: embedded.server, embedded: embedded, router: nil, folder: folder, clock: clock, config: config, url: url,
            transport: transport, decoder: decoder)
    }
}

/// Runs `body` against a fresh server and always stops the server: through Hummingbird's router
/// test mode unless `wire` is `.socket`. The connection timeouts exist on a socket only.
func withServer<T: Sendable>(
    _ wire: TestServer.Wire = .router,
    configure: (inout ClientConfig) -> Void = { _ in }, identities: [TestIdentity] = ServerFixtures.identities,
    idleTimeout: Duration = CaptureServer.defaultIdleTimeout,
    requestTimeout: Duration = CaptureServer.defaultRequestTimeout, schema: EntitySchema? = nil,
    _ body: (TestServer) async throws -> T
) async throws -> T {
    if wire == .router {
        guard idleTimeout == CaptureServer.defaultIdleTimeout, requestTimeout == CaptureServer.defaultRequestTimeout else {
            throw HarnessError.unexpected("connection timeouts need withServer(.socket, ...): the router test mode has no connection")
        }
        return try await TestServer.withRouter(configure: configure, identities: identities, schema: schema, body)
    }
    let server = try await TestServer.start(
        configure: configure, identities: identities, idleTimeout: idleTimeout,
        requestTimeout: requestTimeout, schema: schema)
    do {
        let value = try await body(server)
        await server.stop()
        return value
    } catch {
        await server.stop()
        throw error
    }
}

extension RequestParameter {
    static func plain(_ name: String, _ value: String) -> RequestParameter { RequestParameter(name, value) }
}

extension CaptureRequest {
    /// The same request with `name` set to `value` (added when absent): values the client's
    /// own rules would refuse, to test the server's.
    func setting(_ name: String, _ value: String) -> CaptureRequest {
        var copy = self
        if let index = copy.parameters.firstIndex(where: { $0.name == name }) {
            copy.parameters[index].value = value
        } else {
            copy.parameters.append(RequestParameter(name, value))
        }
        return copy
    }

    func removing(_ name: String) -> CaptureRequest {
        var copy = self
        copy.parameters.removeAll { $0.name == name }
        return copy
    }

    func adding(_ name: String, _ value: String) -> CaptureRequest {
        var copy = self
        copy.parameters.append(RequestParameter(name, value))
        return copy
    }
}

extension Result where Success == CaptureSuccess, Failure == CaptureError {
    var signedIn: SignInResult? {
        if case .success(.signedIn(let value)) = self { return value }
        return nil
    }

    var isOK: Bool {
        if case .success(.ok) = self { return true }
        return false
    }

    var error: CaptureError? {
        if case .failure(let error) = self { return error }
        return nil
    }

    var code: Int? { error?.serverError?.code }
}

extension JSONValue {
    func at(_ path: String) -> JSONValue? {
        var current: JSONValue? = self
        for part in path.split(separator: ".") { current = current?[String(part)] }
        return current
    }
}

/// Sends Capture requests through Hummingbird's router test mode: the request's target (path
/// and query), method, header fields and body, as the real transport would put them on the wire.
struct RouterTransport: HTTPTransport {
    let client: any TestClientProtocol

    func send(_ request: CaptureRequest) async throws(TransportError) -> HTTPAnswer {
        var fields = HTTPFields()
        for field in request.head.headerFields where field.name != .contentLength { fields.append(field) }
        do {
            let response = try await client.executeRequest(
                uri: request.target(maskingSecrets: false), method: HTTPRequest.Method(rawValue: request.method.rawValue)!,
                headers: fields, body: request.method == .get ? nil : ByteBuffer(bytes: request.body))
            return HTTPAnswer(
                status: Int(response.status.code), contentType: response.headers[.contentType],
                body: Array(buffer: response.body))
        } catch {
            throw .connectionFailed(url: request.url, reason: "\(error)")
        }
    }
}

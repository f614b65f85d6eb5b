import Foundation
import JumpCapture
import JumpCaptureNIO
import JumpForms
import Testing
import TestSupport

/// The flow document's download, against a test server on 127.0.0.1 serving a fixture
/// document (Fixtures/flow-document): where the SDKs fetch it, gzip, and failures that name
/// the URL.
@Suite(.timeLimit(.minutes(5))) struct FlowDocumentTests {
    static let folder = "Tests/JumpCaptureTests/Fixtures/flow-document"

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try #require(FileManager.default.contents(atPath: Repository.path("\(folder)/\(name)"))))
    }

    /// Answers the fixture document at any path, gzipped (with `Content-Encoding: gzip`) when
    /// the request accepts gzip.
    static func documentServer() throws -> LoopbackServer {
        let plain = try bytes("en-US.json")
        let gzipped = try bytes("en-US.json.gz")
        return try LoopbackServer { request in
            var reply = LoopbackServer.Reply(body: "")
            if request.headers["accept-encoding"]?.contains("gzip") == true {
                reply.bodyBytes = gzipped
                reply.headers = [("Content-Encoding", "gzip")]
            } else {
                reply.bodyBytes = plain
            }
            return reply
        }
    }

    static func source(_ server: LoopbackServer, version: String = "HEAD") -> FlowDocumentSource {
        FlowDocumentSource(domain: ServerURL(server.url)!, appId: "localapp", flowName: "standard", version: version, locale: "en-US")
    }

    /// JRCaptureData.m:300-319 (GET with `Accept-Encoding: gzip`, version HEAD by default);
    /// Jump.java:1001-1029 (the same URL); the version is read as JRCaptureData.m:236-242 reads it.
    @Test func downloadsTheDocumentGzippedAndReadsItsVersion() async throws {
        let server = try Self.documentServer()
        defer { server.stop() }
        let version = try await FlowVersionDownloader(timeoutSeconds: 10).version(of: Self.source(server))
        #expect(version == "2024-02-01.3")
        let received = try #require(server.requests.first)
        #expect(server.requests.count == 1)
        #expect(received.method == "GET")
        #expect(received.target == "/widget_data/flows/localapp/standard/HEAD/en-US.json")
        #expect(received.headers["accept-encoding"] == "gzip", "the SDKs' header, sent as they send it")
        #expect(received.body.isEmpty)
        // The body really was gzip: the fixture is not the plain document.
        #expect(try Self.bytes("en-US.json.gz").prefix(2) == [0x1F, 0x8B])
    }

    @Test func aPlainAnswerIsReadToo() async throws {
        let plain = try Self.bytes("en-US.json")
        let server = try LoopbackServer { _ in
            var reply = LoopbackServer.Reply(body: "")
            reply.bodyBytes = plain
            return reply
        }
        defer { server.stop() }
        #expect(try await FlowVersionDownloader(timeoutSeconds: 10).version(of: Self.source(server)) == "2024-02-01.3")
    }

    /// The URL from the configuration: `captureFlowVersion` selects the version (JRCaptureData.m:302,
    /// Jump.java:1002), `captureFlowDomain` the host and prefix (Jump.java:1006-1010), else the
    /// SDKs' CDN (JRCaptureData.m:312-315, JumpConfig.java:234); a loopback Capture (jump-forms
    /// serve) serves its own documents; without `captureAppId` the SDKs download nothing
    /// (JRCaptureData.m:276-281).
    @Test func theSourceFollowsTheConfiguration() throws {
        var config = CaptureFixtures.config
        let here = config.captureAppId!.location
        let locale = LocaleTag("fr-FR")!
        let remote = ServerURL("https://example.us.janraincapture.com")!
        let cdn = try #require(FlowDocumentSource(config: config, capture: remote, flowName: "standard", locale: locale))
        #expect(cdn.url == "https://d1lqe9temigv1p.cloudfront.net/widget_data/flows/localapp/standard/HEAD/fr-FR.json")

        config.captureFlowVersion = Located("2024-02-01.3", at: here)
        config.captureFlowDomain = Located("https://flows.example.cn/static", at: here)
        let configured = try #require(FlowDocumentSource(config: config, capture: remote, flowName: "standard", locale: locale))
        #expect(configured.url == "https://flows.example.cn/static/widget_data/flows/localapp/standard/2024-02-01.3/fr-FR.json")

        config.captureFlowDomain = nil
        let local = try #require(
            FlowDocumentSource(config: config, capture: ServerURL("http://127.0.0.1:8080")!, flowName: "standard", locale: locale))
        #expect(local.url == "http://127.0.0.1:8080/widget_data/flows/localapp/standard/2024-02-01.3/fr-FR.json")

        config.captureAppId = nil
        #expect(FlowDocumentSource(config: config, capture: remote, flowName: "standard", locale: locale) == nil)
    }

    /// `captureFlowVersion` reaches the server's path.
    @Test func theConfiguredVersionSelectsThePath() async throws {
        let server = try Self.documentServer()
        defer { server.stop() }
        var config = CaptureFixtures.config
        config.captureFlowVersion = Located("2024-02-01.3", at: config.captureFlowVersion.location)
        let source = try #require(
            FlowDocumentSource(config: config, capture: ServerURL(server.url)!, flowName: "standard", locale: CaptureFixtures.locale))
        _ = try await FlowVersionDownloader(timeoutSeconds: 10).version(of: source)
        #expect(server.requests.map(\.target) == ["/widget_data/flows/localapp/standard/2024-02-01.3/en-US.json"])
    }

    @Test func failuresNameTheURL() async throws {
        let downloader = FlowVersionDownloader(timeoutSeconds: 10)
        let answers: [String: LoopbackServer.Reply] = [
            "missing": .init(status: 404, contentType: "text/html", body: "<h1>Not Found</h1>"),
            "html": .init(contentType: "text/html", body: "<html>maintenance</html>"),
            "numeric": .init(body: #"{"version": 20240201, "fields": {}}"#),
            "list": .init(body: "[1, 2]")
        ]
        let server = try LoopbackServer { request in
            answers.first { request.target.contains("/\($0.key)/") }?.value ?? .init(status: 500, body: "")
        }
        defer { server.stop() }
        func attempt(_ flow: String) async -> FlowDocumentError? {
            let source = FlowDocumentSource(domain: ServerURL(server.url)!, appId: "app", flowName: flow, version: "HEAD", locale: "en-US")
            do {
                _ = try await downloader.version(of: source)
                return nil
            } catch {
                #expect(error.url == source.url)
                #expect(error.description.contains(source.url), "\(error)")
                return error
            }
        }
        #expect(await attempt("missing") == .status(url: "\(server.url)/widget_data/flows/app/missing/HEAD/en-US.json", status: 404))
        guard case .notJSON? = await attempt("html") else { Issue.record("HTML taken for JSON"); return }
        #expect(
            await attempt("numeric") == .noVersion(url: "\(server.url)/widget_data/flows/app/numeric/HEAD/en-US.json"),
            "a version that is not a string is not one (CaptureFlowUtils.java:194-199)")
        #expect(await attempt("list") == .noVersion(url: "\(server.url)/widget_data/flows/app/list/HEAD/en-US.json"))

        // Nobody listening.
        let closed = try LoopbackServer { _ in .init(body: "") }
        let port = closed.port
        closed.stop()
        let nowhere = FlowDocumentSource(
            domain: ServerURL("http://127.0.0.1:\(port)")!, appId: "app", flowName: "standard", version: "HEAD", locale: "en-US")
        do {
            _ = try await downloader.version(of: nowhere)
            Issue.record("a closed port answered")
        } catch {
            guard case .unreachable(let url, _) = error else { Issue.record("\(error)"); return }
            #expect(url == nowhere.url)
            #expect(error.description.hasPrefix("cannot download the flow document \(nowhere.url): "))
        }

        // Plain http only on loopback (the SDKs force https: JRCaptureData.m:307).
        let insecure = FlowDocumentSource(
            domain: ServerURL("http://flows.example.com")!, appId: "app", flowName: "standard", version: "HEAD", locale: "en-US")
        await #expect(throws: FlowDocumentError.insecureURL(insecure.url)) { try await downloader.version(of: insecure) }
    }
}

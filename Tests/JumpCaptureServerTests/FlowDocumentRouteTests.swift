import AsyncHTTPClient
import JumpForms
import NIOCore
import NIOHTTP1
import Testing
import TestSupport

/// `GET /widget_data/flows/<app>/<flow>/<version|HEAD>/<locale>.json` over real HTTP: the
/// document the SDKs download at start-up (JRCaptureData.m:300-343, Jump.java:1001-1038).
@Suite struct FlowDocumentRouteTests {
    static let base = "/widget_data/flows/localapp/standard"

    struct Answer {
        var status: Int
        var headers: HTTPHeaders
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    static func get(
        _ server: TestServer, _ target: String, headers: [(String, String)] = [], method: HTTPMethod = .GET,
        client: HTTPClient = ServerFixtures.client
    ) async throws -> Answer {
        var request = HTTPClientRequest(url: server.url.description + target)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 22)
        return Answer(status: Int(response.status.code), headers: response.headers, body: Array(buffer: body))
    }

    static func expected(_ locale: String) throws -> String {
        try CaptureFlowDocument.text(ServerFixtures.flow, localizer: ServerFixtures.localizer, locale: LocaleTag(locale)!)
    }

    /// As the SDKs ask (`Accept-Encoding: gzip`): gzipped, and once decoded (by AsyncHTTPClient's
    /// own decompressor) the document of the locale, byte for byte.
    @Test func theDocumentComesGzippedWhenAskedAndDecodesToTheDocument() async throws {
        let decompressing = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: .init(decompression: .enabled(limit: .ratio(50))))
        do {
            try await checkGzip(decompressing)
        } catch {
            try await decompressing.shutdown()
            throw error
        }
        try await decompressing.shutdown()
    }

    func checkGzip(_ decompressing: HTTPClient) async throws {
        try await withServer(.socket) { server in
            for locale in ["en-US", "fr-FR", "ja-JP"] {
                let raw = try await Self.get(server, "\(Self.base)/HEAD/\(locale).json", headers: [("Accept-Encoding", "gzip")])
                #expect(raw.status == 200)
                #expect(raw.headers.first(name: "Content-Encoding") == "gzip")
                #expect(raw.headers.first(name: "Content-Type") == "application/json; charset=utf-8")
                #expect(raw.headers.first(name: "Vary") == "Accept-Encoding")
                #expect(raw.body.prefix(2) == [0x1F, 0x8B], "not a gzip member")
                let expected = try Self.expected(locale)
                #expect(raw.body.count < expected.utf8.count / 3, "\(raw.body.count) bytes gzipped of \(expected.utf8.count)")
                let decoded = try await Self.get(
                    server, "\(Self.base)/HEAD/\(locale).json", headers: [("Accept-Encoding", "gzip")],
                    client: decompressing)
                #expect(decoded.text == expected)
            }
        }
    }

    @Test func withoutGzipTheDocumentComesAsItIs() async throws {
        try await withServer(.socket) { server in
            let expected = try Self.expected("de-DE")
            for accept in [nil, "identity", "gzip;q=0", "br, deflate", "*;q=0"] {
                let answer = try await Self.get(
                    server, "\(Self.base)/2024-01-15.1/de-DE.json", headers: accept.map { [("Accept-Encoding", $0)] } ?? [])
                #expect(answer.status == 200)
                #expect(answer.headers.first(name: "Content-Encoding") == nil, "Accept-Encoding: \(accept ?? "none")")
                #expect(answer.text == expected)
                #expect(answer.headers.first(name: "Content-Length") == String(expected.utf8.count))
            }
            for accept in ["GZIP", "deflate, gzip;q=0.5", "*", "x-gzip"] {
                let answer = try await Self.get(server, "\(Self.base)/2024-01-15.1/de-DE.json", headers: [("Accept-Encoding", accept)])
                #expect(answer.headers.first(name: "Content-Encoding") == "gzip", "Accept-Encoding: \(accept)")
            }
        }
    }

    /// The SDKs send the document's `version` as `flow_version`; HEAD and the version itself
    /// answer the same document.
    @Test func headAndTheVersionAnswerTheSameDocument() async throws {
        try await withServer(.socket) { server in
            let head = try await Self.get(server, "\(Self.base)/HEAD/en-US.json")
            let versioned = try await Self.get(server, "\(Self.base)/2024-01-15.1/en-US.json")
            #expect(head.text == versioned.text)
            #expect(head.headers.first(name: "ETag") == versioned.headers.first(name: "ETag"))
            let document = try JSONValue.parse(head.body)
            #expect(document["version"] == .string(ServerFixtures.flow.version.value))
        }
    }

    /// A locale without a file is negotiated as the forms do: fr-CA is fr-FR's texts (CLDR's
    /// parent fr, then the language's own region), under its own name.
    @Test func aLocaleWithoutAFileFallsBack() async throws {
        try await withServer(.socket) { server in
            let answer = try await Self.get(server, "\(Self.base)/HEAD/fr-CA.json")
            #expect(answer.status == 200)
            #expect(answer.text == (try Self.expected("fr-CA")))
            let document = try JSONValue.parse(answer.body)
            #expect(document["jumpForms"]?["locale"] == "fr-CA")
            #expect(document["fields"]?["emailAddress"]?["label"] == "Adresse e-mail")
            // A language without a file: the default locale's.
            let italian = try JSONValue.parse(try await Self.get(server, "\(Self.base)/HEAD/it-IT.json").body)
            #expect(italian["fields"]?["emailAddress"]?["label"] == "Email address")
        }
    }

    @Test func theETagAnswers304ForEitherCoding() async throws {
        try await withServer(.socket) { server in
            let target = "\(Self.base)/HEAD/pl-PL.json"
            let plain = try await Self.get(server, target)
            let gzipped = try await Self.get(server, target, headers: [("Accept-Encoding", "gzip")])
            let plainTag = try #require(plain.headers.first(name: "ETag"))
            let gzipTag = try #require(gzipped.headers.first(name: "ETag"))
            #expect(plainTag != gzipTag)
            #expect(plain.headers.first(name: "Cache-Control") == "no-cache")
            for (tag, accept) in [(plainTag, nil), (gzipTag, "gzip"), ("W/" + plainTag, "gzip"), ("\"old\", " + gzipTag, nil), ("*", nil)] {
                var headers = [("If-None-Match", tag)]
                if let accept { headers.append(("Accept-Encoding", accept)) }
                let answer = try await Self.get(server, target, headers: headers)
                #expect(answer.status == 304, "If-None-Match: \(tag)")
                #expect(answer.body.isEmpty)
                #expect(answer.headers.first(name: "ETag") == (accept == nil ? plainTag : gzipTag))
            }
            let stale = try await Self.get(server, target, headers: [("If-None-Match", "\"not-the-document\"")])
            #expect(stale.status == 200)
            #expect(stale.text == plain.text)
            // Another locale is another document, with another tag.
            let other = try await Self.get(server, "\(Self.base)/HEAD/ja-JP.json", headers: [("If-None-Match", plainTag)])
            #expect(other.status == 200)
            #expect(other.headers.first(name: "ETag") != plainTag)
        }
    }

    @Test func headAnswersTheHeadersOnly() async throws {
        try await withServer(.socket) { server in
            let get = try await Self.get(server, "\(Self.base)/HEAD/es-ES.json", headers: [("Accept-Encoding", "gzip")])
            let head = try await Self.get(server, "\(Self.base)/HEAD/es-ES.json", headers: [("Accept-Encoding", "gzip")], method: .HEAD)
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.headers.first(name: "Content-Length") == String(get.body.count))
            #expect(head.headers.first(name: "ETag") == get.headers.first(name: "ETag"))
            let post = try await Self.get(server, "\(Self.base)/HEAD/es-ES.json", method: .POST)
            #expect(post.status == 405)
        }
    }

    @Test func anotherAppFlowVersionOrShapeIsNotFound() async throws {
        try await withServer(.socket) { server in
            let cases = [
                "/widget_data/flows/otherapp/standard/HEAD/en-US.json": "not 'otherapp'",
                "/widget_data/flows/localapp/other/HEAD/en-US.json": "no flow 'other'",
                "/widget_data/flows/localapp/standard/2023-01-01.1/en-US.json": "no version '2023-01-01.1'",
                "/widget_data/flows/localapp/standard/HEAD/english!.json": "not a locale tag",
                "/widget_data/flows/localapp/standard/HEAD/en-US.xml": "<locale>.json",
                "/widget_data/flows/localapp/standard/HEAD": "<locale>.json",
                "/widget_data/flows/localapp/standard/HEAD/x/en-US.json": "<locale>.json",
                "/widget_data/flows/localapp/standard/HEAD/.json": "'' is not a locale tag"
            ]
            for (target, reason) in cases {
                let answer = try await Self.get(server, target)
                #expect(answer.status == 404, "\(target)")
                let error = try JSONValue.parse(answer.body)
                #expect(error["stat"] == "error")
                #expect(error["code"] == 404)
                #expect(error["error_description"]?.stringValue?.contains(reason) == true, "\(target): \(answer.text)")
            }
            // Escapes in the path are decoded before comparing.
            let escaped = try await Self.get(server, "/widget_data/flows/local%61pp/standard/HEAD/en%2DUS.json")
            #expect(escaped.status == 200)
        }
    }

    /// Without `captureAppId` in jump.yaml, any app id is this server's.
    @Test func withoutAnAppIdEveryAppIdIsServed() async throws {
        try await withServer(.socket, configure: { $0.captureAppId = nil }) { server in
            let answer = try await Self.get(server, "/widget_data/flows/anyapp/standard/HEAD/en-US.json")
            #expect(answer.status == 200)
        }
    }
}

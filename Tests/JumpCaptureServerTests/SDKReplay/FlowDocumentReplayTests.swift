import JumpForms
import Testing

/// The flow document as the SDKs download it (`/widget_data/flows/<app>/<flow>/<version|HEAD>/<locale>.json`)
/// and what they read from it: `version` (a string, sent back as `flow_version`), the forms'
/// ordered field lists, each field's `type` and `schemaId`, and `schema_info.paths`.
/// docs/sdk-calls.md, "Flow document".
@Suite(.replayServer(.plain), .timeLimit(.minutes(5)))
struct FlowDocumentReplayTests {
    @Test(
        """
        iOS JRCaptureData.m:300-343 flow download with Accept-Encoding gzip: gzip on the wire, version a string, forms and fields as \
        JRCaptureFlow.m:59-101 reads them
        """
    )
    func iOSFlowDownload() async throws {
        let server = try ReplayServer.get()
        let request = server.iOS.flowDownload()
        #expect(request.header("Accept-Encoding") == "gzip")
        // What crosses the wire (NSURLSession inflates it for the SDK).
        let raw = try await SDKWire.send(request, to: server.url, client: SDKWire.rawClient)
        #expect(raw.status == 200, "\(raw)")
        #expect(raw.headers.first(name: "content-encoding")?.lowercased() == "gzip", "asked for gzip: \(raw.headers)")
        #expect(raw.bytes.starts(with: [0x1F, 0x8B]), "not a gzip stream")
        // processFlow: (JRCaptureData.m:345-377): a JSON dictionary.
        let answer = try await server.send(request)
        let document = try answer.read().object()
        try Self.checkAsSDKsRead(document, expected: SDKFlow(flow: server.flow), signInForm: server.iOS.signInForm)
    }

    @Test("Android Jump.java:1001-1038 flow download: the URL ends in ?, Content-Type application/json (ApiConnection.java:85), gzip through OkHttp")
    func androidFlowDownload() async throws {
        let server = try ReplayServer.get()
        let request = server.android.flowDownload()
        #expect(request.target.hasSuffix(".json?"))
        let raw = try await SDKWire.send(request, to: server.url, client: SDKWire.rawClient)
        #expect(raw.status == 200, "\(raw)")
        #expect(raw.headers.first(name: "content-encoding")?.lowercased() == "gzip", "OkHttp asks for gzip: \(raw.headers)")
        // fetchResponseAsJson: parsed only as application/json, else the download fails (Jump.java:1024-1029).
        let document = try await server.send(request).read().object()
        try Self.checkAsSDKsRead(document, expected: SDKFlow(flow: server.flow), signInForm: server.android.signInForm)
    }

    @Test("iOS JRCaptureData.m:302 captureFlowVersion set: the document of that version (not HEAD)")
    func iOSFlowDownloadOfAVersion() async throws {
        let server = try ReplayServer.get()
        let version = server.flow.version.value
        let answer = try await server.send(server.iOS.flowDownload(version: version))
        let document = try answer.read().object()
        #expect(document["version"] == .string(version), "\(answer)")
    }

    /// What both SDKs take from the document, compared with the flow the server enforces.
    static func checkAsSDKsRead(
        _ document: JSONValue, expected: SDKFlow, signInForm: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let flow: SDKFlow
        do {
            flow = try SDKFlow(document: document)
        } catch {
            Issue.record(Comment(rawValue: "the SDKs cannot read the flow document: \(error)"), sourceLocation: sourceLocation)
            return
        }
        #expect(flow.version == expected.version, "`version` is sent back as flow_version", sourceLocation: sourceLocation)
        for (name, fields) in expected.forms {
            #expect(flow.forms[name] == fields, "form \(name): \(flow.forms[name] ?? []) instead of \(fields)", sourceLocation: sourceLocation)
        }
        for (name, field) in expected.fields {
            #expect(
                flow.fields[name] == field, "field \(name): \(String(describing: flow.fields[name])) instead of \(field)",
                sourceLocation: sourceLocation)
        }
        // Exactly two sign-in fields, one a password (CaptureFlowUtils.java:127-130, JRCaptureApidInterface.m:629).
        #expect(flow.signInFields(signInForm) != nil, "the sign-in form needs two fields, one of type password", sourceLocation: sourceLocation)
        // schema_info.paths (JRCaptureFlow.m:63-67; CaptureRecord.java:460-466 reads it unguarded).
        let paths = document["schema_info"]?["paths"]
        #expect(
            paths?.objectValue?.allSatisfy { $0.value.stringValue != nil } == true, "schema_info.paths: an object of strings",
            sourceLocation: sourceLocation)
        // CaptureRecord.java:448-465: getEmail() and hasPassword() look up "email" and "password" there by name and
        // split the path they find, whatever the flow calls its fields (the example flow's are emailAddress and
        // newPassword): a missing entry is a NullPointerException in the app.
        #expect(paths?["email"]?.stringValue == "email", "schema_info.paths.email", sourceLocation: sourceLocation)
        #expect(paths?["password"]?.stringValue == "password", "schema_info.paths.password", sourceLocation: sourceLocation)
    }
}

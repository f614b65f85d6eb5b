import Logging
import Testing
@testable import JumpFormsCLI

/// The CLI's log handler: StreamLogHandler's line layout, metadata merged and sorted only when
/// a line is written.
@Suite struct StandardErrorLogHandlerTests {
    struct Refused: Error {}

    @Test func writesTheStreamLogHandlerLayoutWithMergedSortedMetadata() {
        var handler = StandardErrorLogHandler(label: "jump-forms.serve", metadataProvider: .init { ["trace": "p", "b": "provider"] })
        handler[metadataKey: "hb.request.id"] = "7"
        handler[metadataKey: "b"] = "handler"
        #expect(handler[metadataKey: "hb.request.id"] == "7")
        let event = LogEvent(
            level: .warning, message: "slow", metadata: ["a": "event", "trace": "event"],
            source: "JumpCaptureServer", file: #fileID, function: #function, line: #line)
        #expect(
            handler.line(for: event, at: "T")
                == "T warning jump-forms.serve: a=event b=provider hb.request.id=7 trace=event [JumpCaptureServer] slow\n")
    }

    @Test func namesTheErrorAndOmitsEmptyMetadata() {
        let handler = StandardErrorLogHandler(label: "", metadataProvider: nil)
        #expect(
            handler.line(for: LogEvent(level: .info, message: "up", metadata: nil, source: "S", file: "", function: "", line: 0), at: "T")
                == "T info: [S] up\n")
        let failed = LogEvent(level: .error, message: "no", error: Refused(), metadata: nil, source: "S", file: "", function: "", line: 0)
        #expect(
            handler.line(for: failed, at: "T")
                == "T error: error.message=Refused() error.type=JumpFormsCLITests.StandardErrorLogHandlerTests.Refused [S] no\n")
    }

    /// `--log-format json`: one object a line, the fixed fields first, then the metadata sorted,
    /// numbers as numbers; control characters escaped by JSON, so a line cannot forge another.
    @Test func writesOneJSONObjectALine() {
        var handler = StandardErrorLogHandler(label: "jump-forms.serve", format: .json, metadataProvider: nil)
        handler[metadataKey: "request_id"] = "7"
        let event = LogEvent(
            level: .info, message: "request\nforged",
            metadata: [
                "status": .stringConvertible(200), "duration_ms": .stringConvertible(1.5),
                "message": "ignored", "list": ["a", .stringConvertible(2)]
            ],
            source: "JumpCaptureServer", file: #fileID, function: #function, line: #line)
        #expect(
            handler.line(for: event, at: "T")
                == #"{"time":"T","level":"info","label":"jump-forms.serve","source":"JumpCaptureServer","message":"request\nforged","#
                + #""duration_ms":1.5,"list":["a",2],"request_id":"7","status":200}"# + "\n")
    }

    @Test func timestampIsLocalISO8601ToTheSecond() {
        let stamp = StandardErrorLogHandler.timestamp()
        #expect(stamp.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4}/) != nil, "\(stamp)")
    }
}

import Testing

@testable import JumpFormsCLI

/// What the progress lines of `users import` and `users export` say (the terminal tests of
/// both commands see them drawn).
struct ProgressLineTests {
    @Test func importShowsTheBarByBytesWhenTheFileHasASize() {
        #expect(
            UsersImportCommand.progress(records: 40_000, bytes: 12_000_000, of: 38_700_000, rate: 8_123)
                == "[#########.....................] 31% 12.0 MB of 38.7 MB  40,000 records  8,123/s")
        #expect(UsersImportCommand.progress(records: 12, bytes: 1_234, of: nil, rate: 0) == "0.0 MB  12 records  0/s")
    }

    @Test func exportCountsTheRecordsOfAnEarlierRunAndSaysWhyItTriesAgain() {
        var progress = ExportProgress(already: 1_000)
        progress.written = 500
        #expect(progress.text(rate: 250) == "1,500 records  250/s")
        progress.total = 3_000
        progress.retrying = (attempt: 2, reason: "HTTP 503")
        #expect(progress.text(rate: 250) == "[###############...............] 50% 1,500 of 3,000 records  250/s  (trying again, try 2: HTTP 503)")
    }

    @Test func theBarStaysWithinItsWidth() {
        #expect(ProgressLine.bar(1.7) == "[" + String(repeating: "#", count: 30) + "] 100%")
        #expect(ProgressLine.bar(-1) == "[" + String(repeating: ".", count: 30) + "] 0%")
        #expect(ProgressLine.grouped(1_234_567) == "1,234,567")
    }
}

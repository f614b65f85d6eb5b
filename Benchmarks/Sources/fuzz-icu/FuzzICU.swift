import DevToolSupport
import JumpForms

// fuzz-icu: a libFuzzer target for the ICU MessageFormat parser and formatter.
//
// Built with `-sanitize=fuzzer -D FUZZING` (scripts/fuzz.sh) libFuzzer drives
// `LLVMFuzzerTestOneInput`; built normally it is a replay tool:
// `fuzz-icu FILE-OR-FOLDER...` runs each input once (a crash reproduces).
//
// One input: its bytes as UTF-8 text (invalid UTF-8 is skipped: locale files are validated as
// UTF-8 before any message is parsed) through `MessagePattern(parsing:)`; a pattern that
// parses is formatted with `MessageFormatter(localeTag:)` in locales of every plural shape,
// with integer, decimal and string arguments. Offsets the parser reports must lie inside the
// text, or the input traps.

enum FuzzICU {
    static let locales = ["en-US", "pl-PL", "ar-EG", "ja-JP", "fr-FR", "cy-GB", "ru-RU", "lv-LV", "he-IL", "ga-IE"]
    static let formatters = locales.map { MessageFormatter(localeTag: $0) }
    static let numbers: [MessageArgument] = [
        .int(0), .int(1), .int(2), .int(3), .int(5), .int(11), .int(21), .int(102),
        .int(1_000_000), .int(-1), .decimal("1.5"), .decimal("0.0"), .decimal("-2.25")
    ]

    static func testOneInput(_ input: UnsafeBufferPointer<UInt8>) {
        guard let text = String(validating: input, as: UTF8.self) else { return }
        let scalars = text.unicodeScalars.count
        let pattern: MessagePattern
        do {
            pattern = try MessagePattern(parsing: text)
        } catch {
            if error.offset < 0 || error.offset > scalars {
                fatalError("invariant: syntax error offset \(error.offset) outside the \(scalars)-scalar text: \(error.message)")
            }
            return
        }
        func check(_ offset: Int, _ what: String) {
            if offset < 0 || offset > scalars {
                fatalError("invariant: \(what) at offset \(offset) outside the \(scalars)-scalar text")
            }
        }
        for use in pattern.arguments + pattern.argumentUses {
            check(use.offset, "argument '\(use.name)'")
            check(use.nameOffset, "the name of argument '\(use.name)'")
        }
        for selector in pattern.selectors {
            check(selector.offset, "selector '\(selector.name)'")
            for key in selector.keys { check(key.offset, "case key '\(key.text)' of '\(selector.name)'") }
        }
        var nodes = 0
        pattern.walk { _ in nodes += 1 }
        let names = Array(Set(pattern.arguments.map(\.name))).sorted()
        for (index, formatter) in formatters.enumerated() {
            for variant in 0..<3 {
                var arguments: [String: MessageArgument] = [:]
                for (position, name) in names.enumerated() {
                    let pick = index * 3 + variant + position
                    arguments[name] = pick % 4 == 3 ? .string("x") : numbers[pick % numbers.count]
                }
                _ = try? formatter.format(pattern, arguments)
            }
        }
        // Missing arguments must be an error, never a crash.
        _ = try? formatters[0].format(pattern, [:])
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzICUTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzICU.testOneInput(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    return 0
}

#if FUZZING
    // SwiftPM links an executable with `--defsym main=fuzz_icu_main` (the module's entry point), so the
    // fuzzing build provides that symbol itself and hands control to libFuzzer's driver.
    @_cdecl("fuzz_icu_main")
    public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
        FuzzTarget.runDriver(argc, argv, fuzzICUTestOneInput)
    }
#else
    /// Replays inputs: every file named, or every file in a folder named.
    @main
    struct FuzzICUReplay {
        static func main() {
            FuzzTarget.replay(tool: "fuzz-icu", FuzzICU.testOneInput)
        }
    }
#endif

import JumpDiagnostics

/// ICU number skeletons (`{n, number, ::currency/EUR .00}`): the subset jump-forms formats.
///
/// Stems, in their long and concise forms (docs/locales.md lists them):
/// - notation: `compact-short` `K`, `compact-long` `KK`, `scientific` `E0`, `engineering` `EE0`,
///   `notation-simple`;
/// - unit: `percent` `%`, `permille`, `%x100` (percent times 100), `currency/EUR`,
///   `base-unit`;
/// - unit width: `unit-width-short`, `unit-width-iso-code`, `unit-width-hidden`;
/// - precision: `precision-integer`, `precision-unlimited`, `precision-currency-standard`,
///   `precision-increment/0.05`, `.00`, `.00+`, `.##`, `.0#`, `@@@`, `@@+`, `@##`, and a
///   fraction with a significant-digit bound `.##/@@+`, `.00/@##`;
/// - `rounding-mode-` `ceiling` `floor` `down` `up` `half-even` `half-down` `half-up`;
/// - `integer-width/##0`, `integer-width/*000` (`+000`), `integer-width-trunc`, `000`;
/// - `scale/100`;
/// - grouping: `group-off` `,_`, `group-min2` `,?`, `group-auto`, `group-on-aligned` `,!`,
///   `group-thousands`;
/// - sign: `sign-auto`, `sign-always` `+!`, `sign-never` `+_`, `sign-accounting` `()`,
///   `sign-accounting-always` `()!`, `sign-except-zero` `+?`, `sign-accounting-except-zero`
///   `()?`, `sign-negative` `+-`, `sign-accounting-negative` `()-`;
/// - `decimal-auto`, `decimal-always`.
///
/// Everything else (`measure-unit/`, `unit/`, `numbering-system/`, `latin`, `precision-currency-cash`, currency names
/// and narrow symbols, `unit-width-formal`, `usage/`, `/w` trailing zeros) is refused with an
/// error naming the stem.
enum NumberSkeleton {
    struct SyntaxError: Error, Sendable, Hashable {
        var message: String
        /// The offset of the stem in the skeleton text (after `::`), in Unicode scalars.
        var offset: Int
    }

    static func parse(_ text: String) throws(SyntaxError) -> NumberFormat {
        var format = NumberFormat()
        var seen: Set<String> = []
        let scalars = Array(text.unicodeScalars)
        var index = 0
        var tokens: [(String, Int)] = []
        while index < scalars.count {
            while index < scalars.count, MessageParser.isPatternWhiteSpace(scalars[index]) { index += 1 }
            guard index < scalars.count else { break }
            let start = index
            var token = String.UnicodeScalarView()
            while index < scalars.count, !MessageParser.isPatternWhiteSpace(scalars[index]) {
                token.append(scalars[index])
                index += 1
            }
            tokens.append((String(token), start))
        }
        guard !tokens.isEmpty else { throw SyntaxError(message: "empty number skeleton after '::'", offset: 0) }

        for (token, offset) in tokens {
            func fail(_ message: String) -> SyntaxError { SyntaxError(message: message, offset: offset) }
            func once(_ group: String) throws(SyntaxError) {
                guard seen.insert(group).inserted else { throw fail("the skeleton sets the \(group) twice ('\(token)')") }
            }
            let parts = token.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            let stem = parts[0]
            let options = Array(parts.dropFirst())
            func noOptions() throws(SyntaxError) {
                if !options.isEmpty { throw fail("'\(stem)' takes no option") }
            }
            func oneOption() throws(SyntaxError) -> String {
                guard options.count == 1, !options[0].isEmpty else { throw fail("'\(stem)' takes one option, as in '\(stem)/\(example(stem))'") }
                return options[0]
            }

            switch stem {
            case "compact-short", "K":
                try noOptions(); try once("notation"); format.notation = .compactShort
            case "compact-long", "KK":
                try noOptions(); try once("notation"); format.notation = .compactLong
            case "scientific", "E0":
                try noOptions(); try once("notation"); format.notation = .scientific
            case "engineering", "EE0":
                try noOptions(); try once("notation"); format.notation = .engineering
            case "notation-simple":
                try noOptions(); try once("notation"); format.notation = .simple
            case "percent", "%":
                try noOptions(); try once("unit"); format.unit = .percent
            case "permille":
                try noOptions(); try once("unit"); format.unit = .permille
            case "%x100":
                try noOptions(); try once("unit"); try once("scale")
                format.unit = .percent
                format.multiplier = DecimalNumber(100)
            case "base-unit":
                try noOptions(); try once("unit"); format.unit = .none
            case "currency":
                let code = try oneOption()
                guard code.count == 3, code.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) }) else {
                    throw fail("'\(code)' is not an ISO 4217 currency code (three capital letters, as in currency/EUR)")
                }
                try once("unit")
                format.unit = .currency(code)
            case "unit-width-short", "unit-width-iso-code", "unit-width-hidden", "unit-width-narrow", "unit-width-full-name":
                try noOptions(); try once("unit width")
                format.unitWidth = NumberFormat.UnitWidth(rawValue: String(stem.dropFirst("unit-width-".count)))!
            case "precision-integer":
                try noOptions(); try once("precision"); format.precision = .fraction(min: 0, max: 0)
            case "precision-unlimited":
                try noOptions(); try once("precision"); format.precision = .unlimited
            case "precision-currency-standard":
                try noOptions(); try once("precision"); format.precision = .currencyStandard
            case "precision-increment":
                let option = try oneOption()
                guard let increment = DecimalNumber(option), !increment.negative, !increment.isZero, !option.contains("e"), !option.contains("E")
                else {
                    throw fail("'\(option)' is not a positive decimal increment (as in precision-increment/0.05)")
                }
                try once("precision")
                format.precision = .increment(increment)
            case _ where stem.hasPrefix("rounding-mode-"):
                try noOptions()
                guard let mode = RoundingMode(rawValue: String(stem.dropFirst("rounding-mode-".count))) else {
                    throw fail(
                        "unknown rounding mode '\(stem)'; expected rounding-mode- followed by \(RoundingMode.allCases.map(\.rawValue).joined(separator: ", "))"
                    )
                }
                try once("rounding mode")
                format.roundingMode = mode
            case "integer-width":
                let option = try oneOption()
                guard let (min, max) = integerWidth(option) else {
                    throw fail("'\(option)' is not an integer width (as in integer-width/##0 or integer-width/*00)")
                }
                try once("integer width")
                format.minInteger = min
                format.maxInteger = max
            case "integer-width-trunc":
                try noOptions(); try once("integer width")
                format.minInteger = 0
                format.maxInteger = 0
            case "scale":
                let option = try oneOption()
                guard let scale = DecimalNumber(option) else { throw fail("'\(option)' is not a number (as in scale/100)") }
                try once("scale")
                format.multiplier = scale
            case "group-off", ",_":
                try noOptions(); try once("grouping"); format.grouping = .off
            case "group-min2", ",?":
                try noOptions(); try once("grouping"); format.grouping = .min2
            case "group-auto":
                try noOptions(); try once("grouping"); format.grouping = .auto
            case "group-on-aligned", ",!":
                try noOptions(); try once("grouping"); format.grouping = .onAligned
            case "group-thousands":
                try noOptions(); try once("grouping"); format.grouping = .thousands
            case "decimal-auto", "decimal-always":
                try noOptions(); try once("decimal separator display")
                format.decimalAlwaysShown = stem == "decimal-always"
            case _ where signStems[stem] != nil:
                try noOptions(); try once("sign display")
                format.signDisplay = signStems[stem]!
            case _ where stem.first == "." || stem.first == "@":
                try once("precision")
                format.precision = try precision(stem, options, fail: fail)
            case _ where !stem.isEmpty && stem.unicodeScalars.allSatisfy({ $0 == "0" }):
                try noOptions(); try once("integer width")
                format.minInteger = stem.count
            case "measure-unit", "unit", "numbering-system", "latin", "precision-currency-cash", "unit-width-formal", "usage", "unit-width-variant",
                "precision-increment-cash":
                throw fail("'\(stem)' is not supported by jump-forms (docs/locales.md lists the skeleton stems it formats)")
            default:
                let stems = [
                    "compact-short", "compact-long", "scientific", "engineering", "percent", "currency",
                    "precision-integer", "precision-unlimited", "integer-width", "scale", "group-off", "group-min2",
                    "group-on-aligned", "sign-always", "sign-never", "sign-accounting", "sign-except-zero", "decimal-always"
                ]
                let hint = Suggestion.closest(to: stem, among: stems).map { " (did you mean '\($0)'?)" } ?? ""
                throw fail("unknown number skeleton stem '\(stem)'\(hint)")
            }
        }
        if case .currency = format.unit {
            if format.unitWidth == .narrow || format.unitWidth == .fullName {
                let offset = tokens.first { $0.0.hasPrefix("unit-width-") }?.1 ?? 0
                throw SyntaxError(
                    message:
                        """
                        unit-width-\(format.unitWidth.rawValue) is not supported for currencies (the CLDR data jump-forms carries has no narrow \
                        symbols or currency names); use unit-width-short or unit-width-iso-code
                        """,
                    offset: offset)
            }
        }
        if format.notation == .compactShort || format.notation == .compactLong {
            switch format.unit {
            case .none, .currency: break
            default:
                let offset = tokens.first { ["compact-short", "compact-long", "K", "KK"].contains($0.0) }?.1 ?? 0
                throw SyntaxError(message: "compact notation is supported with plain numbers and currencies only", offset: offset)
            }
        }
        return format
    }

    static let signStems: [String: NumberFormat.SignDisplay] = [
        "sign-auto": .auto, "sign-always": .always, "+!": .always, "sign-never": .never, "+_": .never,
        "sign-accounting": .accounting, "()": .accounting, "sign-accounting-always": .accountingAlways, "()!": .accountingAlways,
        "sign-except-zero": .exceptZero, "+?": .exceptZero, "sign-accounting-except-zero": .accountingExceptZero, "()?": .accountingExceptZero,
        "sign-negative": .negative, "+-": .negative, "sign-accounting-negative": .accountingNegative, "()-": .accountingNegative
    ]

    private static func example(_ stem: String) -> String {
        switch stem {
        case "currency": "EUR"
        case "scale": "100"
        case "integer-width": "##0"
        case "precision-increment": "0.05"
        default: "..."
        }
    }

    /// `##0` (min 1, max 3), `*000` or `+000` (min 3, no max).
    private static func integerWidth(_ option: String) -> (Int, Int?)? {
        var scalars = Substring(option)
        if scalars.first == "*" || scalars.first == "+" {
            scalars = scalars.dropFirst()
            guard scalars.allSatisfy({ $0 == "0" }) else { return nil }
            return (scalars.count, nil)
        }
        let hashes = scalars.prefix { $0 == "#" }.count
        let zeros = scalars.dropFirst(hashes)
        guard zeros.allSatisfy({ $0 == "0" }), hashes + zeros.count > 0 else { return nil }
        return (zeros.count, hashes + zeros.count)
    }

    /// `.00`, `.00+`, `.##`, `.0#`, `@@@`, `@@+`, `@##`, `.##/@@+`, `.00/@##`.
    private static func precision(_ stem: String, _ options: [String], fail: (String) -> SyntaxError) throws(SyntaxError) -> NumberFormat.Precision {
        if stem.first == "@" {
            guard options.isEmpty, let (min, max) = significant(stem) else {
                throw fail("'\(stem)' is not a significant-digits stem (as in @@@, @@+ or @##)")
            }
            return .significant(min: min, max: max)
        }
        guard let (minFraction, maxFraction) = fraction(stem) else {
            throw fail("'\(stem)' is not a fraction-digits stem (as in .00, .00+, .## or .0#)")
        }
        if options.isEmpty { return .fraction(min: minFraction, max: maxFraction) }
        guard options.count == 1, let maxFraction, let (minSig, maxSig) = significant(options[0]) else {
            throw fail(
                "'\(stem)/\(options.joined(separator: "/"))' is not supported; a fraction stem takes one significant-digits option, as in .##/@@+ or .00/@##"
            )
        }
        if maxSig == nil {
            // `.##/@@+`: at least minSig significant digits (ICU's withMinDigits).
            return .fractionSignificant(minFraction: minFraction, maxFraction: maxFraction, minSignificant: 1, maxSignificant: minSig, relaxed: true)
        }
        guard minSig == 1, let maxSig else {
            throw fail("'\(options[0])' is not supported after a fraction stem; write @@+ (at least) or @## (at most)")
        }
        return .fractionSignificant(minFraction: minFraction, maxFraction: maxFraction, minSignificant: 1, maxSignificant: maxSig, relaxed: false)
    }

    private static func fraction(_ stem: String) -> (Int, Int?)? {
        var rest = stem.dropFirst()
        let zeros = rest.prefix { $0 == "0" }.count
        rest = rest.dropFirst(zeros)
        if rest == "+" || rest == "*" { return (zeros, nil) }
        let hashes = rest.prefix { $0 == "#" }.count
        guard rest.count == hashes else { return nil }
        return (zeros, zeros + hashes)
    }

    private static func significant(_ stem: String) -> (Int, Int?)? {
        let ats = stem.prefix { $0 == "@" }.count
        guard ats > 0 else { return nil }
        let rest = stem.dropFirst(ats)
        if rest == "+" || rest == "*" { return (ats, nil) }
        let hashes = rest.prefix { $0 == "#" }.count
        guard rest.count == hashes else { return nil }
        return (ats, ats + hashes)
    }
}

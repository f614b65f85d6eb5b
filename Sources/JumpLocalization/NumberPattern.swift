import JumpDiagnostics

/// A decimal pattern as CLDR and ICU's DecimalFormat write them: `#,##0.###`, `#,##0%`,
/// `¤#,##0.00;(¤#,##0.00)`, `#,##,##0.###` (Indian grouping), `@@@`, `0.###E0`.
///
/// Supported: prefix and suffix text with quoting (`'#'`, `''`), the special characters `-`,
/// `+`, `%`, `‰` and `¤` (`¤` symbol, `¤¤` ISO code), a negative subpattern after `;` (its
/// affixes only, as in ICU), grouping (`,`), integer (`0`) and fraction (`0`, `#`) digits,
/// significant digits (`@`, `#`), rounding increments (`#,##0.05`) and exponents (`E0`, `E+00`).
/// Refused: padding (`*`), `¤¤¤` and longer currency signs.
struct NumberPattern: Sendable, Hashable {
    enum AffixPart: Sendable, Hashable {
        case literal(String)
        case minus, plus, percent, permille
        /// `¤` (1) or `¤¤` (2).
        case currency(Int)
    }

    var positivePrefix: [AffixPart] = []
    var positiveSuffix: [AffixPart] = []
    /// The affixes of the negative subpattern, when the pattern has one.
    var negativePrefix: [AffixPart]?
    var negativeSuffix: [AffixPart]?
    /// The size of the group next to the decimal separator; 0 without grouping.
    var primaryGrouping = 0
    /// The size of the other groups.
    var secondaryGrouping = 0
    var minInteger = 1
    var minFraction = 0
    var maxFraction = 0
    /// `@` patterns: the minimum and maximum significant digits (0 when not used).
    var minSignificant = 0
    var maxSignificant = 0
    /// `E0`: the minimum exponent digits; 0 without an exponent.
    var exponentDigits = 0
    var exponentShowsPlus = false
    var decimalAlwaysShown = false
    /// A rounding increment (`#,##0.05` rounds to 0.05).
    var increment: DecimalNumber?

    /// Why a pattern cannot be used, with the offset (in Unicode scalars) of the problem.
    struct SyntaxError: Error, Sendable, Hashable {
        var message: String
        var offset: Int
    }

    var allAffixes: [AffixPart] { positivePrefix + positiveSuffix + (negativePrefix ?? []) + (negativeSuffix ?? []) }

    /// The currency sign's width (`¤` 1, `¤¤` 2), when the pattern has one.
    var currencySign: Int? {
        for part in allAffixes { if case .currency(let count) = part { return count } }
        return nil
    }

    var hasPercent: Bool { allAffixes.contains(.percent) }
    var hasPermille: Bool { allAffixes.contains(.permille) }

    init(parsing text: String) throws(SyntaxError) {
        let scalars = Array(text.unicodeScalars)
        var index = 0

        func affix() throws(SyntaxError) -> [AffixPart] {
            var parts: [AffixPart] = []
            var literal = ""
            func flush() {
                if !literal.isEmpty { parts.append(.literal(literal)) }
                literal = ""
            }
            while index < scalars.count {
                let c = scalars[index]
                switch c {
                case "#", "0"..."9", "@", ",", ".", ";":
                    flush()
                    return parts
                case "'":
                    if index + 1 < scalars.count, scalars[index + 1] == "'" {
                        literal.unicodeScalars.append("'")
                        index += 2
                        continue
                    }
                    let start = index
                    index += 1
                    while index < scalars.count {
                        if scalars[index] == "'" {
                            if index + 1 < scalars.count, scalars[index + 1] == "'" {
                                literal.unicodeScalars.append("'")
                                index += 2
                                continue
                            }
                            break
                        }
                        literal.unicodeScalars.append(scalars[index])
                        index += 1
                    }
                    guard index < scalars.count else { throw SyntaxError(message: "the quote in this number pattern is never closed", offset: start) }
                    index += 1
                case "-": flush(); parts.append(.minus); index += 1
                case "+": flush(); parts.append(.plus); index += 1
                case "%": flush(); parts.append(.percent); index += 1
                case "\u{2030}": flush(); parts.append(.permille); index += 1
                case "\u{00A4}":
                    flush()
                    let start = index
                    while index < scalars.count, scalars[index] == "\u{00A4}" { index += 1 }
                    let count = index - start
                    guard count <= 2 else {
                        throw SyntaxError(
                            message:
                                "'\(String(repeating: "¤", count: count))' (currency \(count == 3 ? "plural names" : "narrow symbols")) is not supported; use ¤ or ¤¤",
                            offset: start)
                    }
                    parts.append(.currency(count))
                case "*":
                    throw SyntaxError(message: "padding ('*') is not supported in number patterns", offset: index)
                default:
                    literal.unicodeScalars.append(c)
                    index += 1
                }
            }
            flush()
            return parts
        }

        positivePrefix = try affix()
        // The number: integer digits, grouping, fraction, significant digits, exponent.
        let numberStart = index
        var groupPositions: [Int] = []  // digit counts at each ','
        var integerDigits = 0
        var zeros = 0
        var sawDecimal = false
        var fractionZeros = 0
        var fractionHashes = 0
        var atSigns = 0
        var hashesAfterAt = 0
        var incrementDigits: [UInt8] = []
        var incrementScale = 0
        var sawIncrement = false
        numberLoop: while index < scalars.count {
            let c = scalars[index]
            switch c {
            case "#":
                if sawDecimal {
                    fractionHashes += 1
                } else if atSigns > 0 {
                    hashesAfterAt += 1
                    integerDigits += 1
                } else {
                    if zeros > 0 { throw SyntaxError(message: "'#' after '0' in the integer digits of a number pattern", offset: index) }
                    integerDigits += 1
                }
                if sawIncrement { incrementDigits.append(0); if sawDecimal { incrementScale += 1 } }
            case "0"..."9":
                if atSigns > 0 { throw SyntaxError(message: "digits cannot follow '@' in a number pattern", offset: index) }
                if sawDecimal {
                    if fractionHashes > 0 { throw SyntaxError(message: "'0' after '#' in the fraction digits of a number pattern", offset: index) }
                    fractionZeros += 1
                    incrementScale += 1
                } else {
                    zeros += 1
                    integerDigits += 1
                }
                if c != "0" { sawIncrement = true }
                incrementDigits.append(UInt8(c.value - 0x30))
            case "@":
                if zeros > 0 || sawDecimal {
                    throw SyntaxError(message: "'@' cannot be mixed with '0' or a decimal point in a number pattern", offset: index)
                }
                if hashesAfterAt > 0 { throw SyntaxError(message: "'@' after '#' in a number pattern", offset: index) }
                atSigns += 1
                integerDigits += 1
            case ",":
                if sawDecimal { throw SyntaxError(message: "a grouping separator in the fraction of a number pattern", offset: index) }
                groupPositions.append(integerDigits)
            case ".":
                if sawDecimal { throw SyntaxError(message: "two decimal points in a number pattern", offset: index) }
                sawDecimal = true
            case "E":
                let start = index
                index += 1
                if index < scalars.count, scalars[index] == "+" {
                    exponentShowsPlus = true
                    index += 1
                }
                var digits = 0
                while index < scalars.count, scalars[index] == "0" { digits += 1; index += 1 }
                guard digits > 0 else { throw SyntaxError(message: "expected '0' after 'E' in a number pattern", offset: start) }
                exponentDigits = digits
                break numberLoop
            default:
                break numberLoop
            }
            index += 1
        }
        guard index > numberStart, integerDigits + fractionZeros + fractionHashes > 0 else {
            throw SyntaxError(message: "a number pattern needs digits ('#', '0' or '@'), as in #,##0.##", offset: numberStart)
        }
        minInteger = atSigns > 0 ? 1 : zeros
        if minInteger == 0 && fractionZeros == 0 && atSigns == 0 { minInteger = 1 }
        minFraction = fractionZeros
        maxFraction = fractionZeros + fractionHashes
        decimalAlwaysShown = sawDecimal && maxFraction == 0
        if atSigns > 0 {
            minSignificant = atSigns
            maxSignificant = atSigns + hashesAfterAt
        }
        if let last = groupPositions.last {
            primaryGrouping = integerDigits - last
            if groupPositions.count >= 2 {
                secondaryGrouping = last - groupPositions[groupPositions.count - 2]
            } else {
                secondaryGrouping = primaryGrouping
            }
            if primaryGrouping == 0 { secondaryGrouping = 0 }
        }
        if sawIncrement {
            increment = DecimalNumber(negative: false, digits: incrementDigits, scale: incrementScale)
        }
        positiveSuffix = try affix()
        if index < scalars.count, scalars[index] == ";" {
            index += 1
            negativePrefix = try affix()
            // The negative subpattern's number part is ignored, as in ICU.
            while index < scalars.count, "#0123456789@,.E".unicodeScalars.contains(scalars[index]) { index += 1 }
            negativeSuffix = try affix()
        }
        if index < scalars.count {
            throw SyntaxError(message: "unexpected '\(scalars[index])' in a number pattern", offset: index)
        }
    }
}

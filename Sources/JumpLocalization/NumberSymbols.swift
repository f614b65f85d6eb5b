import JumpDiagnostics

/// How a locale writes numbers in Latin digits (CLDR 47 `latn` symbols, through babel; see
/// `NumberSymbols+CLDR.generated.swift` and `scripts/generate-plural-rules.py`).
///
/// ```swift
/// let de = NumberSymbols.forLocale("de-DE")
/// de.format(integer: -1234567)       // "-1.234.567"
/// de.format(decimal: "1234.50")      // "1.234,50"
/// NumberSymbols.forLocale("hi").format(integer: 1234567)   // "12,34,567"
/// ```
///
/// Grouping follows the default decimal pattern's sizes, as babel's `format_decimal` does; like
/// babel it ignores CLDR's minimumGroupingDigits (so `es` writes `1.234` where ICU writes `1234`).
/// The minus sign is the locale's (`−` U+2212 in `sv`), where babel always writes `-`.
public struct NumberSymbols: Sendable, Hashable {
    /// The decimal separator (`.` in `en`, `,` in `de`).
    public var decimal: String
    /// The grouping separator (`,` in `en`, `.` in `de`, U+202F in `fr`).
    public var group: String
    /// The minus sign (`-`; U+2212 in `sv`; U+200E U+002D in `ar`, `he`).
    public var minusSign: String
    /// The size of the group next to the decimal separator; 0 for no grouping.
    public var primaryGrouping: Int
    /// The size of the other groups (2 in Indian grouping `12,34,567`, else 3).
    public var secondaryGrouping: Int

    public init(decimal: String, group: String, minusSign: String, primaryGrouping: Int, secondaryGrouping: Int) {
        self.decimal = decimal
        self.group = group
        self.minusSign = minusSign
        self.primaryGrouping = primaryGrouping
        self.secondaryGrouping = secondaryGrouping
    }

    /// The root's symbols: `.` `,` `-`, groups of 3.
    public static let root = NumberSymbols(decimal: ".", group: ",", minusSign: "-", primaryGrouping: 3, secondaryGrouping: 3)

    /// The symbols for a BCP 47 or CLDR tag (`de-CH`, `es_MX`, `sr-Latn-RS`), looked up like
    /// `PluralRules.cardinal(for:)`: the whole tag, then language+script+region,
    /// language+region, language+script and the language; unknown tags get `root`.
    public static func forLocale(_ tag: String) -> NumberSymbols {
        for id in CLDRLocaleID.candidates(tag) {
            if let index = CLDR.symbolSetIndex[id] { return CLDR.symbolSets[index] }
        }
        return root
    }

    /// An integer with the locale's grouping and minus sign: `1,234,567` (en), `12,34,567` (hi).
    public func format(integer: Int) -> String {
        var digits: [UInt8] = []
        var magnitude = integer.magnitude
        repeat {
            digits.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        digits.reverse()
        return (integer < 0 ? minusSign : "") + grouped(digits[...])
    }

    /// A decimal written with `.` (`-1234.50`) in the locale's symbols, with grouping and the
    /// fraction digits as written: `1.234,50` (de). Leading zeros of the integer part are
    /// dropped (`007` gives `7`). Text that is not `-`? digits [`.` digits] is returned
    /// unchanged.
    public func format(decimal text: String) -> String {
        let bytes = Array(text.utf8)
        var index = 0
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { index += 1 }
        let wholeStart = index
        while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
        let wholeEnd = index
        var fraction: ArraySlice<UInt8> = []
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            fraction = bytes[(index + 1)...]
            guard !fraction.isEmpty, fraction.allSatisfy(Self.isDigit) else { return text }
            index = bytes.count
        }
        guard wholeEnd > wholeStart, index == bytes.count else { return text }
        var whole = bytes[wholeStart..<wholeEnd]
        while whole.count > 1, whole.first == UInt8(ascii: "0") { whole = whole.dropFirst() }
        var result = (negative ? minusSign : "") + grouped(whole)
        if !fraction.isEmpty { result += decimal + String(decoding: fraction, as: UTF8.self) }
        return result
    }

    /// ASCII digits with group separators: babel's `NumberPattern._format_int`.
    private func grouped(_ digits: ArraySlice<UInt8>) -> String {
        var groups: [ArraySlice<UInt8>] = []
        var rest = digits
        var size = primaryGrouping
        while size > 0, rest.count > size {
            groups.append(rest.suffix(size))
            rest = rest.dropLast(size)
            size = secondaryGrouping
        }
        groups.append(rest)
        return groups.reversed().map { String(decoding: $0, as: UTF8.self) }.joined(separator: group)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}

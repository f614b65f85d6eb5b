/// How a locale writes numbers (CLDR, latn digits): decimal and group separators, the minus
/// sign, and grouping sizes (3;3, or 3;2 for Indian grouping).
public struct NumberSymbols: Sendable, Hashable {
    public var decimal: String
    public var group: String
    public var minusSign: String
    public var primaryGrouping: Int
    public var secondaryGrouping: Int

    public init(decimal: String, group: String, minusSign: String, primaryGrouping: Int, secondaryGrouping: Int) {
        self.decimal = decimal
        self.group = group
        self.minusSign = minusSign
        self.primaryGrouping = primaryGrouping
        self.secondaryGrouping = secondaryGrouping
    }

    /// The symbols for a tag (most specific CLDR id first); `.` `,` `-` and 3;3 when unknown.
    public static func forLocale(_ tag: String) -> NumberSymbols {
        for candidate in CLDRIds.candidates(tag) {
            if let symbols = table[candidate] { return symbols }
        }
        return table["root"] ?? NumberSymbols(decimal: ".", group: ",", minusSign: "-", primaryGrouping: 3, secondaryGrouping: 3)
    }

    public func format(integer: Int) -> String {
        format(decimal: String(integer))
    }

    /// A decimal written with `.` (`-1234.50`) in the locale's symbols, keeping its fraction
    /// digits as written. Text that is not a plain decimal is returned unchanged.
    public func format(decimal text: String) -> String {
        var body = Substring(text)
        let negative = body.hasPrefix("-")
        if negative || body.hasPrefix("+") { body = body.dropFirst() }
        let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.allSatisfy({ $0.isASCII && $0.isNumber }),
              parts.count == 1 || parts[1].allSatisfy({ $0.isASCII && $0.isNumber }) else { return text }
        let digits = Array(whole)
        var groups: [String] = []
        var end = digits.count
        var size = primaryGrouping
        while end > 0 {
            let start = max(0, end - size)
            groups.insert(String(digits[start..<end]), at: 0)
            end = start
            size = secondaryGrouping
        }
        var result = groups.joined(separator: group)
        if parts.count == 2 { result += decimal + parts[1] }
        return (negative ? minusSign : "") + result
    }
}

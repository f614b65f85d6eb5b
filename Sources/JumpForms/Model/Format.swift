/// The named formats of the `format` rule (Capture's vocabulary), each with its exact definition.
///
/// Definitions are implemented by scanning Unicode scalars (no regular expressions), so the
/// rule engine stays fast; `definition` is the documentation and `examples` feed both the docs
/// and the tests.
public enum Format: String, Sendable, Hashable, CaseIterable, Codable {
    case alpha
    case alphaExtended
    case alphaExtendedSpaces
    case alphaNumeric
    case alphaNumericExtended
    case email
    case i18nAlphaNumeric
    case numeric
    case numericReal
    case phone
    case phoneInternational
    case zipCode
    case zipCodePlus4 = "zipCode+4"

    /// The exact definition, as documented in docs/flow-format.md.
    public var definition: String {
        switch self {
        case .alpha:
            "One or more ASCII letters `A-Z`, `a-z`."
        case .alphaExtended:
            """
            One or more Unicode letters (general category L), combining marks (M), apostrophes (`'`, `’`), hyphens (`-`) and periods (`.`), with at \
            least one letter.
            """
        case .alphaExtendedSpaces:
            "As `alphaExtended`, and spaces (U+0020) too."
        case .alphaNumeric:
            "One or more ASCII letters and digits."
        case .alphaNumericExtended:
            """
            One or more Unicode letters (L), combining marks (M), ASCII digits, spaces, apostrophes (`'`, `’`), hyphens, periods and underscores, \
            with at least one letter or digit.
            """
        case .email:
            """
            `local@domain`, split at the last `@`. The local part is 1-64 bytes (UTF-8) of non-empty dot-separated atoms of ASCII letters and \
            digits, ``!#$%&'*+/=?^_`{|}~-``, and beyond ASCII letters (L), combining marks (M) and decimal digits of any script (Nd). The domain is \
            1-253 bytes: two or more dot-separated labels of 1-63 characters, each an ASCII letter, ASCII digit or hyphen, or beyond ASCII a letter \
            (L) or combining mark (M) (no digits of other scripts); no label starts or ends with a hyphen, and the last label is not all ASCII \
            digits. At most 254 bytes in all. No quoted local parts, comments or IP-address domains.
            """
        case .i18nAlphaNumeric:
            "One or more Unicode letters (L), combining marks (M) and decimal digits of any script (Nd)."
        case .numeric:
            "One or more ASCII digits `0-9`."
        case .numericReal:
            """
            An optional sign (`+` or `-`), then digits with an optional fraction (`12`, `12.5`) or a fraction alone (`.5`); ASCII digits, a period \
            as decimal separator.
            """
        case .phone:
            "Digits with optional spaces, hyphens, periods and parentheses, and an optional leading `+`; 7 to 15 digits in all."
        case .phoneInternational:
            """
            A `+`, a country code starting with 1-9, then digits with optional spaces, hyphens, periods or parentheses; 8 to 15 digits in all \
            (E.164).
            """
        case .zipCode:
            "Exactly five ASCII digits (a US ZIP code)."
        case .zipCodePlus4:
            "Five ASCII digits, a hyphen and four ASCII digits (ZIP+4)."
        }
    }

    /// Values the format accepts and values it refuses; the tests check both lists.
    public var examples: (valid: [String], invalid: [String]) {
        switch self {
        case .alpha: (["Anna", "abc", "Z"], ["Anne-Marie", "José", "abc1", " "])
        case .alphaExtended: (["Anne-Marie", "José", "O'Brien", "Łukasz", "J.", "山田"], ["Anne Marie", "abc1", "--", "'"])
        case .alphaExtendedSpaces: (["Anne Marie", "José Luis", "Mary-Jane O'Neil"], ["Anne2", " . ", "a_b"])
        case .alphaNumeric: (["abc123", "ABC", "007"], ["abc_123", "ça", "a b"])
        case .alphaNumericExtended: (["Suite 4B", "José_99", "O'Hara-2"], ["a@b", "#1", "  "])
        case .email:
            (
                ["ana@example.com", "first.last+tag@sub.example.co.uk", "josé@exämple.de", "a@b.io", "ana\u{0663}@example.com", "नमस्ते@example.com"],
                [
                    "ana", "ana@example", "ana@@example.com", ".ana@example.com", "ana..b@example.com", "ana@-example.com", "ana@example.123",
                    "ana @example.com", "ana@example\u{0663}.com"
                ]
            )
        case .i18nAlphaNumeric: (["abc123", "Ελληνικά", "東京2024", "١٢٣"], ["a b", "a-b", "a.b"])
        case .numeric: (["0", "12345"], ["-1", "1.5", "١٢", "12a"])
        case .numericReal: (["12", "-12.5", "+0.5", ".5"], ["1.", "1,5", "--1", "1e3", "."])
        case .phone: (["555-123-4567", "(555) 123 4567", "+1 555.123.4567"], ["123", "555-CALL-NOW", "12345678901234567"])
        case .phoneInternational: (["+44 20 7946 0958", "+1-555-123-4567", "+33612345678"], ["020 7946 0958", "+0 123 456 789", "+1 23"])
        case .zipCode: (["90210", "00501"], ["9021", "902100", "90210-1234", "ABCDE"])
        case .zipCodePlus4: (["90210-1234"], ["90210", "902101234", "90210-123"])
        }
    }

    /// Whether `value` is in the format. The empty string never is.
    public func matches(_ value: String) -> Bool {
        let scalars = value.unicodeScalars
        guard !scalars.isEmpty else { return false }
        switch self {
        case .alpha:
            return scalars.allSatisfy(\.isASCIILetter)
        case .alphaExtended:
            return Self.alphaExtended(scalars, spaces: false)
        case .alphaExtendedSpaces:
            return Self.alphaExtended(scalars, spaces: true)
        case .alphaNumeric:
            return scalars.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit }
        case .alphaNumericExtended:
            var sawLetterOrDigit = false
            for scalar in scalars {
                if scalar.isLetter || scalar.isMark || scalar.isASCIIDigit {
                    sawLetterOrDigit = sawLetterOrDigit || !scalar.isMark
                } else if !" '’-._".unicodeScalars.contains(scalar) {
                    return false
                }
            }
            return sawLetterOrDigit
        case .email:
            return Self.isEmail(value)
        case .i18nAlphaNumeric:
            return scalars.allSatisfy { $0.isLetter || $0.isMark || $0.properties.numericType == .decimal }
        case .numeric:
            return scalars.allSatisfy(\.isASCIIDigit)
        case .numericReal:
            return Self.isNumericReal(Array(scalars))
        case .phone:
            return Self.phoneDigits(scalars, requirePlus: false).map { (7...15).contains($0) } ?? false
        case .phoneInternational:
            return Self.phoneDigits(scalars, requirePlus: true).map { (8...15).contains($0) } ?? false
        case .zipCode:
            return scalars.count == 5 && scalars.allSatisfy(\.isASCIIDigit)
        case .zipCodePlus4:
            let array = Array(scalars)
            return array.count == 10 && array[5] == "-"
                && array[0..<5].allSatisfy(\.isASCIIDigit) && array[6...].allSatisfy(\.isASCIIDigit)
        }
    }

    private static func alphaExtended(_ scalars: String.UnicodeScalarView, spaces: Bool) -> Bool {
        var sawLetter = false
        for scalar in scalars {
            if scalar.isLetter {
                sawLetter = true
            } else if scalar.isMark || scalar == "'" || scalar == "’" || scalar == "-" || scalar == "." {
                continue
            } else if spaces && scalar == " " {
                continue
            } else {
                return false
            }
        }
        return sawLetter
    }

    private static func isNumericReal(_ s: [Unicode.Scalar]) -> Bool {
        var i = 0
        if i < s.count, s[i] == "+" || s[i] == "-" { i += 1 }
        var integerDigits = 0
        while i < s.count, s[i].isASCIIDigit { i += 1; integerDigits += 1 }
        if i == s.count { return integerDigits > 0 }
        guard s[i] == "." else { return false }
        i += 1
        var fractionDigits = 0
        while i < s.count, s[i].isASCIIDigit { i += 1; fractionDigits += 1 }
        return i == s.count && fractionDigits > 0
    }

    /// The digit count of a phone number, or nil when a character is not allowed.
    private static func phoneDigits(_ scalars: String.UnicodeScalarView, requirePlus: Bool) -> Int? {
        var digits = 0
        var first = true
        var firstDigit: Unicode.Scalar?
        for scalar in scalars {
            defer { first = false }
            if scalar.isASCIIDigit {
                if firstDigit == nil { firstDigit = scalar }
                digits += 1
            } else if scalar == "+" {
                guard first else { return nil }
            } else if !" -.()".unicodeScalars.contains(scalar) {
                return nil
            }
        }
        if requirePlus {
            guard scalars.first == "+", let firstDigit, firstDigit != "0" else { return nil }
        }
        return digits
    }

    private static func isEmail(_ value: String) -> Bool {
        let utf8 = value.utf8
        guard utf8.count <= 254, let at = utf8.lastIndex(of: UInt8(ascii: "@")) else { return false }
        let localBytes = utf8.distance(from: utf8.startIndex, to: at)
        let domainStart = utf8.index(after: at)
        let domainBytes = utf8.distance(from: domainStart, to: utf8.endIndex)
        guard localBytes > 0, localBytes <= 64, domainBytes > 0, domainBytes <= 253 else { return false }
        // Local part: dot-separated non-empty atoms.
        var previousWasDot = true
        for scalar in value[..<at].unicodeScalars {
            if scalar == "." {
                if previousWasDot { return false }
                previousWasDot = true
                continue
            }
            previousWasDot = false
            let atext =
                scalar.isASCIILetter || scalar.isASCIIDigit || isEmailSymbol(scalar)
                || (scalar.value > 0x7F && (scalar.isLetter || scalar.isMark || scalar.properties.numericType == .decimal))
            if !atext { return false }
        }
        if previousWasDot { return false }
        // Domain: two or more labels of letters, digits and hyphens; the last not all digits.
        var labels = 0
        var labelLength = 0
        var labelAllDigits = true
        var previous: Unicode.Scalar = "."
        for scalar in value[domainStart...].unicodeScalars {
            if scalar == "." {
                guard labelLength > 0, previous != "-" else { return false }
                labels += 1
                labelLength = 0
                labelAllDigits = true
                previous = scalar
                continue
            }
            if labelLength == 0, scalar == "-" { return false }
            guard scalar.isASCIILetter || scalar.isASCIIDigit || scalar == "-" || (scalar.value > 0x7F && (scalar.isLetter || scalar.isMark)) else {
                return false
            }
            labelLength += 1
            if labelLength > 63 { return false }
            labelAllDigits = labelAllDigits && scalar.isASCIIDigit
            previous = scalar
        }
        guard labelLength > 0, previous != "-", !labelAllDigits else { return false }
        return labels + 1 >= 2
    }

    private static func isEmailSymbol(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "!", "#", "$", "%", "&", "'", "*", "+", "/", "=", "?", "^", "_", "`", "{", "|", "}", "~", "-": true
        default: false
        }
    }
}

extension Unicode.Scalar {
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
    var isLetter: Bool {
        if value < 0x80 { return isASCIILetter }
        return switch properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: true
        default: false
        }
    }
    var isMark: Bool {
        if value < 0x300 { return false }
        return switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: false
        }
    }
}

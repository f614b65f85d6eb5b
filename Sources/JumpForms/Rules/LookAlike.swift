/// The forms values are compared in where look-alikes must not pass for different values:
/// `unique` (the server's database) and the `blacklist` and `emailDomainBlacklist` rules.
///
/// - `folded(_:)`: NFKC_Casefold (Unicode's NFKC_CF: compatibility forms, case and default
///   ignorables removed), so `ａdmin`, `ADMIN` and `ad\u{200B}min` all compare as `admin`.
/// - `skeleton(_:)`: the UTS #39 confusable skeleton of the folded text, so that `аdmin` (with
///   a Cyrillic а) and `adrnin` compare as `admin` too. Used for display names and user names
///   (fields of type `text`), where a look-alike passes for someone else.
///
/// The per-scalar data comes from ICU (`LookAlike+Unicode.generated.swift`, made by
/// `scripts/generate-look-alike-tables.py`); the composition to NFC after mapping is the
/// Swift standard library's. Keys are for comparing only: they are stored beside values, never
/// instead of them, and never shown.
public enum LookAlike {
    /// Which key a value is compared by.
    public enum Comparison: String, Sendable, Hashable {
        /// `LookAlike.folded`.
        case folded
        /// `LookAlike.skeleton`.
        case skeleton

        /// The comparison of a field type: display and user names (`text`) by skeleton,
        /// everything else (emails included: a Cyrillic а is another mailbox) folded.
        public init(fieldType: FieldType) {
            self = fieldType == .text ? .skeleton : .folded
        }

        /// The key `text` is compared by.
        public func key(_ text: String) -> String {
            switch self {
            case .folded: LookAlike.folded(text)
            case .skeleton: LookAlike.skeleton(text)
            }
        }
    }

    /// Names the keys' data: stored keys made with other data are made again.
    public static var version: String { "nfkc_cf+uts39/unicode-" + Data.unicodeVersion }

    /// NFKC_Casefold of `text`: each scalar mapped by Unicode's NFKC_CF property, then NFC.
    public static func folded(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII: only A-Z change, and ASCII text is in NFC.
            guard text.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return text }
            return String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
        }
        return Table.fold.apply(to: text)
    }

    /// The UTS #39 skeleton of `folded(text)`, in NFC: look-alikes (`аdmin`, `adrnin`,
    /// `ａdmin`, `ADMIN`) share one.
    public static func skeleton(_ text: String) -> String {
        Table.skeleton.apply(to: folded(text))
    }

    /// A per-scalar mapping: sorted, non-overlapping ranges of scalars, each shifted by a
    /// constant or mapped to one sequence of scalars.
    struct Table: Sendable {
        var starts: [UInt32] = []
        var ends: [UInt32] = []
        /// Per range: the shift, or (when `mappings[i]` is set) unused.
        var deltas: [Int32] = []
        var mappings: [[Unicode.Scalar]?] = []

        static let fold = Table(Data.fold)
        static let skeleton = Table(Data.skeleton)

        /// Parses the generated text (see `LookAlike.Data`); a malformed entry traps, as the
        /// text is generated and checked by the tests.
        init(_ text: String) {
            for entry in text.split(whereSeparator: { $0 == ";" || $0 == "\n" }) {
                let (span, rest, isMapping, sign) = Self.split(entry)
                let bounds = span.split(separator: "-")
                guard let start = UInt32(bounds[0], radix: 16), let end = UInt32(bounds.last!, radix: 16) else {
                    preconditionFailure("LookAlike: malformed entry \(entry)")
                }
                starts.append(start)
                ends.append(end)
                if isMapping {
                    deltas.append(0)
                    mappings.append(rest.split(separator: " ").map { Unicode.Scalar(UInt32($0, radix: 16)!)! })
                } else {
                    deltas.append(Int32(rest, radix: 16)! * sign)
                    mappings.append(nil)
                }
            }
        }

        /// `S[-E]`, what follows the operator, whether it is `=`, and the sign of a shift.
        private static func split(_ entry: Substring) -> (Substring, Substring, Bool, Int32) {
            // The span's own `-` comes before the operator: look for it after the first digit.
            let body = entry.dropFirst()
            if let equals = body.firstIndex(of: "=") {
                return (entry[..<equals], entry[entry.index(after: equals)...], true, 1)
            }
            guard let plus = body.lastIndex(where: { $0 == "+" || $0 == "-" }) else { preconditionFailure("LookAlike: malformed entry \(entry)") }
            return (entry[..<plus], entry[entry.index(after: plus)...], false, entry[plus] == "+" ? 1 : -1)
        }

        /// The index of the range holding `value`, if one does.
        func range(of value: UInt32) -> Int? {
            var low = 0
            var high = starts.count
            while low < high {
                let middle = (low + high) / 2
                if starts[middle] <= value { low = middle + 1 } else { high = middle }
            }
            guard low > 0, ends[low - 1] >= value else { return nil }
            return low - 1
        }

        /// Every scalar of `text` mapped, then the result in NFC.
        func apply(to text: String) -> String {
            var mapped = String.UnicodeScalarView()
            var changed = false
            for scalar in text.unicodeScalars {
                guard let index = range(of: scalar.value) else {
                    mapped.append(scalar)
                    continue
                }
                changed = true
                if let mapping = mappings[index] {
                    mapped.append(contentsOf: mapping)
                } else {
                    mapped.append(Unicode.Scalar(UInt32(Int64(scalar.value) + Int64(deltas[index])))!)
                }
            }
            let result = changed ? String(mapped) : text
            return String(decoding: result._nfcCodeUnits, as: UTF8.self)
        }
    }
}

extension RuleEngine {
    /// An email domain as `emailDomainBlacklist` compares it: folded, ideographic full stops
    /// read as dots (as IDNA maps them), without the final dot of a fully qualified name.
    static func emailDomain(_ domain: String) -> String {
        foldedEmailDomain(LookAlike.folded(domain))
    }

    /// `emailDomain` of a domain already folded.
    static func foldedEmailDomain(_ folded: String) -> String {
        var scalars = folded.unicodeScalars
        if scalars.contains("\u{3002}") {
            scalars = String.UnicodeScalarView(scalars.map { $0 == "\u{3002}" ? "." : $0 })
        }
        while scalars.last == "." { scalars.removeLast() }
        return String(scalars)
    }
}

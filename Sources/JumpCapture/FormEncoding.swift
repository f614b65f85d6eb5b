import JumpForms

/// `application/x-www-form-urlencoded` as the WHATWG URL standard serializes it (what
/// browsers send, and what Android's `URLEncoder` sends): bytes outside `A-Z a-z 0-9 * - . _`
/// are percent-encoded (UTF-8), spaces as `+`. Parameter names are written as both SDKs write
/// them: raw (`birthdate[dateselect_year]`, not `%5B...%5D`; ApiConnection.java:70-79,
/// NSDictionary+JRQueryParams.m), escaping only what would change their meaning. Decoding
/// accepts `+` and `%20` for a space, any byte left raw (the iOS SDK keeps
/// `/ : @ , ; ! $ ' ( ) * ~` raw and sends tokens and attribute paths unescaped), and empty
/// pairs (the iOS SDK's hand-built bodies start with `&`).
public enum FormEncoding {
    public static func encode(_ text: String) -> String {
        percentEncode(text, spaceAsPlus: true) {
            $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_")
        }
    }

    /// A parameter name as the SDKs send it: raw, except the bytes that would end or change it
    /// in a body or a query (`%`, `&`, `=`, `+`, `#`, space, control characters and non-ASCII
    /// bytes), which are percent-encoded. Every name a flow can produce (letters, digits, `_`,
    /// `-`, `[sub]`) is sent as written.
    public static func encodeName(_ text: String) -> String {
        percentEncode(text, spaceAsPlus: false) { byte in
            byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: "%") && byte != UInt8(ascii: "&") && byte != UInt8(ascii: "=")
                && byte != UInt8(ascii: "+") && byte != UInt8(ascii: "#")
        }
    }

    /// RFC 3986 query-component encoding (unreserved `A-Z a-z 0-9 - . _ ~` kept, space as
    /// `%20`), for URLs a browser opens.
    public static func encodeComponent(_ text: String) -> String {
        percentEncode(text, spaceAsPlus: false) {
            $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "~")
        }
    }

    private static func percentEncode(_ text: String, spaceAsPlus: Bool, keep: (UInt8) -> Bool) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " ") where spaceAsPlus:
                out += "+"
            case _ where keep(byte):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%"
                out.unicodeScalars.append(hexDigit(byte >> 4))
                out.unicodeScalars.append(hexDigit(byte & 0x0F))
            }
        }
        return out
    }

    private static func hexDigit(_ value: UInt8) -> Unicode.Scalar {
        Unicode.Scalar(value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10)
    }

    /// Decodes one component; nil when a `%` escape is malformed or the bytes are not UTF-8.
    public static func decode(_ text: Substring) -> String? {
        decode(utf8: text.utf8)
    }

    /// `decode(_:)` on the bytes of a name or value.
    static func decode<Bytes: Collection<UInt8>>(utf8 text: Bytes) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count)
        var iterator = text.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
                bytes.append(high << 4 | low)
            default:
                bytes.append(byte)
            }
        }
        return ValidUTF8.string(bytes[...])
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// `a=1&b=2` from ordered pairs: names as `encodeName(_:)` writes them, values as
    /// `encode(_:)`.
    public static func encode(_ pairs: [(name: String, value: String)]) -> String {
        pairs.map { encodeName($0.name) + "=" + encode($0.value) }.joined(separator: "&")
    }

    /// Ordered pairs from a body or query; nil when a pair is malformed. Empty pairs (`&&`, a
    /// leading or trailing `&`) are skipped.
    public static func decode(pairs text: String) -> [(name: String, value: String)]? {
        guard !text.isEmpty else { return [] }
        // On the UTF-8 bytes: `&` and `=` are ASCII, so no splitting into characters.
        var text = text
        return text.withUTF8 { bytes -> [(name: String, value: String)]? in
            var result: [(name: String, value: String)] = []
            // A part without `+` or `%` is its own text: no copy to decode into.
            func text(_ range: Range<Int>) -> String? {
                let part = UnsafeBufferPointer(rebasing: bytes[range])
                if !part.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) { return ValidUTF8.string(part) }
                return decode(utf8: part)
            }
            var start = 0
            while start < bytes.count {
                let end = bytes[start...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.count
                defer { start = end + 1 }
                guard end > start else { continue }
                let equals = bytes[start..<end].firstIndex(of: UInt8(ascii: "="))
                guard let name = text(start..<(equals ?? end)),
                    let value = equals.map({ text(($0 + 1)..<end) }) ?? ""
                else { return nil }
                result.append((name, value))
            }
            return result
        }
    }
}

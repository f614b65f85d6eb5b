import JumpForms

// How the two SDKs turn parameters into bytes: a transcription of facts read in their
// sources (iOS 5.5 at adbc16a, Android 7.3.0 at c1c6f08), written here from scratch. See
// docs/sdk-calls.md, "Encodings".

/// iOS 5.5's encoder: `stringByAddingUrlPercentEscapes` (JRConnectionManager.m:45-59) is
/// `URLQueryAllowedCharacterSet` minus `?+=&`, so `A-Z a-z 0-9 - . _ ~ ! $ ' ( ) * , ; : @ /`
/// stay as they are and every other UTF-8 byte becomes `%XX` (upper-case hex; a space is `%20`).
/// Keys are never encoded (NSDictionary+JRQueryParams.m:11-24).
enum IOSEncoding {
    static let kept: Set<UInt8> = Set(Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$'()*,;:@/".utf8))

    static func escape(_ text: String) -> String {
        percentEncode(text) { kept.contains($0) }
    }

    /// `asJRURLParamString` (NSDictionary+JRQueryParams.m:11-24): `key=escaped(value)` joined
    /// by `&`, keys raw. The SDK walks `[NSDictionary allKeys]`, whose order Foundation does
    /// not define; the replays send the order the source lists them in.
    static func paramString(_ pairs: [(String, String)]) -> String {
        pairs.map { $0.0 + "=" + escape($0.1) }.joined(separator: "&")
    }
}

/// Android 7.3.0's encoder: `AndroidUtils.urlEncode` is `java.net.URLEncoder.encode(s,
/// "UTF-8")`: `A-Z a-z 0-9 . - * _` stay, a space is `+`, every other UTF-8 byte is `%XX`
/// (upper-case hex), `~` included. Keys are never encoded (ApiConnection.java:70-79).
enum AndroidEncoding {
    static let kept: Set<UInt8> = Set(Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789.-*_".utf8))

    static func urlEncode(_ text: String) -> String {
        percentEncode(text, spaceAsPlus: true) { kept.contains($0) }
    }

    /// `ApiConnection.paramsToString` (ApiConnection.java:70-79): the parameters are a
    /// `HashSet<Pair<String, String>>` (ApiConnection.java:54); `CollectionUtils.map` makes a
    /// `HashSet<String>` of `key=urlEncode(value)` from it (CollectionUtils.java:176-189, a new
    /// instance of the same class), and `TextUtils.join("&", ...)` walks that set. The order is
    /// Java's `HashSet` order of those strings, reproduced by `JavaHashSet`.
    static func paramString(_ parameters: JavaHashSet<JavaPair>) -> String {
        var strings = JavaHashSet<String>(hashCode: JavaHash.string)
        for pair in parameters.elements { strings.insert(pair.first + "=" + urlEncode(pair.second)) }
        return strings.elements.joined(separator: "&")
    }
}

private func percentEncode(_ text: String, spaceAsPlus: Bool = false, keep: (UInt8) -> Bool) -> String {
    let hex = Array("0123456789ABCDEF".utf8)
    var out: [UInt8] = []
    for byte in text.utf8 {
        if keep(byte) {
            out.append(byte)
        } else if byte == UInt8(ascii: " "), spaceAsPlus {
            out.append(UInt8(ascii: "+"))
        } else {
            out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
        }
    }
    return String(decoding: out, as: UTF8.self)
}

/// `java.lang.String.hashCode()`: `s[0]*31^(n-1) + ... + s[n-1]` over UTF-16 code units, in
/// 32-bit two's complement.
enum JavaHash {
    static func string(_ text: String) -> Int32 {
        var hash: Int32 = 0
        for unit in text.utf16 { hash = hash &* 31 &+ Int32(unit) }
        return hash
    }

    /// `android.util.Pair.hashCode()`: `first.hashCode() ^ second.hashCode()`.
    static func pair(_ pair: JavaPair) -> Int32 {
        string(pair.first) ^ string(pair.second)
    }
}

/// `android.util.Pair<String, String>` (equal when both parts are).
struct JavaPair: Hashable, Sendable {
    var first: String
    var second: String

    init(_ first: String, _ second: String) {
        self.first = first
        self.second = second
    }
}

/// The iteration order of `java.util.HashSet` (a `HashMap`, as in OpenJDK 8 and later and
/// Android 7 and later): bins `hash ^ (hash >>> 16)` masked by the table size (16 at first,
/// doubled when the count passes 3/4 of it), each bin in insertion order; an element equal to
/// one already there is not added. Checked against OpenJDK 17 (JavaOrderTests).
struct JavaHashSet<Element: Hashable>: Sendable where Element: Sendable {
    private let hashCode: @Sendable (Element) -> Int32
    private var bins: [[Element]]
    private(set) var count = 0

    /// `new HashSet<>()` (capacity 16), or `new HashSet<>(collection)`: a table of at least
    /// `max(size / 0.75 + 1, 16)` bins.
    init(hashCode: @escaping @Sendable (Element) -> Int32, copying size: Int? = nil) {
        self.hashCode = hashCode
        var capacity = 16
        if let size {
            let wanted = max(Int(Float(size) / 0.75) + 1, 16)
            while capacity < wanted { capacity *= 2 }
        }
        bins = Array(repeating: [], count: capacity)
    }

    init(_ elements: [Element], hashCode: @escaping @Sendable (Element) -> Int32) {
        self.init(hashCode: hashCode)
        for element in elements { insert(element) }
    }

    private func bin(_ element: Element, capacity: Int) -> Int {
        let hash = UInt32(bitPattern: hashCode(element))
        return Int((hash ^ (hash >> 16)) & UInt32(capacity - 1))
    }

    mutating func insert(_ element: Element) {
        let index = bin(element, capacity: bins.count)
        guard !bins[index].contains(element) else { return }
        let before = bins[index].count
        bins[index].append(element)
        // HashMap.putVal: a bin that already held 8 is "treeified", which in a table smaller
        // than 64 means a resize instead.
        if before >= 8 {
            precondition(bins.count < 64, "a tree bin: its order is not modelled")
            resize()
        }
        count += 1
        if count > bins.count * 3 / 4 { resize() }
    }

    /// Doubles the table; each bin splits into its low and high halves in order, which is
    /// what re-inserting the elements in iteration order gives.
    private mutating func resize() {
        let old = elements
        bins = Array(repeating: [], count: bins.count * 2)
        for element in old { bins[bin(element, capacity: bins.count)].append(element) }
    }

    /// In iteration order.
    var elements: [Element] { bins.flatMap { $0 } }
}

extension JavaHashSet where Element == JavaPair {
    init() { self.init(hashCode: JavaHash.pair) }

    /// `addAllToParams(String...)` (ApiConnection.java:109-121): pairs in argument order, a
    /// nil value skipped (a debug build throws).
    mutating func add(_ pairs: (String, String?)...) {
        for (key, value) in pairs { if let value { insert(JavaPair(key, value)) } }
    }

    mutating func add(contentsOf other: JavaHashSet<JavaPair>) {
        for pair in other.elements { insert(pair) }
    }
}

/// JSON text as the SDKs write it. iOS: `NSJSONSerialization` with no options
/// (JRJsonUtils.m:35-42); Android: `org.json` (`JSONObject.toString()`). Both write compact
/// JSON and escape `/` as `\/`; keys come in the order given here (an `NSDictionary` has no
/// defined order; `org.json`'s `JSONObject` keeps insertion order).
enum SDKJSON {
    static func text(_ value: JSONValue) -> String {
        var out = ""
        write(value, into: &out)
        return out
    }

    private static func write(_ value: JSONValue, into out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .number(let number): out += number
        case .string(let string): writeString(string, into: &out)
        case .array(let values):
            out += "["
            for (index, element) in values.enumerated() {
                if index > 0 { out += "," }
                write(element, into: &out)
            }
            out += "]"
        case .object(let entries):
            out += "{"
            for (index, entry) in entries.enumerated() {
                if index > 0 { out += "," }
                writeString(entry.key, into: &out)
                out += ":"
                write(entry.value, into: &out)
            }
            out += "}"
        }
    }

    private static func writeString(_ string: String, into out: inout String) {
        out += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "/": out += "\\/"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

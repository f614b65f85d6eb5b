/// Text from bytes that must be valid UTF-8, without the cost of the generic
/// `String(validating:as:)` for the common case: ASCII bytes are valid by themselves and
/// `String(decoding:as:)` takes them as they are. Shared by the package's parsers.
package enum ValidUTF8 {
    /// The text of `bytes`, or nil when they are not valid UTF-8.
    package static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var high: UInt8 = 0
        for byte in bytes { high |= byte }
        if high < 0x80 { return String(decoding: bytes, as: UTF8.self) }
        return String(validating: bytes, as: UTF8.self)
    }

    /// The text of `bytes`, or nil when they are not valid UTF-8.
    package static func string(_ bytes: ArraySlice<UInt8>) -> String? {
        bytes.withUnsafeBufferPointer { string($0) }
    }
}

/// What a key of a mapping holds, as its decoder reads it: the table next to each `Key` enum,
/// which the decoder and the JSON Schemas (`FormatSchema`) both read.
struct KeySpec: Sendable {
    /// The kinds of value a decoder reads.
    indirect enum Value: Sendable {
        /// Any scalar but null, read as the text written: `no`, `3` and `true` are strings here.
        case text
        /// `true` or `false`, unquoted; nothing else.
        case boolean
        /// An unquoted integer, within the range when there is one.
        case integer(ClosedRange<Int>?)
        /// A text among these.
        case choice([String])
        /// A list of such values.
        case list(Value)
        /// A mapping the schema describes under this name (its `$defs`).
        case named(String)
    }

    var value: Value
    /// Whether the decoder reports a `missingKey` when the key is absent.
    var required: Bool = false

    static func text(required: Bool = false) -> KeySpec { KeySpec(value: .text, required: required) }
}

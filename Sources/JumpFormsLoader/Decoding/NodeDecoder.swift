import JumpForms

/// Hand decoding of located nodes: typed getters that record a `DecodeError` and return nil
/// instead of throwing, so a file's every problem is found in one pass.
struct NodeDecoder {
    let path: String
    var errors: [DecodeError] = []

    init(path: String) {
        self.path = path
    }

    func location(_ mark: YAMLMark, length: Int = 1) -> SourceLocation {
        SourceLocation(file: path, line: mark.line, column: mark.column, length: length)
    }

    func location(_ scalar: YAMLScalar) -> SourceLocation {
        location(scalar.start, length: scalar.width)
    }

    func location(_ node: YAMLNode) -> SourceLocation {
        if case .scalar(let scalar) = node { return location(scalar) }
        return location(node.start)
    }

    mutating func mapping(_ node: YAMLNode, _ context: @autoclosure () -> String) -> YAMLMapping? {
        if case .mapping(let mapping) = node { return mapping }
        errors.append(.wrongNodeKind(location(node), expected: "a mapping", found: node.kindDescription, context: context()))
        return nil
    }

    mutating func sequence(_ node: YAMLNode, _ context: @autoclosure () -> String) -> YAMLSequence? {
        if case .sequence(let sequence) = node { return sequence }
        errors.append(.wrongNodeKind(location(node), expected: "a list", found: node.kindDescription, context: context()))
        return nil
    }

    /// A non-null scalar.
    mutating func scalar(_ node: YAMLNode, _ context: @autoclosure () -> String) -> YAMLScalar? {
        guard case .scalar(let scalar) = node else {
            errors.append(.wrongNodeKind(location(node), expected: "a string", found: node.kindDescription, context: context()))
            return nil
        }
        if scalar.isNull {
            errors.append(.nullValue(location(scalar), context: context()))
            return nil
        }
        return scalar
    }

    /// Any non-null scalar, as the text written: `no` and `on` are strings here.
    mutating func string(_ node: YAMLNode, _ context: @autoclosure () -> String) -> Located<String>? {
        scalar(node, context()).map { Located($0.value, at: location($0)) }
    }

    /// `true` or `false`, unquoted; nothing else.
    mutating func bool(_ node: YAMLNode, _ context: @autoclosure () -> String) -> Located<Bool>? {
        guard let scalar = scalar(node, context()) else { return nil }
        if scalar.style == .plain, scalar.tag == nil {
            if scalar.value == "true" { return Located(true, at: location(scalar)) }
            if scalar.value == "false" { return Located(false, at: location(scalar)) }
        }
        errors.append(.notABoolean(location(scalar), text: scalar.value, quoted: scalar.style != .plain, context: context()))
        return nil
    }

    /// An unquoted integer: optional `-`, then digits.
    mutating func integer(_ node: YAMLNode, _ context: @autoclosure () -> String) -> Located<Int>? {
        guard let scalar = scalar(node, context()) else { return nil }
        if scalar.style == .plain, scalar.tag == nil, let number = Int(scalar.value),
            scalar.value.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        {
            return Located(number, at: location(scalar))
        }
        errors.append(.notAnInteger(location(scalar), text: written(scalar), context: context()))
        return nil
    }

    /// One of `Value`'s raw values; any other text is an `unknownValue` error (naming the value
    /// as `what`) that lists them.
    mutating func oneOf<Value>(_ text: Located<String>, what: String) -> Located<Value>?
    where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
        guard let value = Value(rawValue: text.value) else {
            errors.append(.unknownValue(text.location, value: text.value, what: what, known: Value.allCases.map(\.rawValue)))
            return nil
        }
        return Located(value, at: text.location)
    }

    /// A list of strings.
    mutating func strings(_ node: YAMLNode, _ context: @autoclosure () -> String) -> [Located<String>]? {
        guard let sequence = sequence(node, context()) else { return nil }
        return sequence.items.compactMap { string($0, "an item of \(context())") }
    }

    /// A name used as a parameter or key part: a letter, then letters, digits, `_` or `-`.
    mutating func checkName(_ name: String, at location: SourceLocation, what: String) -> Bool {
        let scalars = name.unicodeScalars
        let valid =
            scalars.first.map(\.isASCIILetterForName) == true
            && scalars.allSatisfy { $0.isASCIILetterForName || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" }
        if !valid { errors.append(.invalidName(location, name: name, what: what)) }
        return valid
    }

    /// Whether `text` is an absolute http(s) URL (with `anyScheme`, any `scheme://host`);
    /// if not, the error is recorded.
    mutating func url(_ text: Located<String>, _ context: String, anyScheme: Bool = false) -> Bool {
        let value = text.value
        let schemeEnd = value.firstRange(of: "://")
        let scheme = schemeEnd.map { value[..<$0.lowerBound].lowercased() }
        let host = schemeEnd.map { value[$0.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" } }
        let schemeAllowed =
            scheme == "http" || scheme == "https"
            || (anyScheme && scheme.map { $0.first?.isLetter == true && $0.allSatisfy { $0.isLetter || $0.isNumber || "+-.".contains($0) } } == true)
        guard schemeAllowed, let host, !host.isEmpty, !value.contains(" ") else {
            errors.append(.invalidURL(text.location, text: value, context: context))
            return false
        }
        return true
    }

    /// The scalar as written, quotes included, for messages.
    func written(_ scalar: YAMLScalar) -> String {
        switch scalar.style {
        case .singleQuoted: "'\(scalar.value)'"
        case .doubleQuoted: "\"\(scalar.value)\""
        default: scalar.value
        }
    }

    /// The entries of a mapping under the keys of `Key`; unknown keys are reported with a
    /// "did you mean" hint, or with the hint `removed` gives for a key the format no longer has.
    mutating func keyed<Key>(
        _ mapping: YAMLMapping, _ keys: Key.Type, context: @autoclosure @escaping () -> String, removed: [String: String] = [:]
    ) -> Keyed<Key>
    where Key: RawRepresentable & CaseIterable & Hashable, Key.RawValue == String {
        var entries: [Key: YAMLMapping.Entry] = [:]
        for entry in mapping.entries {
            if let key = Key(rawValue: entry.key.value) {
                entries[key] = entry
            } else if let hint = removed[entry.key.value] {
                errors.append(.removedKey(location(entry.key), key: entry.key.value, context: context(), hint: hint))
            } else {
                errors.append(
                    .unknownKey(
                        location(entry.key), key: entry.key.value, context: context(),
                        known: Key.allCases.map(\.rawValue)))
            }
        }
        return Keyed(entries: entries, mapping: mapping, context: context)
    }

    /// The value under `key`, or a `missingKey` error at the mapping.
    mutating func required<Key>(_ keyed: Keyed<Key>, _ key: Key) -> YAMLNode? {
        if let node = keyed[key] { return node }
        errors.append(.missingKey(location(keyed.mapping.start), key: key.rawValue, context: keyed.context()))
        return nil
    }
}

/// A mapping's entries by known key.
struct Keyed<Key: Hashable & RawRepresentable> where Key.RawValue == String {
    var entries: [Key: YAMLMapping.Entry]
    var mapping: YAMLMapping
    /// What the mapping is, for messages (worked out only when one is needed).
    var context: () -> String

    subscript(key: Key) -> YAMLNode? { entries[key]?.value }

    func keyScalar(_ key: Key) -> YAMLScalar? { entries[key]?.key }
}

extension Unicode.Scalar {
    var isASCIILetterForName: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}

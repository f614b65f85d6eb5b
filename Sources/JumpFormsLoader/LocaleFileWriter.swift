import JumpForms

/// The content of a locale file to write: what `locales import` and `locales pseudo` produce.
public struct LocaleFileContent: Sendable, Hashable {
    public var tag: LocaleTag
    /// Dotted keys and ICU texts, in the order to write.
    public var messages: [Message]
    public var sameAsSource: [String]
    public var notes: [String: String]
    /// Comment lines written first (without `# `).
    public var header: [String]

    public struct Message: Sendable, Hashable {
        public var key: String
        public var text: String

        public init(key: String, text: String) {
            self.key = key
            self.text = text
        }
    }

    public init(tag: LocaleTag, messages: [Message], sameAsSource: [String] = [], notes: [String: String] = [:], header: [String] = []) {
        self.tag = tag
        self.messages = messages
        self.sameAsSource = sameAsSource
        self.notes = notes
        self.header = header
    }

    /// A loaded catalog's content, in file order.
    public init(_ catalog: LocaleCatalog, header: [String] = []) {
        self.init(
            tag: catalog.tag.value, messages: catalog.allMessages.map { Message(key: $0.key, text: $0.text) },
            sameAsSource: catalog.sameAsSource.map(\.value), notes: catalog.notes, header: header)
    }
}

/// Writes locale files that every YAML tool reads as jump-forms does: a value is written plain
/// only when neither YAML 1.1 (PyYAML, most translation tools) nor YAML 1.2 would read it as
/// anything but that text (no `no`, `on`, `1.0`, `2024-01-01`, `~`, no indicator first, no
/// `: ` or ` #`, no edge whitespace); otherwise it is double-quoted, with invisible, bidi and
/// control characters as `\u` escapes so reviewers see them. Key order is kept; keys stay flat
/// and dotted unless `nested` is asked (and possible: no key is also the prefix of another).
public enum LocaleFileWriter {
    public static func yaml(_ content: LocaleFileContent, nested: Bool = false) -> String {
        var out = ""
        for line in content.header { out += line.isEmpty ? "#\n" : "# \(line)\n" }
        out += "locale: \(scalar(content.tag.identifier))\n"
        if !content.sameAsSource.isEmpty {
            out += "sameAsSource:\n"
            for key in content.sameAsSource { out += "  - \(scalar(key))\n" }
        }
        let noteEntries =
            content.messages.compactMap { message in content.notes[message.key].map { (message.key, $0) } }
            + content.notes.keys.filter { key in !content.messages.contains { $0.key == key } }.sorted().map { ($0, content.notes[$0]!) }
        if !noteEntries.isEmpty {
            out += "notes:\n"
            for (key, note) in noteEntries { out += "  \(scalar(key)): \(scalar(note))\n" }
        }
        if content.messages.isEmpty {
            out += "messages: {}\n"
            return out
        }
        out += "messages:\n"
        let entries = content.messages.map { (key: $0.key, text: $0.text) }
        if nested, let tree = Tree(entries) {
            tree.write(indent: "  ", to: &out)
        } else {
            for entry in entries { out += "  \(scalar(entry.key)): \(scalar(entry.text))\n" }
        }
        return out
    }

    /// Why `keys` cannot be written nested (and `yaml(_:nested:)` writes them flat): a key
    /// that is both a message and the start of another (`a` and `a.b`), or a key with an empty
    /// part (`a..b`). Nil when they can.
    public static func nestingProblem(_ keys: [String]) -> String? {
        let all = Set(keys)
        for key in keys {
            let parts = key.split(separator: ".", omittingEmptySubsequences: false)
            if parts.contains(where: \.isEmpty) { return "'\(key)' has an empty part" }
            var prefix = ""
            for part in parts.dropLast() {
                prefix += prefix.isEmpty ? String(part) : "." + part
                if all.contains(prefix) { return "'\(prefix)' is both a message and the start of '\(key)'" }
            }
        }
        return nil
    }

    /// A scalar as written: plain when safe, else double-quoted.
    public static func scalar(_ text: String) -> String {
        isPlainSafe(text) ? text : doubleQuoted(text)
    }

    /// Whether `text` written plain reads back as exactly `text` in YAML 1.1 and 1.2, as a
    /// string, in block context.
    public static func isPlainSafe(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else { return false }
        if first == " " || last == " " || last == ":" { return false }
        if "-?:,[]{}#&*!|>'\"%@`=<~".unicodeScalars.contains(first) { return false }
        if ScalarTrap.of(plain: text) != nil { return false }
        var previous: Unicode.Scalar = " "
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) || scalar == "\t" || scalar == "{" || scalar == "}" { return false }
            if scalar == "#" && previous == " " { return false }
            if previous == ":" && scalar == " " { return false }
            previous = scalar
        }
        return true
    }

    /// Characters written as escapes in double quotes: controls, line breaks, non-characters,
    /// invisible and bidi controls.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        switch v {
        case 0x00..<0x20, 0x7F, 0x80...0x9F: return true
        case 0x00AD, 0x061C, 0x115F, 0x1160, 0x180E, 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x206F, 0x3164, 0xFEFF, 0xFFA0,
            0xFFF9...0xFFFB, 0xFFFE, 0xFFFF, 0xD800...0xDFFF, 0xE0000...0xE007F:
            return true
        default: return false
        }
    }

    public static func doubleQuoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if needsEscape(scalar) {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out +=
                        scalar.value > 0xFFFF
                        ? "\\U" + String(repeating: "0", count: 8 - hex.count) + hex
                        : "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// Dotted keys as nested mappings, in first-seen order.
    private final class Tree {
        var children: [(name: String, node: Tree)] = []
        var text: String?

        /// Nil when a key is both a message and the prefix of another (`a.b` and `a.b.c`), or
        /// has an empty part: those stay flat.
        init?(_ entries: [(key: String, text: String)]) {
            for entry in entries {
                let parts = entry.key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
                guard !parts.contains(where: \.isEmpty) else { return nil }
                var node = self
                for part in parts {
                    if node.text != nil { return nil }
                    if let child = node.children.first(where: { $0.name == part })?.node {
                        node = child
                    } else {
                        let child = Tree()
                        node.children.append((part, child))
                        node = child
                    }
                }
                guard node.text == nil, node.children.isEmpty else { return nil }
                node.text = entry.text
            }
        }

        private init() {}

        func write(indent: String, to out: inout String) {
            for (name, node) in children {
                if let text = node.text {
                    out += "\(indent)\(LocaleFileWriter.scalar(name)): \(LocaleFileWriter.scalar(text))\n"
                } else {
                    out += "\(indent)\(LocaleFileWriter.scalar(name)):\n"
                    node.write(indent: indent + "  ", to: &out)
                }
            }
        }
    }
}

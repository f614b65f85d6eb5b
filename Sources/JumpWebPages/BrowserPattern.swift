import JumpForms

/// Carries a flow's `pattern` rule over to an HTML `pattern` attribute when the browser would
/// decide exactly as the server does. The server matches the whole value with Swift `Regex`
/// (Unicode: `\d` is any decimal digit, `.` a whole character); browsers compile the attribute
/// as `^(?:pattern)$` with JavaScript's `v` flag, where a class such as `[A-Z -]` is a syntax
/// error (a literal `-` must be escaped) and `\d` is ASCII only. So only this subset is carried
/// over, rewritten in the `v` flag's syntax:
///
/// - literal ASCII letters, digits, space and punctuation (escaped where `v` wants it);
/// - classes of ASCII characters and ASCII ranges, not negated (`[A-Za-z0-9 -]`);
/// - groups `(...)`, `(?:...)`, alternation `|`;
/// - quantifiers `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, and their lazy forms.
///
/// Anything else (`\d`, `\w`, `.`, anchors, negated classes, Unicode properties, flags,
/// non-ASCII text) leaves the field without a `pattern`: the server's check alone applies, and
/// its message shows next to the field after the submit.
public enum BrowserPattern {
    /// The `pattern` attribute for a flow pattern, or nil when the browser could decide
    /// differently from the server.
    public static func attribute(for source: String) -> String? {
        var parser = Parser(scalars: Array(source.unicodeScalars))
        guard let out = parser.alternation(depth: 0), parser.index == parser.scalars.count, !out.isEmpty else { return nil }
        return out
    }

    /// The `pattern` of a built-in format that is plain ASCII and exactly this expression.
    public static func pattern(of format: Format) -> String? {
        switch format {
        case .alpha: "[A-Za-z]+"
        case .alphaNumeric: "[A-Za-z0-9]+"
        case .numeric: "[0-9]+"
        case .zipCode: "[0-9]{5}"
        case .zipCodePlus4: "[0-9]{5}-[0-9]{4}"
        default: nil
        }
    }

    /// The syntax characters of JavaScript patterns (escaped when meant literally).
    static let syntax: Set<Unicode.Scalar> = ["^", "$", "\\", ".", "*", "+", "?", "(", ")", "[", "]", "{", "}", "|", "/"]
    /// What the `v` flag wants escaped inside a class besides the syntax characters.
    static let classReserved: Set<Unicode.Scalar> = ["-", "&", "!", "#", "%", ",", ":", ";", "<", "=", ">", "@", "`", "~"]

    static func isPrintableASCII(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 0x20 && scalar.value < 0x7F }
    static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }

    struct Parser {
        let scalars: [Unicode.Scalar]
        var index = 0

        var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

        mutating func alternation(depth: Int) -> String? {
            guard depth < 16 else { return nil }
            var branches: [String] = []
            while true {
                guard let branch = sequence(depth: depth) else { return nil }
                branches.append(branch)
                guard current == "|" else { break }
                index += 1
            }
            return branches.joined(separator: "|")
        }

        mutating func sequence(depth: Int) -> String? {
            var out = ""
            while let scalar = current, scalar != "|", scalar != ")" {
                guard let atom = atom(depth: depth) else { return nil }
                out += atom
                guard let quantifier = quantifier() else { return nil }
                out += quantifier
            }
            return out
        }

        mutating func atom(depth: Int) -> String? {
            guard let scalar = current else { return nil }
            switch scalar {
            case "(":
                index += 1
                var open = "("
                if current == "?" {
                    guard index + 1 < scalars.count, scalars[index + 1] == ":" else { return nil }
                    index += 2
                    open = "(?:"
                }
                guard let inner = alternation(depth: depth + 1), current == ")" else { return nil }
                index += 1
                return open + inner + ")"
            case "[":
                return characterClass()
            case "\\":
                guard index + 1 < scalars.count else { return nil }
                let escaped = scalars[index + 1]
                // An escaped punctuation character is itself; `\d`, `\w`, `\b`, ... are not carried over.
                guard BrowserPattern.isPrintableASCII(escaped), !BrowserPattern.isAlphanumeric(escaped), escaped != " " else { return nil }
                index += 2
                return literal(escaped)
            case "^", "$", ".", "*", "+", "?", "{", "}", "]":
                return nil
            default:
                guard BrowserPattern.isPrintableASCII(scalar) else { return nil }
                index += 1
                return literal(scalar)
            }
        }

        /// A literal character outside a class, as the `v` flag reads it.
        func literal(_ scalar: Unicode.Scalar) -> String {
            BrowserPattern.syntax.contains(scalar) ? "\\" + String(scalar) : String(scalar)
        }

        /// A class member as the `v` flag reads it.
        func classLiteral(_ scalar: Unicode.Scalar) -> String {
            BrowserPattern.syntax.contains(scalar) || BrowserPattern.classReserved.contains(scalar) ? "\\" + String(scalar) : String(scalar)
        }

        /// `[...]`: ASCII members and ranges; no negation, nested classes, set operations or escapes of letters.
        mutating func characterClass() -> String? {
            index += 1
            guard current != "^", current != "]" else { return nil }
            var members: [Unicode.Scalar] = []
            var out = "["
            var previous: Unicode.Scalar?
            while let scalar = current, scalar != "]" {
                var member = scalar
                if scalar == "\\" {
                    guard index + 1 < scalars.count else { return nil }
                    member = scalars[index + 1]
                    guard BrowserPattern.isPrintableASCII(member), !BrowserPattern.isAlphanumeric(member), member != " " else { return nil }
                    index += 2
                } else {
                    // Nested classes, POSIX classes (`[:alpha:]`) and Swift's set operations (`&&`, `--`,
                    // `~~`) are not carried over.
                    guard BrowserPattern.isPrintableASCII(scalar), scalar != "[" else { return nil }
                    if "&-~".unicodeScalars.contains(scalar), index + 1 < scalars.count, scalars[index + 1] == scalar { return nil }
                    if scalar == "-", let low = previous, index + 1 < scalars.count, scalars[index + 1] != "]" {
                        // A range `low-high` of two plain members.
                        let high = scalars[index + 1]
                        guard BrowserPattern.isAlphanumeric(low), BrowserPattern.isAlphanumeric(high), low.value <= high.value else { return nil }
                        out += "-" + String(high)
                        members.append(high)
                        previous = nil
                        index += 2
                        continue
                    }
                    index += 1
                }
                out += classLiteral(member)
                members.append(member)
                previous = scalar == "\\" ? nil : member
            }
            guard current == "]", !members.isEmpty else { return nil }
            index += 1
            return out + "]"
        }

        /// `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, each maybe lazy (`?`); possessive forms are refused.
        mutating func quantifier() -> String? {
            guard let scalar = current else { return "" }
            var out = ""
            switch scalar {
            case "*", "+", "?":
                index += 1
                out = String(scalar)
            case "{":
                var end = index + 1
                var text = ""
                while end < scalars.count, scalars[end] != "}" {
                    text.unicodeScalars.append(scalars[end])
                    end += 1
                }
                guard end < scalars.count else { return nil }
                let bounds = text.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false)
                guard let low = bounds.first.flatMap({ Int($0) }), low <= 1000 else { return nil }
                if bounds.count == 2, !bounds[1].isEmpty {
                    guard let high = Int(bounds[1]), high >= low, high <= 1000 else { return nil }
                }
                index = end + 1
                out = "{" + text + "}"
            default:
                return ""
            }
            if current == "?" {
                index += 1
                out += "?"
            } else if current == "+" {
                return nil
            }
            return out
        }
    }
}

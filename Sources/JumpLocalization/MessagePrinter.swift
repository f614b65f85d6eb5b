import JumpDiagnostics

/// Writes parsed ICU messages back as MessageFormat source, in a canonical form:
/// `{name}`, `{n, number, integer}`, `{n, plural, offset:1 =0 {...} one {...} other {...}}`,
/// one space between cases, literal `{`, `}` (and `#` in plural cases) quoted as `'{'`, and an
/// apostrophe doubled only where a single one would start a quote.
///
/// `MessagePattern(parsing: printer.source(pattern.nodes)).nodes == pattern.nodes` for every
/// parsed pattern, and a message already written canonically prints as itself. The hooks let
/// the pseudo-localizer rewrite text and the interchange formats write arguments their own way
/// (`%1$@`), without touching the ICU syntax around them.
public struct MessagePrinter: Sendable {
    /// Where a node is printed.
    public enum Context: Sendable, Hashable {
        /// The message itself, outside any argument.
        case top
        /// A case of the `plural` or `selectordinal` argument named here (`#` is special).
        case pluralCase(argument: String)
        /// A case of a `select` argument.
        case selectCase
    }

    /// Rewrites the literal text of a text node before it is escaped (pseudo-localization).
    public var transformText: (@Sendable (String, Context) -> String)?
    /// Rewrites the escaped text of a text node (`%` -> `%%` for printf-style formats).
    public var transformEscapedText: (@Sendable (String, Context) -> String)?
    /// Replaces a simple, date, time or number argument; nil keeps the ICU syntax.
    public var replaceArgument: (@Sendable (MessageNode, Context) -> String?)?
    /// Replaces a `#`; nil keeps `#`.
    public var replacePound: (@Sendable (Context) -> String?)?
    /// Replaces a whole `plural` or `selectordinal` argument; nil keeps the ICU syntax.
    public var replacePlural: (@Sendable (MessagePluralArgument, Context) -> String?)?

    public init() {}

    /// The source of a whole message.
    public func source(_ nodes: [MessageNode]) -> String {
        var out = ""
        append(nodes, context: .top, closes: false, to: &out)
        return out
    }

    /// The source of a case body (without its braces) in `context`.
    public func caseSource(_ nodes: [MessageNode], context: Context) -> String {
        var out = ""
        append(nodes, context: context, closes: true, to: &out)
        return out
    }

    /// `closes`: a `}` follows the nodes (they are a case body).
    private func append(_ nodes: [MessageNode], context: Context, closes: Bool, to out: inout String) {
        for (index, node) in nodes.enumerated() {
            switch node {
            case .text(let text):
                let shown = transformText?(text, context) ?? text
                // What follows the text decides whether a final apostrophe must be doubled.
                let special = index + 1 < nodes.count || closes
                let escaped = Self.escape(shown, inPlural: context.isPlural, followedBySpecial: special)
                out += transformEscapedText?(escaped, context) ?? escaped
            case .pound:
                out += replacePound?(context) ?? "#"
            case .argument(let argument):
                if let replacement = replaceArgument?(node, context) {
                    out += replacement
                    continue
                }
                switch argument.kind {
                case .simple: out += "{\(argument.name)}"
                case .date, .time:
                    out += "{\(argument.name), \(argument.kind.rawValue)" + (argument.style.map { ", \($0)" } ?? "") + "}"
                }
            case .number(let argument):
                if let replacement = replaceArgument?(node, context) {
                    out += replacement
                    continue
                }
                switch argument.style {
                case .plain: out += "{\(argument.name), number}"
                case .integer: out += "{\(argument.name), number, integer}"
                case .other(let style): out += "{\(argument.name), number, \(style)}"
                }
            case .plural(let argument):
                if let replacement = replacePlural?(argument, context) {
                    out += replacement
                    continue
                }
                out += "{\(argument.name), \(argument.isOrdinal ? "selectordinal" : "plural"), "
                if argument.pluralOffset != 0 { out += "offset:\(argument.pluralOffset) " }
                for (caseIndex, item) in argument.cases.enumerated() {
                    if caseIndex > 0 { out += " " }
                    out += item.key.description + " {"
                    append(item.message, context: .pluralCase(argument: argument.name), closes: true, to: &out)
                    out += "}"
                }
                out += "}"
            case .select(let argument):
                out += "{\(argument.name), select, "
                for (caseIndex, item) in argument.cases.enumerated() {
                    if caseIndex > 0 { out += " " }
                    out += item.key + " {"
                    append(item.message, context: .selectCase, closes: true, to: &out)
                    out += "}"
                }
                out += "}"
            }
        }
    }

    /// Literal text as ICU source: the stretch from the first to the last `{`, `}` (and `#` in a
    /// plural case) quoted as one (`'{literal}'`), apostrophes doubled inside it, and outside it
    /// doubled only where a single one would start a quote (before a special character, another
    /// apostrophe, or, at the end, before what follows when `followedBySpecial`).
    public static func escape(_ text: String, inPlural: Bool, followedBySpecial: Bool) -> String {
        let scalars = Array(text.unicodeScalars)
        func isSpecial(_ scalar: Unicode.Scalar) -> Bool { scalar == "{" || scalar == "}" || (inPlural && scalar == "#") }
        if !scalars.contains(where: { $0 == "'" || isSpecial($0) }) { return text }
        let first = scalars.firstIndex(where: isSpecial)
        let last = scalars.lastIndex(where: isSpecial)
        var out = String.UnicodeScalarView()
        for (index, scalar) in scalars.enumerated() {
            if let first, let last, index >= first, index <= last {
                if index == first { out.append("'") }
                out.append(contentsOf: (scalar == "'" ? "''" : String(scalar)).unicodeScalars)
                if index == last { out.append("'") }
            } else if scalar == "'" {
                let next: Unicode.Scalar? = index + 1 < scalars.count ? scalars[index + 1] : nil
                let mustDouble = next.map { $0 == "'" || isSpecial($0) } ?? followedBySpecial
                out.append(contentsOf: (mustDouble ? "''" : "'").unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }
}

extension MessagePrinter.Context {
    var isPlural: Bool {
        if case .pluralCase = self { return true }
        return false
    }
}

import Foundation

/// A hint in our words for libyaml's commonest syntax errors, read from the lines around the
/// error: a key indented unlike its neighbours, a missing space after `:`, a line indented
/// under a key that has a value already, `: ` inside an unquoted value, an unclosed quote.
/// Nil when none of these explains the error (libyaml's message then stands alone).
enum YAMLSyntaxHint {
    /// `problem` and `context` as libyaml words them; lines and columns 1-based.
    static func hint(
        problem: String, context: String?, line: Int, column: Int, contextLine: Int?, contextColumn: Int?, text: String
    ) -> String? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
        func at(_ number: Int) -> Substring? { number >= 1 && number <= lines.count ? lines[number - 1] : nil }
        /// The nearest line above `number` with content (not blank, not only a comment).
        func previousContent(before number: Int) -> Int? {
            var candidate = number - 1
            while let text = at(candidate) {
                let content = text.drop { $0 == " " }
                if !content.isEmpty, content.first != "#" { return candidate }
                candidate -= 1
            }
            return nil
        }
        switch problem {
        case "did not find expected key" where context == "while parsing a block mapping":
            guard let text = at(line), let contextColumn else { return nil }
            let indent = indentation(text)
            var around = [contextColumn - 1]
            if let previous = previousContent(before: line), let above = at(previous) { around.append(indentation(above)) }
            let others = Set(around).subtracting([indent]).sorted().map(String.init)
            guard !others.isEmpty else { return nil }
            return """
                this line is indented \(indent) space\(indent == 1 ? "" : "s"), the keys around it \(others.joined(separator: " or ")): \
                indent it as the keys it belongs with (YAML nests by indentation)
                """
        case "mapping values are not allowed in this context":
            guard let text = at(line) else { return nil }
            let before = text.prefix(max(0, column - 1))
            if let first = before.range(of: ": ") {
                let key = before[..<first.lowerBound].drop { $0 == " " || $0 == "-" }
                let value = text[first.upperBound...].trimmingSpaces
                let quoted = value.contains("\"") ? "'" + value.replacingOccurrences(of: "'", with: "''") + "'" : "\"\(value)\""
                return "a value with ': ' in it must be quoted: \(key): \(quoted)"
            }
            for number in [line, previousContent(before: line)].compactMap({ $0 }) {
                if let written = at(number), let fix = missingSpace(written) { return fix }
            }
            if let previous = previousContent(before: line), let above = at(previous), indentation(text) > indentation(above),
                let colon = above.range(of: ": "), !above[colon.upperBound...].trimmingSpaces.isEmpty
            {
                return """
                    this line is indented more than line \(previous), whose key has its value already: indent it as that key, \
                    or end line \(previous) with ':' to nest this line under it
                    """
            }
            return nil
        case "could not find expected ':'" where context == "while scanning a simple key":
            guard let keyLine = contextLine, let written = at(keyLine) else { return nil }
            if let fix = missingSpace(written) { return fix }
            return """
                line \(keyLine) is not 'key: value': add ': ' after its key, or quote a text that goes on over several lines \
                and indent its lines more than its key
                """
        case "found unexpected end of stream" where context == "while scanning a quoted scalar":
            guard let contextLine else { return nil }
            return "the quoted text that starts on line \(contextLine) has no closing quote"
        default:
            return nil
        }
    }

    static func indentation(_ line: Substring) -> Int { line.prefix { $0 == " " }.count }

    /// For a line written `key:value` (no space after the colon, so YAML reads it as text), the
    /// fix; nil for other lines (`key: value`, a URL, a time like `12:30`).
    static func missingSpace(_ line: Substring) -> String? {
        var content = line.drop { $0 == " " }
        if content.hasPrefix("- ") { content = content.dropFirst(2).drop { $0 == " " } }
        guard let colon = content.firstIndex(of: ":"), colon > content.startIndex else { return nil }
        let key = content[..<colon]
        let rest = content[content.index(after: colon)...]
        guard key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." }),
            key.first?.isLetter == true, let next = rest.first, next != " ", next != ":", next != "/",
            !content.contains(": ")
        else { return nil }
        return
            "'\(content.trimmingSpaces)' needs a space after ':' (\(key): \(rest.trimmingSpaces)); without it YAML reads the line as text, not as a key"
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var text = drop { $0 == " " }
        while text.last == " " { text = text.dropLast() }
        return text
    }
}

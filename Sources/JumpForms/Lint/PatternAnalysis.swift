/// Finds the shapes of regular expression that backtrack exponentially: a repeated group
/// whose body can itself repeat (`(a+)+`, `(\w*)*`, `(a{1,9})+`) or offers the same
/// alternative twice (`(a|a)*`).
public enum PatternAnalysis {
    public struct Risk: Sendable, Hashable, CustomStringConvertible {
        /// Scalar offset of the group's opening parenthesis.
        public var offset: Int
        public var group: String
        public var reason: String

        public var description: String { "the repeated group '\(group)' \(reason)" }
    }

    public static func backtrackingRisk(in pattern: String) -> Risk? {
        let s = Array(pattern.unicodeScalars)
        struct Group {
            var start: Int
            var repeats = false
            var alternatives: [String] = [""]
        }
        var stack: [Group] = []
        var i = 0
        func quantifier(at index: Int) -> (unbounded: Bool, length: Int)? {
            guard index < s.count else { return nil }
            switch s[index] {
            case "*", "+": return (true, 1)
            case "?": return (false, 1)
            case "{":
                var j = index + 1
                var text = ""
                while j < s.count, s[j] != "}" { text.unicodeScalars.append(s[j]); j += 1 }
                guard j < s.count else { return nil }
                let parts = text.split(separator: ",", omittingEmptySubsequences: false)
                guard parts.allSatisfy({ $0.isEmpty || Int($0) != nil }), !text.isEmpty else { return nil }
                let unbounded = parts.count == 2 && (parts[1].isEmpty || (Int(parts[1]) ?? 0) > 1)
                return (unbounded, j - index + 1)
            default: return nil
            }
        }
        func append(_ text: String) {
            guard !stack.isEmpty else { return }
            stack[stack.count - 1].alternatives[stack[stack.count - 1].alternatives.count - 1] += text
        }
        while i < s.count {
            let c = s[i]
            switch c {
            case "\\":
                let end = min(s.count, i + 2)
                append(String(String.UnicodeScalarView(s[i..<end])))
                i = end
                if let q = quantifier(at: i), q.unbounded, !stack.isEmpty { stack[stack.count - 1].repeats = true }
                continue
            case "[":
                var j = i + 1
                if j < s.count, s[j] == "^" { j += 1 }
                if j < s.count, s[j] == "]" { j += 1 }
                while j < s.count, s[j] != "]" { j += s[j] == "\\" ? 2 : 1 }
                let end = min(s.count, j + 1)
                append(String(String.UnicodeScalarView(s[i..<end])))
                i = end
                if let q = quantifier(at: i), q.unbounded, !stack.isEmpty { stack[stack.count - 1].repeats = true }
                continue
            case "(":
                stack.append(Group(start: i))
                i += 1
                if i < s.count, s[i] == "?" {
                    // Skip the group's flags: (?:  (?<name>  (?i:
                    while i < s.count, s[i] != ":" && s[i] != ">" && s[i] != ")" { i += 1 }
                    if i < s.count, s[i] != ")" { i += 1 }
                }
                continue
            case ")":
                guard let group = stack.popLast() else { i += 1; continue }
                let text = String(String.UnicodeScalarView(s[group.start...i]))
                i += 1
                let q = quantifier(at: i)
                if let q, q.unbounded {
                    if group.repeats {
                        return Risk(offset: group.start, group: text, reason: "contains a quantifier of its own")
                    }
                    let nonEmpty = group.alternatives
                    if Set(nonEmpty).count < nonEmpty.count {
                        return Risk(offset: group.start, group: text, reason: "offers the same alternative twice")
                    }
                }
                append(text)
                if let q, !stack.isEmpty, q.unbounded || group.repeats { stack[stack.count - 1].repeats = true }
                continue
            case "|":
                if !stack.isEmpty { stack[stack.count - 1].alternatives.append("") }
                i += 1
                continue
            default:
                append(String(c))
                i += 1
                if let q = quantifier(at: i) {
                    if q.unbounded, !stack.isEmpty { stack[stack.count - 1].repeats = true }
                    append(String(String.UnicodeScalarView(s[i..<(i + q.length)])))
                    i += q.length
                }
            }
        }
        return nil
    }
}

/// "Did you mean ...?" for typos: the closest candidate by optimal-string-alignment distance
/// (insertions, deletions, substitutions and swaps of neighbours), case-insensitive.
public enum Suggestion {
    /// The closest candidate, or nil when nothing is close enough to be a plausible typo.
    public static func closest<S: Sequence>(to word: String, among candidates: S) -> String?
    where S.Element == String {
        let target = Array(word.lowercased().unicodeScalars)
        let limit = max(1, min(3, target.count / 3))
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = Self.distance(target, Array(candidate.lowercased().unicodeScalars))
            if distance <= limit, distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.name
    }

    /// `did you mean 'x'?`, or nil.
    public static func hint<S: Sequence>(for word: String, among candidates: S) -> String?
    where S.Element == String {
        closest(to: word, among: candidates).map { "did you mean '\($0)'?" }
    }

    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previous2[j - 2] + 1)
                }
                current[j] = value
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}

extension String {
    /// The text with every occurrence of `target` replaced by `replacement`, left to right and
    /// without overlaps (occurrences are whole characters, as `firstRange(of:)` finds them); the
    /// text itself when `target` is empty or absent. Foundation's `replacingOccurrences(of:with:)`
    /// for the package's modules, which do without Foundation.
    package func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty, contains(target) else { return self }
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}

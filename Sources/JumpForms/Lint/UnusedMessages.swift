/// The messages of a set of catalogs that no used key names, each with the used key it is a
/// typo of when it is one (JF319, JF309). Worked out once for all the flows that share the
/// catalogs (a locales folder: `LoadedProject.lint`), since the used keys are the folder's.
package struct UnusedMessages: Sendable {
    /// A message no used key names, and the used key it is a typo of: a key one segment off
    /// that its catalog lacks and another catalog (or jump-forms' own) has.
    struct Unused: Sendable {
        var position: Int
        var meant: (key: String, segment: String)?
    }

    /// Per catalog, by position: its unused messages in file order (none for a catalog whose
    /// `messages` could not be read).
    let perCatalog: [[Unused]]
    /// The catalogs' paths and message counts, to tell the scan belongs to a set of catalogs.
    private let shape: [(path: String, count: Int)]

    /// The scan of `catalogs` against `usedKeys` (the flows') and `builtinMessageKeys`.
    package init(catalogs: [LocaleCatalog], usedKeys: Set<String>, builtinMessageKeys: Set<String>) {
        shape = catalogs.map { ($0.path, $0.count) }
        let allUsed = usedKeys.union(builtinMessageKeys)
        // The used keys hashed once; each catalog's used messages found by position, so only an
        // unused message's key is made into a string.
        let hashedUsedKeys = allUsed.map(MessageKey.init)
        var known: KnownKeys?
        perCatalog = catalogs.map { catalog in
            guard catalog.isComplete else { return [] }
            var used = [Bool](repeating: false, count: catalog.count)
            for key in hashedUsedKeys {
                if let position = catalog.position(of: key) { used[position] = true }
            }
            var unused: [Unused] = []
            for position in used.indices where !used[position] {
                if known == nil { known = KnownKeys(allUsed) }
                var meant = known?.meant(by: catalog.message(at: position).key, missingFrom: catalog)
                if let candidate = meant, !builtinMessageKeys.contains(candidate.key),
                    !catalogs.contains(where: { $0.tag.value != catalog.tag.value && $0.contains(candidate.key) })
                {
                    meant = nil
                }
                unused.append(Unused(position: position, meant: meant))
            }
            return unused
        }
    }

    /// Whether the scan was made from `catalogs`.
    func belongs(to catalogs: [LocaleCatalog]) -> Bool {
        shape.count == catalogs.count && zip(shape, catalogs).allSatisfy { $0.path == $1.path && $0.count == $1.count }
    }

    /// The message keys in use, to tell a mistyped key: one that differs from a used key in a
    /// single dot-separated segment, by a typo's distance (`fields.email.lable`,
    /// `fields.emial.label`). Made only when a message is unused, and searched for the few
    /// unused keys (a table of every key with each segment left out cost more than all the
    /// rest of lint: 1.13 G of 10.0 G instructions on the long-message corpus).
    struct KnownKeys {
        /// The used keys' segments, by segment count (strings: short ones compare as two
        /// words, substrings character by character). Unsorted: the few candidates a search
        /// finds are sorted instead.
        private var keysBySegmentCount: [Int: [[String]]] = [:]

        init(_ keys: Set<String>) {
            for key in keys {
                let segments = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
                keysBySegmentCount[segments.count, default: []].append(segments)
            }
        }

        /// The used key `key` is a typo of (and the segment meant), when `catalog` lacks it.
        func meant(by key: String, missingFrom catalog: LocaleCatalog) -> (key: String, segment: String)? {
            let segments = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard let sameCount = keysBySegmentCount[segments.count] else { return nil }
            for index in segments.indices {
                // The used keys equal to `key` but in this segment, in key order: what they
                // have there.
                let candidates = sameCount.filter { used in
                    !used.indices.contains { other in other != index && used[other] != segments[other] }
                }.map { $0.joined(separator: ".") }.sorted().map { key in
                    String(key.split(separator: ".", omittingEmptySubsequences: false)[index])
                }
                guard !candidates.isEmpty else { continue }
                let missing = candidates.filter { candidate in
                    var fixed = segments
                    fixed[index] = candidate
                    return !catalog.contains(fixed.joined(separator: "."))
                }
                guard let segment = Suggestion.closest(to: segments[index], among: missing) else { continue }
                var fixed = segments
                fixed[index] = segment
                return (fixed.joined(separator: "."), segment)
            }
            return nil
        }
    }
}

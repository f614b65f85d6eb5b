/// The semantic pass over a decoded flow, its locale catalogs and the client configuration.
/// Collects every finding; never stops at the first.
public struct FlowLinter: Sendable {
    public var flow: Flow
    public var catalogs: [LocaleCatalog]
    public var config: ClientConfig?
    /// Keys the CLI's own catalog uses: never "unused", and their arguments are known.
    public var builtinMessageKeys: Set<String>
    /// Keys other flows sharing the locales folder use (not "unused" either).
    public var otherUsedKeys: Set<String>
    /// Whether a file exists (icons), given a path relative to the current directory.
    public var fileExists: @Sendable (String) -> Bool
    /// The arguments each catalog's messages use, by catalog position, from
    /// `CatalogLinter.lintKeepingArguments` (each message parsed once); without them (or for a
    /// catalog they were not made from) the used messages are parsed here.
    package var argumentTables: [MessageArgumentTable]?

    public init(
        flow: Flow,
        catalogs: [LocaleCatalog],
        config: ClientConfig? = nil,
        builtinMessageKeys: Set<String> = [],
        otherUsedKeys: Set<String> = [],
        fileExists: @escaping @Sendable (String) -> Bool
    ) {
        self.flow = flow
        self.catalogs = catalogs
        self.config = config
        self.builtinMessageKeys = builtinMessageKeys
        self.otherUsedKeys = otherUsedKeys
        self.fileExists = fileExists
    }

    /// The flow-level checks: each rule's (`LintRule.allCases`, one file each in Lint/Rules), then
    /// the message pass (the keys the flow uses, looked up once per catalog for JF308, JF309,
    /// JF319, JF321 and JF332). Checks of the catalogs alone (ICU syntax) are `CatalogLinter`'s,
    /// run once per catalog however many flows share it.
    public func lint() -> [Diagnostic] {
        var findings: [Diagnostic] = []
        for check in LintRule.checks { check(self, &findings) }
        lintMessages(&findings)
        return findings.sortedByLocation()
    }

    // MARK: patterns

    /// What compiling a `pattern` rule's expression found: nothing, a backtracking risk, or an
    /// error. Worked out once per distinct expression in a check (flows repeat them field after field).
    enum PatternCheck {
        case compiles(PatternAnalysis.Risk?)
        case fails(String)
    }

    static func checkPattern(_ source: String) -> PatternCheck {
        do {
            _ = try Regex(source)
            return .compiles(PatternAnalysis.backtrackingRisk(in: source))
        } catch {
            return .fails("\(error)")
        }
    }

    // MARK: messages

    /// The arguments a call site gives a message: a validation message gets `label`, `field`
    /// and, when its rule has a value, `value`; an activity's messages get the arguments it
    /// declares; the other slots (labels, tips, options, provider names) get none.
    private struct CallArguments: Sendable {
        var isValidation: Bool
        var field: String
        var value: MessageArgument?
        /// An activity's messages: the arguments it declares (values from `--set`, text or
        /// numbers, so any use of them passes).
        var declared: [String]? = nil

        static let none = CallArguments(isValidation: false, field: "", value: nil)

        /// The names given, sorted.
        var names: [String] {
            if let declared { return declared.sorted() }
            return isValidation ? (value == nil ? ["field", "label"] : ["field", "label", "value"]) : []
        }

        subscript(name: String) -> MessageArgument? {
            if let declared { return declared.contains(name) ? .int(1) : nil }
            guard isValidation else { return nil }
            switch name {
            case "label": return "Label"
            case "field": return .string(field)
            case "value": return value
            default: return nil
            }
        }

        /// Call sites giving the same names check a message alike.
        func givesSameNames(as other: CallArguments) -> Bool {
            isValidation == other.isValidation && (value == nil) == (other.value == nil) && declared?.sorted() == other.declared?.sorted()
        }
    }

    private func keyUses() -> [(key: Located<String>, arguments: CallArguments)] {
        var uses: [(Located<String>, CallArguments)] = []
        for field in flow.fields {
            for slot in [field.label, field.placeholder, field.tip].compactMap({ $0 }) { uses.append((slot, .none)) }
            for option in field.options { uses.append((option.label, .none)) }
            for rule in field.validation {
                let value: MessageArgument? =
                    switch rule.value {
                    case .none: nil
                    case .integer(let number): .int(number)
                    case .text(let text): .string(text)
                    case .list(let items): .string(items.joined(separator: ", "))
                    }
                uses.append((rule.message, CallArguments(isValidation: true, field: field.name, value: value)))
            }
        }
        for provider in flow.providers {
            if let name = provider.name { uses.append((name, .none)) }
        }
        for activity in flow.activities {
            let arguments = CallArguments(isValidation: false, field: "", value: nil, declared: activity.arguments.map(\.value))
            for key in activity.messageKeys { uses.append((key, arguments)) }
        }
        return uses
    }

    /// A message key the flow uses: where first, and the argument sets its call sites give
    /// (one per distinct set of argument names; the first use of a set decides its values).
    private struct KeyUse: Sendable {
        var key: Located<String>
        var hashed: MessageKey
        var argumentSets: [CallArguments]
    }

    /// The used keys, each once, in order of first use.
    private func distinctKeyUses() -> [KeyUse] {
        var position: [MessageKey: Int] = [:]
        var result: [KeyUse] = []
        for (key, arguments) in keyUses() {
            let hashed = MessageKey(key.value)
            if let index = position[hashed] {
                if !result[index].argumentSets.contains(where: { $0.givesSameNames(as: arguments) }) {
                    result[index].argumentSets.append(arguments)
                }
            } else {
                position[hashed] = result.count
                result.append(KeyUse(key: key, hashed: hashed, argumentSets: [arguments]))
            }
        }
        return result
    }

    private func lintMessages(_ findings: inout [Diagnostic]) {
        let defaultTag = flow.defaultLocale.value
        let positionOfTag = Dictionary(catalogs.indices.map { (catalogs[$0].tag.value, $0) }, uniquingKeysWith: { first, _ in first })
        // A default locale without a file is JF322's (LintRule.missingLocale).
        let defaultPosition = positionOfTag[defaultTag]
        let uses = distinctKeyUses()
        // A catalog whose `messages` could not be read has a decode error; its keys are not
        // reported missing one by one.
        if let defaultPosition, catalogs[defaultPosition].isComplete {
            let defaultCatalog = catalogs[defaultPosition]
            for use in uses where defaultCatalog.position(of: use.hashed) == nil {
                findings.append(
                    Diagnostic(
                        .messageMissingInDefaultLocale,
                        "message '\(use.key.value)' is missing from the default locale \(defaultTag) (\(defaultCatalog.path))",
                        at: use.key.location, hint: Suggestion.hint(for: use.key.value, among: defaultCatalog.keys)))
            }
        }
        let matcher = LocaleMatcher(available: catalogs.map(\.tag.value).sorted())
        // Each catalog on its own (all cores): keys missing along its chain (fr-CA, fr, before
        // the default locale), and the arguments its messages use. Results are merged in
        // catalog order, so the outcome is the same as one loop.
        let all = catalogs
        let tables = argumentTables
        let perCatalog = ConcurrentMap.map(Array(all.indices)) { position -> [Diagnostic] in
            let catalog = all[position]
            let isDefault = catalog.tag.value == defaultTag
            // The rest of the chain: the catalog itself is looked up first, for both checks.
            let fallbacks = matcher.ranked(catalog.tag.value).filter { $0 != catalog.tag.value }.compactMap { positionOfTag[$0] }.map {
                all[$0].keyPositions
            }
            var found: [Diagnostic] = []
            // The uses are read in place: copying them out would retain their strings, which
            // both cores share (atomic reference counts on one cache line slow both down). A
            // message is made only for a key the flow uses (by its position, no array of all).
            uses.withUnsafeBufferPointer { uses in
                for index in uses.indices {
                    guard let own = catalog.position(of: uses[index].hashed) else {
                        if !isDefault, catalog.isComplete, !fallbacks.contains(where: { $0.position(of: uses[index].hashed) != nil }) {
                            found.append(
                                Diagnostic(
                                    .messageMissingInLocale,
                                    """
                                    message '\(uses[index].key.value)' is missing from \(catalog.tag.value) (\(catalog.path)); its users see the \
                                    \(defaultTag) text
                                    """,
                                    at: uses[index].key.location))
                        }
                        continue
                    }
                    Self.checkArguments(
                        Self.argumentUses(of: catalog, at: own, table: tables.flatMap { position < $0.count ? $0[position] : nil }),
                        of: catalog.message(at: own),
                        use: uses.baseAddress! + index, into: &found)
                }
            }
            return found
        }
        for found in perCatalog { findings += found }
        // Unused keys: in any locale, one a letter or two off a used key that the file lacks
        // and another locale file (or jump-forms' own catalog) has is a typo (an error where it
        // is written; where no file has the used key, the typo may be the flow's: JF308 says so
        // there); the rest are
        // reported in the default locale only, to report each once.
        let own = Set(uses.map(\.key.value))
        let usedKeys = own.union(otherUsedKeys).union(builtinMessageKeys)
        var known: KnownKeys?
        // The used keys hashed once; each catalog's used messages found by position, so only an
        // unused message's key is made into a string.
        let hashedUsedKeys = usedKeys.map(MessageKey.init)
        for catalog in catalogs where catalog.isComplete {
            let isDefault = catalog.tag.value == defaultTag
            var used = [Bool](repeating: false, count: catalog.count)
            for key in hashedUsedKeys {
                if let position = catalog.position(of: key) { used[position] = true }
            }
            for position in used.indices where !used[position] {
                let message = catalog.message(at: position)
                if known == nil { known = KnownKeys(usedKeys) }
                if let meant = known?.meant(by: message.key, missingFrom: catalog),
                    builtinMessageKeys.contains(meant.key)
                        || catalogs.contains(where: { $0.tag.value != catalog.tag.value && $0.contains(meant.key) })
                {
                    // Written nested (`lable:` under `email:`), the segment; written flat, the key.
                    let written = message.keyLocation.length == message.key.count ? meant.key : meant.segment
                    findings.append(
                        Diagnostic(
                            .mistypedMessageKey,
                            "message key '\(message.key)' is used by nothing, and \(catalog.tag.value) lacks '\(meant.key)'",
                            at: message.keyLocation, hint: "did you mean '\(written)'?"))
                } else if isDefault {
                    findings.append(Diagnostic(.unusedMessage, "message '\(message.key)' is not used by the flow", at: message.keyLocation))
                }
            }
        }
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

    /// The arguments the message at `position` of `catalog` uses: from `table` (lint's one
    /// parse of each message) when it is the catalog's, else parsed here.
    private static func argumentUses(
        of catalog: LocaleCatalog, at position: Int, table: MessageArgumentTable?
    ) -> ArraySlice<MessageArgumentUse> {
        if let table, table.belongs(to: catalog) { return table.uses(at: position) }
        let message = catalog.message(at: position)
        guard !message.isPlainText, case .success(let pattern) = message.pattern else { return [] }
        return pattern.argumentUses[...]
    }

    /// Arguments, checked statically: each one a message uses must be provided by its call
    /// sites, and plural, selectordinal and number arguments must be numbers. Most messages
    /// use none and have nothing to report.
    private static func checkArguments(
        _ argumentUses: ArraySlice<MessageArgumentUse>, of message: @autoclosure () -> LocaleMessage, use: UnsafePointer<KeyUse>,
        into found: inout [Diagnostic]
    ) {
        guard !argumentUses.isEmpty else { return }
        let message = message()
        for arguments in use.pointee.argumentSets {
            for argumentUse in argumentUses {
                var at: SourceLocation { message.location(ofOffset: argumentUse.offset, length: argumentUse.name.count + 1) }
                guard let argument = arguments[argumentUse.name] else {
                    let provided = arguments.names
                    let hint =
                        arguments.declared != nil
                        ? "the activity declares \(provided.isEmpty ? "no arguments" : provided.joined(separator: ", ")); add '\(argumentUse.name)' to its 'arguments'"
                        : provided.isEmpty ? "this message gets no arguments" : "it gets: \(provided.joined(separator: ", "))"
                    found.append(
                        Diagnostic(
                            .messageArgument,
                            "message '\(use.pointee.key.value)' uses argument '{\(argumentUse.name)}', which its call site does not provide",
                            at: at, hint: hint))
                    continue
                }
                let numeric = argumentUse.kind == .plural || argumentUse.kind == .selectordinal || argumentUse.kind == .number
                if numeric, case .string(let text) = argument, Double(text) == nil {
                    found.append(
                        Diagnostic(
                            .messageArgument,
                            """
                            message '\(use.pointee.key.value)' formats '{\(argumentUse.name)}' as a number (\(argumentUse.kind.rawValue)), but it is \
                            text here
                            """,
                            at: at, hint: "use {\(argumentUse.name)} as plain text, or a select"))
                }
            }
        }
    }

    // MARK: paths

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return String(path[..<slash])
    }

    static func join(_ base: String, _ relative: String) -> String {
        base == "." ? relative : base + "/" + relative
    }
}

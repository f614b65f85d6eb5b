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
    /// The catalogs' unused messages, worked out once for the flows sharing them
    /// (`LoadedProject.lint`: against the keys all of them use, which `otherUsedKeys` holds);
    /// without it (or for other catalogs) worked out here.
    package var unusedMessages: UnusedMessages?

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
            // What the loop reads of the catalog, taken out once: a call on the catalog inside
            // the closure below copies the whole struct (its arrays' and strings' reference
            // counts) for every use.
            let keyPositions = catalog.keyPositions
            let reportsMissing = !isDefault && catalog.isComplete
            let table = tables.flatMap { position < $0.count && $0[position].belongs(to: catalog) ? $0[position] : nil }
            var found: [Diagnostic] = []
            // The uses are read in place: copying them out would retain their strings, which
            // both cores share (atomic reference counts on one cache line slow both down). A
            // message is made only for a key the flow uses (by its position, no array of all).
            uses.withUnsafeBufferPointer { uses in
                for index in uses.indices {
                    guard let own = keyPositions.position(of: uses[index].hashed) else {
                        if reportsMissing, !fallbacks.contains(where: { $0.position(of: uses[index].hashed) != nil }) {
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
                    let argumentUses = table.map { $0.uses(at: own) } ?? Self.argumentUses(of: catalog, at: own)
                    guard !argumentUses.isEmpty else { continue }
                    Self.checkArguments(argumentUses, of: catalog.message(at: own), use: uses.baseAddress! + index, into: &found)
                }
            }
            return found
        }
        for found in perCatalog { findings += found }
        // Unused keys: in any locale, one a letter or two off a used key that the file lacks
        // and another locale file (or jump-forms' own catalog) has is a typo (an error where it
        // is written; where no file has the used key, the typo may be the flow's: JF308 says so
        // there); the rest are reported in the default locale only, to report each once.
        let unused: UnusedMessages
        if let shared = unusedMessages, shared.belongs(to: catalogs) {
            unused = shared
        } else {
            unused = UnusedMessages(
                catalogs: catalogs, usedKeys: Set(uses.map(\.key.value)).union(otherUsedKeys), builtinMessageKeys: builtinMessageKeys)
        }
        for (position, catalog) in catalogs.enumerated() {
            let isDefault = catalog.tag.value == defaultTag
            for entry in unused.perCatalog[position] {
                let message = catalog.message(at: entry.position)
                if let meant = entry.meant {
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

    /// The arguments the message at `position` uses, parsed here (for a catalog without its
    /// `MessageArgumentTable`).
    private static func argumentUses(of catalog: LocaleCatalog, at position: Int) -> ArraySlice<MessageArgumentUse> {
        guard case .success(let uses) = catalog.message(at: position).argumentUses else { return [] }
        return uses[...]
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

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import DevToolSupport
import JumpFiles
import JumpForms
import JumpFormsLoader
import JumpLocaleCheck

/// `jump-bench locales ...`: the corpus of `jump-forms locales check`'s benchmark
/// (docs/PERFORMANCE.md, "How each figure is measured"; scripts/bench-locales.sh): 30 locales x 5,000 keys
/// with seeded defects of every kind and their exact counts, the load alone for profiling, and
/// the comparison of what `locales check` and the Python baseline found with what was seeded.
enum LocalesBenchmark {
    static let usage = """
        usage: jump-bench locales COMMAND [options]

          generate [--out DIR] [--shape short|long] [--seed N] [--keys N] [--defects N] [--flows N]
                write the corpus (default .bench/locales, parent folders created: jump.yaml,
                flows/bench.yaml, 30 locale files x 5,000 keys and jump-forms' own keys, one more
                file whose language is mistyped, expected.json with the seeded defects per rule).
                --shape long: users' worst files (default .bench/locales-long): the fields in 10
                flows (flows/flowNN.yaml), the plural and select messages long (3-6 cases,
                150-400 characters), plurals on every eighth field's numeric rule
          load [--out DIR] [--iterations N]
                ProjectLoader.loadLocales over the corpus's locales folder (for profiling)
          check [--out DIR] [--iterations N]
                LocaleChecker.run alone, on the corpus loaded once (for profiling)
          verify --out DIR --report FILE [--baseline FILE]
                compare `jump-forms locales check --format json`'s findings (and the Python
                baseline's) with expected.json; exits 1 on any difference

        --format json (load, check): one JSON object, times in milliseconds, instead of text.
        """

    static func main(_ arguments: [String]) {
        guard let command = arguments.first else {
            print(usage)
            exit(2)
        }
        var options: [String: String] = [:]
        var index = 1
        while index < arguments.count {
            guard arguments[index].hasPrefix("--"), index + 1 < arguments.count else {
                printError("jump-bench locales: unexpected argument '\(arguments[index])'\n\(usage)")
                exit(2)
            }
            options[String(arguments[index].dropFirst(2))] = arguments[index + 1]
            index += 2
        }
        let long = options["shape"] == "long"
        if let shape = options["shape"], !["short", "long"].contains(shape) {
            printError("jump-bench locales: --shape is short or long, not '\(shape)'")
            exit(2)
        }
        let out = options["out"] ?? (long ? ".bench/locales-long" : ".bench/locales")
        setOutputFormat(options["format"], tool: "jump-bench locales")
        switch command {
        case "generate":
            var spec = long ? LocalesCorpusSpec.long : LocalesCorpusSpec()
            if let flows = options["flows"].flatMap({ Int($0) }), flows > 0 { spec.flows = flows }
            if let seed = options["seed"].flatMap({ UInt64($0) }) { spec.seed = seed }
            if let keys = options["keys"].flatMap({ Int($0) }) { spec.keys = keys }
            if let defects = options["defects"].flatMap({ Int($0) }) { spec.defectsPerKind = defects }
            let start = nowMilliseconds()
            do {
                let summary = try LocalesCorpusGenerator(spec: spec).write(to: out)
                print(
                    "wrote \(out): \(summary.flows) flows of \(grouped(summary.fields)) fields, \(summary.locales) locale files x "
                        + "\(grouped(summary.keys)) keys, \(grouped(summary.bytes)) bytes, \(summary.defects) seeded defects, in "
                        + "\(fixed(nowMilliseconds() - start, 0)) ms")
                if spec.longMessages {
                    print(
                        "long messages: \(grouped(summary.longMessages)) a locale, \(summary.longLengths.lowerBound)-"
                            + "\(summary.longLengths.upperBound) characters, \(summary.longCases.lowerBound)-\(summary.longCases.upperBound) cases")
                }
            } catch {
                printError("jump-bench locales: \(error)")
                exit(1)
            }
        case "load":
            let iterations = options["iterations"].flatMap { Int($0) } ?? 10
            var times: [Double] = []
            var messages = 0
            // Kept until the end, as the command keeps them until it exits: freeing is not loading.
            var kept: [[LocaleCatalog]] = []
            for _ in 0..<iterations {
                let start = nowMilliseconds()
                var project = LoadedProject()
                let catalogs = ProjectLoader().loadLocales(in: out + "/locales", into: &project)
                times.append(nowMilliseconds() - start)
                messages = catalogs.reduce(0) { $0 + $1.count }
                kept.append(catalogs)
            }
            benchmarkSink &+= kept.count
            let stats = Stats(times)
            report {
                print("ProjectLoader.loadLocales: \(grouped(messages)) messages, best \(fixed(stats.best)) ms, median \(fixed(stats.median)) ms")
            } json: {
                .object([("benchmark", "locales load"), ("messages", .integer(messages)), ("milliseconds", stats.json)])
            }
        case "check":
            // LocaleChecker alone, on catalogs loaded once (for profiling the checks).
            let iterations = options["iterations"].flatMap { Int($0) } ?? 10
            let project = ProjectLoader().load(paths: [out + "/flows"])
            guard let loaded = project.primaryFlow else {
                printError("jump-bench locales check: cannot load the flows of \(out)/flows")
                exit(1)
            }
            let input = LocaleCheckInput(
                catalogs: loaded.catalogs, reference: loaded.flow.defaultLocale.value, flows: project.flows.map(\.flow),
                builtinCatalogs: BuiltinCatalog.catalogs)
            var times: [Double] = []
            var findings: [LocaleFinding] = []
            for _ in 0..<iterations {
                let start = nowMilliseconds()
                findings = LocaleChecker(input).run()
                times.append(nowMilliseconds() - start)
            }
            keptUntilExit.append((project, input, findings))
            let stats = Stats(times)
            report {
                print("LocaleChecker.run: \(findings.count) findings, best \(fixed(stats.best)) ms, median \(fixed(stats.median)) ms")
            } json: {
                .object([("benchmark", "locales check"), ("findings", .integer(findings.count)), ("milliseconds", stats.json)])
            }
        case "verify":
            guard let report = options["report"] else {
                printError("jump-bench locales verify: --report FILE is required")
                exit(2)
            }
            if !verify(out: out, report: report, baseline: options["baseline"]) { exit(1) }
        default:
            print(usage)
            exit(2)
        }
    }

    /// Prints seeded vs found per rule (and the baseline's kinds); true when every count matches.
    static func verify(out: String, report: String, baseline: String?) -> Bool {
        func json(_ path: String) -> JSONValue? {
            guard let bytes = (try? FileReader.read(path).get()), let value = try? JSONValue.parse(bytes) else {
                printError("jump-bench locales: cannot read JSON from \(path)")
                return nil
            }
            return value
        }
        guard let expected = json(out + "/expected.json"), let found = json(report) else { return false }
        var counts: [String: Int] = [:]
        for diagnostic in found["diagnostics"]?.arrayValue ?? [] {
            counts[diagnostic["rule"]?.stringValue ?? diagnostic["code"]?.stringValue ?? "?", default: 0] += 1
        }
        var matches = true
        print("| rule | seeded | jump-forms |")
        print("|---|---:|---:|")
        let seeded = expected["defects"]?.objectValue ?? []
        for (rule, count) in seeded {
            let seededCount = count.intValue ?? 0
            let foundCount = counts.removeValue(forKey: rule) ?? 0
            if foundCount != seededCount { matches = false }
            print("| `\(rule)` | \(seededCount) | \(foundCount)\(foundCount == seededCount ? "" : " **(differs)**") |")
        }
        for (rule, count) in counts.sorted(by: { $0.key < $1.key }) {
            matches = false
            print("| `\(rule)` (not seeded) | 0 | \(count) **(differs)** |")
        }
        let total = seeded.reduce(0) { $0 + ($1.value.intValue ?? 0) }
        print("| all | \(total) | \(found["diagnostics"]?.arrayValue?.count ?? 0) |")
        if let baseline, let baselineReport = json(baseline) {
            print("\nPython baseline (PyYAML CLoader):\n")
            print("| baseline check | seeded defects it can see | baseline found |")
            print("|---|---:|---:|")
            let baselineCounts = baselineReport["counts"]?.objectValue ?? []
            for (kind, count) in expected["baseline"]?.objectValue ?? [] {
                let got = baselineCounts.first { $0.key == kind }?.value.intValue ?? 0
                print("| \(kind) | \(count.intValue ?? 0) | \(got) |")
            }
        }
        print(matches ? "\nevery seeded defect found, with exact counts" : "\nCOUNTS DIFFER")
        return matches
    }
}

struct LocalesCorpusSpec: Sendable {
    var seed: UInt64 = 20_260_115
    var keys = 5_000
    var defectsPerKind = 24
    /// Flow files the fields are split over (1: flows/bench.yaml; more: flows/flowNN.yaml).
    var flows = 1
    /// Plural and select messages of 3-6 cases and 150-400 characters, the `format` and
    /// `required` ones a long sentence, and a plural on every eighth field's numeric rule.
    var longMessages = false

    /// The shape of users' worst files (issue 37): 10 flows, long ICU messages.
    static let long = LocalesCorpusSpec(flows: 10, longMessages: true)
}

struct LocalesCorpusSummary {
    var flows = 0
    var fields = 0
    var locales = 0
    var keys = 0
    var bytes = 0
    var defects = 0
    /// Long messages (plural and select) of the reference, their lengths and case counts.
    var longMessages = 0
    var longLengths = 0...0
    var longCases = 0...0
}

/// Writes the locale-check corpus. Every message of every locale is correct except the seeded
/// defects, each of which triggers exactly one finding of its rule (the generator picks keys
/// whose reference text has what the defect needs: markup, a URL, numbers, a plural, a select,
/// two lines, arguments), never two defects on one message.
///
/// Every file also holds jump-forms' own keys (`jumpForms.*`: en-US their built-in text, the
/// others a rewrite in their letters with their plural categories), and a 31st file is a
/// complete locale whose language is mistyped (`pk-PL`): its one finding is `unknown-language`.
struct LocalesCorpusGenerator {
    let spec: LocalesCorpusSpec
    let locales: [CorpusLocale] = CorpusLocale.all + [Self.mistypedLocale]

    /// The locale of the `unknown-language` defect (last in `locales`; no defect is seeded in it).
    static let mistypedLocale = CorpusLocale("pk-PL", "other", "ąćęłńóśźż")

    /// jump-forms' own messages (en-US), and its catalogs for the other locales.
    let builtinSource: [LocaleMessage] = BuiltinCatalog.catalogs.first { $0.tag.value.identifier == "en-US" }?.allMessages ?? []
    let builtinMatcher = LocaleMatcher(available: BuiltinCatalog.catalogs.map(\.tag.value).sorted())

    /// What a key's message says.
    enum Shape: Equatable {
        case label, placeholder, option
        case tip, tipMarkup, tipURL, tipNumbers, tipTwoLines
        case required  // validation.required: {label}
        case minLength  // plural on value, {label} in every case
        case format  // {label} ... {value} (value is a format name: a string)
        case maxLength  // select on field, {label} and {value}
        case builtin  // jump-forms' own message (`source`)

        var isPlainText: Bool { [.label, .placeholder, .option, .tip].contains(self) }
    }

    struct Key {
        var name: String  // dotted
        var field: Int  // 0 for shared keys
        var leaf: String  // the last part
        var shape: Shape
        /// jump-forms' en-US text, for `.builtin` keys.
        var source: String?
    }

    /// The seeded defect kinds in report order, each with the rule of its finding (nil: a key
    /// left out that needs no finding, since jump-forms' own catalog translates it).
    static let kinds: [(kind: String, rule: String?)] = [
        ("missing-key", "missing-key"), ("missing-builtin-key", "missing-key"), ("served-by-builtin", nil),
        ("obsolete-key", "obsolete-key"), ("empty-value", "empty-value"), ("same-as-source", "same-as-source"),
        ("icu-syntax", "icu-syntax"), ("argument-unknown", "argument-unknown"), ("argument-dropped", "argument-dropped"),
        ("argument-added", "argument-added"), ("plural-missing-category", "plural-missing-category"),
        ("plural-unused-category", "plural-unused-category"), ("select-without-other", "select-without-other"),
        ("markup-mismatch", "markup-mismatch"), ("url-mismatch", "url-mismatch"), ("number-mismatch", "number-mismatch"),
        ("whitespace-edge", "whitespace-edge"), ("double-space", "double-space"), ("newline-mismatch", "newline-mismatch"),
        ("invisible-character", "invisible-character"), ("bidi-control", "bidi-control"),
        ("yaml-trap", "yaml-trap"), ("yaml-trap-number", "yaml-trap"), ("yaml-trap-date", "yaml-trap"), ("yaml-trap-key", "yaml-trap"),
        ("duplicate-key", "duplicate-key"), ("yaml-alias", "yaml-alias"), ("render-failure", "render-failure"),
        // Last, so the kinds before it keep their places for a seed.
        ("ending-punctuation", "ending-punctuation")
    ]

    /// Option values of some select fields: Norway's code is YAML 1.1's `false` as a bare key.
    static let countryOptions = ["NO", "SE", "DK"]

    // MARK: keys and flow

    /// The keys of the reference, in file order, and the number of fields.
    func makeKeys() -> (keys: [Key], fields: Int) {
        var keys = [Key(name: "validation.required", field: 0, leaf: "required", shape: .required)]
        let builtin = builtinSource.map { message in
            Key(name: message.key, field: 0, leaf: String(message.key.split(separator: ".").last!), shape: .builtin, source: message.text)
        }

        var field = 0
        while keys.count < spec.keys {
            field += 1
            var wanted: [(String, Shape)] = [("label", .label)]
            if field % 2 == 1 { wanted.append(("placeholder", .placeholder)) }
            if field % 3 == 0 {
                let tip: Shape = field % 9 == 0 ? .tipTwoLines : field % 6 == 0 ? .tipMarkup : field % 15 == 3 ? .tipURL : .tip
                wanted.append(("tip", tip))
            }
            if field % 8 == 4 { wanted.append(("hint", .tipNumbers)) }
            if field % (spec.longMessages ? 8 : 16) == 0 { wanted.append(("minLength", .minLength)) }
            if field % 10 == 0 { wanted.append(("format", .format)) }
            if field % 20 == 13 {
                wanted += Self.countryOptions.map { ($0, .option) }
            } else if field % 10 == 3 {
                wanted += [("a", .option), ("b", .option), ("c", .option)]
            } else if field % 14 == 0 {
                wanted.append(("maxLength", .maxLength))
            }
            // The last field takes only what fits, options all or none.
            let room = spec.keys - keys.count
            if wanted.count > room {
                wanted = Array(wanted.filter { $0.1 != .option }.prefix(room))
            }
            for (leaf, shape) in wanted {
                let name = shape == .option ? "options.f\(zeroPad(field, 4)).\(leaf)" : "fields.f\(zeroPad(field, 4)).\(leaf)"
                keys.append(Key(name: name, field: field, leaf: leaf, shape: shape))
            }
        }
        return (keys + builtin, field)
    }

    /// The flow `name` of the fields `fields` (and the keys of the fields).
    func flowText(name flowName: String, keys: [Key], fields: ClosedRange<Int>) -> String {
        var byField: [Int: [Key]] = [:]
        for key in keys where key.field > 0 { byField[key.field, default: []].append(key) }
        var out = "# Generated by jump-bench locales generate (seed \(spec.seed)); do not edit.\n"
        out += "flow: \(flowName)\nversion: \"1\"\ndefaultLocale: en-US\nlocales: ../locales\n\nfields:\n"
        for field in fields {
            let name = "f\(zeroPad(field, 4))"
            let own = byField[field] ?? []
            let hasOptions = own.contains { $0.shape == .option }
            out += "  \(name):\n    type: \(hasOptions ? "select" : "text")\n"
            for key in own where [.label, .placeholder].contains(key.shape) || key.leaf == "tip" {
                out += "    \(key.leaf): \(key.name)\n"
            }
            if hasOptions {
                out += "    options:\n"
                for key in own where key.shape == .option {
                    out += "      - { value: \"\(key.leaf)\", label: \(key.name) }\n"
                }
            }
            out += "    validation:\n      - { rule: required, message: validation.required }\n"
            for key in own {
                switch key.shape {
                case .minLength: out += "      - { rule: minLength, value: \(3 + field % 9), message: \(key.name) }\n"
                case .format: out += "      - { rule: format, value: alphaNumeric, message: \(key.name) }\n"
                case .maxLength: out += "      - { rule: maxLength, value: \(40 + field % 20), message: \(key.name) }\n"
                case .tipNumbers: out += "      - { rule: whitelist, value: [a, b], message: \(key.name) }\n"
                default: break
                }
            }
        }
        out += "\nforms:\n"
        var start = fields.lowerBound
        while start <= fields.upperBound {
            let names = (start...min(fields.upperBound, start + 9)).map { "f\(zeroPad($0, 4))" }
            out += "  form\(zeroPad((start - 1) / 10 + 1, 3)): { fields: [\(names.joined(separator: ", "))] }\n"
            start += 10
        }
        return out
    }

    // MARK: texts

    /// Words in the locale's letters, from a generator seeded by (locale, key).
    func words(_ count: Int, _ random: inout SplitMix64, _ locale: CorpusLocale) -> String {
        var parts: [String] = []
        for index in 0..<count {
            var word = ""
            for _ in 0..<random.int(in: 4...8) { word += random.pick(locale.letters) }
            if index == 0, locale.spaced { word = word.prefix(1).uppercased() + word.dropFirst() }
            parts.append(word)
        }
        return parts.joined(separator: locale.spaced ? " " : "")
    }

    func text(_ key: Key, _ localeIndex: Int, field: Int, cases: [PluralCategory]? = nil) -> String {
        let locale = locales[localeIndex]
        var random = SplitMix64(seed: spec.seed &+ UInt64(localeIndex) &* 1_000_003 &+ UInt64(truncatingIfNeeded: key.name.hashValueStable))
        let stop = locale.spaced ? "." : "。"
        switch key.shape {
        case .builtin:
            let source = key.source ?? ""
            guard localeIndex > 0 else { return source }
            // The words become the locale's; arguments, plurals (with the locale's categories),
            // numbers, edge spaces and line breaks stay, so the rewrite passes every check.
            let rewriter = MessageRewriter(rules: PluralRules.cardinal(for: locale.tag))
            return rewriter.rewrite(source) { literal in
                literal.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                    line.split(separator: " ", omittingEmptySubsequences: false).map { word -> String in
                        let kept =
                            !word.contains(where: \.isLetter) || word.contains(where: \.isNumber) || word.contains("://")
                            || word.contains("<") || word.contains("@")
                        guard !kept else { return String(word) }
                        // The word's closing marks stay (`password?`, `Code:`), so the rewrite
                        // ends as the source does.
                        let marks = word.reversed().prefix { !$0.isLetter && !$0.isNumber }.reversed()
                        return words(1, &random, locale) + String(marks)
                    }.joined(separator: " ")
                }.joined(separator: "\n")
            } ?? source
        case .label, .option: return words(2, &random, locale)
        case .placeholder: return words(3, &random, locale)
        case .tip: return words(5, &random, locale) + stop
        case .tipMarkup: return words(1, &random, locale) + " <b>" + words(2, &random, locale) + "</b> " + words(2, &random, locale) + stop
        case .tipURL: return words(2, &random, locale) + " https://example.com/help/f\(zeroPad(field, 4)) " + words(2, &random, locale) + stop
        case .tipNumbers:
            return words(2, &random, locale) + " \(3 + field % 7) " + words(1, &random, locale) + " \(40 + field % 50) " + words(2, &random, locale)
                + stop
        case .tipTwoLines: return words(3, &random, locale) + stop + "\n" + words(4, &random, locale) + stop
        case .required: return "{label} " + words(spec.longMessages ? 12 : 2, &random, locale) + stop
        case .minLength:
            let categories = cases ?? PluralRules.cardinal(for: locale.tag).categories
            guard spec.longMessages else {
                let cases = categories.map { "\($0.rawValue) {{label} \(words(2, &random, locale)) # \(words(1, &random, locale))\(stop)}" }
                return "{value, plural, " + cases.joined(separator: " ") + "}"
            }
            // Exact values first (`=0`, `=1`, ...) until there are at least three cases.
            // (counted on the locale's categories, so a seeded defect changes only the categories).
            let exact = (0..<max(0, 3 - PluralRules.cardinal(for: locale.tag).categories.count)).map { "=\($0)" }
            let cases = (exact + categories.map(\.rawValue)).map {
                "\($0) {{label} \(words(3, &random, locale)) # \(words(random.int(in: 2...5), &random, locale))\(stop)}"
            }
            return "{value, plural, " + cases.joined(separator: " ") + "}"
        case .format: return "{label} " + words(spec.longMessages ? 8 : 3, &random, locale) + " {value}" + stop
        case .maxLength where spec.longMessages:
            // A select on the field: this field, 1-4 others, `other` (3-6 cases).
            let others = (1...random.int(in: 1...4)).map { "f\(zeroPad(field + $0, 4))" }
            let cases = (["f\(zeroPad(field, 4))"] + others).map {
                "\($0) {{label} \(words(random.int(in: 3...6), &random, locale)) {value}\(stop)}"
            }
            return "{field, select, " + cases.joined(separator: " ") + " other {\(words(4, &random, locale)) {value}\(stop)}}"
        case .maxLength:
            return
                """
                {field, select, f\(zeroPad(field, 4)) {{label} \(words(2, &random, locale)) {value}\(stop)} other {\(words(2, &random, locale)) \
                {value}\(stop)}}
                """
        }
    }

    // MARK: defects

    struct Defect {
        var kind: String
        var locale: Int
        var key: Int
        /// For yaml-alias: the key whose value is the anchored one.
        var partner: Int?
    }

    /// Whether jump-forms' own catalog has texts for the locale (along its fallback chain).
    func servedByBuiltin(_ locale: Int) -> Bool {
        guard let tag = LocaleTag(locales[locale].tag) else { return false }
        return tag.language == "en" || builtinMatcher.bestMatch(for: tag) != nil
    }

    /// Which keys a defect kind can be seeded on, and in which locales.
    func fits(_ kind: String, _ key: Key, locale: Int) -> Bool {
        let categories = PluralRules.cardinal(for: locales[locale].tag).categories
        switch kind {
        case "missing-builtin-key": return key.shape == .builtin && !servedByBuiltin(locale)
        case "served-by-builtin": return key.shape == .builtin && servedByBuiltin(locale)
        case "yaml-trap-number", "yaml-trap-date": return key.shape == .label && locales[locale].spaced
        case "yaml-trap-key": return key.shape == .option && key.leaf == "NO"
        case "argument-added": return key.shape == .format
        case "missing-key", "obsolete-key", "empty-value", "same-as-source", "whitespace-edge", "double-space",
            "invisible-character", "yaml-trap", "duplicate-key", "yaml-alias":
            return key.shape == .label && locales[locale].spaced
        case "bidi-control":
            return key.shape == .label && !["ar-EG", "he-IL"].contains(locales[locale].tag)
        case "icu-syntax", "argument-unknown", "argument-dropped", "render-failure": return key.shape == .format
        case "plural-missing-category": return key.shape == .minLength && categories.count >= 2
        case "plural-unused-category": return key.shape == .minLength && categories.count < 6
        case "select-without-other": return key.shape == .maxLength
        case "markup-mismatch": return key.shape == .tipMarkup
        case "url-mismatch": return key.shape == .tipURL
        case "number-mismatch": return key.shape == .tipNumbers
        case "newline-mismatch": return key.shape == .tipTwoLines
        case "ending-punctuation": return key.shape == .tip
        default: return false
        }
    }

    func seed(_ keys: [Key]) -> [Defect] {
        var random = SplitMix64(seed: spec.seed ^ 0xDEFEC7)
        var used = Set<Int>()  // locale * keys.count + key
        var defects: [Defect] = []
        for (kind, _) in Self.kinds {
            var placed = 0
            var attempts = 0
            while placed < spec.defectsPerKind, attempts < 1_000_000 {
                attempts += 1
                let locale = 1 + random.below(locales.count - 2)  // never the reference, nor the mistyped locale
                let key = random.below(keys.count)
                guard fits(kind, keys[key], locale: locale), !used.contains(locale * keys.count + key) else { continue }
                var defect = Defect(kind: kind, locale: locale, key: key)
                if kind == "yaml-alias" {
                    // The anchor goes on the previous label of the same locale (a different field).
                    guard let partner = (0..<key).last(where: { keys[$0].shape == .label }),
                        !used.contains(locale * keys.count + partner)
                    else { continue }
                    defect.partner = partner
                    used.insert(locale * keys.count + partner)
                }
                used.insert(locale * keys.count + key)
                defects.append(defect)
                placed += 1
            }
        }
        return defects
    }

    /// The defective value (nil: the key is left out), or the raw YAML to write for it.
    enum Written {
        case text(String)
        case raw(String)  // written as is after `key: `
        case omitted
    }

    func apply(_ kind: String, to text: String, key: Key, locale: Int, referenceText: String) -> Written {
        let categories = PluralRules.cardinal(for: locales[locale].tag).categories
        switch kind {
        case "missing-key", "missing-builtin-key", "served-by-builtin": return .omitted
        case "empty-value": return .text("")
        case "same-as-source": return .text(referenceText)
        case "icu-syntax": return .text(text.replacing("{value}", with: "{value"))
        case "argument-unknown": return .text(text.replacing("{label}", with: "{lable}"))
        case "argument-dropped": return .text(text.replacing("{label} ", with: ""))
        case "argument-added": return .text(text.replacing("{value}", with: "{value} ({field})"))
        case "render-failure": return .text(text.replacing("{value}", with: "{value, number}"))
        case "plural-missing-category":
            // Without the first category that is not `other`.
            let dropped = categories.first { $0 != .other }!
            return .text(self.text(key, locale, field: key.field, cases: categories.filter { $0 != dropped }))
        case "plural-unused-category":
            let extra = PluralCategory.allCases.first { !categories.contains($0) }!
            return .text(self.text(key, locale, field: key.field, cases: (categories + [extra]).sorted()))
        case "select-without-other":
            guard let other = text.firstRange(of: " other {") else { return .text(text) }
            return .text(String(text[..<other.lowerBound]) + "}")
        case "markup-mismatch": return .text(text.replacing("</b>", with: ""))
        case "url-mismatch": return .text(text.replacing("example.com", with: "exmaple.com"))
        case "number-mismatch":
            // The second number loses its last digit.
            let parts = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            var seen = 0
            let changed = parts.map { part -> String in
                guard part.allSatisfy(\.isNumber) else { return part }
                seen += 1
                return seen == 2 ? String(part.dropLast()) : part
            }
            return .text(changed.joined(separator: " "))
        case "whitespace-edge": return .text(text + " ")
        case "double-space": return .text(text.replacing(" ", with: "  "))
        case "newline-mismatch": return .text(text.replacing("\n", with: " "))
        case "ending-punctuation": return .text(String(text.dropLast()))  // without its full stop
        case "invisible-character": return .text(String(text.prefix(3)) + "\u{200B}" + String(text.dropFirst(3)))
        case "bidi-control": return .text(text + "\u{202E}")
        case "yaml-trap": return .raw(["no", "off", "on", "yes", "No", "OFF", "~"][key.field % 7])
        case "yaml-trap-number": return .raw(["1.0", "2.5", "0x1F", "10", "-7", "3.14"][key.field % 6])
        case "yaml-trap-date": return .raw(["2024-01-01", "2025-12-31", "2024-02-29"][key.field % 3])
        default: return .text(text)
        }
    }

    // MARK: YAML

    /// A scalar: plain when no YAML reads it differently, else double-quoted; `|-` for two lines.
    func scalar(_ text: String, indent: String, style: Int) -> String {
        if text.contains("\n"), !text.hasSuffix(" ") {
            return "|-\n" + text.split(separator: "\n", omittingEmptySubsequences: false).map { indent + "  " + $0 }.joined(separator: "\n")
        }
        let plainSafe =
            !text.isEmpty && !text.hasPrefix(" ") && !text.hasSuffix(" ") && !text.hasPrefix("-")
            && !text.unicodeScalars.contains {
                $0.value < 0x20 || ($0.value >= 0x200B && $0.value <= 0x206F) || "{}[]#:&*!|>'\"%@`,?\\".unicodeScalars.contains($0)
            }
            && !["no", "yes", "on", "off", "true", "false", "null", "~"].contains(text.lowercased())
        if plainSafe, style % 5 != 0 { return text }
        if style % 5 == 0, !text.contains("'"),
            !text.unicodeScalars.contains(where: { $0.value < 0x20 || ($0.value >= 0x200B && $0.value <= 0x206F) })
        {
            return "'" + text + "'"
        }
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default:
                // Invisible and bidi characters as themselves (`locales check` takes one written
                // as an escape to be on purpose); controls and line separators as escapes.
                if scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    func localeFile(_ localeIndex: Int, keys: [Key], defects: [Int: Defect], anchored: Set<Int>) -> String {
        let locale = locales[localeIndex]
        var out = "# \(locale.tag): generated by jump-bench locales generate (seed \(spec.seed)); do not edit.\n"
        out += "locale: \(locale.tag)\nmessages:\n"
        var openField = 0
        for (index, key) in keys.enumerated() {
            let style = localeIndex + index
            let value = text(key, localeIndex, field: key.field)
            let defect = defects[index]
            let written: Written =
                defect.map {
                    apply($0.kind, to: value, key: key, locale: localeIndex, referenceText: text(key, 0, field: key.field))
                } ?? .text(value)
            // Keys come flat first (validation.*, options.*), then nested under `fields:`.
            let nested = key.name.hasPrefix("fields.")
            if case .omitted = written { continue }
            if nested && key.field != openField {
                if openField == 0 { out += "  fields:\n" }
                out += "    f\(zeroPad(key.field, 4)):\n"
                openField = key.field
            }
            var indent = nested ? "      " : "  "
            var name = nested ? key.leaf : key.name
            if defect?.kind == "yaml-trap-key" {
                // The option under its field's key, unquoted: `NO:` is YAML 1.1's false.
                out += "  \(key.name.dropLast(key.leaf.count + 1)):\n"
                indent = "    "
                name = key.leaf
            }
            switch written {
            case .omitted:
                continue
            case .raw(let raw):
                out += "\(indent)\(name): \(raw)\n"
            case .text(let text):
                if defect?.kind == "yaml-alias", let partner = defect?.partner {
                    out += "\(indent)\(name): *a\(partner)\n"
                } else {
                    let anchor = anchored.contains(index) ? "&a\(index) " : ""
                    out += "\(indent)\(name): \(anchor)\(scalar(text, indent: indent, style: style))\n"
                }
            }
            if defect?.kind == "obsolete-key" {
                out += "\(indent)\(name)Old: \(scalar(value, indent: indent, style: style))\n"
            }
            if defect?.kind == "duplicate-key" {
                // A second, different value (which YAML tools keep, and jump-forms reports).
                out += "\(indent)\(name): \(scalar(value + " bis", indent: indent, style: style))\n"
            }
        }
        return out
    }

    func write(to out: String) throws(CorpusError) -> LocalesCorpusSummary {
        let (keys, fields) = makeKeys()
        // Flat dotted keys first, then the nested `fields:` mapping (opened once).
        let ordered = keys.filter { !$0.name.hasPrefix("fields.") } + keys.filter { $0.name.hasPrefix("fields.") }
        let defects = seed(ordered)
        for directory in [out, out + "/flows", out + "/locales"] { try makeDirectory(directory) }
        let findings = defects.filter { defect in Self.kinds.contains { $0.kind == defect.kind && $0.rule != nil } }.count
        // The seeded defects and the missing locale file and mistyped language.
        var summary = LocalesCorpusSummary(flows: spec.flows, fields: fields, locales: locales.count, keys: ordered.count, defects: findings + 2)
        // The fields in `spec.flows` files of consecutive fields (whole forms of ten).
        let perFlow = ((fields + 9) / 10 + spec.flows - 1) / spec.flows * 10
        var flowNames: [String] = []
        for flow in 0..<spec.flows {
            let first = flow * perFlow + 1
            guard first <= fields else { break }
            let name = spec.flows == 1 ? "bench" : "flow\(zeroPad(flow + 1, 2))"
            flowNames.append(name)
            let text = flowText(name: name, keys: ordered, fields: first...min(fields, first + perFlow - 1))
            summary.bytes += text.utf8.count
            try writeFile(text, to: out + "/flows/\(name).yaml")
        }
        summary.flows = flowNames.count
        if spec.longMessages {
            let long = ordered.filter { $0.shape == .minLength || $0.shape == .maxLength }.map { key -> (Int, Int) in
                let text = text(key, 0, field: key.field)
                // Cases: the braces opened one level inside the message's argument.
                var depth = 0
                var cases = 0
                for character in text {
                    if character == "{" {
                        if depth == 1 { cases += 1 }
                        depth += 1
                    } else if character == "}" {
                        depth -= 1
                    }
                }
                return (text.count, cases)
            }
            summary.longMessages = long.count
            if let shortest = long.map(\.0).min(), let longest = long.map(\.0).max() { summary.longLengths = shortest...longest }
            if let fewest = long.map(\.1).min(), let most = long.map(\.1).max() { summary.longCases = fewest...most }
        }
        try writeFile(
            """
            # Generated by jump-bench locales generate; do not edit. captureLocale names a locale
            # no file serves (no Icelandic at all): the seeded missing-locale-file defect.
            captureDomain: embedded
            captureClientId: bench0123456789abcdefghijklmnopq
            captureLocale: is-IS
            flow: flows/\(flowNames[0]).yaml

            """, to: out + "/jump.yaml")
        for localeIndex in locales.indices {
            var own: [Int: Defect] = [:]
            var anchored = Set<Int>()
            for defect in defects where defect.locale == localeIndex {
                own[defect.key] = defect
                if let partner = defect.partner { anchored.insert(partner) }
            }
            let text = localeFile(localeIndex, keys: ordered, defects: own, anchored: anchored)
            summary.bytes += text.utf8.count
            try writeFile(text, to: out + "/locales/\(locales[localeIndex].tag).yaml")
        }
        let count = { (kind: String) in defects.filter { $0.kind == kind }.count }
        // Findings per rule, in report order.
        var counts: [(String, Int)] = [("missing-locale-file", 1), ("unknown-language", 1)]
        for (kind, rule) in Self.kinds {
            guard let rule else { continue }
            if let index = counts.firstIndex(where: { $0.0 == rule }) { counts[index].1 += count(kind) } else { counts.append((rule, count(kind))) }
        }
        let manifest: JSONValue = .object([
            ("seed", .integer(Int(spec.seed))),
            ("locales", .integer(locales.count)),
            ("keys", .integer(ordered.count)),
            ("reference", "en-US"),
            ("defects", .object(counts.map { (key: $0.0, value: .integer($0.1)) })),
            // jump-forms' own keys left out where its catalog translates them: no finding.
            ("servedByBuiltin", .integer(count("served-by-builtin"))),
            // What the Python baseline can see of them: key diff, `{}` argument sets,
            // whitespace (edges and double spaces), same-as-source.
            (
                "baseline",
                .object([
                    // It also counts the keys jump-forms' catalog serves, and reads a bare `NO:`
                    // key as `False`: one key missing, one extra.
                    (
                        key: "missing",
                        value: .integer(count("missing-key") + count("missing-builtin-key") + count("served-by-builtin") + count("yaml-trap-key"))
                    ),
                    (key: "extra", value: .integer(count("obsolete-key") + count("yaml-trap-key"))),
                    // `{value.` (the seeded syntax error) reads as an argument set without `value`.
                    (
                        key: "arguments",
                        value: .integer(count("argument-unknown") + count("argument-dropped") + count("argument-added") + count("icu-syntax"))
                    ),
                    (key: "whitespace", value: .integer(count("whitespace-edge") + count("double-space"))),
                    (key: "same-as-source", value: .integer(count("same-as-source")))
                ])
            )
        ])
        try writeFile(manifest.serialized(pretty: true) + "\n", to: out + "/expected.json")
        return summary
    }

    /// Creates the folder and every missing parent (`mkdir -p`).
    func makeDirectory(_ path: String) throws(CorpusError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/") {
            prefix += part
            if mkdir(prefix, 0o755) != 0, errno != EEXIST {
                throw CorpusError("cannot create \(prefix): \(String(cString: strerror(errno)))")
            }
            prefix += "/"
        }
    }
}

extension String {
    /// FNV-1a of the UTF-8 bytes: stable across runs (Swift's `hashValue` is seeded per process).
    var hashValueStable: UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }
}

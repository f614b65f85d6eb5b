#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
#if Mimalloc && os(Linux)
    import CMimallocBench
#endif
import DevToolSupport
import JumpFiles
import JumpForms
import JumpFormsLoader

/// jump-bench: the benchmarks of docs/PERFORMANCE.md. Run from the repository root
/// (the rule-engine benchmark reads flows/standard.yaml). `scripts/bench.sh` runs them all.
@main
struct JumpBench {
    static let usage = """
        usage: jump-bench COMMAND [options]

          generate [--out DIR] [--seed N] [--flows N] [--fields N] [--locales N] [--keys N]
                write the deterministic corpus (default .bench/corpus: 10 flows x 200 fields,
                200 forms, 30 locales x 5,000 keys); then load and lint it, failing on errors
          check [--out DIR]      load and lint the corpus once; count findings by code
          load [--out DIR] [--walker PATH] [--iterations N] [--warmup N]
                load + lint of the corpus against yaml-event-walk over the same files
          reader [--out DIR] [--iterations N]   YAMLReader.read alone over the corpus (profiling)
          once [--out DIR]       one load + lint of the corpus and nothing else (for profilers)
          dump FILE...           YAMLReader.read's diagnostics and a document digest per file
          rules [--flow PATH] [--form NAME] [--rounds N] [--round-ms MS]
                RuleEngine.validate throughput, in field checks per second
          requests [--config PATH] [--form NAME] [--rounds N] [--round-ms MS]
                RequestBuilder.register throughput (validated, built, body encoded), in requests
                per second; the form defaults to jump.yaml's registration form
          coldstart [--cli PATH] [--runs N]   `jump-forms --help`, spawned N times
          bomb [--iterations N]  a < 300-byte alias bomb through YAMLReader and the loader
          locales generate|load|verify ...   the `jump-forms locales check` benchmark
                (LocalesBenchmark.swift, scripts/bench-locales.sh)
          all [--out DIR] [--walker PATH] [--cli PATH] [--iterations N] [--runs N]
                everything above, then a table

        Defaults for --walker and --cli: yaml-event-walk and jump-forms next to this binary.
        --format json (load, reader, once, rules, requests, coldstart, bomb, all, locales load and
        check): one JSON object per benchmark and line, times in milliseconds, instead of text.
        """

    static func main() {
        #if Mimalloc && os(Linux)
            // As jump-forms sets it (Sources/jump-forms/JumpFormsMain.swift).
            if getenv("MIMALLOC_LARGE_OS_PAGES") == nil { mi_option_set(mi_option_large_os_pages, 1) }
        #endif
        var arguments = Array(CommandLine.arguments.dropFirst())
        guard let command = arguments.first else {
            print(usage)
            exit(2)
        }
        arguments.removeFirst()
        if command == "locales" {
            // `jump-bench locales ...`: the locale-check benchmark (LocalesBenchmark.swift).
            LocalesBenchmark.main(arguments)
            return
        }
        var options: [String: String] = [:]
        var index = 0
        while command != "dump", index < arguments.count {
            let argument = arguments[index]
            guard argument.hasPrefix("--"), index + 1 < arguments.count else {
                printError("jump-bench: unexpected argument '\(argument)'\n\(usage)\n")
                exit(2)
            }
            options[String(argument.dropFirst(2))] = arguments[index + 1]
            index += 2
        }
        setOutputFormat(options["format"], tool: "jump-bench")
        let binaries = executableDirectory()
        let out = options["out"] ?? ".bench/corpus"
        let walker = options["walker"] ?? binaries + "/yaml-event-walk"
        let cli = options["cli"] ?? binaries + "/jump-forms"
        func int(_ name: String, _ fallback: Int) -> Int { options[name].flatMap { Int($0) } ?? fallback }

        switch command {
        case "generate":
            var spec = CorpusSpec()
            if let seed = options["seed"].flatMap({ UInt64($0) }) { spec.seed = seed }
            spec.flows = int("flows", spec.flows)
            spec.fieldsPerFlow = int("fields", spec.fieldsPerFlow)
            spec.locales = int("locales", spec.locales)
            spec.keys = int("keys", spec.keys)
            if !generate(spec, out) { exit(1) }
        case "check":
            if !check(out) { exit(1) }
        case "load":
            printLoad(benchmarkLoad(out, walker: walker, iterations: int("iterations", 10), warmup: int("warmup", 1)))
        case "reader":
            // YAMLReader.read alone over the corpus files in memory (for profiling).
            let contents = (yamlFiles(in: out + "/flows") + yamlFiles(in: out + "/locales")).compactMap { path in
                (try? FileReader.read(path).get()).map { (path, $0) }
            }
            var times: [Double] = []
            for _ in 0..<int("iterations", 10) {
                let start = nowMilliseconds()
                for (path, bytes) in contents { benchmarkSink &+= YAMLReader.read(bytes, path: path).document == nil ? 1 : 0 }
                times.append(nowMilliseconds() - start)
            }
            let stats = Stats(times)
            report {
                print("YAMLReader.read over \(contents.count) files: best \(fixed(stats.best)) ms  median \(fixed(stats.median)) ms")
            } json: {
                .object([("benchmark", "reader"), ("files", .integer(contents.count)), ("milliseconds", stats.json)])
            }
        case "dump":
            // What YAMLReader.read makes of each file named: diagnostics and a digest of the
            // document (to compare two builds of the reader).
            for path in arguments where !path.hasPrefix("--") {
                guard let bytes = (try? FileReader.read(path).get()) else { continue }
                let result = YAMLReader.read(bytes, path: "input.yaml")
                var text = result.diagnostics.map(\.description).joined(separator: "\n")
                if let document = result.document {
                    text += "\n" + canonicalDump(document.root) + String(describing: document.anchors) + String(describing: document.aliases)
                }
                var hash: UInt64 = 0xcbf2_9ce4_8422_2325
                for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
                print(
                    path, result.document == nil ? "no-document" : "document", result.diagnostics.map(\.code.rawValue).joined(separator: ","),
                    String(hash, radix: 16))
            }
        case "once":
            // One ProjectLoader().load(paths:) + lint() of the corpus, nothing else (for profilers).
            let start = nowMilliseconds()
            let findings = ProjectLoader().load(paths: [out + "/flows"]).lint()
            let elapsed = nowMilliseconds() - start
            report {
                print("load + lint once: \(findings.count) findings, \(fixed(elapsed)) ms")
            } json: {
                .object([("benchmark", "once"), ("findings", .integer(findings.count)), ("milliseconds", number(elapsed))])
            }
        case "rules":
            do {
                printRules(
                    try benchmarkRules(
                        flowPath: options["flow"] ?? "flows/standard.yaml", formName: options["form"] ?? "registrationForm",
                        rounds: int("rounds", 5), roundMilliseconds: Double(int("round-ms", 1000))))
            } catch {
                printError("jump-bench: \(error)\n")
                exit(1)
            }
        case "requests":
            do {
                printRequests(
                    try benchmarkRequests(
                        configPath: options["config"] ?? "jump.yaml", formName: options["form"],
                        rounds: int("rounds", 5), roundMilliseconds: Double(int("round-ms", 1000))))
            } catch {
                printError("jump-bench: \(error)\n")
                exit(1)
            }
        case "coldstart":
            printColdStart(benchmarkColdStart(cli, ["--help"], runs: int("runs", 100), warmup: 5), cli)
        case "bomb":
            printBomb(benchmarkBomb(iterations: int("iterations", 20), scratch: scratchDirectory(out)))
        case "all":
            if !all(out: out, walker: walker, cli: cli, iterations: int("iterations", 10), runs: int("runs", 100)) { exit(1) }
        default:
            print(usage)
            exit(2)
        }
    }

    // MARK: commands

    static func generate(_ spec: CorpusSpec, _ out: String) -> Bool {
        var generator = CorpusGenerator(spec: spec)
        let start = nowMilliseconds()
        let summary: CorpusSummary
        do {
            try makeParents(out)
            summary = try generator.generate(into: out)
        } catch {
            printError("jump-bench: \(error)\n")
            return false
        }
        let elapsed = nowMilliseconds() - start
        report {
            print("corpus: \(out) (seed \(spec.seed), \(fixed(elapsed, 0)) ms)")
            print(
                "  \(summary.flowFiles.count) flow files: \(grouped(summary.forms)) forms, \(grouped(summary.fields)) fields, \(grouped(summary.rules)) rules"
            )
            print(
                "  \(summary.localeFiles.count) locale files x \(grouped(summary.keysPerLocale)) keys (\(grouped(summary.pluralMessagesPerLocale)) ICU plural messages each)"
            )
            print("  \(grouped(summary.bytes)) bytes in \(summary.allFiles.count) files")
        } json: {
            .object([
                ("benchmark", "corpus"), ("out", .string(out)), ("seed", .number(String(spec.seed))),
                ("flowFiles", .integer(summary.flowFiles.count)), ("forms", .integer(summary.forms)),
                ("fields", .integer(summary.fields)), ("rules", .integer(summary.rules)),
                ("localeFiles", .integer(summary.localeFiles.count)), ("keysPerLocale", .integer(summary.keysPerLocale)),
                ("bytes", .integer(summary.bytes)), ("files", .integer(summary.allFiles.count)),
                ("milliseconds", number(elapsed))
            ])
        }
        return check(out)
    }

    @discardableResult
    static func check(_ out: String) -> Bool {
        let counts = lintCorpus(out)
        report {
            print("lint of \(out)/flows: \(counts.errors) errors, \(counts.warnings) warnings")
            for (code, count) in counts.byCode.sorted(by: { $0.key < $1.key }) {
                print("  \(code): \(count)")
            }
            for error in counts.firstErrors { print("  " + error) }
            print(
                """
                plural case keys checked against CLDR cardinal categories: \(grouped(counts.pluralKeys)), not in the locale's categories: \
                \(counts.foreignPluralKeys.count)
                """
            )
            for key in counts.foreignPluralKeys.prefix(10) { print("  " + key) }
        } json: {
            .object([
                ("benchmark", "check"), ("errors", .integer(counts.errors)), ("warnings", .integer(counts.warnings)),
                ("byCode", .object(counts.byCode.sorted(by: { $0.key < $1.key }).map { ($0.key, .integer($0.value)) })),
                ("pluralKeys", .integer(counts.pluralKeys)), ("foreignPluralKeys", .integer(counts.foreignPluralKeys.count))
            ])
        }
        if counts.errors > 0 { printError("jump-bench: the corpus has lint errors\n") }
        if !counts.foreignPluralKeys.isEmpty { printError("jump-bench: the corpus uses plural categories its locales lack\n") }
        return counts.errors == 0 && counts.foreignPluralKeys.isEmpty
    }

    static func printLoad(_ result: LoadResult) {
        guard outputFormat == .text else {
            var entries: [(key: String, value: JSONValue)] = [
                ("benchmark", "load"), ("files", .integer(result.files)), ("bytes", .integer(result.bytes)),
                ("libyamlEvents", .integer(result.walkerEvents)), ("findings", .integer(result.findings)),
                ("readerMilliseconds", result.reader.json), ("loadMilliseconds", result.load.json),
                ("lintMilliseconds", result.lint.json), ("loadAndLintMilliseconds", result.total.json)
            ]
            if let walker = result.walker { entries.append(("walkerMilliseconds", walker.json)) }
            if let ratios = result.ratios { entries.append(("ratioByRound", ratios.json)) }
            print(JSONValue.object(entries).serialized())
            return
        }
        print(
            """
            load + lint: \(result.files) files, \(grouped(result.bytes)) bytes, \(grouped(result.walkerEvents)) libyaml events, \(result.findings) \
            findings
            """
        )
        print("  YAMLReader.read   best \(fixed(result.reader.best)) ms  median \(fixed(result.reader.median)) ms  (files already in memory)")
        print("  Swift load        best \(fixed(result.load.best)) ms  median \(fixed(result.load.median)) ms")
        print("  Swift lint        best \(fixed(result.lint.best)) ms  median \(fixed(result.lint.median)) ms")
        print("  Swift load+lint   best \(fixed(result.total.best)) ms  median \(fixed(result.total.median)) ms  (n=\(result.total.samples.count))")
        if let walker = result.walker {
            print("  libyaml walk      best \(fixed(walker.best)) ms  median \(fixed(walker.median)) ms")
            print(
                "  ratio load+lint / libyaml walk: best \(fixed(result.total.best / walker.best)) x  median \(fixed(result.total.median / walker.median)) x  (goal <= 2x)"
            )
            if let ratios = result.ratios {
                print(
                    "  ratio round by round (each round runs both): median \(fixed(ratios.median)) x  best \(fixed(ratios.best)) x  worst \(fixed(ratios.worst)) x"
                )
            }
            print(
                "  ratio load only / libyaml walk: best \(fixed(result.load.best / walker.best)) x  median \(fixed(result.load.median / walker.median)) x"
            )
            print(
                "  ratio YAMLReader / libyaml walk: best \(fixed(result.reader.best / walker.best)) x  median \(fixed(result.reader.median / walker.median)) x"
            )
        }
    }

    static func printRules(_ result: RuleResult) {
        guard outputFormat == .text else {
            print(
                JSONValue.object([
                    ("benchmark", "rules"), ("form", .string(result.form)), ("fields", .integer(result.fields)),
                    ("rules", .integer(result.rules)), ("valueSets", .integer(result.valueSets)),
                    ("validSets", .integer(result.validSets)), ("fieldChecksPerSecond", result.rounds.rateJSON)
                ]).serialized())
            return
        }
        print(
            """
            rule engine: form \(result.form), \(result.fields) fields, \(result.rules) rules, \(result.valueSets) value sets (\(result.validSets) \
            valid)
            """
        )
        print(
            "  field checks/s   best \(grouped(Int(result.rounds.worst)))  median \(grouped(Int(result.rounds.median)))  worst \(grouped(Int(result.rounds.best)))  (\(result.rounds.samples.count) rounds; goal >= 1,000,000)"
        )
    }

    static func printColdStart(_ stats: Stats, _ cli: String) {
        guard outputFormat == .text else {
            print(
                JSONValue.object([
                    ("benchmark", "coldstart"), ("command", .string(cli + " --help")),
                    ("milliseconds", stats.json)
                ]).serialized())
            return
        }
        print("cold start: \(cli) --help, \(stats.samples.count) spawns")
        print(
            "  best \(fixed(stats.best)) ms  median \(fixed(stats.median)) ms  mean \(fixed(stats.mean)) ms  worst \(fixed(stats.worst)) ms  (goal median < 40 ms)"
        )
    }

    static func printBomb(_ result: BombResult) {
        guard outputFormat == .text else {
            print(
                JSONValue.object([
                    ("benchmark", "bomb"), ("bytes", .integer(result.bytes)),
                    ("diagnostics", .array(result.codes.map { .string($0) })),
                    ("documentReturned", .bool(result.documentReturned)),
                    ("readerMilliseconds", result.reader.json), ("loadAndLintMilliseconds", result.loader.json)
                ]).serialized())
            return
        }
        print("alias bomb: \(result.bytes) bytes, diagnostics \(result.codes.joined(separator: ", ")), document returned: \(result.documentReturned)")
        print(
            "  YAMLReader.read   best \(fixed(result.reader.best, 3)) ms  median \(fixed(result.reader.median, 3)) ms  worst \(fixed(result.reader.worst, 3)) ms"
        )
        print(
            "  load + lint file  best \(fixed(result.loader.best, 3)) ms  median \(fixed(result.loader.median, 3)) ms  worst \(fixed(result.loader.worst, 3)) ms  (goal < 100 ms)"
        )
    }

    static func all(out: String, walker: String, cli: String, iterations: Int, runs: Int) -> Bool {
        heading("== corpus")
        guard generate(CorpusSpec(), out) else { return false }
        heading("\n== load + lint")
        let load = benchmarkLoad(out, walker: walker, iterations: iterations, warmup: 1)
        printLoad(load)
        heading("\n== rule engine")
        var rules: [RuleResult] = []
        for form in ["registrationForm", "editProfileForm"] {
            do {
                let result = try benchmarkRules(flowPath: "flows/standard.yaml", formName: form, rounds: 5, roundMilliseconds: 1000)
                printRules(result)
                rules.append(result)
            } catch {
                printError("jump-bench: \(error)\n")
            }
        }
        heading("\n== request builder")
        var requests: RequestResult?
        do {
            let result = try benchmarkRequests(configPath: "jump.yaml", formName: nil, rounds: 5, roundMilliseconds: 1000)
            printRequests(result)
            requests = result
        } catch {
            printError("jump-bench: \(error)\n")
        }
        heading("\n== cold start")
        let cold = benchmarkColdStart(cli, ["--help"], runs: runs, warmup: 5)
        printColdStart(cold, cli)
        heading("\n== alias bomb")
        let bomb = benchmarkBomb(iterations: 20, scratch: scratchDirectory(out))
        printBomb(bomb)

        // The table is for people; in JSON each benchmark has printed its object.
        guard outputFormat == .text else { return true }
        print("\n== summary")
        var rows: [(String, String, String, String)] = []
        if let walker = load.walker, let ratios = load.ratios {
            rows.append(
                (
                    "load+lint vs libyaml walk (median of rounds)", "\(fixed(ratios.median))x (worst round \(fixed(ratios.worst))x)",
                    "<= 2x", ratios.median <= 2 ? "met" : "MISSED"
                ))
            let ratio = load.total.median / walker.median
            rows.append(
                (
                    "load+lint vs libyaml walk (medians)", "\(fixed(load.total.median)) / \(fixed(walker.median)) ms = \(fixed(ratio))x",
                    "<= 2x", ratio <= 2 ? "met" : "MISSED"
                ))
            rows.append(
                (
                    "load+lint vs libyaml walk (best)",
                    "\(fixed(load.total.best)) / \(fixed(walker.best)) ms = \(fixed(load.total.best / walker.best))x",
                    "<= 2x", load.total.best / walker.best <= 2 ? "met" : "MISSED"
                ))
        }
        for result in rules {
            let median = result.rounds.median
            rows.append(
                (
                    "rule engine, \(result.form) (median)", "\(grouped(Int(median))) field checks/s", ">= 1,000,000",
                    median >= 1_000_000 ? "met" : "MISSED"
                ))
        }
        if let requests {
            rows.append(("requests built, register with \(requests.form) (median)", "\(grouped(Int(requests.rounds.median))) requests/s", "-", "-"))
        }
        rows.append(("jump-forms --help cold start (median)", "\(fixed(cold.median)) ms", "< 40 ms", cold.median < 40 ? "met" : "MISSED"))
        let bombOK = bomb.loader.worst < 100 && !bomb.documentReturned && bomb.codes.contains(DiagnosticCode.aliasBudgetExceeded.rawValue)
        rows.append(
            (
                "\(bomb.bytes)-byte alias bomb refused (worst)",
                "\(fixed(bomb.reader.worst, 3)) ms reader, \(fixed(bomb.loader.worst, 3)) ms load+lint",
                "< 100 ms", bombOK ? "met" : "MISSED"
            ))
        let widths = [rows.map(\.0.count).max() ?? 0, rows.map(\.1.count).max() ?? 0, rows.map(\.2.count).max() ?? 0]
        print(rightPad("measure", widths[0]) + " | " + rightPad("figure", widths[1]) + " | " + rightPad("goal", widths[2]) + " | result")
        print(
            String(repeating: "-", count: widths[0]) + "-|-" + String(repeating: "-", count: widths[1]) + "-|-"
                + String(repeating: "-", count: widths[2]) + "-|-------")
        for row in rows {
            print(rightPad(row.0, widths[0]) + " | " + rightPad(row.1, widths[1]) + " | " + rightPad(row.2, widths[2]) + " | " + row.3)
        }
        return true
    }

    /// A section heading of `all`, in text format only.
    static func heading(_ text: String) {
        if outputFormat == .text { print(text) }
    }

    // MARK: paths

    static func executableDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let path = count > 0 ? String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return String(path[..<slash])
    }

    static func scratchDirectory(_ out: String) -> String {
        let directory = out + "-scratch"
        try? makeParents(directory)
        mkdir(directory, 0o755)
        return directory
    }

    static func makeParents(_ path: String) throws(CorpusError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/").dropLast() {
            prefix += "/" + part
            if mkdir(prefix, 0o755) != 0, errno != EEXIST {
                throw CorpusError("cannot create \(prefix): \(String(cString: strerror(errno)))")
            }
        }
    }
}

/// The node tree as text: every node's kind, marks, scalar value, style and tag, and every
/// mapping key, depth first (the `dump` digest; independent of how the reader stores nodes).
func canonicalDump(_ root: YAMLNode) -> String {
    var out = ""
    func mark(_ mark: YAMLMark) -> String { "\(mark.line):\(mark.column)" }
    func scalar(_ scalar: YAMLScalar) -> String {
        "S(\(scalar.value.debugDescription) \(scalar.style) \(scalar.tag ?? "-") \(mark(scalar.start))-\(mark(scalar.end)))"
    }
    func visit(_ node: YAMLNode) {
        switch node {
        case .scalar(let value):
            out += scalar(value)
        case .sequence(let sequence):
            out += "Q(\(mark(sequence.start))-\(mark(sequence.end))"
            for item in sequence.items { out += " "; visit(item) }
            out += ")"
        case .mapping(let mapping):
            out += "M(\(mark(mapping.start))-\(mark(mapping.end))"
            for entry in mapping.entries { out += " " + scalar(entry.key) + ":"; visit(entry.value) }
            out += ")"
        }
    }
    visit(root)
    return out
}

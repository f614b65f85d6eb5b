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

// MARK: - Corpus check

struct LintCounts {
    var errors = 0
    var warnings = 0
    var byCode: [String: Int] = [:]
    var firstErrors: [String] = []
    /// Plural case keys checked against the locale's CLDR cardinal categories, and those that
    /// name a category the locale does not have (lint does not check this itself).
    var pluralKeys = 0
    var foreignPluralKeys: [String] = []
}

/// Loads and lints the corpus once; counts findings by severity and code.
func lintCorpus(_ directory: String) -> LintCounts {
    let project = ProjectLoader().load(paths: [directory + "/flows"])
    var counts = LintCounts()
    for finding in project.lint() {
        counts.byCode[finding.code.rawValue + " " + finding.severity.rawValue, default: 0] += 1
        if finding.severity == .error {
            counts.errors += 1
            if counts.firstErrors.count < 10 { counts.firstErrors.append(finding.description) }
        } else {
            counts.warnings += 1
        }
    }
    for catalog in project.flows.flatMap(\.catalogs) + project.looseCatalogs {
        let categories = Set(PluralRules.cardinal(for: catalog.tag.value.identifier).categories)
        for message in catalog.allMessages {
            guard case .success(let pattern) = message.pattern else { continue }
            for selector in pattern.selectors where selector.kind.rawValue == "plural" {
                for key in selector.keys {
                    guard let category = key.category else { continue }
                    counts.pluralKeys += 1
                    if !categories.contains(category) {
                        counts.foreignPluralKeys.append("\(catalog.tag.value) \(message.key): '\(key.text)'")
                    }
                }
            }
        }
    }
    return counts
}

// MARK: - Load + lint against the libyaml event walk

struct LoadResult {
    var files = 0
    var bytes = 0
    var walkerEvents = 0
    var walker: Stats?
    var load: Stats
    var lint: Stats
    var total: Stats
    /// `YAMLReader.read` alone over the same files, already in memory.
    var reader: Stats
    var findings = 0
    /// load + lint over the walker, round by round.
    var ratios: Stats?
}

/// The `.yaml` files directly in a folder, sorted.
func yamlFiles(in directory: String) -> [String] {
    guard let handle = opendir(directory) else { return [] }
    defer { closedir(handle) }
    var names: [String] = []
    while let entry = readdir(handle) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name.hasSuffix(".yaml") { names.append(directory + "/" + name) }
    }
    return names.sorted()
}

/// Times `ProjectLoader().load(paths:)` + `.lint()` in this process and the C walker (a
/// subprocess timing itself) over the same files, interleaved: each round runs both, one
/// after the other, so that both see the same machine (a shared VM's speed drifts over
/// seconds). `warmup` rounds first, not counted; the ratio is taken round by round.
func benchmarkLoad(_ directory: String, walker: String?, iterations: Int, warmup: Int) -> LoadResult {
    let paths = [directory + "/flows"]
    var loadTimes: [Double] = []
    var lintTimes: [Double] = []
    var totalTimes: [Double] = []
    var walkerTimes: [Double] = []
    var ratios: [Double] = []
    var findings = 0
    var files = 0
    var bytes = 0
    var events = 0
    for iteration in 0..<(warmup + iterations) {
        let start = nowMilliseconds()
        let project = ProjectLoader().load(paths: paths)
        let loaded = nowMilliseconds()
        let diagnostics = project.lint()
        let end = nowMilliseconds()
        findings = diagnostics.count
        files = project.sources.count
        benchmarkSink &+= diagnostics.count &+ project.flows.count
        var walked = Double.nan
        if let walker {
            let (status, output) = run(
                walker,
                [
                    "--iterations", "1", "--warmup", "0", "--quiet",
                    directory + "/flows", directory + "/locales"
                ])
            if status != 0 { printError("jump-bench: \(walker) exited with \(status)\n") }
            for line in output.split(separator: "\n") {
                let words = line.split(separator: " ").map(String.init)
                if words.first == "files", words.count >= 6 {
                    files = Int(words[1]) ?? files
                    bytes = Int(words[3]) ?? 0
                    events = Int(words[5]) ?? 0
                }
                if words.first == "best", words.count >= 2 { walked = Double(words[1]) ?? .nan }
            }
        }
        guard iteration >= warmup else { continue }
        loadTimes.append(loaded - start)
        lintTimes.append(end - loaded)
        totalTimes.append(end - start)
        if walked.isFinite {
            walkerTimes.append(walked)
            ratios.append((end - start) / walked)
        }
    }
    // The reader alone: every file's bytes in memory first, then only YAMLReader.read.
    let contents = (yamlFiles(in: directory + "/flows") + yamlFiles(in: directory + "/locales")).compactMap { path in
        (try? FileReader.read(path).get()).map { (path, $0) }
    }
    var readerTimes: [Double] = []
    for iteration in 0..<(warmup + iterations) {
        let start = nowMilliseconds()
        for (path, bytes) in contents {
            let result = YAMLReader.read(bytes, path: path)
            benchmarkSink &+= result.document == nil ? 1 : 0
        }
        if iteration >= warmup { readerTimes.append(nowMilliseconds() - start) }
    }
    var result = LoadResult(
        load: Stats(loadTimes), lint: Stats(lintTimes), total: Stats(totalTimes), reader: Stats(readerTimes),
        findings: findings)
    result.files = files
    result.bytes = bytes
    result.walkerEvents = events
    if !walkerTimes.isEmpty {
        result.walker = Stats(walkerTimes)
        result.ratios = Stats(ratios)
    }
    return result
}

// MARK: - Rule engine throughput

struct RuleResult {
    var form: String
    var fields: Int
    var rules: Int
    var valueSets: Int
    var validSets: Int
    /// Field checks per second, one figure per timed round.
    var rounds: Stats
    var violationsPerRound: Int
}

enum BenchError: Error, CustomStringConvertible {
    case message(String)
    var description: String {
        switch self {
        case .message(let text): text
        }
    }
}

/// A realistic form from a flow file, and `RuleEngine.validate` over rotating value sets.
func benchmarkRules(flowPath: String, formName: String, rounds: Int, roundMilliseconds: Double) throws(BenchError) -> RuleResult {
    let project = ProjectLoader().load(paths: [flowPath])
    guard let loaded = project.primaryFlow else {
        throw .message("no flow loaded from \(flowPath): \(project.diagnostics.map(\.description).joined(separator: "; "))")
    }
    let interpreter = FormInterpreter(flow: loaded.flow, localizer: loaded.localizer())
    let form: FormModel
    do {
        form = try interpreter.model(form: formName, locale: loaded.flow.defaultLocale.value)
    } catch {
        throw .message("cannot build form \(formName): \(error)")
    }
    let engine = RuleEngine(form: form, today: CivilDate(year: 2025, month: 6, day: 15)!)
    let valueSets = makeValueSets(form)
    let validSets = valueSets.filter { engine.validate($0).isValid }.count
    var perSecond: [Double] = []
    var violations = 0
    // One untimed warm-up round.
    for round in 0...rounds {
        var checks = 0
        violations = 0
        let start = nowMilliseconds()
        var elapsed = 0.0
        repeat {
            for values in valueSets {
                let report = engine.validate(values)
                violations &+= report.violations.count
                checks &+= form.fields.count
            }
            elapsed = nowMilliseconds() - start
        } while elapsed < roundMilliseconds
        benchmarkSink &+= violations
        if round > 0 { perSecond.append(Double(checks) / (elapsed / 1000)) }
    }
    return RuleResult(
        form: formName, fields: form.fields.count, rules: form.fields.reduce(0) { $0 + $1.rules.count },
        valueSets: valueSets.count, validSets: validSets, rounds: Stats(perSecond), violationsPerRound: violations)
}

/// Sixteen value sets: eight meant to pass every rule, eight with different fields wrong
/// (empty, too short, badly formatted, mismatched, out of range, not an option).
func makeValueSets(_ form: FormModel) -> [FormValues] {
    let emails = ["ana.lopez@example.com", "zoe+news@mail.example.org", "j.smith@sub.example.co.uk", "lukasz@przyklad.pl"]
    let badEmails = ["ana@example", "not an email", "@example.com", "ana@mailinator.com"]
    let names = ["Ana María", "Zoë", "Łukasz Nowak", "Jean-Luc", "O’Brien", "Ingrid", "José", "Anne Marie"]
    let badNames = ["", "A", "R2-D2!", "admin"]
    let passwords = ["correct horse battery", "Tr0ub4dor&3xyz", "passphrase with spaces", "ÉéÉéÉéÉé"]
    let badPasswords = ["short", "", "1234567", "x"]
    let dates = ["1990-04-12", "1985-12-31", "2000-02-29", "1970-01-01"]
    let badDates = ["2020-02-30", "2015-01-01", "1890-06-01", "12/04/1990"]
    var sets: [FormValues] = []
    for variant in 0..<16 {
        let valid = variant < 8
        let k = variant % 4
        var values = FormValues()
        for (index, field) in form.fields.enumerated() {
            // In an invalid set, about every other field is wrong, a different half each time.
            let wrong = !valid && (index + variant) % 2 == 0
            let value: String
            switch field.type {
            case .email: value = wrong ? badEmails[k] : emails[k]
            case .password:
                if let match = field.rules.first(where: { $0.kind == .match }), case .text(let other) = match.value {
                    value = wrong ? "different" : (values[other] ?? "")
                } else {
                    value = wrong ? badPasswords[k] : passwords[k]
                }
            case .dateselect: value = wrong ? badDates[k] : dates[k]
            case .checkbox: value = wrong ? (k % 2 == 0 ? "maybe" : "false") : "true"
            case .select, .radio:
                let enabled = field.enabledOptions.map(\.value)
                value = wrong || enabled.isEmpty ? "not-an-option" : enabled[(variant) % enabled.count]
            case .textarea: value = wrong ? String(repeating: "long text ", count: 60) : "A few words about me."
            case .hidden: value = field.defaultValue ?? ""
            default:
                let formats = field.rules.compactMap { rule -> Format? in
                    if rule.kind == .format, case .text(let name) = rule.value { return Format(rawValue: name) }
                    return nil
                }
                if let format = formats.first {
                    let examples = format.examples
                    value = wrong ? examples.invalid[variant % examples.invalid.count] : examples.valid[variant % examples.valid.count]
                } else if field.rules.contains(where: { $0.kind == .pattern }) {
                    value = wrong ? "??" : ["SW1A 1AA", "90210", "H0H 0K1", "75008"][k]
                } else {
                    value = wrong ? badNames[k] : names[variant % names.count]
                }
            }
            values[field.name] = value
        }
        sets.append(values)
    }
    return sets
}

// MARK: - Cold start

/// Spawns `binary arguments` `runs` times (after `warmup` runs), output to /dev/null.
func benchmarkColdStart(_ binary: String, _ arguments: [String], runs: Int, warmup: Int) -> Stats {
    var times: [Double] = []
    for index in 0..<(warmup + runs) {
        let start = nowMilliseconds()
        let (status, _) = run(binary, arguments, discardOutput: true)
        let elapsed = nowMilliseconds() - start
        if status != 0 { printError("jump-bench: \(binary) exited with \(status)\n") }
        if index >= warmup { times.append(elapsed) }
    }
    return Stats(times)
}

// MARK: - Alias bomb

/// A "billion laughs" file: eight levels of nine aliases each (9^8 = 43 million nodes if
/// expanded), plus an alias used as a mapping key. Under 300 bytes.
let aliasBomb: String = {
    var text = "a: &a [x,x,x,x,x,x,x,x,x]\n"
    let names = ["a", "b", "c", "d", "e", "f", "g", "h"]
    for index in 1..<names.count {
        let previous = names[index - 1]
        text += "\(names[index]): &\(names[index]) [" + Array(repeating: "*" + previous, count: 9).joined(separator: ",") + "]\n"
        if index == 1 { text += "*b : k\n" }
    }
    return text
}()

struct BombResult {
    var bytes: Int
    var codes: [String]
    var documentReturned: Bool
    var reader: Stats
    var loader: Stats
}

func benchmarkBomb(iterations: Int, scratch: String) -> BombResult {
    let bytes = Array(aliasBomb.utf8)
    var readerTimes: [Double] = []
    var codes: [String] = []
    var documentReturned = false
    for _ in 0..<iterations {
        let start = nowMilliseconds()
        let result = YAMLReader.read(bytes, path: "bomb.yaml")
        readerTimes.append(nowMilliseconds() - start)
        codes = result.diagnostics.map { $0.code.rawValue }
        documentReturned = result.document != nil
        benchmarkSink &+= result.diagnostics.count
    }
    // The same file through the loader, from disk.
    let path = scratch + "/bomb.yaml"
    try? writeFile(aliasBomb, to: path)
    var loaderTimes: [Double] = []
    for _ in 0..<iterations {
        let start = nowMilliseconds()
        let project = ProjectLoader().load(paths: [path])
        let findings = project.lint()
        loaderTimes.append(nowMilliseconds() - start)
        benchmarkSink &+= findings.count
    }
    return BombResult(
        bytes: bytes.count, codes: codes, documentReturned: documentReturned,
        reader: Stats(readerTimes), loader: Stats(loaderTimes))
}

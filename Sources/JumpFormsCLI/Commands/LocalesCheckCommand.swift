#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import ArgumentParser
import JumpFiles
import JumpForms
import JumpFormsLoader
import JumpLocaleCheck

/// `jump-forms locales check [--flows PATH ...] [--locales DIR] [--reference TAG] [--format ...]
/// [--baseline FILE] [--strict]`
struct LocalesCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check every locale file against the reference, the flows and CLDR's plural rules.",
        discussion: """
            Each finding has a rule id (docs/locales.md), a severity and its file:line:col. With no \
            options: ./jump.yaml's flow and locales folder (else ./flows and ./locales), the flow's \
            defaultLocale as reference.
            Exit status: 0 clean (warnings allowed unless --strict), 1 findings, 2 usage error or a \
            file that cannot be read or parsed.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json, sarif, junit }

    @OptionGroup var set: LocaleSetOptions

    @Option(name: .customLong("locale"), help: ArgumentHelp("Check only this locale (repeat for more); each must have a file.", valueName: "tag"))
    var only: [String] = []

    @Option(help: "Output format: text, json, sarif or junit.")
    var format: Format = .text

    @Option(help: ArgumentHelp("Hide the findings this baseline holds (see --write-baseline).", valueName: "file"))
    var baseline: String?

    @Option(help: ArgumentHelp("Write every current finding to this baseline file and exit 0.", valueName: "file"))
    var writeBaseline: String?

    @Option(
        name: .customLong("allow-same-as-source"),
        help: ArgumentHelp("Keys (or * patterns) whose text may equal the reference's in every locale; repeat for more.", valueName: "key"))
    var allowSameAsSource: [String] = []

    @Flag(help: "Treat warnings as errors.")
    var strict = false

    @Flag(help: "Require jump-forms' own texts (jumpForms.*) in every locale even when no flow or jump.yaml is in scope.")
    var builtinTexts = false

    func validate() throws {
        for tag in only where LocaleTag(tag) == nil {
            throw ValidationError("--locale '\(tag)' is not a BCP 47 locale tag (for example pl-PL)")
        }
    }

    func run() throws {
        let console = Console()
        var timing = PhaseTiming()
        defer { timing.report(console) }
        let loaded = try set.load()
        timing.mark("load")
        var sources = loaded.project.sources
        sources.merge(BuiltinCatalog.sources)
        let renderer = DiagnosticRenderer(sources: sources, useColor: console.colorOut)
        if !loaded.failures.isEmpty {
            // In the format asked for too: CI uploads a report even when the check cannot run.
            let failures = loaded.failures
            switch format {
            case .text: break
            case .json: console.out(DiagnosticReport.json(failures).serialized(pretty: true) + "\n")
            case .sarif: console.out(DiagnosticReport.sarif(failures, toolVersion: JumpFormsCommand.version).serialized(pretty: true) + "\n")
            case .junit: console.out(JUnitReport.xml(loadErrors: failures, renderer: DiagnosticRenderer(sources: sources)))
            }
            console.err(DiagnosticRenderer(sources: sources, useColor: console.colorErr).render(failures))
            console.err("cannot check: the files above cannot be read or parsed\n")
            throw ExitCode(2)
        }
        var baselineFile: Baseline?
        if let baseline {
            guard let bytes = LocaleFileIO.read(baseline) else { throw ValidationError("cannot read the baseline '\(baseline)'") }
            do {
                baselineFile = try Baseline(json: bytes)
            } catch {
                throw ValidationError("the baseline '\(baseline)' is not usable: \(error)")
            }
        }
        let selected = only.compactMap(LocaleTag.init)
        var required = loaded.required
        required += selected.map { RequiredLocale(tag: $0, origin: "--locale") }
        let input = LocaleCheckInput(
            catalogs: loaded.catalogs, reference: loaded.reference, flows: loaded.flows,
            builtinCatalogs: BuiltinCatalog.catalogs, requiredLocales: required,
            sameAsSourceAllowed: allowSameAsSource,
            requiresBuiltinTexts: builtinTexts || !loaded.flows.isEmpty || loaded.project.config != nil)
        let checker = LocaleChecker(input)
        var findings = checker.run()
        timing.mark("check")
        if !selected.isEmpty {
            let paths = Set(loaded.catalogs.filter { selected.contains($0.tag.value) }.map(\.path))
            findings = findings.filter { $0.file.isEmpty || paths.contains($0.file) || $0.rule == .missingLocaleFile }
        }
        if let writeBaseline {
            let file = Self.baselinePath(writeBaseline)
            try LocaleFileIO.write(Array(Baseline(findings: findings, file: file).json.utf8), to: writeBaseline)
            console.err("wrote \(findings.count) finding\(findings.count == 1 ? "" : "s") to \(writeBaseline)\n")
            return
        }
        var known = 0
        if let baselineFile, let baseline {
            (findings, known) = baselineFile.filter(findings, file: Self.baselinePath(baseline))
        }
        let diagnostics = findings.map(\.diagnostic)
        let checkedFiles = loaded.catalogs.filter { selected.isEmpty || selected.contains($0.tag.value) }.map(\.path)
        switch format {
        case .text:
            console.out(renderer.render(diagnostics))
            console.err(Self.summary(diagnostics, files: checkedFiles.count, known: known))
        case .json:
            var report = DiagnosticReport.json(diagnostics)
            if case .object(var entries) = report {
                entries = entries.map { entry in
                    guard entry.key == "diagnostics" else { return entry }
                    return (
                        entry.key,
                        .array(
                            zip(findings, diagnostics).map { finding, diagnostic in
                                var object = DiagnosticReport.json(diagnostic).objectValue ?? []
                                if let key = finding.key { object.append((key: "key", value: .string(key))) }
                                return .object(object)
                            })
                    )
                }
                entries.append((key: "baselined", value: .integer(known)))
                report = .object(entries)
            }
            console.out(report.serialized(pretty: true) + "\n")
        case .sarif:
            console.out(DiagnosticReport.sarif(diagnostics, toolVersion: JumpFormsCommand.version).serialized(pretty: true) + "\n")
        case .junit:
            console.out(JUnitReport.xml(findings, files: checkedFiles, strict: strict, renderer: DiagnosticRenderer(sources: sources)))
        }
        timing.mark("output")
        if diagnostics.containsErrors || (strict && diagnostics.contains { $0.severity == .warning }) { throw ExitCode(1) }
    }

    /// How a baseline at `baseline` names a finding's file: relative to the baseline's folder,
    /// so that it matches from any working directory and however `--locales` was written.
    /// Paths through symbolic links are resolved (once per file), so a folder reached through
    /// a link matches too.
    static func baselinePath(_ baseline: String) -> (String) -> String {
        let workingDirectory = Self.workingDirectory()
        func absolute(_ path: String) -> String {
            PathText.normalize(path.hasPrefix("/") ? path : workingDirectory + "/" + path)
        }
        let folder = PathText.canonical(absolute(baseline + "/.."))
        let named = ResolvedPaths()
        return { file in
            if let known = named.paths[file] { return known }
            let path = Baseline.path(PathText.canonical(absolute(file)), relativeTo: folder)
            named.paths[file] = path
            return path
        }
    }

    /// The baseline names of the files seen so far (one `realpath` per file, not per finding).
    private final class ResolvedPaths {
        var paths: [String: String] = [:]
    }

    /// The command's working directory as an absolute path (`WorkingDirectory`).
    static func workingDirectory() -> String {
        if let folder = WorkingDirectory.override { return folder }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return "." }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func summary(_ findings: [Diagnostic], files: Int, known: Int) -> String {
        let errors = findings.filter { $0.severity == .error }.count
        let warnings = findings.filter { $0.severity == .warning }.count
        func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        let hidden = known > 0 ? " (\(plural(known, "known finding")) hidden by the baseline)" : ""
        return "\(plural(errors, "error")), \(plural(warnings, "warning")) in \(plural(files, "locale file"))\(hidden)\n"
    }
}

/// `JUMP_FORMS_TIMING=1`: how long each phase took, on standard error (for benchmarks).
struct PhaseTiming {
    let enabled = Environment.current["JUMP_FORMS_TIMING"] == "1"
    private var last = PhaseTiming.now()
    private var lastCPU = PhaseTiming.cpu()
    private var phases: [(String, Double, Double)] = []

    static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) * 1e3 + Double(spec.tv_nsec) / 1e6
    }

    /// CPU time of the process (all threads, user and system), in milliseconds.
    static func cpu() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func ms(_ time: timeval) -> Double { Double(time.tv_sec) * 1e3 + Double(time.tv_usec) / 1e3 }
        return ms(usage.ru_utime) + ms(usage.ru_stime)
    }

    mutating func mark(_ phase: String) {
        guard enabled else { return }
        let (time, cpu) = (Self.now(), Self.cpu())
        phases.append((phase, time - last, cpu - lastCPU))
        (last, lastCPU) = (time, cpu)
    }

    func report(_ console: Console) {
        guard enabled else { return }
        console.err("timing: " + phases.map { "\($0.0) \(Int($0.1.rounded())) ms (cpu \(Int($0.2.rounded())) ms)" }.joined(separator: ", ") + "\n")
    }
}

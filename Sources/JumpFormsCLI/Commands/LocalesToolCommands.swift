import ArgumentParser
import JumpFiles
import JumpForms
import JumpFormsLoader
import JumpLocaleCheck
import JumpLocaleInterchange

/// The interchange formats of `locales import` and `locales export`.
enum InterchangeFormat: String, ExpressibleByArgument, CaseIterable {
    case strings, xcstrings, android

    /// The format a file name implies.
    init?(path: String) {
        if path.hasSuffix(".strings") {
            self = .strings
        } else if path.hasSuffix(".xcstrings") {
            self = .xcstrings
        } else if path.hasSuffix(".xml") {
            self = .android
        } else {
            return nil
        }
    }

    var fileExtension: String {
        switch self {
        case .strings: "strings"
        case .xcstrings: "xcstrings"
        case .android: "xml"
        }
    }
}

/// `--locales`, `--reference`, `--argument-order`: where the locale files are and how
/// placeholders map to arguments.
struct InterchangeOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The folder of locale files (default ./locales).", valueName: "folder"))
    var locales: String = "locales"

    @Option(help: ArgumentHelp("The reference locale: its messages' arguments complete the argument order.", valueName: "tag"))
    var reference: String = "en-US"

    @Option(
        help: ArgumentHelp(
            "The names of %1$, %2$, ... in order, comma-separated; the reference message's other arguments follow.", valueName: "names"))
    var argumentOrder: String = ArgumentOrder.defaultDeclared.joined(separator: ",")

    @OptionGroup var limits: LimitOptions

    /// The loader of the locale files, with the `--max-file-size` limit.
    var loader: ProjectLoader { ProjectLoader(command: limits) }

    func validate() throws {
        guard LocaleTag(reference) != nil else { throw ValidationError("--reference '\(reference)' is not a BCP 47 locale tag") }
    }

    var declared: [String] {
        argumentOrder.split(separator: ",").map { String($0).trimmingSpaces() }.filter { !$0.isEmpty }
    }

    /// The locale files of the folder (nil when there is no folder), or exit 2 on errors.
    func catalogs(console: Console, required: Bool) throws -> (catalogs: [LocaleCatalog], project: LoadedProject)? {
        guard WorkingDirectory.isDirectory(locales) else {
            if required { throw ValidationError("the locales folder '\(locales)' does not exist") }
            return nil
        }
        var project = LoadedProject()
        let catalogs = loader.loadLocales(in: locales, into: &project)
        let errors = project.diagnostics.filter { $0.severity == .error }
        if !errors.isEmpty {
            console.err(DiagnosticRenderer(sources: project.sources, useColor: console.colorErr).render(errors))
            console.err("cannot continue: the locale files above have errors (run 'jump-forms locales check')\n")
            throw ExitCode(2)
        }
        return (catalogs, project)
    }

    func mapping(dialect: PrintfDialect, reference: LocaleCatalog?) -> PlaceholderMapping {
        PlaceholderMapping(dialect: dialect, order: ArgumentOrder(declared: declared, reference: reference))
    }
}

/// `jump-forms locales import FILE --locale TAG [--format F] [--out FILE]`
struct LocalesImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Turn an Apple .strings, String Catalog (.xcstrings) or Android strings.xml into a locale file.",
        discussion: """
            Placeholders (%1$s, %1$@) become named ICU arguments through the argument order; \
            <plurals> and plural variations become ICU plurals; comments become the file's notes. \
            Writes the YAML to --out (keeping that file's sameAsSource list, and its notes of keys \
            the import keeps) or standard output. An --out file named after a locale (fr-FR.yaml) \
            takes only that --locale; an existing --out file is only replaced when the import \
            holds all its keys, or with --replace.
            Exit status: 0 written, 1 the file has errors (duplicate keys, unmapped placeholders), \
            2 usage error, a file that cannot be read or parsed, or an --out file refused.
            """
    )

    @Argument(help: ArgumentHelp("The file to import (- for standard input, with --format).", valueName: "file"))
    var file: String

    @Option(help: ArgumentHelp("The locale the file holds (String Catalogs hold several).", valueName: "tag"))
    var locale: String

    @Option(help: "The file's format: strings, xcstrings or android (default: from the file name).")
    var format: InterchangeFormat?

    @Option(help: ArgumentHelp("The locale file to write (default: standard output).", valueName: "file"))
    var out: String?

    @Flag(help: "Write nested keys (fields: { email: { label: ... } }) instead of flat dotted ones.")
    var nested = false

    @Flag(help: "Replace the --out file even when the import lacks some of its keys (they are lost).")
    var replace = false

    @OptionGroup var interchange: InterchangeOptions

    func validate() throws {
        guard let tag = LocaleTag(locale) else { throw ValidationError("--locale '\(locale)' is not a BCP 47 locale tag") }
        if let out, let named = LocaleFileIO.namedTag(out), named != tag {
            throw ValidationError(
                """
                --locale \(tag) does not match '\(out)': a locale file's name must be its tag, and '\(PathText.stem(of: out))' reads as the tag \
                \(named); name it \(tag).yaml, or give it a name that is not a tag (such as translations.yaml): nothing written
                """
            )
        }
        guard format != nil || InterchangeFormat(path: file) != nil else {
            throw ValidationError("cannot tell the format of '\(file)' from its name: pass --format strings, xcstrings or android")
        }
    }

    func run() throws {
        let console = Console()
        let tag = LocaleTag(locale)!
        let kind = format ?? InterchangeFormat(path: file)!
        let bytes: [UInt8]
        switch LocaleFileIO.read(file, limit: interchange.limits.limits.maximumFileSize) {
        case .success(let read): bytes = read
        case .failure(.tooLarge(_, let limit)):
            throw ValidationError("'\(file)' is over the limit of \(limit) bytes: raise it with --max-file-size (e.g. 16M)")
        case .failure: throw ValidationError("cannot read '\(file)'")
        }
        let loaded = try interchange.catalogs(console: console, required: false)
        let reference = loaded?.catalogs.first { $0.tag.value == LocaleTag(interchange.reference) }
        let path = file == "-" ? "<stdin>" : file
        if let out, file != "-", WorkingDirectory.canonical(out) == WorkingDirectory.canonical(file) {
            throw ValidationError("--out '\(out)' is the file being imported: nothing written")
        }
        let result: InterchangeReadResult
        switch kind {
        case .strings: result = StringsFile.read(bytes, path: path)
        case .android: result = AndroidStringsFile.read(bytes, path: path, mapping: interchange.mapping(dialect: .android, reference: reference))
        case .xcstrings:
            result = StringCatalogFile.read(bytes, path: path, locale: tag, mapping: interchange.mapping(dialect: .apple, reference: reference))
            if result.diagnostics.isEmpty, result.entries.isEmpty {
                let available = StringCatalogFile.languages(bytes, path: path).tags
                throw ValidationError(
                    "'\(file)' has no \(tag) localization; it has: \(available.isEmpty ? "none" : available.joined(separator: ", "))")
            }
        }
        var sources = SourceFiles()
        if let text = result.text { sources.add(path: path, text: text) }
        if !result.diagnostics.isEmpty {
            console.err(DiagnosticRenderer(sources: sources, useColor: console.colorErr).render(result.diagnostics))
        }
        if result.failed { throw ExitCode(2) }
        if result.diagnostics.containsErrors {
            console.err("nothing written: fix the errors above\n")
            throw ExitCode(1)
        }
        var sameAsSource: [String] = []
        var notes: [String: String] = [:]
        if let out, WorkingDirectory.isFile(out) {
            var project = LoadedProject()
            let existing = interchange.loader.loadLocale(at: out, into: &project)
            if let existing, existing.tag.value == tag, !project.diagnostics.containsErrors {
                let imported = Set(result.entries.map(\.key))
                let dropped = existing.keys.filter { !imported.contains($0) }
                if !dropped.isEmpty, !replace {
                    let shown = dropped.prefix(5).joined(separator: ", ") + (dropped.count > 5 ? ", ..." : "")
                    throw ValidationError(
                        "'\(out)' holds \(dropped.count) message\(dropped.count == 1 ? "" : "s") that \(file == "-" ? "the input" : "'\(file)'") lacks (\(shown)): nothing written; pass --replace to replace the file and lose them"
                    )
                }
                sameAsSource = existing.sameAsSource.map(\.value)
                for (key, note) in existing.notes where imported.contains(key) { notes[key] = note }
            } else if !replace {
                let what =
                    existing.map { $0.tag.value != tag ? "a locale file of \($0.tag.value)" : "a locale file with errors" } ?? "not a locale file"
                throw ValidationError("'\(out)' exists and is \(what): nothing written; pass --replace to replace it")
            }
        }
        for entry in result.entries { if let note = entry.note { notes[entry.key] = note } }
        if nested, let problem = LocaleFileWriter.nestingProblem(result.entries.map(\.key)) {
            console.err("warning: --nested: the keys are written flat (dotted), as \(problem)\n")
        }
        let content = LocaleFileContent(
            tag: tag, messages: result.entries.map { LocaleFileContent.Message(key: $0.key, text: $0.text) },
            sameAsSource: sameAsSource, notes: notes,
            header: [
                "\(tag): imported by jump-forms locales import from \(file == "-" ? "standard input" : PathText.stem(of: file) + "." + kind.fileExtension)."
            ])
        let yaml = LocaleFileWriter.yaml(content, nested: nested)
        try LocaleFileIO.write(Array(yaml.utf8), to: out ?? "-")
        if let out { console.err("wrote \(result.entries.count) message\(result.entries.count == 1 ? "" : "s") to \(out)\n") }
    }
}

/// `jump-forms locales export --format F [--locale TAG ...] [--out PATH]`
struct LocalesExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write locale files as Apple .strings, a String Catalog (.xcstrings) or Android strings.xml.",
        discussion: """
            A String Catalog holds every locale (or those named with --locale); .strings and \
            strings.xml hold one, or one per locale into the --out folder (<tag>.strings, <tag>.xml). \
            Notes become comments. `locales import` reads the files back to the same messages. \
            A locale file it reads (by any path) or a .yaml file is never written over; a missing \
            --out folder is created.
            Exit status: 0 written, 1 some messages could not be written, 2 usage or I/O error, \
            or a refused --out.
            """
    )

    @Option(help: "The format: strings, xcstrings or android.")
    var format: InterchangeFormat

    @Option(name: .customLong("locale"), help: ArgumentHelp("A locale to export (repeat for more; default: all).", valueName: "tag"))
    var only: [String] = []

    @Option(help: ArgumentHelp("The file, or for several locales the folder, to write (default: standard output).", valueName: "path"))
    var out: String?

    @Option(help: "The text encoding of .strings files: utf-8, utf-16be or utf-16le.")
    var encoding: TextEncoding = .utf8

    @Flag(help: "Start .strings files with a byte-order mark.")
    var bom = false

    @OptionGroup var interchange: InterchangeOptions

    func validate() throws {
        for tag in only where LocaleTag(tag) == nil { throw ValidationError("--locale '\(tag)' is not a BCP 47 locale tag") }
        if encoding != .utf8 || bom, format != .strings { throw ValidationError("--encoding and --bom apply to .strings files only") }
    }

    func run() throws {
        let console = Console()
        guard let (allCatalogs, project) = try interchange.catalogs(console: console, required: true) else { return }
        guard !allCatalogs.isEmpty else { throw ValidationError("the locales folder '\(interchange.locales)' has no locale files (<tag>.yaml)") }
        let wanted = only.compactMap(LocaleTag.init)
        for tag in wanted where !allCatalogs.contains(where: { $0.tag.value == tag }) {
            throw ValidationError("\(tag) has no locale file in \(interchange.locales)")
        }
        let catalogs = wanted.isEmpty ? allCatalogs : allCatalogs.filter { wanted.contains($0.tag.value) }
        let referenceTag = LocaleTag(interchange.reference)!
        let reference = allCatalogs.first { $0.tag.value == referenceTag }
        var diagnostics: [Diagnostic] = []
        var files: [(path: String, bytes: [UInt8])] = []
        var toFolder = out.map(WorkingDirectory.isDirectory) ?? false
        if format != .xcstrings, catalogs.count > 1, !toFolder {
            guard let out, !WorkingDirectory.isFile(out) else {
                throw ValidationError("\(catalogs.count) locales need a folder: pass --out FOLDER, or one --locale")
            }
            guard LocaleFileIO.createFolder(out) else { throw ValidationError("cannot create the folder '\(out)'") }
            console.err("created the folder \(out)\n")
            toFolder = true
        }
        func target(_ catalog: LocaleCatalog) -> String {
            guard let out else { return "-" }
            return toFolder ? out + "/" + catalog.tag.value.identifier + "." + format.fileExtension : out
        }
        func messages(_ catalog: LocaleCatalog) -> [(key: String, text: String, note: String?)] {
            catalog.allMessages.map { ($0.key, $0.text, catalog.notes[$0.key]) }
        }
        switch format {
        case .strings:
            for catalog in catalogs {
                files.append((target(catalog), StringsFile.write(messages(catalog), encoding: encoding, byteOrderMark: bom)))
            }
        case .android:
            let mapping = interchange.mapping(dialect: .android, reference: reference)
            for catalog in catalogs {
                let written = AndroidStringsFile.write(
                    messages(catalog), mapping: mapping,
                    header: "\(catalog.tag.value): exported by jump-forms locales export from \(catalog.path)")
                diagnostics += written.diagnostics
                files.append((target(catalog), written.bytes))
            }
        case .xcstrings:
            let mapping = interchange.mapping(dialect: .apple, reference: reference)
            let localizations = catalogs.map { catalog in
                StringCatalogFile.Localization(tag: catalog.tag.value, messages: catalog.allMessages.map { ($0.key, $0.text) })
            }
            let text = StringCatalogFile.write(
                sourceLanguage: referenceTag, localizations: localizations,
                notes: reference?.notes ?? [:], mapping: mapping)
            files.append((out.map { toFolder ? $0 + "/Localizable.xcstrings" : $0 } ?? "-", Array(text.utf8)))
        }
        // Never over a file this export read (a locale file), nor into a locale file at all.
        let read = Set(allCatalogs.map { WorkingDirectory.canonical($0.path) })
        for file in files where file.path != "-" {
            if read.contains(WorkingDirectory.canonical(file.path)) {
                throw ValidationError("refusing to write over '\(file.path)': it is a locale file this export reads; nothing written")
            }
            if file.path.hasSuffix(".yaml") || file.path.hasSuffix(".yml") {
                throw ValidationError(
                    """
                    refusing to write \(format.rawValue) into '\(file.path)', a YAML file (locale files are written by 'locales import'); nothing \
                    written
                    """
                )
            }
        }
        if !diagnostics.isEmpty { console.err(DiagnosticRenderer(sources: SourceFiles(), useColor: console.colorErr).render(diagnostics)) }
        for file in files {
            try LocaleFileIO.write(file.bytes, to: file.path)
            if file.path != "-" { console.err("wrote \(file.path)\n") }
        }
        if diagnostics.containsErrors { throw ExitCode(1) }
    }
}

extension TextEncoding: ExpressibleByArgument {}

/// `jump-forms locales pseudo [--locale en-XA|ar-XB ...] [--out PATH]`
struct LocalesPseudoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pseudo",
        abstract: "Make pseudo-locales from the reference: en-XA (accented, longer, bracketed) and ar-XB (right-to-left).",
        discussion: """
            ICU syntax, arguments, markup and URLs are kept; ar-XB's plurals get the Arabic \
            categories. jump-forms' own words are included unless --no-builtin. Write them into the \
            locales folder and run any command with --locale en-XA or --locale ar-XB. --out only \
            writes the pseudo-locale's own file: never a file named after, or holding, another locale.
            """
    )

    @Option(name: .customLong("locale"), help: ArgumentHelp("en-XA or ar-XB (repeat for both; default en-XA).", valueName: "tag"))
    var styles: [String] = []

    @Option(help: ArgumentHelp("The file, or a folder for <tag>.yaml files (default: standard output).", valueName: "path"))
    var out: String?

    @Flag(name: .customLong("no-builtin"), help: "Leave out jump-forms' own words (jumpForms.* keys).")
    var noBuiltin = false

    @Flag(help: "Write nested keys instead of flat dotted ones.")
    var nested = false

    @OptionGroup var interchange: InterchangeOptions

    func validate() throws {
        for style in styles where PseudoLocalizer.Style(rawValue: style) == nil {
            throw ValidationError("--locale '\(style)': the pseudo-locales are en-XA and ar-XB")
        }
    }

    func run() throws {
        let console = Console()
        guard let (catalogs, _) = try interchange.catalogs(console: console, required: true) else { return }
        let referenceTag = LocaleTag(interchange.reference)!
        guard let reference = catalogs.first(where: { $0.tag.value == referenceTag }) else {
            throw ValidationError("\(referenceTag) has no locale file in \(interchange.locales)")
        }
        let chosen = styles.isEmpty ? [PseudoLocalizer.Style.accented] : styles.compactMap(PseudoLocalizer.Style.init)
        var toFolder = out.map(WorkingDirectory.isDirectory) ?? false
        if chosen.count > 1, !toFolder {
            guard let out, !WorkingDirectory.isFile(out) else { throw ValidationError("two pseudo-locales need a folder: pass --out FOLDER") }
            guard LocaleFileIO.createFolder(out) else { throw ValidationError("cannot create the folder '\(out)'") }
            console.err("created the folder \(out)\n")
            toFolder = true
        }
        let builtin = noBuiltin ? [] : BuiltinCatalog.catalogs.filter { $0.tag.value.identifier == "en-US" }
        let targets = chosen.map { style in (style, out.map { toFolder ? $0 + "/" + style.rawValue + ".yaml" : $0 } ?? "-") }
        let read = Dictionary(catalogs.map { (WorkingDirectory.canonical($0.path), $0.tag.value) }, uniquingKeysWith: { first, _ in first })
        for (style, path) in targets where path != "-" {
            try Self.checkTarget(path, for: style.tag, read: read, loader: interchange.loader)
        }
        for (style, path) in targets {
            let localizer = PseudoLocalizer(style: style)
            let content = LocaleFileContent(
                tag: style.tag, messages: localizer.messages([reference] + builtin).map { LocaleFileContent.Message(key: $0.key, text: $0.text) },
                header: ["\(style.tag): pseudo-locale made by jump-forms locales pseudo from \(reference.path); do not edit."])
            if nested, let problem = LocaleFileWriter.nestingProblem(content.messages.map(\.key)) {
                console.err("warning: --nested: the keys are written flat (dotted), as \(problem)\n")
            }
            try LocaleFileIO.write(Array(LocaleFileWriter.yaml(content, nested: nested).utf8), to: path)
            if path != "-" { console.err("wrote \(path)\n") }
        }
    }

    /// Refuses a target that is not `tag`'s own file: a file named after another locale, or an
    /// existing file that is neither named after `tag` nor a locale file of `tag` (`read`: the
    /// locale files loaded, by real path).
    static func checkTarget(_ path: String, for tag: LocaleTag, read: [String: LocaleTag], loader: ProjectLoader) throws {
        if let named = LocaleFileIO.namedTag(path), named != tag {
            throw ValidationError("refusing to write \(tag) into '\(path)', the locale file of \(named); nothing written")
        }
        guard WorkingDirectory.isFile(path), LocaleFileIO.namedTag(path) != tag else { return }
        var owner = read[WorkingDirectory.canonical(path)]
        if owner == nil {
            var project = LoadedProject()
            owner = loader.loadLocale(at: path, into: &project)?.tag.value
        }
        guard owner == tag else {
            throw ValidationError(
                "refusing to write over '\(path)': it is \(owner.map { "the locale file of \($0)" } ?? "not a locale file of \(tag)"); nothing written"
            )
        }
    }
}

/// `jump-forms locales coverage [--flows ...] [--locales DIR] [--format text|json] [--minimum P]`
struct LocalesCoverageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coverage",
        abstract: "Percent translated per locale: over all keys (the reference's and jump-forms' own), per flow and per form.",
        discussion: """
            A key counts as translated when the locale has a non-empty, valid text that differs from \
            the reference's (or may equal it: sameAsSource, nothing to translate, same language); \
            jump-forms' own keys also when its built-in catalog translates them for the locale.
            A locale named by --reference, a flow's defaultLocale or captureLocale without a file \
            is an error (missing-locale-file); without the reference's file nothing is measured.
            Exit status: 0, or 1 when a locale is below --minimum or a named locale has no file; \
            2 usage or parse error.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

    @OptionGroup var set: LocaleSetOptions

    @Option(help: "Output format: text or json.")
    var format: Format = .text

    @Option(
        help: ArgumentHelp(
            "Fail (exit 1) when a locale's coverage of a flow (of all keys without flows) is below this percent.", valueName: "percent"))
    var minimum: Double?

    @Flag(help: "List each locale's untranslated keys.")
    var missing = false

    @Flag(help: "Count jump-forms' own texts (jumpForms.*) even when no flow or jump.yaml is in scope.")
    var builtinTexts = false

    func validate() throws {
        if let minimum, !(0...100).contains(minimum) {
            throw ValidationError("--minimum \(minimum) is not a percent from 0 to 100")
        }
    }

    func run() throws {
        let console = Console()
        let loaded = try set.load()
        if !loaded.failures.isEmpty {
            console.err(DiagnosticRenderer(sources: loaded.project.sources, useColor: console.colorErr).render(loaded.failures))
            throw ExitCode(2)
        }
        // As `locales check` judges them: a named locale without a file is an error, and
        // without the reference's file there is nothing to measure against.
        let missingFiles = LocaleChecker.missingLocaleFiles(loaded.required, catalogs: loaded.catalogs).map(\.diagnostic)
        let hasReference = loaded.catalogs.contains { $0.tag.value == loaded.reference }
        // jump-forms' own texts count where the files serve jump-forms (as `locales check` judges).
        let servesJumpForms = builtinTexts || !loaded.flows.isEmpty || loaded.project.config != nil
        let report = CoverageReport(
            catalogs: hasReference ? loaded.catalogs : [], reference: loaded.reference, flows: loaded.flows,
            builtinCatalogs: servesJumpForms ? BuiltinCatalog.catalogs : [])
        var sources = loaded.project.sources
        sources.merge(BuiltinCatalog.sources)
        switch format {
        case .text:
            if hasReference { console.out(report.text) }
            console.err(DiagnosticRenderer(sources: sources, useColor: console.colorErr).render(missingFiles))
            if missing {
                for locale in report.locales where !locale.untranslated.isEmpty {
                    console.out("\n\(locale.tag) (\(locale.path)) lacks \(locale.untranslated.count):\n")
                    for key in locale.untranslated { console.out("  \(key)\n") }
                }
            }
        case .json:
            var json = report.json
            if case .object(var entries) = json {
                entries.append((key: "diagnostics", value: .array(missingFiles.map { DiagnosticReport.json($0) })))
                json = .object(entries)
            }
            console.out(json.serialized(pretty: true) + "\n")
        }
        var failed = !missingFiles.isEmpty
        if let minimum {
            let below = report.locales.filter { locale in
                let counts = locale.flows.isEmpty ? [locale.all] : locale.flows.map(\.count)
                return counts.contains { $0.percent < minimum }
            }
            if !below.isEmpty {
                console.err("below \(minimum)%: \(below.map(\.tag.identifier).joined(separator: ", "))\n")
                failed = true
            }
        }
        if failed { throw ExitCode(1) }
    }
}

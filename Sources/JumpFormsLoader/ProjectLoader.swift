import JumpFiles
import JumpForms

/// A flow with the locale files of its `locales` folder.
public struct LoadedFlow: Sendable {
    public var flow: Flow
    /// The resolved path of the flow's locales folder.
    public var localesDirectory: String
    public var catalogs: [LocaleCatalog]
    /// False when the flow file had read, compose or decode errors: parts of it are missing.
    public var isComplete: Bool
    /// The locales of the Capture flow documents the flow was read from (none for a flow file).
    public var documentLocales: [LocaleTag] = []

    public init(flow: Flow, localesDirectory: String, catalogs: [LocaleCatalog], isComplete: Bool = true) {
        self.flow = flow
        self.localesDirectory = localesDirectory
        self.catalogs = catalogs
        self.isComplete = isComplete
    }

    /// A localizer over the flow's catalogs, with `fallbackCatalogs` (the built-in words) last.
    public func localizer(fallbackCatalogs: [LocaleCatalog] = BuiltinCatalog.catalogs) -> Localizer {
        Localizer(defaultLocale: flow.defaultLocale.value, catalogs: catalogs, fallbackCatalogs: fallbackCatalogs)
    }
}

/// Everything one load produced: the client configuration, the flows with their locales, the
/// texts of the files read, and every diagnostic of the read, compose and decode phases.
public struct LoadedProject: Sendable {
    public var config: ClientConfig?
    public var flows: [LoadedFlow] = []
    /// Locale files named directly that belong to no flow's folder.
    public var looseCatalogs: [LocaleCatalog] = []
    /// Where anchors and aliases were written in locale files, by path.
    public var localeAliases: [String: [YAMLDocument.Marker]] = [:]
    public var sources = SourceFiles()
    /// Every file the load tried to read, those it could not read (too large, unreadable) too.
    public var files = Set<String>()
    public var diagnostics: [Diagnostic] = []
    /// What the diagnostics must not show (values from the environment, contents of files
    /// outside the project): `diagnostics` and `lint()` apply it; apply it to any other
    /// diagnostic about these files before showing it.
    public var withheld = Withheld()
    /// The folder the relative paths of the project were read from (`ProjectLoader.directory`).
    public var directory: String?

    public init() {}

    /// The one flow (the config's, or the only one loaded).
    public var primaryFlow: LoadedFlow? { flows.first }
}

/// Loads `jump.yaml`, flow files and locale files from disk. The only part of jump-forms that
/// reads YAML.
public struct ProjectLoader: Sendable {
    public var limits: LoaderLimits
    /// Where `${NAME}` in `jump.yaml` is looked up.
    public var environment: [String: String]
    /// Whether a flow brings its locales folder (true). `locales check` turns it off to load
    /// the folder itself, at the same time as the flow.
    public var loadsLocaleFolders = true
    /// The flow name of the Capture flow documents loaded (`flow import --name`), over what
    /// they say (see `loadFlowDocuments`).
    public var flowDocumentName: String?
    /// The default locale of the flow Capture flow documents make (`flow import
    /// --default-locale`), over what they say.
    public var flowDocumentDefaultLocale: LocaleTag?

    /// The folder relative paths are read from (a command's working directory); nil: the
    /// process's. Paths keep the spelling they were given in diagnostics and in the result.
    public var directory: String?

    public init(limits: LoaderLimits = .default, environment: [String: String] = [:], directory: String? = nil) {
        self.limits = limits
        self.environment = environment
        self.directory = directory
    }

    /// What kind of file a path holds, told by its top-level keys.
    public enum FileKind: Sendable {
        case config, flow, locale
        /// The Engage double's test identities (`identities.yaml`).
        case identities
        /// None of the above.
        case unknown
    }

    /// Loads the given files and folders. A `jump.yaml` brings its flow, a flow brings its
    /// locales folder; a folder brings every `.yaml` file in it. Nothing stops at the first
    /// problem: every file is read and every diagnostic collected.
    public func load(paths: [String]) -> LoadedProject {
        var assembler = ProjectAssembler(loader: self)
        assembler.project.directory = directory
        assembler.named = Set(paths.map(PathText.normalize))
        for path in paths {
            switch FileAccess.kind(of: path, from: directory) {
            case .missing:
                assembler.project.diagnostics.append(ReadError.unreadable(path: path, reason: "no such file or folder").diagnostic)
            case .directory:
                switch FileAccess.yamlFiles(in: path, from: directory) {
                case .failure(let error): assembler.project.diagnostics.append(error.diagnostic)
                case .success(let files) where files.isEmpty:
                    assembler.project.diagnostics.append(
                        Diagnostic(.directoryUnreadable, "no YAML files in '\(path)' (it holds no .yaml or .yml file)", at: nil, file: path))
                case .success(let files):
                    // Read and parse the folder's files on all cores; decode them in order.
                    let reads = ConcurrentMap.map(files) { readFile($0, decodingFlow: true) }
                    for (file, read) in zip(files, reads) { assembler.loadFile(file, read: read) }
                }
            case .file:
                assembler.loadFile(path)
            }
        }
        assembler.finish()
        return assembler.project
    }

    /// One load: the project being built and what was already read.
    private struct ProjectAssembler {
        let loader: ProjectLoader
        var project = LoadedProject()
        var flowPaths = Set<String>()
        var catalogsByDirectory: [String: [LocaleCatalog]] = [:]
        var localeFiles: [(path: String, read: ProjectLoader.ReadFile)] = []
        /// Capture flow documents (`.json`), made into flows at the end (the documents of one
        /// flow together).
        var flowDocuments: [String] = []
        /// The paths named on the command line (shown in full wherever they are).
        var named = Set<String>()
        /// While a jump.yaml's flow loads: that jump.yaml's folder (the project).
        var projectFolder: String?

        init(loader: ProjectLoader) {
            self.loader = loader
        }

        /// Reads a file and decodes it as what its name and top-level keys say it is.
        mutating func loadFile(_ path: String, as expected: FileKind? = nil, read: ReadFile? = nil) {
            if ProjectLoader.isFlowDocument(path) {
                if flowPaths.insert(PathText.normalize(path)).inserted { flowDocuments.append(path) }
                return
            }
            let errorsBefore = project.diagnostics.filter { $0.severity == .error }.count
            let read = read ?? loader.readFile(path)
            read.record(into: &project)
            guard let document = read.document else { return }
            let readCleanly = project.diagnostics.filter { $0.severity == .error }.count == errorsBefore
            switch expected ?? loader.kind(of: path, document) {
            case .config: loadConfig(path, document)
            case .flow: loadFlow(path, document, readCleanly: readCleanly, decoded: read.flow)
            case .locale: localeFiles.append((path, read))
            case .identities: project.diagnostics += IdentitiesLoader.decode(document, path: path).diagnostics
            case .unknown: project.diagnostics.append(ProjectLoader.unknownKind(path, document))
            }
        }

        mutating func loadConfig(_ path: String, _ document: YAMLDocument) {
            var decoder = ConfigDecoder(path: path, environment: loader.environment)
            let config = decoder.decode(document)
            project.diagnostics += decoder.decoder.errors.map(\.diagnostic)
            project.withheld.expansions += decoder.expansions
            guard let config else { return }
            if project.config == nil { project.config = config }
            let flowPath = PathText.resolve(config.flow.value, against: PathText.folder(of: path))
            guard FileAccess.kind(of: flowPath, from: loader.directory) == .file else {
                let nearest = FileAccess.nearest(
                    to: config.flow.value, relativeTo: PathText.folder(of: path), kind: .file, from: loader.directory)
                project.diagnostics.append(
                    Diagnostic(
                        .fileUnreadable, "the flow file '\(flowPath)' does not exist",
                        at: config.flow.location,
                        hint: nearest.map { "did you mean '\($0)'? ('flow' is relative to jump.yaml)" } ?? "'flow' is relative to jump.yaml"))
                return
            }
            if !flowPaths.contains(PathText.normalize(flowPath)) {
                let folder = PathText.folder(of: path)
                if !named.contains(PathText.normalize(flowPath)), let root = Withheld.outside(flowPath, project: folder, from: loader.directory) {
                    project.withheld.outsideFiles[PathText.normalize(flowPath)] = root
                }
                projectFolder = folder
                loadFile(flowPath, as: .flow)
                projectFolder = nil
            }
        }

        mutating func loadFlow(_ path: String, _ document: YAMLDocument, readCleanly: Bool, decoded: DecodedFlow? = nil) {
            guard flowPaths.insert(PathText.normalize(path)).inserted else { return }
            let decoded = decoded ?? DecodedFlow(path: path, document: document)
            let flow = decoded.flow
            project.diagnostics += decoded.errors.map(\.diagnostic)
            guard let flow else { return }
            let directory = PathText.normalize(PathText.resolve(flow.localesDirectory.value, against: PathText.folder(of: path)))
            if let projectFolder, !named.contains(directory), let root = Withheld.outside(directory, project: projectFolder, from: loader.directory) {
                project.withheld.outsideFolders[directory] = root
            }
            if catalogsByDirectory[directory] == nil {
                if FileAccess.kind(of: directory, from: loader.directory) == .directory {
                    catalogsByDirectory[directory] = loader.loadsLocaleFolders ? loader.loadLocales(in: directory, into: &project) : []
                } else {
                    catalogsByDirectory[directory] = []
                    let nearest = FileAccess.nearest(
                        to: flow.localesDirectory.value, relativeTo: PathText.folder(of: path), kind: .directory, from: loader.directory)
                    project.diagnostics.append(
                        Diagnostic(
                            .directoryUnreadable,
                            "the locales folder '\(directory)' does not exist", at: flow.localesDirectory.location,
                            hint: nearest.map { "did you mean '\($0)'? ('locales' is relative to the flow file)" }
                                ?? "create it, or point 'locales' at the folder of locale files (relative to the flow file)"))
                }
            }
            project.flows.append(
                LoadedFlow(
                    flow: flow, localesDirectory: directory, catalogs: catalogsByDirectory[directory] ?? [],
                    isComplete: readCleanly && decoded.errors.isEmpty))
        }

        /// Locale files named directly that no flow's folder already brought; then sorting.
        mutating func finish() {
            if !flowDocuments.isEmpty {
                project.flows += loader.loadFlowDocuments(flowDocuments, config: project.config, into: &project)
            }
            for file in localeFiles where catalogsByDirectory[PathText.normalize(PathText.folder(of: file.path))] == nil {
                var decoded = loader.decodeLocale(file.path, file.read)
                decoded.read = ReadFile(path: file.path)  // recorded when the file was read
                decoded.record(into: &project)
                if let catalog = decoded.catalog { project.looseCatalogs.append(catalog) }
            }
            let withheld = project.withheld
            if !withheld.isEmpty {
                project.diagnostics = withheld.apply(to: project.diagnostics)
                // No line of a file outside the project is ever quoted.
                project.sources.remove { withheld.projectFolder(outside: $0) != nil }
            }
            project.diagnostics = project.diagnostics.sortedByLocation()
        }
    }

    /// Every locale file of a folder, read and decoded on all cores (the results are merged
    /// in file-name order, so the outcome is the same as reading them one by one).
    public func loadLocales(in directory: String, into project: inout LoadedProject) -> [LocaleCatalog] {
        switch FileAccess.yamlFiles(in: directory, from: self.directory) {
        case .failure(let error):
            project.diagnostics.append(error.diagnostic)
            return []
        case .success(let files):
            return loadLocaleFiles(files, into: &project)
        }
    }

    /// Locale files read and decoded concurrently, merged in the order given.
    public func loadLocaleFiles(_ paths: [String], into project: inout LoadedProject) -> [LocaleCatalog] {
        let results = ConcurrentMap.map(paths) { path in decodeLocale(path, readFile(path, asLocale: true)) }
        var catalogs: [LocaleCatalog] = []
        catalogs.reserveCapacity(results.count)
        for result in results {
            result.record(into: &project)
            if let catalog = result.catalog { catalogs.append(catalog) }
        }
        return catalogs
    }

    /// One locale file.
    public func loadLocale(at path: String, into project: inout LoadedProject) -> LocaleCatalog? {
        let result = decodeLocale(path, readFile(path, asLocale: true))
        result.record(into: &project)
        return result.catalog
    }

    /// A flow file decoded (on any thread; the assembler adds it to the project in order).
    struct DecodedFlow: Sendable {
        var flow: Flow?
        var errors: [DecodeError]

        init(path: String, document: YAMLDocument) {
            var decoder = FlowDecoder(path: path)
            flow = decoder.decode(document)
            errors = decoder.decoder.errors
        }
    }

    /// What reading one file produced, before anything is added to a project.
    struct ReadFile: Sendable {
        /// The flow, when the file was decoded as one while it was read.
        var flow: DecodedFlow?
        var path: String
        var bytes: [UInt8] = []
        /// Whether the bytes are kept for quoting lines in diagnostics (not UTF-16 or UTF-32).
        var quotable = false
        var document: YAMLDocument?
        var diagnostics: [Diagnostic] = []
        /// Keys found twice in one mapping: where, and where the kept one is.
        var duplicates: [(location: SourceLocation, first: SourceLocation)] = []
        /// The messages, when the file was read as a locale file (`readFile(_:asLocale:)`).
        var messages: MessageFlattener?

        func record(into project: inout LoadedProject) {
            project.files.insert(PathText.normalize(path))
            if quotable { project.sources.add(path: path, bytes: bytes) }
            project.diagnostics += diagnostics
        }
    }

    /// What decoding one locale file produced.
    struct DecodedLocale: Sendable {
        var read: ReadFile
        var catalog: LocaleCatalog?
        var diagnostics: [Diagnostic] = []
        var aliases: [YAMLDocument.Marker] = []

        func record(into project: inout LoadedProject) {
            read.record(into: &project)
            if !aliases.isEmpty { project.localeAliases[read.path] = aliases }
            project.diagnostics += diagnostics
        }
    }

    func decodeLocale(_ path: String, _ read: ReadFile) -> DecodedLocale {
        var result = DecodedLocale(read: read)
        // The read result was recorded with the file; only the decode adds to it.
        guard let document = read.document else { return result }
        result.read.document = nil
        if !document.anchors.isEmpty || !document.aliases.isEmpty {
            result.aliases = document.anchors + document.aliases
        }
        let stem = PathText.stem(of: path)
        result.read.messages = nil
        var decoder = LocaleDecoder(path: path, bytes: read.bytes, streamed: read.messages, readerDuplicates: read.duplicates)
        var catalog = decoder.decode(document, expectedTag: LocaleTag(stem) != nil ? stem : nil)
        result.diagnostics = decoder.decoder.errors.map(\.diagnostic)
        if catalog != nil, !result.aliases.isEmpty {
            let keysByLine = catalog!.firstKeys(onLines: Set((document.anchors + document.aliases).map(\.mark.line)))
            catalog!.yamlReferences =
                (document.anchors.map { ($0, LocaleYAMLReference.Kind.anchor) }
                + document.aliases.map { ($0, LocaleYAMLReference.Kind.alias) })
                .map { marker, kind in
                    LocaleYAMLReference(
                        name: marker.name, kind: kind,
                        location: document.location(marker.mark, length: marker.name.unicodeScalars.count + 1),
                        key: keysByLine[marker.mark.line])
                }
                .sorted { $0.location < $1.location }
        }
        result.catalog = catalog
        return result
    }

    /// Reads and parses a file; with `decodingFlow`, a file whose keys make it a flow is
    /// decoded too (so that the files of a folder are decoded on all cores).
    func readFile(_ path: String, decodingFlow: Bool) -> ReadFile {
        var file = readFile(path)
        if decodingFlow, let document = file.document, kind(of: path, document) == .flow {
            file.flow = DecodedFlow(path: path, document: document)
        }
        return file
    }

    /// Reads and parses a file; `asLocale` decodes the messages of a locale file as it is
    /// read (see `LocaleDecoder.read`), and keeps only the rest as a tree.
    func readFile(_ path: String, asLocale: Bool = false) -> ReadFile {
        var file = ReadFile(path: path)
        switch FileAccess.read(path, limit: limits.maximumFileSize, from: directory) {
        case .failure(let error):
            file.diagnostics.append(error.diagnostic)
            return file
        case .success(let read):
            file.bytes = read
        }
        file.quotable = !YAMLReader.startsWithUTF16or32ByteOrderMark(file.bytes)
        let result: YAMLReadResult
        if asLocale {
            (result, file.messages) = LocaleDecoder.read(file.bytes, path: path, limits: limits)
        } else {
            result = YAMLReader.read(file.bytes, path: path, limits: limits)
        }
        file.diagnostics = result.diagnostics
        file.document = result.document
        for error in result.composeErrors {
            if case let .duplicateKey(location, _, first) = error { file.duplicates.append((location, first)) }
        }
        return file
    }

    /// Tells a file's kind from its name and top-level keys.
    private func kind(of path: String, _ document: YAMLDocument) -> FileKind {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if name == "jump.yaml" || name == "jump.yml" { return .config }
        guard case .mapping(let mapping) = document.root else { return .unknown }
        let keys = Set(mapping.entries.map(\.key.value))
        if keys.contains("messages") || keys.contains("locale") { return .locale }
        if keys.contains(where: { $0.hasPrefix("capture") || $0.hasPrefix("engage") }) { return .config }
        if keys.contains(where: { FlowDecoder.FlowKey(rawValue: $0) != nil }) { return .flow }
        if keys.contains(IdentitiesLoader.Key.identities.rawValue) { return .identities }
        return .unknown
    }

    /// The one diagnostic of a YAML file that is none of the kinds jump-forms reads.
    static func unknownKind(_ path: String, _ document: YAMLDocument) -> Diagnostic {
        let found: String
        if case .mapping(let mapping) = document.root {
            let keys = mapping.entries.prefix(4).map { "'\($0.key.value)'" }
            found =
                mapping.entries.isEmpty
                ? "it is an empty mapping"
                : "its keys are \(keys.joined(separator: ", "))\(mapping.entries.count > 4 ? ", ..." : "")"
        } else {
            found = "its top level is \(document.root.kindDescription), not a mapping"
        }
        let location = SourceLocation(file: path, line: document.root.start.line, column: document.root.start.column)
        return Diagnostic(
            .unknownFileKind,
            "not a flow, locale file, jump.yaml or identities file: \(found)", at: location,
            hint:
                """
                a flow has 'flow', 'fields' and 'forms'; a locale file 'locale' and 'messages'; jump.yaml 'capture...' keys; an identities file \
                'identities'
                """
        )
    }
}

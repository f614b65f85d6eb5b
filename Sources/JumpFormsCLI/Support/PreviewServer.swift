import ArgumentParser
import Foundation
import JumpCaptureServer
import JumpForms
import JumpFormsLoader
import JumpLocaleCheck
import Logging

/// `jump-forms preview`'s server: the project loaded as `serve` loads it (`ProjectOptions`,
/// `LocalServer.setup`), the pseudo-locales en-XA and ar-XB added to its texts, served with a
/// throwaway database in a temporary folder, in preview mode, with the gallery
/// (`PreviewGallery`) at `/preview`.
///
/// `check()` compares the watched files (the flow, its locale files and folder, jump.yaml)
/// with what it saw last and reloads on a change: a project that lints clean restarts the
/// server on the same port with the new setup; one with errors leaves the server as it is and
/// shows the errors, located, above the last good forms.
actor PreviewServer {
    struct Options: Sendable {
        /// `--config` and `--flow`, as `ProjectOptions` parses them.
        var project: [String]
        /// The locales shown (empty: the project's and the pseudo-locales).
        var locales: [LocaleTag] = []
        var host = "127.0.0.1"
        /// 0 picks a free port; a restart keeps the one bound first.
        var port = 0
    }

    /// A load of the project: the server's setup, the gallery's content, the lint errors
    /// (rendered) and the files to watch.
    struct Loaded {
        var setup: CaptureServerSetup
        var content: PreviewGallery.Content
        var problems: String?
        var watched: [String]
    }

    let options: Options
    let gallery: PreviewGallery
    let folder: String
    let environment: [String: String]
    let logger: Logger
    let console: Console
    private(set) var server: EmbeddedCaptureServer
    private var watched: [String]
    private var stamps: [String: FileStamp]

    /// The gallery's address.
    var url: String { server.url + "/preview" }

    private init(
        options: Options, gallery: PreviewGallery, folder: String, environment: [String: String], logger: Logger, console: Console,
        server: EmbeddedCaptureServer, watched: [String]
    ) {
        self.options = options
        self.gallery = gallery
        self.folder = folder
        self.environment = environment
        self.logger = logger
        self.console = console
        self.server = server
        self.watched = watched
        self.stamps = FileStamp.snapshot(watched)
    }

    /// Loads the project and starts the server. A project that does not load is reported as
    /// `serve` reports it (exit 2); lint errors are shown on the gallery.
    static func start(_ options: Options, environment: [String: String], logger: Logger, console: Console) async throws -> PreviewServer {
        let folder = try temporaryFolder()
        do {
            let loaded = try load(options, databasePath: folder + "/preview.sqlite", environment: environment, console: console)
            let gallery = PreviewGallery(loaded.content)
            if let problems = loaded.problems {
                gallery.show(problems: problems)
                console.err(problems)
            }
            var setup = loaded.setup
            setup.preview = gallery
            let server: EmbeddedCaptureServer
            do {
                server = try await EmbeddedCaptureServer.start(setup, host: options.host, port: options.port, logger: logger)
            } catch {
                console.err(escaping: "cannot listen on \(options.host):\(options.port): \(error)\n")
                throw ExitCode(2)
            }
            return PreviewServer(
                options: options, gallery: gallery, folder: folder, environment: environment, logger: logger, console: console,
                server: server, watched: loaded.watched)
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
    }

    /// Reloads when a watched file changed since the last check (or load).
    func check() async throws {
        let now = FileStamp.snapshot(watched)
        guard now != stamps else { return }
        stamps = now
        try await reload()
    }

    /// Loads the project again; restarts the server with it when it lints clean, else shows
    /// its problems. Throws when the server cannot listen again on its port.
    func reload() async throws {
        let capture = ConsoleCapture()
        let quiet = Console(colorOut: false, colorErr: false)
        let loaded = Console.$capture.withValue(capture) {
            try? Self.load(options, databasePath: folder + "/preview.sqlite", environment: environment, console: quiet)
        }
        guard let loaded else {
            report(problems: capture.err)
            return
        }
        if let problems = loaded.problems {
            report(problems: problems)
            return
        }
        gallery.release()
        let port = Self.port(of: server.url) ?? options.port
        await server.stop()
        var setup = loaded.setup
        setup.preview = gallery
        do {
            server = try await Self.restart(setup, host: options.host, port: port, logger: logger)
        } catch {
            console.err(escaping: "cannot listen again on \(options.host):\(port): \(error)\n")
            throw ExitCode(2)
        }
        watched = loaded.watched
        stamps = FileStamp.snapshot(watched)
        gallery.publish(loaded.content)
        console.err("reloaded: generation \(gallery.generation)\n")
    }

    /// Starts the server again on the port it had. The stopped server's sockets may hold the
    /// port for a moment after `stop()` returned (seen under load: "Address already in use"):
    /// while it is in use, tries again every 100 ms for up to 5 s.
    static func restart(_ setup: CaptureServerSetup, host: String, port: Int, logger: Logger) async throws -> EmbeddedCaptureServer {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(5)
        while true {
            do {
                return try await EmbeddedCaptureServer.start(setup, host: host, port: port, logger: logger)
            } catch  where EmbeddedCaptureServer.portInUse(error) && clock.now < deadline {
                try await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    private func report(problems: String) {
        gallery.show(problems: problems)
        console.err(escaping: problems)
        console.err("the preview keeps the last good forms (generation \(gallery.generation))\n")
    }

    /// Checks at each tick until the ticks end (or the task is cancelled).
    func watch<Ticks: AsyncSequence & Sendable>(_ ticks: Ticks) async throws where Ticks.Element == Void {
        for try await _ in ticks {
            try await check()
        }
    }

    /// A tick every `interval` until the task is cancelled.
    static func ticks(every interval: Duration) -> AsyncStream<Void> {
        AsyncStream {
            try? await Task.sleep(for: interval)
            return Task.isCancelled ? nil : ()
        }
    }

    /// Stops the server and removes the temporary folder.
    func stop() async {
        gallery.release()
        await server.stop()
        try? FileManager.default.removeItem(atPath: folder)
    }

    // MARK: loading

    static func load(_ options: Options, databasePath: String, environment: [String: String], console: Console) throws -> Loaded {
        let project = try ProjectOptions.parse(options.project)
        let workspace = try project.load(console: console)
        var setup = try LocalServer.setup(workspace, databaseOverride: databasePath, environment: environment, console: console)
        setup.localizer = pseudoLocalized(workspace.loaded)
        let errors = workspace.project.lint().filter { $0.severity == .error }
        let problems = errors.isEmpty ? nil : DiagnosticRenderer(sources: workspace.project.sources, useColor: false).render(errors)
        let projectLocales = workspace.loaded.catalogs.map(\.tag.value)
        var locales = options.locales
        if locales.isEmpty {
            locales = projectLocales.sorted { $0.identifier < $1.identifier }
            for style in PseudoLocalizer.Style.allCases where !locales.contains(style.tag) { locales.append(style.tag) }
        }
        let content = PreviewGallery.Content(flowName: workspace.flow.name.value, forms: workspace.flow.forms.map(\.name), locales: locales)
        let watched = Array(workspace.project.files).sorted() + [workspace.loaded.localesDirectory]
        return Loaded(setup: setup, content: content, problems: problems, watched: watched)
    }

    /// The flow's localizer with en-XA and ar-XB made from the default locale's file and
    /// jump-forms' own English words, as `locales pseudo` makes them (a project's own
    /// pseudo-locale file wins).
    static func pseudoLocalized(_ loaded: LoadedFlow) -> Localizer {
        let defaultLocale = loaded.flow.defaultLocale.value
        let reference = loaded.catalogs.filter { $0.tag.value == defaultLocale }
        let builtin = BuiltinCatalog.catalogs.filter { $0.tag.value.identifier == "en-US" }
        var catalogs = loaded.catalogs
        for style in PseudoLocalizer.Style.allCases where !catalogs.contains(where: { $0.tag.value == style.tag }) {
            let path = "<\(style.rawValue) pseudo-locale>"
            let start = SourceLocation(file: path, line: 1, column: 1)
            let messages = PseudoLocalizer(style: style).messages(reference + builtin).map { message in
                LocaleMessage(key: message.key, text: message.text, keyLocation: start, valueLocation: start, offsetMap: .linear(line: 1, column: 1))
            }
            catalogs.append(LocaleCatalog(path: path, tag: Located(style.tag, at: start), messages: messages))
        }
        return Localizer(defaultLocale: defaultLocale, catalogs: catalogs, fallbackCatalogs: BuiltinCatalog.catalogs)
    }

    static func port(of url: String) -> Int? {
        url.split(separator: ":").last.flatMap { Int($0) }
    }

    static func temporaryFolder() throws -> String {
        var template = Array((NSTemporaryDirectory() + "/jump-forms-preview-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw ValidationError("cannot create a temporary folder in \(NSTemporaryDirectory())")
        }
        return String(cString: made)
    }
}

/// What a watched path looked like: its modification time and size, and for a folder the
/// names in it.
struct FileStamp: Equatable, Sendable {
    var modified: Date?
    var size: Int?
    var names: [String]?

    static func snapshot(_ paths: [String]) -> [String: FileStamp] {
        var stamps: [String: FileStamp] = [:]
        for path in paths {
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            let isFolder = attributes?[.type] as? FileAttributeType == .typeDirectory
            stamps[path] = FileStamp(
                modified: attributes?[.modificationDate] as? Date, size: (attributes?[.size] as? NSNumber)?.intValue,
                names: isFolder ? (try? FileManager.default.contentsOfDirectory(atPath: path))?.sorted() : nil)
        }
        return stamps
    }
}

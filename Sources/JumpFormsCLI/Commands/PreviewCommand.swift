import ArgumentParser
import Dispatch
import Foundation
import JumpForms

/// `jump-forms preview`: the hosted forms of the flow, every form in every locale, in one page
/// that reloads when the files change (`PreviewServer`).
struct PreviewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Show every form of the flow in every locale (pseudo-locales included) in a browser, reloading on changes.",
        discussion: """
            Starts the local server on a free port (--port to choose one) with a throwaway database, \
            prints the gallery's URL (/preview) and opens it unless --no-open. Each form is shown in \
            the project's locales and the pseudo-locales en-XA (longer, accented) and ar-XB \
            (right-to-left), or only in the --locale ones. The flow, its locale files and jump.yaml \
            are watched: on a change the project is loaded again, and the page reloads with the new \
            forms, or shows the errors (located) above the last good ones. Ctrl-C stops it.
            """
    )

    @Option(help: ArgumentHelp("The client configuration.", valueName: "jump.yaml"))
    var config: String?

    @Option(help: ArgumentHelp("A flow file instead of the one jump.yaml names.", valueName: "flow.yaml"))
    var flow: String?

    @Option(name: .customLong("locale"), help: ArgumentHelp("A locale to show (repeat; default: every locale and en-XA, ar-XB).", valueName: "tag"))
    var locales: [String] = []

    @Option(help: "The address to bind.")
    var host = "127.0.0.1"

    @Option(parsing: .unconditional, help: "The port (0 picks a free one).")
    var port = 0

    @Flag(name: .customLong("no-open"), help: "Do not open the gallery in a browser.")
    var noOpen = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0...65535, got \(port)") }
        for locale in locales where LocaleTag(locale) == nil {
            throw ValidationError("'\(locale)' is not a BCP 47 locale tag (for example en-US, fr, pt-BR)")
        }
    }

    func run() async throws {
        let console = Console()
        let environment = Environment.current
        var options = PreviewServer.Options(project: [], locales: locales.compactMap(LocaleTag.init), host: host, port: port)
        if let config { options.project += ["--config", config] }
        if let flow { options.project += ["--flow", flow] }
        let logger = LocalServer.logger(label: "jump-forms.preview", environment: environment, console: console)
        let server = try await PreviewServer.start(options, environment: environment, logger: logger, console: console)
        let url = await server.url
        console.out(escaping: "jump-forms preview at \(url)\n")
        if !noOpen { Self.open(url) }
        let watching = Task { try await server.watch(PreviewServer.ticks(every: .milliseconds(300))) }
        let signals = Self.onStop { watching.cancel() }
        let result = await watching.result
        signals.forEach { $0.cancel() }
        await server.stop()
        try result.get()
    }

    /// Runs `stop` on SIGINT or SIGTERM (instead of ending the process).
    static func onStop(_ stop: @escaping @Sendable () -> Void) -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler(handler: stop)
            source.resume()
            return source
        }
    }

    /// Opens `url` in the desktop's browser (`open` on macOS, `xdg-open` elsewhere), quietly:
    /// without one the printed URL is there to open.
    static func open(_ url: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        #if os(macOS)
            process.arguments = ["open", url]
        #else
            process.arguments = ["xdg-open", url]
        #endif
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try? process.run()
    }
}

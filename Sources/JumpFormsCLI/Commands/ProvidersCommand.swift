import ArgumentParser
import JumpCapture
import JumpForms

/// `jump-forms providers`: the sign-in providers with localized names, kinds and start URLs.
struct ProvidersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "providers",
        abstract: "List the flow's sign-in providers: localized names, kinds and start URLs."
    )

    @OptionGroup var project: ProjectOptions

    @Option(help: "Output format: text or json.")
    var format: DataFormat = .text

    func run() throws {
        let console = Console()
        let environment = Environment.current
        let workspace = try project.load(console: console)
        let setup = try CaptureSetup(workspace: workspace, captureURL: nil)
        let returnTo: EngageReturn = setup.config.engageWhitelistedDomain.map { .tokenURL($0.value) } ?? .device("android")
        let installation = try Installation.identifier(environment)
        let rows = workspace.flow.providers.map { provider -> (name: String, id: String, kind: String, url: String) in
            let start = setup.engageBuilder.startURL(for: provider, returnTo: returnTo, installationID: installation)
            let name =
                provider.name.map { workspace.localizer.text($0.value, for: workspace.locale) }
                ?? provider.builtIn?.friendlyName ?? provider.id.value
            return (name, provider.id.value, start.kind, start.url)
        }
        switch format {
        case .text:
            // Names and ids are shown escaped (`TerminalText`), padded as shown.
            let names = rows.map { TerminalText.escaped($0.name) }
            let width = names.map(\.count).max() ?? 0
            var out = ""
            for (row, name) in zip(rows, names) {
                out += "\(name.padding(toLength: width))  \(TerminalText.escaped(row.id)) (\(row.kind))\n    \(TerminalText.escaped(row.url))\n"
            }
            console.out(out)
        case .json:
            let json = JSONValue.array(
                rows.map {
                    ["id": .string($0.id), "name": .string($0.name), "kind": .string($0.kind), "startURL": .string($0.url)]
                })
            console.out(json.serialized(pretty: true) + "\n")
        }
    }
}

extension String {
    func padding(toLength width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}

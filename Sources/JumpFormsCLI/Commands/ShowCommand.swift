import ArgumentParser
import JumpForms

/// `jump-forms show [FORM] [--flow F] [--locale L] [--format text|json]`; without a form, the
/// flow's forms and their fields.
struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show a form as a locale sees it: fields, labels, options and rules."
    )

    @Argument(help: "The form's name, e.g. registrationForm; without it, the flow's forms and their fields.")
    var form: String?

    @OptionGroup var project: ProjectOptions

    @Option(help: "Output format: text or json.")
    var format: DataFormat = .text

    func run() throws {
        let console = Console()
        let workspace = try project.load(console: console)
        guard let form else { return list(workspace.flow, console) }
        let model = try workspace.form(form)
        switch format {
        case .text: console.out(FormRenderer.text(model))
        case .json: console.out(FormRenderer.json(model, localizer: workspace.localizer).serialized(pretty: true) + "\n")
        }
    }

    /// The flow's forms, each with its fields in order.
    private func list(_ flow: Flow, _ console: Console) {
        switch format {
        case .text:
            let width = flow.forms.map(\.name.count).max() ?? 0
            var text = "Forms of \(flow.path) (flow \(flow.name.value), version \(flow.version.value)):\n"
            for form in flow.forms {
                let padding = String(repeating: " ", count: width - form.name.count)
                text += "  \(form.name)\(padding)  \(form.fields.map(\.value).joined(separator: ", "))\n"
            }
            console.out(escaping: text + "Show one with: jump-forms show <form>\n")
        case .json:
            let forms = flow.forms.map { form -> JSONValue in
                .object([("name", .string(form.name)), ("fields", .array(form.fields.map { .string($0.value) }))])
            }
            console.out(JSONValue.object([("flow", .string(flow.name.value)), ("forms", .array(forms))]).serialized(pretty: true) + "\n")
        }
    }
}

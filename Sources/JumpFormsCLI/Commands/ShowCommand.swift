import ArgumentParser
import JumpForms

/// `jump-forms show FORM [--flow F] [--locale L] [--format text|json]`
struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show a form as a locale sees it: fields, labels, options and rules."
    )

    @Argument(help: "The form's name, e.g. registrationForm.")
    var form: String

    @OptionGroup var project: ProjectOptions

    @Option(help: "Output format: text or json.")
    var format: DataFormat = .text

    func run() throws {
        let console = Console()
        let workspace = try project.load(console: console)
        let model = try workspace.form(form)
        switch format {
        case .text: console.out(FormRenderer.text(model))
        case .json: console.out(FormRenderer.json(model, localizer: workspace.localizer).serialized(pretty: true) + "\n")
        }
    }
}

import ArgumentParser
import JumpForms
import JumpFormsLoader

/// `jump-forms validate FORM (--answers FILE|- | --set field=value ...)`
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check values against a form's rules and print the localized messages per field.",
        discussion: "Exit status: 0 valid, 1 invalid, 2 usage or input error."
    )

    @Argument(help: "The form's name, e.g. registrationForm.")
    var form: String

    @OptionGroup var project: ProjectOptions

    @OptionGroup var input: ValueOptions

    @Option(help: ArgumentHelp("The date minYears/maxYears count from (default: today).", valueName: "yyyy-MM-dd"))
    var today: String?

    @Option(help: "Output format: text or json.")
    var format: DataFormat = .text

    func validate() throws {
        if input.isEmpty {
            throw ValidationError("give the values with --answers FILE (or -) or --set field=value")
        }
        if let today, CivilDate(iso: today) == nil {
            throw ValidationError("--today takes a date as yyyy-MM-dd, got '\(today)'")
        }
    }

    func run() throws {
        let console = Console()
        let workspace = try project.load(console: console)
        let model = try workspace.form(form)
        let values = try input.values(for: model, localizer: workspace.localizer, environment: Environment.current, console: console)
        let engine = RuleEngine(form: model, today: today.flatMap(CivilDate.init(iso:)) ?? .today)
        let report = engine.validate(values)
        let messages = workspace.localizer.messages(for: report.violations, in: model)
        switch format {
        case .text:
            var out = ""
            for entry in messages {
                for message in entry.messages { out += "\(entry.field): \(message)\n" }
            }
            if report.isValid { out += "valid: every client-side rule of \(form) passed\n" }
            for deferred in report.deferred {
                out +=
                    "left to the server: \(deferred.field) (\(deferred.rule.rawValue)\(deferred.reason == .clientSideDisabled ? ", clientSide: false" : ""))\n"
            }
            console.out(out)
        case .json:
            let json: JSONValue = [
                "form": .string(form),
                "locale": .string(model.locale.identifier),
                "valid": .bool(report.isValid),
                "invalid_fields": .object(messages.map { (key: $0.field, value: .array($0.messages.map(JSONValue.string))) }),
                "deferred": .array(
                    report.deferred.map {
                        ["field": .string($0.field), "rule": .string($0.rule.rawValue), "reason": .string($0.reason.rawValue)]
                    })
            ]
            console.out(json.serialized(pretty: true) + "\n")
        }
        if !report.isValid { throw ExitCode(1) }
    }
}

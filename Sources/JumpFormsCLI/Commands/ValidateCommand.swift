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

    @Option(help: ArgumentHelp("A YAML or JSON mapping of field -> value ('-' reads standard input).", valueName: "file"))
    var answers: String?

    @Option(name: .customLong("set"), help: ArgumentHelp("A value: field=value (repeatable; wins over --answers).", valueName: "field=value"))
    var assignments: [String] = []

    @Option(help: ArgumentHelp("The date minYears/maxYears count from (default: today).", valueName: "yyyy-MM-dd"))
    var today: String?

    @Option(help: "Output format: text or json.")
    var format: DataFormat = .text

    func validate() throws {
        if answers == nil && assignments.isEmpty {
            throw ValidationError("give the values with --answers FILE (or -) or --set field=value")
        }
        for assignment in assignments where !assignment.contains("=") {
            throw ValidationError("--set takes field=value, got '\(assignment)'")
        }
        if let today, CivilDate(iso: today) == nil {
            throw ValidationError("--today takes a date as yyyy-MM-dd, got '\(today)'")
        }
    }

    func run() throws {
        let console = Console()
        let workspace = try project.load(console: console)
        let model = try workspace.form(form)
        var values = FormValues()
        var problems: [Diagnostic] = []
        var sources = SourceFiles()
        if let answers {
            let loaded = AnswersLoader.load(path: answers)
            problems += loaded.diagnostics
            sources = loaded.sources
            for (field, value) in loaded.answers {
                if model.field(named: field.value) == nil {
                    problems.append(Diagnostic(.unknownKey, "form '\(form)' has no field '\(field.value)'", at: field.location,
                                               hint: Suggestion.hint(for: field.value, among: model.fields.map(\.name))))
                }
                values[field.value] = value
            }
        }
        for assignment in assignments {
            let parts = assignment.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            guard model.field(named: name) != nil else {
                let hint = Suggestion.hint(for: name, among: model.fields.map(\.name)).map { " (\($0))" } ?? ""
                throw ValidationError("form '\(form)' has no field '\(name)'\(hint)")
            }
            values[name] = String(parts[1])
        }
        if !problems.isEmpty {
            console.err(DiagnosticRenderer(sources: sources, useColor: console.colorErr).render(problems))
            throw ExitCode(2)
        }
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
                out += "left to the server: \(deferred.field) (\(deferred.rule.rawValue)\(deferred.reason == .clientSideDisabled ? ", clientSide: false" : ""))\n"
            }
            console.out(out)
        case .json:
            let json: JSONValue = [
                "form": .string(form),
                "locale": .string(model.locale.identifier),
                "valid": .bool(report.isValid),
                "invalid_fields": .object(messages.map { (key: $0.field, value: .array($0.messages.map(JSONValue.string))) }),
                "deferred": .array(report.deferred.map {
                    ["field": .string($0.field), "rule": .string($0.rule.rawValue), "reason": .string($0.reason.rawValue)]
                }),
            ]
            console.out(json.serialized(pretty: true) + "\n")
        }
        if !report.isValid { throw ExitCode(1) }
    }
}

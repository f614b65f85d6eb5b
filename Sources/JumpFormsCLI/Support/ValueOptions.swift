import ArgumentParser
import JumpForms
import JumpFormsLoader

/// Where a command's field values come from, in rising precedence: `JUMP_FIELD_<NAME>`
/// environment variables, `--answers FILE`, `--set field=value`.
struct ValueOptions: ParsableArguments {
    @Option(help: ArgumentHelp("A YAML or JSON mapping of field -> value ('-' reads standard input).", valueName: "file"))
    var answers: String?

    @Option(
        name: .customLong("set"),
        help: ArgumentHelp("A value: field=value (repeatable; wins over --answers and the environment).", valueName: "field=value"))
    var assignments: [String] = []

    func validate() throws {
        for assignment in assignments where !assignment.contains("=") {
            throw ValidationError("--set takes field=value, got '\(assignment)'")
        }
    }

    var isEmpty: Bool { answers == nil && assignments.isEmpty }

    /// The environment variable names a field's value may come from: `JUMP_FIELD_EMAILADDRESS`
    /// and `JUMP_FIELD_EMAIL_ADDRESS` for `emailAddress`.
    static func environmentNames(for field: String) -> [String] {
        var snake = ""
        for character in field {
            if character.isUppercase, !snake.isEmpty { snake += "_" }
            snake += character.uppercased()
        }
        let plain = "JUMP_FIELD_" + field.uppercased().replacingAll("-", with: "_")
        let snaked = "JUMP_FIELD_" + snake.replacingAll("-", with: "_")
        return plain == snaked ? [plain] : [plain, snaked]
    }

    /// The values for `form`, or a thrown exit after printing located problems (unknown fields
    /// get a "did you mean"). Checkbox values are read as the prompts read them (`yes`, `n`,
    /// `true`, the locale's words: see `FormSession.checkboxAnswer`) and become `true`/`false`.
    func values(for form: FormModel, localizer: Localizer, environment: [String: String], console: Console) throws -> FormValues {
        var values = FormValues()
        for field in form.fields {
            for name in Self.environmentNames(for: field.name) {
                if let value = environment[name] { values[field.name] = value }
            }
        }
        let names = form.fields.map(\.name)
        if let answers {
            let loaded = AnswersLoader.load(path: answers, directory: WorkingDirectory.override)
            var problems = loaded.diagnostics
            for (field, value) in loaded.answers {
                if form.field(named: field.value) == nil, !Self.isSubValue(field.value, of: form) {
                    problems.append(
                        Diagnostic(
                            .unknownKey, "form '\(form.name)' has no field '\(field.value)'", at: field.location,
                            hint: Suggestion.hint(for: field.value, among: names) ?? "its fields: " + names.joined(separator: ", ")))
                }
                values[field.value] = value
            }
            if !problems.isEmpty {
                console.err(DiagnosticRenderer(sources: loaded.sources, useColor: console.colorErr).render(problems.sortedByLocation()))
                throw ExitCode(2)
            }
        }
        for assignment in assignments {
            let parts = assignment.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            guard form.field(named: name) != nil || Self.isSubValue(name, of: form) else {
                let hint = Suggestion.hint(for: name, among: names) ?? "its fields: " + names.joined(separator: ", ")
                throw ValidationError("form '\(form.name)' has no field '\(name)' (\(hint))")
            }
            values[name] = String(parts[1])
        }
        for field in form.fields where field.type == .checkbox {
            if let value = values[field.name], let checked = FormSession.checkboxAnswer(value, localizer: localizer, locale: form.locale) {
                values[field.name] = checked ? "true" : "false"
            }
        }
        return values
    }

    /// `field[sub]` for a field whose schemaId is a map.
    static func isSubValue(_ name: String, of form: FormModel) -> Bool {
        guard let open = name.firstIndex(of: "["), name.hasSuffix("]"),
            let field = form.field(named: String(name[..<open])), case .map(let subs)? = field.schemaId
        else { return false }
        let sub = name[name.index(after: open)..<name.index(before: name.endIndex)]
        return subs.contains { $0.key == sub }
    }
}

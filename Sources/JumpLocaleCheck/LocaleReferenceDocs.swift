import JumpForms

/// The generated parts of docs/locales.md, drawn from the `LocaleRule` family: the table of
/// rules and, per rule, its explanation, its example files and what `jump-forms locales check`
/// prints for them, and the files of its examples where it finds nothing. The printed output is passed in: the test suite runs each example through
/// the real command (and keeps it as a golden file), so the page shows what the tool does.
public enum LocaleReferenceDocs {
    /// Markdown blocks by name (`<!-- BEGIN GENERATED: name -->`).
    public static func blocks(outputs: [LocaleRule: String]) -> [String: String] {
        ["locale-rule-table": table, "locale-rules": rules(outputs: outputs)]
    }

    public static var table: String {
        var out = "| rule | code | severity | what |\n|---|---|---|---|\n"
        for rule in LocaleRule.allCases {
            out += "| [`\(rule.rawValue)`](#\(rule.rawValue)) | \(rule.code.rawValue) | \(rule.severity.rawValue) | \(rule.title) |\n"
        }
        return out
    }

    public static func rules(outputs: [LocaleRule: String]) -> String {
        var out = ""
        for group in LocaleRule.Group.allCases {
            out += "### \(group.rawValue)\n\n"
            for rule in LocaleRule.allCases where rule.group == group {
                out += "#### \(rule.rawValue)\n\n"
                out += "\(rule.code.rawValue), \(rule.severity.rawValue): **\(rule.title)**. \(rule.explanation)\n\n"
                let example = rule.example
                for file in example.files { out += block(file) }
                out += "```console\n$ jump-forms \(example.arguments.joined(separator: " "))\n"
                if let output = outputs[rule] { out += output.hasSuffix("\n") ? output : output + "\n" }
                out += "```\n\n"
                // The files that differ from the example's, where the rule finds nothing.
                for quiet in rule.nonTriggeringExamples {
                    out += "Not reported:\n\n"
                    for file in quiet.files where !example.files.contains(file) { out += block(file) }
                    if quiet.arguments != example.arguments {
                        out += "```console\n$ jump-forms \(quiet.arguments.joined(separator: " "))\n```\n\n"
                    }
                }
            }
        }
        return out
    }

    /// A file of an example: its path, then its text.
    static func block(_ file: LocaleRuleExample.File) -> String {
        let language = file.path.hasSuffix(".yaml") ? "yaml" : ""
        return "`\(file.path)`:\n\n```\(language)\n\(file.text.hasSuffix("\n") ? String(file.text.dropLast()) : file.text)\n```\n\n"
    }

    /// Replaces the generated blocks of a document with their current text.
    public static func update(_ document: String, outputs: [LocaleRule: String]) -> String {
        ReferenceDocs.replacingGeneratedBlocks(in: document, with: blocks(outputs: outputs).sorted(by: { $0.key < $1.key }))
    }
}

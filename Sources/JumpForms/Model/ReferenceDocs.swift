/// The generated parts of the documentation: tables drawn from the families themselves (field
/// types, rules with their examples, formats, providers, diagnostic codes), so the docs cannot
/// drift from the code. A test keeps `docs/*.md` in step (`RECORD_SNAPSHOTS=1` rewrites them).
public enum ReferenceDocs {
    /// Markdown blocks by name, as they appear between `<!-- BEGIN GENERATED: name -->` and
    /// `<!-- END GENERATED: name -->` in the docs.
    public static var blocks: [String: String] {
        [
            "field-types": fieldTypes,
            "rules": rules,
            "formats": formats,
            "providers": providers,
            "media-types": mediaTypes,
            "sharing-providers": sharingProviders,
            "diagnostics": diagnostics
        ]
    }

    static func code(_ text: String) -> String {
        text.isEmpty ? "`\"\"`" : "`\(text.replacingAll("|", with: "\\|"))`"
    }

    public static var fieldTypes: String {
        var out = "| type | holds |\n|---|---|\n"
        for type in FieldType.allCases {
            out += "| `\(type.rawValue)` | \(type.summary) |\n"
        }
        return out
    }

    public static var rules: String {
        var out = ""
        for kind in RuleKind.allCases {
            out += "### `\(kind.rawValue)`\n\n\(kind.summary)\n\n"
            let value: String
            switch kind.valueShape {
            case .none: value = kind == .required ? "none (or `true`)" : "none"
            case .integer: value = "an integer"
            case .fieldName: value = "the name of another field of the same form"
            case .format: value = "a format name (see Formats)"
            case .pattern: value = "a regular expression"
            case .stringList: value = "a list of strings"
            }
            out += "- value: \(value)\n- fits: \(kind.fittingTypes) fields\n"
            if kind.isServerOnly {
                out += "- evaluated by: the server only (the client reports it as left to the server)\n"
            } else if kind.appliesToEmptyValues {
                out += "- applies to empty values too\n"
            }
            for example in kind.examples {
                var rule = "{ rule: \(kind.rawValue)"
                switch example.value {
                case .none: break
                case .integer(let number): rule += ", value: \(number)"
                case .text(let text): rule += ", value: \"\(text)\""
                case .list(let items): rule += ", value: [\(items.joined(separator: ", "))]"
                }
                rule += ", message: validation.\(kind.rawValue) }"
                out += "\nOn a `\(example.field.rawValue)` field"
                if !example.options.isEmpty {
                    let options = example.options.map { $0.hasPrefix("-") ? "`\($0.dropFirst())` (disabled)" : "`\($0)`" }
                    out += " with options \(options.joined(separator: ", "))"
                }
                if kind == .minYears || kind == .maxYears { out += ", today being \(RuleExample.today)" }
                if !example.taken.isEmpty { out += ", another record holding \(example.taken.map(code).joined(separator: ", "))" }
                out += ", `\(rule)`:\n\n| value | other field | result |\n|---|---|---|\n"
                func row(_ input: RuleExample.Input, _ result: String) -> String {
                    let other = kind.isCrossField ? code(input.other ?? "") : "-"
                    return "| \(code(input.value)) | \(other) | \(result) |\n"
                }
                let side = kind.isServerOnly ? " (on the server)" : ""
                for input in example.valid { out += row(input, "passes" + side) }
                for input in example.invalid { out += row(input, "fails" + side) }
            }
            out += "\n"
        }
        return out
    }

    public static var formats: String {
        var out = "| format | definition | accepts | refuses |\n|---|---|---|---|\n"
        for format in Format.allCases {
            let (valid, invalid) = format.examples
            out +=
                "| `\(format.rawValue)` | \(format.definition) | \(valid.map(code).joined(separator: " ")) | \(invalid.map(code).joined(separator: " ")) |\n"
        }
        return out
    }

    public static var providers: String {
        var out = "| name | shown as | needs input | native token exchange |\n|---|---|---|---|\n"
        for provider in BuiltInProvider.allCases {
            out +=
                "| `\(provider.rawValue)` | \(provider.friendlyName) | \(provider.inputPrompt == nil ? "no" : "yes") | \(provider.hasNativeToken ? "yes" : "no") |\n"
        }
        return out
    }

    /// The media types of an activity, with their keys.
    public static var mediaTypes: String {
        var out = "| type | shows | required keys | optional keys |\n|---|---|---|---|\n"
        for type in ActivityMediaType.allCases {
            let optional = type.optionalKeys.isEmpty ? "-" : type.optionalKeys.map(code).joined(separator: ", ")
            out += "| `\(type.rawValue)` | \(type.summary) | \(type.requiredKeys.map(code).joined(separator: ", ")) | \(optional) |\n"
        }
        return out
    }

    /// The providers an activity can be posted to, with their limits.
    public static var sharingProviders: String {
        var out =
            "| provider | text limit | counted as | the words replace the action | URL in the text | without a URL |\n|---|---|---|---|---|---|\n"
        for provider in SharingProvider.allCases {
            let limit = provider.limit.map { String($0.maximum) } ?? "none"
            let counting =
                switch provider.limit?.counting {
                case .twitter?: "twitter-text (weighted; a URL counts 23)"
                case .characters?: "characters"
                case nil: "-"
                }
            out +=
                "| `\(provider.rawValue)` | \(limit) | \(counting) | \(provider.contentReplacesAction ? "yes" : "no") | \(provider.urlIsPartOfText ? "yes" : "no") | \(provider.usesStatusWithoutURL ? "status update (`set_status`)" : "activity") |\n"
        }
        return out
    }

    public static var diagnostics: String {
        var out = ""
        for phase in DiagnosticCode.Phase.allCases {
            out += "## \(phase.rawValue.prefix(1).uppercased() + phase.rawValue.dropFirst()) phase\n\n"
            for code in DiagnosticCode.allCases.sorted(by: { $0.rawValue < $1.rawValue }) where code.phase == phase {
                out += "### \(code.rawValue): \(code.title)\n\n"
                let rule = code.ruleID.map { " Rule id: `\($0)` (see [locales.md](locales.md#\($0)))." } ?? ""
                out += "Severity: \(code.defaultSeverity.rawValue).\(rule)\n\n\(code.explanation)\n\n"
                if let lintRule = LintRule(code: code) {
                    out += lintExamples(lintRule)
                } else if code.example.contains("\n") {
                    let language = code.phase == .schema && (code.example.hasPrefix("{") || code.example.hasPrefix("[")) ? "json" : "yaml"
                    out += "Example:\n\n```\(language)\n\(code.example)\n```\n\n"
                } else if !code.example.isEmpty {
                    out += "Example: `\(code.example)`\n\n"
                }
            }
        }
        return out
    }

    /// A lint rule's first triggering example, all its files, and then its non-triggering
    /// examples, each by the files that differ from the triggering one's.
    static func lintExamples(_ rule: LintRule) -> String {
        let example = rule.triggeringExamples[0]
        var out = "Example, `jump-forms lint \(example.lintPaths.joined(separator: " "))`:\n\n"
        for file in example.files { out += block(file) }
        for quiet in rule.nonTriggeringExamples {
            out += "Not reported:\n\n"
            for file in quiet.files where !example.files.contains(file) { out += block(file) }
        }
        return out
    }

    /// A file of an example: its path, then its text.
    static func block(_ file: LintRuleExample.File) -> String {
        let language = file.path.hasSuffix(".yaml") ? "yaml" : ""
        return "`\(file.path)`:\n\n```\(language)\n\(file.text.hasSuffix("\n") ? String(file.text.dropLast()) : file.text)\n```\n\n"
    }

    /// Replaces the generated blocks of a document with their current text.
    public static func update(_ document: String) -> String {
        replacingGeneratedBlocks(in: document, with: blocks)
    }

    /// `document` with the text between `<!-- BEGIN GENERATED: name -->` and
    /// `<!-- END GENERATED: name -->` replaced by each block's text (on lines of its own), block
    /// by block in the order given; a block whose markers are missing or out of order is skipped.
    /// Shared by the reference docs of the other modules.
    package static func replacingGeneratedBlocks(in document: String, with blocks: some Sequence<(key: String, value: String)>) -> String {
        var result = document
        for (name, block) in blocks {
            let begin = "<!-- BEGIN GENERATED: \(name) -->"
            let end = "<!-- END GENERATED: \(name) -->"
            guard let start = result.firstRange(of: begin), let stop = result.firstRange(of: end),
                start.upperBound <= stop.lowerBound
            else { continue }
            result.replaceSubrange(start.upperBound..<stop.lowerBound, with: "\n" + block + "\n")
        }
        return result
    }
}

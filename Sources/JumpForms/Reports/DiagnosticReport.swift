/// Machine-readable renderings of diagnostics: JSON and SARIF 2.1.0.
public enum DiagnosticReport {
    public static func json(_ diagnostics: [Diagnostic]) -> JSONValue {
        let errors = diagnostics.filter { $0.severity == .error }.count
        let warnings = diagnostics.filter { $0.severity == .warning }.count
        return [
            "diagnostics": .array(diagnostics.map(json)),
            "summary": ["errors": .integer(errors), "warnings": .integer(warnings)]
        ]
    }

    public static func json(_ diagnostic: Diagnostic) -> JSONValue {
        var entries: [(key: String, value: JSONValue)] = []
        if let location = diagnostic.location {
            entries += [("file", .string(location.file)), ("line", .integer(location.line)), ("column", .integer(location.column))]
        } else if let file = diagnostic.file {
            entries.append(("file", .string(file)))
        }
        entries += [
            ("severity", .string(diagnostic.severity.rawValue)),
            ("code", .string(diagnostic.code.rawValue))
        ]
        if let rule = diagnostic.code.ruleID { entries.append(("rule", .string(rule))) }
        entries.append(("message", .string(diagnostic.message)))
        if let hint = diagnostic.hint { entries.append(("hint", .string(hint))) }
        if !diagnostic.related.isEmpty {
            entries.append(
                (
                    "related",
                    .array(
                        diagnostic.related.map {
                            [
                                "file": .string($0.location.file), "line": .integer($0.location.line),
                                "column": .integer($0.location.column), "message": .string($0.message)
                            ]
                        })
                ))
        }
        return .object(entries)
    }

    /// SARIF 2.1.0, one run, the codes as rules.
    public static func sarif(_ diagnostics: [Diagnostic], toolVersion: String) -> JSONValue {
        let codes = Array(Set(diagnostics.map(\.code))).sorted { $0.rawValue < $1.rawValue }
        let rules: [JSONValue] = codes.map { code in
            [
                "id": .string(code.displayName),
                "name": .string(code.ruleID ?? String(describing: code)),
                "shortDescription": ["text": .string(code.title)],
                "fullDescription": ["text": .string(code.explanation)],
                "helpUri": .string(
                    code.ruleID.map { "https://github.com/jump-forms/jump-forms/blob/main/docs/locales.md#\($0)" }
                        ?? "https://github.com/jump-forms/jump-forms/blob/main/docs/diagnostics.md#\(code.rawValue.lowercased())"),
                "defaultConfiguration": ["level": .string(level(code.defaultSeverity))]
            ]
        }
        let results: [JSONValue] = diagnostics.map { diagnostic in
            var entries: [(key: String, value: JSONValue)] = [
                ("ruleId", .string(diagnostic.code.displayName)),
                ("level", .string(level(diagnostic.severity))),
                ("message", ["text": .string(diagnostic.message + (diagnostic.hint.map { " (\($0))" } ?? ""))])
            ]
            if let location = diagnostic.location {
                entries.append(("locations", [physical(location)]))
            } else if let file = diagnostic.file {
                entries.append(("locations", [["physicalLocation": ["artifactLocation": ["uri": .string(uriReference(file))]]]]))
            }
            if !diagnostic.related.isEmpty {
                entries.append(
                    (
                        "relatedLocations",
                        .array(
                            diagnostic.related.enumerated().map { index, related in
                                [
                                    "id": .integer(index), "physicalLocation": physical(related.location)["physicalLocation"] ?? .null,
                                    "message": ["text": .string(related.message)]
                                ]
                            })
                    ))
            }
            return .object(entries)
        }
        return [
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [
                [
                    "tool": [
                        "driver": [
                            "name": "jump-forms",
                            "version": .string(toolVersion),
                            "informationUri": "https://github.com/jump-forms/jump-forms",
                            "rules": .array(rules)
                        ]
                    ],
                    // Columns count Unicode scalars, as every diagnostic does.
                    "columnKind": "unicodeCodePoints",
                    "results": .array(results)
                ]
            ]
        ]
    }

    private static func physical(_ location: SourceLocation) -> JSONValue {
        [
            "physicalLocation": [
                "artifactLocation": ["uri": .string(uriReference(location.file))],
                "region": [
                    "startLine": .integer(location.line), "startColumn": .integer(location.column),
                    "endColumn": .integer(location.column + location.length)
                ]
            ]
        ]
    }

    /// A file path as a relative (or absolute-path) URI reference: every byte but the
    /// unreserved characters and `/` percent-encoded (RFC 3986), so `a b#1.yaml` is `a%20b%231.yaml`.
    static func uriReference(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }

    private static func level(_ severity: Diagnostic.Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "note"
        }
    }
}

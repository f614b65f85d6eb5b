import JumpForms

/// JUnit XML for CI systems that show test results (GitLab, Jenkins, Azure, CircleCI): one
/// test suite per locale file, one test case per rule in it (so passing rules are listed too),
/// failing with every finding of that rule in that file. Warnings fail only with `strict`;
/// otherwise they are in the test case's `<system-out>`.
public enum JUnitReport {
    public static func xml(_ findings: [LocaleFinding], files: [String], strict: Bool, renderer: DiagnosticRenderer? = nil) -> String {
        var suites: [String] = []
        var byFile: [String: [LocaleFinding]] = [:]
        for finding in findings { byFile[finding.file, default: []].append(finding) }
        var order = files
        for file in byFile.keys.sorted() where !order.contains(file) { order.append(file) }
        var totalTests = 0
        var totalFailures = 0
        for file in order {
            let fileFindings = byFile[file] ?? []
            // Files get every rule but the one about files that do not exist.
            let rules =
                file.isEmpty
                ? [LocaleRule.missingLocaleFile]
                : LocaleRule.allCases.filter { $0 != .missingLocaleFile || fileFindings.contains { $0.rule == .missingLocaleFile } }
            var cases = ""
            var failures = 0
            for rule in rules {
                let ruleFindings = fileFindings.filter { $0.rule == rule }
                let failing = ruleFindings.filter { $0.diagnostic.severity == .error || strict }
                let name = file.isEmpty ? "command line" : file
                cases += "    <testcase classname=\"\(escape(name))\" name=\"\(rule.rawValue)\""
                if ruleFindings.isEmpty {
                    cases += "/>\n"
                    continue
                }
                cases += ">\n"
                let body = ruleFindings.map { finding in
                    renderer?.render(finding.diagnostic) ?? finding.diagnostic.description + "\n"
                }.joined()
                if !failing.isEmpty {
                    failures += 1
                    let count = failing.count == 1 ? "1 finding" : "\(failing.count) findings"
                    cases += "      <failure type=\"\(rule.rawValue)\" message=\"\(escape(count + ": " + rule.title))\">\(escape(body))</failure>\n"
                } else {
                    cases += "      <system-out>\(escape(body))</system-out>\n"
                }
                cases += "    </testcase>\n"
            }
            totalTests += rules.count
            totalFailures += failures
            let name = file.isEmpty ? "command line" : file
            suites.append(
                "  <testsuite name=\"\(escape(name))\" tests=\"\(rules.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"0\">\n\(cases)  </testsuite>\n"
            )
        }
        return document(suites, tests: totalTests, failures: totalFailures, errors: 0)
    }

    /// For files that cannot be read or parsed (the check did not run): one test suite per
    /// file, whose one test case `read` is in error with the file's diagnostics.
    public static func xml(loadErrors: [Diagnostic], renderer: DiagnosticRenderer? = nil) -> String {
        var order: [String] = []
        var byFile: [String: [Diagnostic]] = [:]
        for diagnostic in loadErrors {
            let file = diagnostic.location?.file ?? ""
            if byFile[file] == nil { order.append(file) }
            byFile[file, default: []].append(diagnostic)
        }
        let suites = order.map { file in
            let diagnostics = byFile[file] ?? []
            let name = escape(file.isEmpty ? "command line" : file)
            let body = diagnostics.map { renderer?.render($0) ?? $0.description + "\n" }.joined()
            let first = diagnostics[0]
            return "  <testsuite name=\"\(name)\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\">\n"
                + "    <testcase classname=\"\(name)\" name=\"read\">\n"
                + "      <error type=\"\(first.code.rawValue)\" message=\"\(escape(first.message))\">\(escape(body))</error>\n"
                + "    </testcase>\n  </testsuite>\n"
        }
        return document(suites, tests: order.count, failures: 0, errors: order.count)
    }

    static func document(_ suites: [String], tests: Int, failures: Int, errors: Int) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<testsuites name=\"jump-forms locales check\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\">\n"
            + suites.joined() + "</testsuites>\n"
    }

    /// XML text and attribute escaping; control characters other than tab, line feed and
    /// carriage return (which XML 1.0 cannot hold) become U+FFFD.
    static func escape(_ text: String) -> String {
        XMLEscape.attribute(text, replacingInvalid: true)
    }
}

/// Checks of locale catalogs that need no flow: every message must be valid ICU MessageFormat.
public enum CatalogLinter {
    public static func lint(_ catalogs: [LocaleCatalog]) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        for catalog in catalogs {
            for message in catalog.allMessages {
                if case .failure(let error) = message.pattern {
                    findings.append(Diagnostic(.messageSyntax, "message '\(message.key)': \(error.message)",
                                               at: message.location(ofOffset: error.offset)))
                }
            }
        }
        return findings
    }
}

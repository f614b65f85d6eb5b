/// Checks of locale catalogs that need no flow: every message must be valid ICU MessageFormat.
public enum CatalogLinter {
    public static func lint(_ catalogs: [LocaleCatalog]) -> [Diagnostic] {
        // One catalog per task, on all cores; merged in catalog order.
        ConcurrentMap.map(catalogs) { catalog in
            var findings: [Diagnostic] = []
            catalog.forEachMessage { message in
                if case .failure(let error) = message.pattern {
                    findings.append(
                        Diagnostic(
                            .messageSyntax, "message '\(message.key)': \(error.message)",
                            at: message.location(ofOffset: error.offset), hint: error.hint))
                }
            }
            return findings
        }.flatMap { $0 }
    }
}

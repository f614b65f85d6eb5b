/// Checks of locale catalogs that need no flow: every message must be valid ICU MessageFormat.
public enum CatalogLinter {
    public static func lint(_ catalogs: [LocaleCatalog]) -> [Diagnostic] {
        lintKeepingArguments(catalogs).findings
    }

    /// The findings, and the arguments each message uses (for `FlowLinter.argumentTables`):
    /// lint parses each message once.
    package static func lintKeepingArguments(_ catalogs: [LocaleCatalog]) -> (findings: [Diagnostic], arguments: [MessageArgumentTable]) {
        // One catalog per task, on all cores; merged in catalog order.
        let results = ConcurrentMap.map(catalogs) { catalog in
            var findings: [Diagnostic] = []
            var table = MessageArgumentTable(catalog: catalog)
            for position in 0..<catalog.count {
                let message = catalog.message(at: position)
                // Parsed from the file's bytes in place, for its syntax and argument uses only:
                // no string, no tree (plain text, most messages, is found as such at once).
                switch message.argumentUses {
                case .success(let uses): table.uses += uses
                case .failure(let error):
                    findings.append(
                        Diagnostic(
                            .messageSyntax, "message '\(message.key)': \(error.message)",
                            at: message.location(ofOffset: error.offset), hint: error.hint))
                }
                table.ends.append(Int32(table.uses.count))
            }
            return (findings, table)
        }
        return (results.flatMap(\.0), results.map(\.1))
    }
}

/// The arguments the messages of one catalog use, by position, from one parse of each: one
/// array of uses and where each message's end, not an array per message. A message with a
/// syntax error uses none here.
package struct MessageArgumentTable: Sendable {
    /// The catalog's path and message count, to tell the table belongs to a catalog.
    let path: String
    let count: Int
    var uses: [MessageArgumentUse] = []
    /// Per message, the end of its uses in `uses` (its start is the previous message's end).
    var ends: [Int32] = []

    init(catalog: LocaleCatalog) {
        path = catalog.path
        count = catalog.count
        ends.reserveCapacity(catalog.count)
    }

    /// Whether the table was made from `catalog`.
    func belongs(to catalog: LocaleCatalog) -> Bool { path == catalog.path && count == catalog.count && ends.count == count }

    /// The uses of the message at `position`.
    func uses(at position: Int) -> ArraySlice<MessageArgumentUse> {
        uses[(position == 0 ? 0 : Int(ends[position - 1]))..<Int(ends[position])]
    }
}

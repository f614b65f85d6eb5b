import ArgumentParser
import JumpCapture
import JumpCaptureServer
import JumpFiles
import JumpForms

/// `jump-forms feed`: what the local Engage double received to share (activities and statuses),
/// as `outbox` lists the emails.
struct FeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feed",
        abstract: "List the activities and statuses the local server's Engage double received (jump-forms share, the SDKs' sharing).",
        discussion: """
            Each entry: the provider, the identity it was posted as, what was posted (the activity's \
            JSON as received, or the status), the text the provider shows, and the time (UTC).
            """
    )

    @OptionGroup var project: ProjectOptions

    @OptionGroup var store: DatabaseOptions
    var database: String? { store.path }
    var databaseURL: String? { store.url }

    @Option(help: "Output format: text or json.")
    var format: DataFormat = .text

    func run() async throws {
        let console = Console()
        let found = try LocalServer.existingDatabasePath(project, override: database, database: databaseURL, command: "feed", console: console)
        let path = LocalServer.shown(found)
        let entries = try await Feed.entries(databasePath: found.path, database: found.location)
        switch format {
        case .text:
            if entries.isEmpty { console.out(escaping: "the feed of \(path) is empty\n") }
            // What was posted is what people typed: shown escaped, each line indented.
            for entry in entries {
                let posted = entry.posted.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n  ")
                var out = "#\(entry.id) \(entry.kind) on \(entry.provider) as \(entry.identifier) at "
                out += "\(RefreshSignature.dateString(epochSeconds: entry.createdAt)) UTC\n"
                out += "  Text: \(entry.text)\n"
                if let shortURL = entry.shortURL { out += "  Short URL: \(shortURL)\n" }
                out += "  Posted: \(posted)\n"
                console.out(escaping: out)
            }
        case .json:
            console.out(
                JSONValue.array(
                    entries.map { entry in
                        var object: [(key: String, value: JSONValue)] = [
                            ("id", .integer(Int(entry.id))), ("kind", .string(entry.kind)), ("provider", .string(entry.provider)),
                            ("identifier", .string(entry.identifier))
                        ]
                        // The activity as posted: its JSON when it is JSON, else the text received.
                        if entry.kind == "activity", let activity = try? JSONValue.parse(entry.posted) {
                            object.append(("activity", activity))
                        } else {
                            object.append((entry.kind == "status" ? "status" : "posted", .string(entry.posted)))
                        }
                        object.append(("text", .string(entry.text)))
                        object.append(("shortURL", entry.shortURL.map(JSONValue.string) ?? .null))
                        object.append(("device", entry.device.map(JSONValue.string) ?? .null))
                        object.append(("appName", entry.appName.map(JSONValue.string) ?? .null))
                        object.append(("createdAt", .integer(entry.createdAt)))
                        return .object(object)
                    }
                ).serialized(pretty: true) + "\n")
        }
    }
}

import ArgumentParser

/// `jump-forms users ...`: user records in bulk, between Capture (or `jump-forms serve`), files
/// and the server's database.
struct UsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "Move user records: export them through Capture's Entity API, import them into the server's database.",
        subcommands: [UsersExportCommand.self, UsersImportCommand.self]
    )
}

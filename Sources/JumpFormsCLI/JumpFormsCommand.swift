import ArgumentParser

/// `jump-forms`: the root command.
public struct JumpFormsCommand: AsyncParsableCommand {
    public static let version = "0.1.0"

    public static let configuration = CommandConfiguration(
        commandName: "jump-forms",
        abstract: "Identity forms from YAML flow files: lint, show, validate.",
        discussion: """
        Flows, locale files and jump.yaml are described in docs/flow-format.md; diagnostics in \
        docs/diagnostics.md. Colour is used on a terminal unless NO_COLOR is set.
        """,
        version: version,
        subcommands: [LintCommand.self, ShowCommand.self, ValidateCommand.self]
    )

    public init() {}
}

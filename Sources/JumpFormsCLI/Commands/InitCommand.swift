import ArgumentParser
import JumpForms

/// `jump-forms init [DIR] [--locale TAG]...`: a new project to start from, the repository's
/// example (jump.yaml, flows/standard.yaml, locales, identities.yaml, a .gitignore). It lints
/// clean and `register` works in it at once; nothing existing is overwritten.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Start a project: jump.yaml, a flow, its locale files and the local server's identities.",
        discussion: """
            Writes jump.yaml, flows/standard.yaml, locales/en-US.yaml (and one file per --locale), \
            identities.yaml and .gitignore into DIR (created if missing). Refuses, writing nothing, \
            when one of them exists. The first --locale becomes jump.yaml's captureLocale. A \
            --locale the example has no translation for starts from the nearest one it has \
            (fr-CA from fr-FR, as locales are negotiated), else from en-US's messages, to \
            translate. The project gets a client id of its own, so its local server database \
            and session are not those of another project.
            """
    )

    @Argument(help: "The project folder (default: the current one).")
    var directory: String = "."

    @Option(name: .customLong("locale"), help: "Add a locale file for this tag (repeatable), e.g. fr-FR.")
    var locales: [String] = []

    func validate() throws {
        for tag in locales where LocaleTag(tag) == nil {
            throw ValidationError("'\(tag)' is not a locale tag (BCP 47, e.g. fr-FR)")
        }
    }

    func run() throws {
        let console = Console()
        var generator = SystemRandomNumberGenerator()
        let files = ProjectTemplate.files(locales: locales.compactMap(LocaleTag.init), clientID: ProjectTemplate.newClientID(using: &generator))
        let written: [String]
        do {
            written = try ProjectTemplate.write(files, into: directory)
        } catch {
            console.err(escaping: "Error: \(error)\n")
            throw ExitCode(2)
        }
        for path in written { console.out(escaping: "created \(path)\n") }
        let enter = directory == "." ? "" : "  cd \(directory)\n"
        console.err(
            escaping: """
                Next:
                \(enter)  jump-forms lint       # check jump.yaml, the flow and its locale files
                  jump-forms show       # the flow's forms and their fields
                  jump-forms register   # register against the local server (captureDomain: embedded)

                """)
    }
}

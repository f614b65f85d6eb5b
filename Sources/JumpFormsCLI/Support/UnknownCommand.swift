import ArgumentParser
import JumpForms

/// A command line that names a command group and then a word that is none of its commands
/// (`jump-forms regster`, `jump-forms locales chek`, `jump-forms help regster`): the message says
/// which word and suggests the closest command. ArgumentParser would call the word an
/// unexpected argument, or, after `help`, show the root's help and succeed.
struct UnknownCommand: Equatable {
    /// The commands before the word, e.g. `["locales"]`.
    var path: [String]
    var word: String
    /// The closest command of the group, if one is close.
    var suggestion: String?

    /// The unknown command of `arguments`, or nil when every word up to the first option or
    /// operand names a command.
    static func find(in arguments: [String]) -> UnknownCommand? {
        var words = arguments[...]
        let asksForHelp = words.first == "help"
        if asksForHelp { words = words.dropFirst() }
        var command: any ParsableCommand.Type = JumpFormsCommand.self
        var path: [String] = []
        for word in words {
            if word.hasPrefix("-") { return nil }
            let subcommands = command.configuration.subcommands
            if subcommands.isEmpty { return nil }
            if let next = subcommands.first(where: { $0._commandName == word || $0.configuration.aliases.contains(word) }) {
                command = next
                path.append(word)
                continue
            }
            let names = subcommands.map { $0._commandName }
            let suggestion = Suggestion.closest(to: word, among: names)
            // A group with a default command takes operands for it: only a near miss is a typo.
            if command.configuration.defaultSubcommand != nil, suggestion == nil, !asksForHelp { return nil }
            return UnknownCommand(path: path, word: word, suggestion: suggestion)
        }
        return nil
    }

    /// `Error: ...` and the hint, as the CLI prints them (exit status 2).
    var message: String {
        let group = (["jump-forms"] + path).joined(separator: " ")
        var text = "Error: '\(word)' is not a command of '\(group)'"
        if let suggestion { text += "; did you mean '\(suggestion)'?" }
        return text + "\n  See '\(group) --help' for its commands.\n"
    }
}

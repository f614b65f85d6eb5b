import JumpForms

/// Drives a `FormSession` in a terminal: one prompt per field in the form's order, the
/// localized messages of a refused answer, the review step.
struct PromptRunner {
    let terminal: Terminal
    let localizer: Localizer
    let locale: LocaleTag
    let color: Bool

    /// Why prompting stopped without values.
    struct EndOfInput: Error {}

    func word(_ key: String, _ arguments: [String: MessageArgument] = [:]) -> String {
        localizer.text(key, for: locale, arguments)
    }

    func paint(_ text: String, _ code: String) -> String {
        color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    /// Prompts until the session completes; returns the values to send.
    func run(_ session: inout FormSession) throws -> FormValues {
        while true {
            switch session.next() {
            case .prompt(let prompt):
                let answer = try ask(prompt)
                session.answer(answer)
            case .review(let review):
                show(review)
                guard let line = terminal.readLine() else { throw EndOfInput() }
                let choice = line.trimmingSpaces()
                if choice.isEmpty {
                    session.confirm()
                } else if let number = Int(choice), (1...review.lines.count).contains(number) {
                    session.edit(review.lines[number - 1].field)
                }
            case .complete(let values):
                return values
            }
        }
    }

    /// Shows a prompt and reads the raw answer.
    func ask(_ prompt: Prompt) throws -> String {
        var out = ""
        for message in prompt.messages {
            out += paint("  ✗ \(message)", "1;31") + "\n"
        }
        if let tip = prompt.tip, prompt.messages.isEmpty { out += paint("  \(tip)", "2") + "\n" }
        var head = paint(prompt.label, "1")
        if !prompt.isRequired { head += " " + word(PromptWords.optional) }
        switch prompt.kind {
        case .choice(let options):
            out += "\(head) — \(word(PromptWords.chooseOne))\n"
            for (index, option) in options.enumerated() {
                let marker = option.value == prompt.current ? "*" : " "
                out += "  \(marker)\(index + 1)) \(option.label)\n"
            }
            out += currentHint(prompt, shown: options.first { $0.value == prompt.current }?.label) + "> "
        case .yesNo:
            out += "\(head) [\(word(PromptWords.yesNoHint))]" + currentHint(prompt, shown: prompt.current.map { word($0 == "true" ? PromptWords.yes : PromptWords.no) }) + ": "
        case .date(let hint):
            out += "\(head) (\(hint))" + currentHint(prompt, shown: prompt.current) + ": "
        case .password:
            out += "\(head) (\(word(PromptWords.hiddenInput))): "
        case .multiline:
            out += "\(head) (\(word(PromptWords.multilineHint)))\n"
        case .text, .email:
            if let placeholder = prompt.placeholder, prompt.current == nil { head += paint(" (\(placeholder))", "2") }
            out += head + currentHint(prompt, shown: prompt.current) + ": "
        }
        terminal.show(out)
        switch prompt.kind {
        case .password:
            guard let line = terminal.readSecret() else { throw EndOfInput() }
            return line
        case .multiline:
            var lines: [String] = []
            while let line = terminal.readLine(), !line.isEmpty { lines.append(line) }
            if lines.isEmpty, let current = prompt.current { return current }
            return lines.joined(separator: "\n")
        default:
            guard let line = terminal.readLine() else { throw EndOfInput() }
            if line.trimmingSpaces().isEmpty, let current = prompt.current { return current }
            return line
        }
    }

    func currentHint(_ prompt: Prompt, shown: String?) -> String {
        guard let shown, !shown.isEmpty else { return "" }
        return paint(" [\(shown)]", "2")
    }

    func show(_ review: Review) {
        var out = "\n" + paint(review.title, "1") + "\n"
        for message in review.messages { out += paint("  ✗ \(message)", "1;31") + "\n" }
        for (index, line) in review.lines.enumerated() {
            out += "  \(index + 1). \(line.label): \(line.shown.split(separator: "\n").joined(separator: " ⏎ "))\n"
        }
        out += word(PromptWords.reviewAction) + " "
        terminal.show(out)
    }
}

extension String {
    func trimmingSpaces() -> String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}

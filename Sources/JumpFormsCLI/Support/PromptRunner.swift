import JumpForms

/// Drives a `FormSession` in a terminal: one prompt per field in the form's order, the
/// localized messages of a refused answer, the review step. Every word and separator comes
/// from the catalog (`jumpForms.prompt.*`), so `Adresse e-mail (vous@example.com) :` and
/// `メールアドレス（you@example.com）：` are each punctuated as their language wants.
///
/// A prompt with a current value shows it in brackets: Enter keeps it, and the catalog's
/// clear word (`-`) empties it.
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
        var explainedCurrent = false
        while true {
            switch session.next() {
            case .prompt(let prompt):
                if prompt.current != nil, !explainedCurrent {
                    terminal.show(paint(word(PromptWords.keepCurrent, ["clearWord": .string(clearWord)]), "2") + "\n")
                    explainedCurrent = true
                }
                session.answer(try ask(prompt))
            case .review(let review):
                show(review)
                while true {
                    guard let line = terminal.readLine() else { throw EndOfInput() }
                    let choice = line.trimmingSpaces()
                    if choice.isEmpty {
                        session.confirm()
                    } else if let number = Int(choice), (1...review.lines.count).contains(number) {
                        session.edit(review.lines[number - 1].field)
                    } else {
                        terminal.show(failure(word(PromptWords.invalidReviewChoice, ["count": .int(review.lines.count)])))
                        terminal.show(Self.spaced(word(PromptWords.reviewAction)))
                        continue
                    }
                    break
                }
            case .complete(let values):
                return values
            }
        }
    }

    var clearWord: String { word(PromptWords.clearWord) }

    /// `  ✗ message` and a line break (a server's messages come escaped).
    func failure(_ message: String) -> String {
        paint("  ✗ \(message)", "1;31") + "\n"
    }

    /// `text (hint)`, punctuated by the locale.
    func withHint(_ text: String, _ hint: String) -> String {
        word(PromptWords.withHint, ["text": .string(text), "hint": .string(hint)])
    }

    /// `text [inside]`, punctuated by the locale.
    func withBrackets(_ text: String, _ inside: String?) -> String {
        guard let inside, !inside.isEmpty else { return text }
        return word(PromptWords.withBrackets, ["text": .string(text), "inside": .string(inside)])
    }

    /// `text: ` where the answer is typed.
    func question(_ text: String) -> String {
        Self.spaced(word(PromptWords.question, ["text": .string(text)]))
    }

    /// A space before the cursor, except after full-width punctuation (`：`), which has its own.
    static func spaced(_ text: String) -> String {
        guard let last = text.unicodeScalars.last, last.value < 0x3000 else { return text }
        return text + " "
    }

    /// Shows a prompt and reads the raw answer: the current value for an empty line, an empty
    /// answer for the clear word.
    func ask(_ prompt: Prompt) throws -> String {
        var out = ""
        for message in prompt.messages { out += failure(message) }
        if let tip = prompt.tip, prompt.messages.isEmpty { out += paint("  \(tip)", "2") + "\n" }
        var head = paint(prompt.label, "1")
        if !prompt.isRequired { head = withHint(head, word(PromptWords.optional)) }
        // The current value may be a stored record's: shown escaped.
        var current = prompt.current.map { TerminalText.escaped($0) }
        switch prompt.kind {
        case .choice(let options):
            current = options.first { $0.value == prompt.current }?.label ?? current
            out +=
                withBrackets(word(PromptWords.heading, ["text": .string(head), "instruction": .string(word(PromptWords.chooseOne))]), current) + "\n"
            for (index, option) in options.enumerated() {
                let marker = option.value == prompt.current ? "*" : " "
                out += "  \(marker)" + word(PromptWords.option, ["number": .string(String(index + 1)), "label": .string(option.label)]) + "\n"
            }
            out += "> "
        case .yesNo:
            // One pair of brackets: the answers, or the current one (which Enter keeps).
            current = prompt.current.map { word($0 == "true" ? PromptWords.yes : PromptWords.no) }
            out += question(withBrackets(head, current ?? word(PromptWords.yesNoHint)))
        case .date(let hint):
            out += question(withBrackets(withHint(head, hint), current))
        case .password:
            guard let line = terminal.readSecret(prompt: out + question(withHint(head, word(PromptWords.hiddenInput)))) else { throw EndOfInput() }
            return line
        case .multiline:
            current = prompt.current?.split(separator: "\n", omittingEmptySubsequences: false).map { TerminalText.escaped(String($0)) }.joined(
                separator: " ⏎ ")
            out += withBrackets(withHint(head, word(PromptWords.multilineHint)), current) + "\n"
        case .text, .email:
            if let placeholder = prompt.placeholder, prompt.current == nil { head = withHint(head, paint(placeholder, "2")) }
            out += question(withBrackets(head, current))
        }
        terminal.show(out)
        if case .multiline = prompt.kind {
            var lines: [String] = []
            while let line = terminal.readLine(), !line.isEmpty { lines.append(line) }
            return answer(lines.joined(separator: "\n"), current: prompt.current)
        }
        guard let line = terminal.readLine() else { throw EndOfInput() }
        return answer(line, current: prompt.current)
    }

    /// Enter keeps the current value; the clear word empties it.
    func answer(_ typed: String, current: String?) -> String {
        guard let current else { return typed }
        let trimmed = typed.trimmingSpaces()
        if trimmed.isEmpty { return current }
        if trimmed == clearWord { return "" }
        return typed
    }

    func show(_ review: Review) {
        var out = "\n" + paint(review.title, "1") + "\n"
        for message in review.messages { out += failure(message) }
        for (index, line) in review.lines.enumerated() {
            let value = line.shown.split(separator: "\n", omittingEmptySubsequences: false).map { TerminalText.escaped(String($0)) }.joined(
                separator: " ⏎ ")
            out +=
                "  " + word(PromptWords.reviewLine, ["number": .string(String(index + 1)), "label": .string(line.label), "value": .string(value)])
                + "\n"
        }
        terminal.show(out + Self.spaced(word(PromptWords.reviewAction)))
    }
}

extension String {
    func trimmingSpaces() -> String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}

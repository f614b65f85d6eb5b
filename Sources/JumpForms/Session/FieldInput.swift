/// Reads what a person types into a field as the value the rules check and the requests send:
/// a choice by its number, value or label; a checkbox's yes or no in English or the locale's
/// words; a date as `yyyy-MM-dd` or in the locale's numeric format. The terminal prompts,
/// `FormSession`, `FormEditor`, `--set` and answers files all read input this way.
///
/// ```swift
/// let input = FieldInput(localizer: localizer, locale: LocaleTag("fr-FR")!)
/// input.checkbox("oui")                       // true
/// input.date("15/01/1990")                    // 1990-01-15
/// FieldInput.choice("2", among: options)      // the second enabled option
/// ```
public struct FieldInput: Sendable {
    public let localizer: Localizer
    /// Whose words and date format are read.
    public let locale: LocaleTag

    /// - Parameters:
    ///   - localizer: gives the yes/no words (`jumpForms.prompt.yes`, `.no`) and the messages
    ///     of refused input.
    ///   - locale: the form's locale (`FormModel.locale`).
    public init(localizer: Localizer, locale: LocaleTag) {
        self.localizer = localizer
        self.locale = locale
    }

    /// Why typed text is no value for its field: one localized message.
    public struct Failure: Error, Sendable, Hashable {
        /// The localized message (`Birthdate: enter a date as YYYY-MM-DD.`).
        public var message: String

        public init(_ message: String) {
            self.message = message
        }
    }

    /// The value of `text` typed into `field`, as the rules check it and requests send it:
    ///
    /// - choices (`select`, `radio`): the option's value (see `choice(_:among:)`);
    /// - checkboxes: `true` or `false`, an empty answer `false` (see `checkbox(_:)`);
    /// - dates (`dateselect`): `yyyy-MM-dd` (see `date(_:)`); a date that does not exist
    ///   (`31.02.1990`) says so rather than asking for the format;
    /// - text and email: the text without leading and trailing white space;
    /// - passwords and multi-line text: the text as typed.
    ///
    /// An empty answer is an empty value (the rules then say whether the field is required).
    /// A failure carries the localized reason, naming the field by its label.
    public func value(_ text: String, for field: FormModel.Field) -> Result<String, Failure> {
        let trimmed = Self.trimmed(text)
        switch field.type {
        case .select, .radio:
            if trimmed.isEmpty { return .success("") }
            let options = field.enabledOptions
            if let option = Self.choice(trimmed, among: options) { return .success(option.value) }
            return .failure(Failure(word(PromptWords.invalidChoice, ["count": .int(options.count)])))
        case .checkbox:
            if trimmed.isEmpty { return .success("false") }
            if let checked = checkbox(trimmed) { return .success(checked ? "true" : "false") }
            return .failure(Failure(word(RuleEngine.InputMessage.invalidCheckbox, ["label": .string(field.label)])))
        case .dateselect:
            if trimmed.isEmpty { return .success("") }
            switch CivilDate.reading(typed: trimmed, locale: locale) {
            case .date(let date):
                return .success(date.description)
            case .doesNotExist:
                return .failure(Failure(word(RuleEngine.InputMessage.nonexistentDate, ["label": .string(field.label)])))
            case .unreadable:
                return .failure(Failure(word(RuleEngine.InputMessage.invalidDate, ["label": .string(field.label)])))
            }
        case .textarea, .password:
            return .success(text)
        case .text, .email, .hidden:
            return .success(trimmed)
        }
    }

    /// The option `text` names, or nil: its number among `options` (from 1), its value
    /// (exactly), or its label (in any case). Pass a field's `enabledOptions`: the numbers a
    /// person sees count the enabled options only.
    public static func choice(_ text: String, among options: [FormModel.Option]) -> FormModel.Option? {
        let trimmed = trimmed(text)
        if let number = Int(trimmed), number >= 1, number <= options.count { return options[number - 1] }
        if let option = options.first(where: { $0.value == trimmed }) { return option }
        let lower = trimmed.lowercased()
        return options.first { $0.label.lowercased() == lower }
    }

    /// A checkbox answer as a person writes it, or nil: `yes`, `no`, `y`, `n`, `true`, `false`
    /// (any case), and the locale's yes/no words with their first letters (`oui`/`o`, `non`;
    /// `ja`/`j`, `nein`; `tak`/`t`, `nie`; `はい`, `いいえ`). A letter that starts both the
    /// locale's yes and no word means no (it is never read as yes).
    public func checkbox(_ text: String) -> Bool? {
        let lower = Self.trimmed(text).lowercased()
        let localYes = localizer.text(PromptWords.yes, for: locale).lowercased()
        let localNo = localizer.text(PromptWords.no, for: locale).lowercased()
        let yes: Set<String> = ["y", "yes", "true", localYes, localYes.first.map(String.init) ?? "y"]
        let no: Set<String> = ["n", "no", "false", localNo, localNo.first.map(String.init) ?? "n"]
        if yes.contains(lower), !no.contains(lower) { return true }
        if no.contains(lower) { return false }
        return nil
    }

    /// A date as a person of the locale types it, or nil: `yyyy-MM-dd`, or the locale's numeric
    /// date (`15/01/1990` in fr-FR, `1/15/1990` in en-US); see `CivilDate.init(typed:locale:)`.
    public func date(_ text: String) -> CivilDate? {
        CivilDate(typed: text, locale: locale)
    }

    /// The locale's numeric date pattern (`dd/MM/y`), for a hint beside a date field.
    public var datePattern: String {
        CivilDate.inputPattern(for: locale)
    }

    func word(_ key: String, _ arguments: [String: MessageArgument] = [:]) -> String {
        localizer.text(key, for: locale, arguments)
    }

    static func trimmed(_ text: String) -> String {
        String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}

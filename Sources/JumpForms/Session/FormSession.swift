/// One question of a form session, ready for any front end (a terminal, a SwiftUI view).
public struct Prompt: Sendable, Hashable {
    /// How the answer is given.
    public enum Kind: Sendable, Hashable {
        /// One line of text.
        case text
        /// An email address (a front end offers its email keyboard).
        case email
        /// Typed without echo; never shown back.
        case password
        /// Several lines; the front end ends it (an empty line in a terminal).
        case multiline
        /// One of the enabled options, by number, value or label.
        case choice([FormModel.Option])
        /// A checkbox: yes or no.
        case yesNo
        /// A calendar date; `hint` is the localized format (`YYYY-MM-DD`, `AAAA-MM-JJ`). The
        /// locale's numeric date (`15/01/1990` in fr-FR) is read too: see `FieldInput.date(_:)`.
        case date(hint: String)
    }

    /// The field's name in the flow (`emailAddress`).
    public var field: String
    public var kind: Kind
    /// The localized label.
    public var label: String
    /// The localized placeholder, if the field has one.
    public var placeholder: String?
    /// The localized tip, if the field has one.
    public var tip: String?
    public var isRequired: Bool
    /// The current value, offered as the default (never for passwords).
    public var current: String?
    /// Why the last answer was refused, localized; empty on the first ask.
    public var messages: [String]

    /// A prompt as a session makes it; apps make their own for SwiftUI previews and tests.
    public init(
        field: String, kind: Kind, label: String, placeholder: String? = nil, tip: String? = nil, isRequired: Bool = false,
        current: String? = nil, messages: [String] = []
    ) {
        self.field = field
        self.kind = kind
        self.label = label
        self.placeholder = placeholder
        self.tip = tip
        self.isRequired = isRequired
        self.current = current
        self.messages = messages
    }
}

/// The review step: every answer, passwords masked.
public struct Review: Sendable, Hashable {
    /// One answer of the review.
    public struct Line: Sendable, Hashable {
        /// The field's name in the flow.
        public var field: String
        /// The field's localized label.
        public var label: String
        /// The answer as shown (option labels, yes/no words, a mask for secrets).
        public var shown: String

        /// A line as a session makes it; apps make their own for SwiftUI previews and tests.
        public init(field: String, label: String, shown: String) {
            self.field = field
            self.label = label
            self.shown = shown
        }
    }

    /// The localized title (`Review your answers`).
    public var title: String
    /// Every field but hidden ones, in form order.
    public var lines: [Line]
    /// Form-level messages (from the server), if any.
    public var messages: [String]

    /// A review as a session makes it; apps make their own for SwiftUI previews and tests.
    public init(title: String, lines: [Line], messages: [String] = []) {
        self.title = title
        self.lines = lines
        self.messages = messages
    }
}

/// What the session needs next.
public enum FormStep: Sendable, Hashable {
    case prompt(Prompt)
    case review(Review)
    /// Every rule the client can check passes and the user confirmed: send these values.
    case complete(FormValues)
}

/// Drives a form from its model: prompts in the form's order, each answer checked at once by
/// the rule engine, cross-field rules (`match`, `alongWith`) before submitting, a review step,
/// and the server's `invalid_fields` re-asking just those fields. It holds no terminal code;
/// the CLI and an app drive the very same session.
public struct FormSession: Sendable {
    public let form: FormModel
    public let localizer: Localizer
    public let today: CivilDate
    /// Whether `next()` stops at a review step before completing.
    public var reviews: Bool

    public private(set) var values: FormValues
    /// Fields still to ask, in form order.
    private var pending: [String]
    /// Messages to show with a field's next prompt.
    private var messages: [String: [String]] = [:]
    private var formMessages: [String] = []
    private var confirmed = false
    private let engine: RuleEngine

    /// - Parameters:
    ///   - prefilled: values known already (answers files, `--set`, a server's `prereg_fields`);
    ///     their fields are asked only when the value is refused.
    ///   - defaults: current values (a stored profile) whose fields are still asked, each
    ///     offering its value as `Prompt.current`.
    ///   - reviews: whether to stop at a review step; by default only forms of more than two
    ///     fields do (a sign-in form needs no review).
    public init(
        form: FormModel, localizer: Localizer, today: CivilDate, prefilled: FormValues = FormValues(),
        defaults: FormValues = FormValues(), reviews: Bool? = nil
    ) {
        self.form = form
        self.localizer = localizer
        self.today = today
        let asked = form.fields.filter { $0.type != .hidden }
        self.reviews = reviews ?? (asked.count > 2)
        self.engine = RuleEngine(form: form, today: today)
        var values = defaults
        for (name, value) in prefilled.values { values[name] = value }
        for field in form.fields where field.type == .hidden && values[field.name] == nil {
            if let value = field.defaultValue { values[field.name] = value }
        }
        self.values = values
        self.pending = asked.filter { prefilled[$0.name] == nil }.map(\.name)
        // Given values are checked like answers: a refused one is asked again, with its reasons.
        for field in form.fields where values[field.name] != nil && (prefilled[field.name] != nil || defaults[field.name] != nil) {
            let refused = engine.validate(field: field.name, in: values, crossField: false)
            if !refused.isEmpty {
                messages[field.name] = localizer.messages(for: refused, in: form).flatMap(\.messages)
                pending.append(field.name)
            }
        }
        pending = form.fields.map(\.name).filter(pending.contains)
    }

    /// The fields a non-interactive run is missing: required fields without a value.
    public var missingRequiredFields: [FormModel.Field] {
        form.fields.filter {
            $0.isRequired && $0.type != .hidden && FormValues.isBlank(values[$0.name] ?? "") && !($0.type == .checkbox && values[$0.name] == "true")
        }
    }

    // MARK: steps

    /// What comes next: a prompt, the review, or the values to send.
    public mutating func next() -> FormStep {
        if let name = pending.first, let field = form.field(named: name) {
            return .prompt(prompt(for: field))
        }
        // Every field answered: cross-field rules before submitting.
        let report = engine.validate(values)
        if !report.isValid {
            for entry in localizer.messages(for: report.violations, in: form) {
                messages[entry.field] = entry.messages
                if !pending.contains(entry.field) { pending.append(entry.field) }
            }
            // `match` and `alongWith` involve two fields: either may be the one to change (a
            // mistyped password, a city without its street), so both are asked again.
            for violation in report.violations {
                guard let kind = violation.rule, kind == .match || kind == .alongWith,
                    let field = form.field(named: violation.field)
                else { continue }
                for rule in field.rules where rule.kind == kind {
                    guard case .text(let other) = rule.value, let named = form.field(named: other), named.type != .hidden else { continue }
                    if messages[other] == nil { messages[other] = messages[violation.field] }
                    if !pending.contains(other) { pending.append(other) }
                }
            }
            pending = form.fields.map(\.name).filter(pending.contains)
            if let name = pending.first, let field = form.field(named: name) { return .prompt(prompt(for: field)) }
        }
        if reviews && !confirmed {
            return .review(review())
        }
        return .complete(values)
    }

    /// Answers the current prompt; an empty answer empties the field (a front end that offers
    /// `Prompt.current` as a default maps "keep" to that value itself). Returns the localized
    /// reasons when the answer is refused (the next `next()` asks the same field again with them).
    @discardableResult
    public mutating func answer(_ text: String) -> [String] {
        guard let name = pending.first, let field = form.field(named: name) else { return [] }
        let parsed = parse(text, for: field)
        switch parsed {
        case .failure(let failure):
            messages[name] = [failure.message]
            return [failure.message]
        case .success(let value):
            var candidate = values
            if value.isEmpty, field.type != .checkbox {
                // A value the user empties stays, empty, so that it is sent and the server clears
                // it (a profile's mobile number); a value never given stays absent.
                if values[name] == nil { candidate.values.removeValue(forKey: name) } else { candidate[name] = "" }
            } else {
                candidate[name] = value
            }
            let refused = engine.validate(field: name, in: candidate, crossField: false)
            if !refused.isEmpty {
                let texts = localizer.messages(for: refused, in: form).flatMap(\.messages)
                messages[name] = texts
                return texts
            }
            values = candidate
            messages[name] = nil
            pending.removeFirst()
            confirmed = false
            return []
        }
    }

    /// Confirms the review: `next()` then completes.
    public mutating func confirm() {
        confirmed = true
    }

    /// From the review: ask `field` again.
    public mutating func edit(_ field: String) {
        guard form.field(named: field) != nil else { return }
        confirmed = false
        if !pending.contains(field) { pending.insert(field, at: 0) }
    }

    /// The server refused the values (`invalid_fields`): ask just those fields again, with the
    /// server's messages; form-level messages show on the review.
    public mutating func reject(_ serverMessages: [FieldMessages], formMessages: [String] = []) {
        confirmed = false
        self.formMessages = formMessages
        for entry in serverMessages where form.field(named: entry.field) != nil {
            messages[entry.field] = entry.messages
            if !pending.contains(entry.field) { pending.append(entry.field) }
        }
        pending = form.fields.map(\.name).filter(pending.contains)
    }

    // MARK: prompts

    func word(_ key: String, _ arguments: [String: MessageArgument] = [:]) -> String {
        localizer.text(key, for: form.locale, arguments)
    }

    func prompt(for field: FormModel.Field) -> Prompt {
        let kind: Prompt.Kind
        switch field.type {
        case .text, .hidden: kind = .text
        case .email: kind = .email
        case .password: kind = .password
        case .textarea: kind = .multiline
        case .select, .radio: kind = .choice(field.enabledOptions)
        case .checkbox: kind = .yesNo
        case .dateselect: kind = .date(hint: word(PromptWords.dateHint))
        }
        var current = values[field.name]
        if field.type == .password { current = nil }
        return Prompt(
            field: field.name, kind: kind, label: field.label, placeholder: field.placeholder, tip: field.tip,
            isRequired: field.isRequired, current: current, messages: messages[field.name] ?? [])
    }

    /// Turns typed text into the field's value (see `FieldInput.value(_:for:)`).
    func parse(_ text: String, for field: FormModel.Field) -> Result<String, ParseFailure> {
        FieldInput(localizer: localizer, locale: form.locale).value(text, for: field).mapError { ParseFailure($0.message) }
    }

    /// A checkbox answer as a person writes it (see `FieldInput.checkbox(_:)`): `yes`, `no`,
    /// `y`, `n`, `true`, `false` and the locale's words; nil for anything else. The prompts,
    /// `--set` and answers files all read checkboxes this way.
    public static func checkboxAnswer(_ text: String, localizer: Localizer, locale: LocaleTag) -> Bool? {
        FieldInput(localizer: localizer, locale: locale).checkbox(text)
    }

    /// Why an answer is no value for its field: one localized message.
    public struct ParseFailure: Error, Sendable {
        public var message: String
        init(_ message: String) { self.message = message }
    }

    /// The review step: every answer but hidden fields', passwords masked.
    public func review() -> Review {
        let lines = form.fields.filter { $0.type != .hidden }.map { field -> Review.Line in
            let value = values[field.name] ?? ""
            let shown: String
            switch field.type {
            case .password: shown = value.isEmpty ? "" : word(PromptWords.hiddenValue)
            case .checkbox: shown = word(value == "true" ? PromptWords.yes : PromptWords.no)
            // The label of an option the menu offered (a disabled one is not offered).
            case .select, .radio: shown = field.enabledOptions.first { $0.value == value }?.label ?? value
            default: shown = value
            }
            return Review.Line(field: field.name, label: field.label, shown: shown)
        }
        return Review(title: word(PromptWords.review), lines: lines, messages: formMessages)
    }
}

/// The keys of the prompt words in the built-in catalog (`jumpForms.prompt.*`).
public enum PromptWords {
    public static let optional = "jumpForms.prompt.optional"
    public static let chooseOne = "jumpForms.prompt.chooseOne"
    public static let invalidChoice = "jumpForms.prompt.invalidChoice"
    public static let yes = "jumpForms.prompt.yes"
    public static let no = "jumpForms.prompt.no"
    public static let yesNoHint = "jumpForms.prompt.yesNoHint"
    public static let dateHint = "jumpForms.prompt.dateHint"
    public static let multilineHint = "jumpForms.prompt.multilineHint"
    public static let hiddenInput = "jumpForms.prompt.hiddenInput"
    public static let hiddenValue = "jumpForms.prompt.hiddenValue"
    public static let review = "jumpForms.prompt.review"
    public static let reviewAction = "jumpForms.prompt.reviewAction"
    public static let keepCurrent = "jumpForms.prompt.keepCurrent"
    public static let clearWord = "jumpForms.prompt.clearWord"
    public static let invalidReviewChoice = "jumpForms.prompt.invalidReviewChoice"
    public static let withHint = "jumpForms.prompt.withHint"
    public static let withBrackets = "jumpForms.prompt.withBrackets"
    public static let question = "jumpForms.prompt.question"
    public static let heading = "jumpForms.prompt.heading"
    public static let option = "jumpForms.prompt.option"
    public static let reviewLine = "jumpForms.prompt.reviewLine"
}

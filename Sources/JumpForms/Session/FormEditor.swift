import Observation

/// A form for a screen: every field at once, each with its label, placeholder, tip, options,
/// the text typed so far, the value that text reads as, and its localized messages, checked by
/// the same rule engine as the terminal prompts; and the terminal's one-prompt-at-a-time mode,
/// from the `FormSession` it wraps. It is `@Observable` (the Observation framework), so a
/// SwiftUI view binds to it directly: `TextField(field.label, text: $editor[text: field.name])`.
///
/// All at once: set texts (`editor[text: "emailAddress"] = ...`), call `validate(_:)` when a
/// field is left, and `submit()`: it checks every field, cross-field rules included, and
/// returns the values to send (the `FormValues` the CLI sends for the same answers) or nil,
/// with each refused field's messages shown. From then on every edit re-checks the shown
/// messages, so a message goes away as its field is fixed. A server's `invalid_fields` go to
/// `reject(_:formMessages:)`.
///
/// One at a time: `step` is what the session asks next (a prompt, the review, or the values);
/// `answer(_:)`, `confirm()` and `edit(_:)` move it on, and accepted answers show in `fields`.
///
/// The editor is main-actor isolated, as view models are; it holds no UI framework code.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
@MainActor
@Observable
public final class FormEditor {
    /// One field as a screen shows it.
    public struct Field: Sendable, Hashable, Identifiable {
        /// The field's name in the flow (`emailAddress`).
        public let name: String
        /// How the answer is given: text, a choice among options, a checkbox, a date, ...
        public let kind: Prompt.Kind
        /// The localized label.
        public let label: String
        /// The localized placeholder, if any.
        public let placeholder: String?
        /// The localized tip, if any.
        public let tip: String?
        public let isRequired: Bool
        /// What is typed (for a choice, the option's value; for a checkbox, `true`/`false`).
        /// It starts as the field's given value (never a password's).
        public var text: String
        /// The value `text` reads as (`FieldInput.value(_:for:)`): an option's value,
        /// `true`/`false`, `yyyy-MM-dd`; nil while it reads as none (`31/02/1990`).
        public var value: String?
        /// Why the field is refused, localized; empty until the field is validated.
        public var messages: [String]

        public var id: String { name }

        /// A choice's enabled options, in order (empty for other kinds).
        public var options: [FormModel.Option] {
            if case .choice(let options) = kind { return options }
            return []
        }

        /// A field as the editor makes it; apps make their own for SwiftUI previews.
        public init(
            name: String, kind: Prompt.Kind, label: String, placeholder: String? = nil, tip: String? = nil, isRequired: Bool = false,
            text: String = "", value: String? = nil, messages: [String] = []
        ) {
            self.name = name
            self.kind = kind
            self.label = label
            self.placeholder = placeholder
            self.tip = tip
            self.isRequired = isRequired
            self.text = text
            self.value = value
            self.messages = messages
        }
    }

    public let form: FormModel
    public let localizer: Localizer
    /// The date `minYears` and `maxYears` count from.
    public let today: CivilDate
    /// How typed text is read in the form's locale.
    public let input: FieldInput

    /// Every field but hidden ones, in form order.
    public private(set) var fields: [Field]
    /// Messages for the whole form: a server's, and those of rules on hidden fields.
    public private(set) var formMessages: [String] = []
    /// The one-at-a-time mode: what the wrapped session asks next.
    public private(set) var step: FormStep
    /// The wrapped session (the one-at-a-time mode's state).
    public private(set) var session: FormSession

    private let engine: RuleEngine
    /// The session's values at the start: given values and hidden fields' defaults. A field
    /// never edited keeps its value from here, as a prompt that is never asked does.
    private let initialValues: FormValues
    @ObservationIgnored private var edited: Set<String> = []
    /// Fields whose messages are shown (validated, or all once submitted).
    @ObservationIgnored private var shown: Set<String> = []
    @ObservationIgnored private var submitted = false
    /// A server's messages, by field, until the field is edited.
    @ObservationIgnored private var serverMessages: [String: [String]] = [:]
    @ObservationIgnored private var serverFormMessages: [String] = []

    /// Wraps `session`: its form, its given values (shown as the fields' texts, a refused one
    /// with its messages) and its one-at-a-time state.
    public init(session: FormSession) {
        var session = session
        self.form = session.form
        self.localizer = session.localizer
        self.today = session.today
        self.input = FieldInput(localizer: session.localizer, locale: session.form.locale)
        self.engine = RuleEngine(form: session.form, today: session.today)
        self.initialValues = session.values
        var fields: [Field] = []
        for field in session.form.fields where field.type != .hidden {
            let prompt = session.prompt(for: field)
            let text = field.type == .password ? "" : (session.values[field.name] ?? "")
            fields.append(
                Field(
                    name: field.name, kind: prompt.kind, label: field.label, placeholder: field.placeholder, tip: field.tip,
                    isRequired: field.isRequired, text: text, value: session.values[field.name] ?? Self.emptyValue(field)))
        }
        self.fields = fields
        self.step = session.next()
        self.session = session
        // Given values are checked as the session checks them: a refused one shows why.
        shown = Set(session.form.fields.filter { initialValues[$0.name] != nil }.map(\.name))
        refresh()
    }

    /// A session for `form` (see `FormSession.init`), wrapped.
    public convenience init(
        form: FormModel, localizer: Localizer, today: CivilDate, prefilled: FormValues = FormValues(),
        defaults: FormValues = FormValues(), reviews: Bool? = nil
    ) {
        self.init(
            session: FormSession(form: form, localizer: localizer, today: today, prefilled: prefilled, defaults: defaults, reviews: reviews))
    }

    // MARK: all at once

    /// The field named `name`, if the form shows it.
    public func field(named name: String) -> Field? {
        fields.first { $0.name == name }
    }

    /// The text of a field, for a binding (`$editor[text: "emailAddress"]`). Setting it reads
    /// its value at once; its messages follow once the field has been validated.
    public subscript(text name: String) -> String {
        get { field(named: name)?.text ?? "" }
        set { setText(newValue, for: name) }
    }

    /// A checkbox as a `Bool`, for a toggle (`$editor[isOn: "optIn"]`).
    public subscript(isOn name: String) -> Bool {
        get { field(named: name)?.value == "true" }
        set { setText(newValue ? "true" : "false", for: name) }
    }

    /// A date field's date, for a date picker; nil while it is empty or reads as no date.
    public subscript(date name: String) -> CivilDate? {
        get { field(named: name)?.value.flatMap(CivilDate.init(iso:)) }
        set { setText(newValue?.description ?? "", for: name) }
    }

    /// Sets what is typed into a field (the `text`, `isOn` and `date` subscripts set through
    /// it).
    ///
    /// - Precondition: the editor shows a field named `name` (one of `fields`). A name the
    ///   form lacks, or one of its hidden fields (whose value is the flow's default), is a
    ///   mistake in the app's code, like an index out of range: it stops the program
    ///   (`fatalError`, in release builds too) with a message naming the form and its fields,
    ///   rather than dropping the text unseen. `field(named:)` says whether a field is shown.
    public func setText(_ text: String, for name: String) {
        guard let index = fields.firstIndex(where: { $0.name == name }), let definition = form.field(named: name) else {
            fatalError(Self.noField(name, in: form, shown: fields.map(\.name)))
        }
        fields[index].text = text
        fields[index].value = try? read(text, for: definition).get()
        edited.insert(name)
        serverMessages[name] = nil
        if !shown.isEmpty { refresh() }
    }

    /// Why `setText` cannot set `name`.
    private static func noField(_ name: String, in form: FormModel, shown: [String]) -> String {
        let what =
            form.field(named: name) != nil ? "shows no field '\(name)' (it is hidden: its value is the flow's default)" : "has no field '\(name)'"
        return "FormEditor.setText: the form '\(form.name)' \(what); its fields: \(shown.joined(separator: ", "))"
    }

    /// Shows a field's messages (call it when the field is left). Before `submit()` only the
    /// field's own rules are checked: a `match` or `alongWith` waits for the other field.
    public func validate(_ name: String) {
        guard form.field(named: name) != nil else { return }
        shown.insert(name)
        refresh()
    }

    /// Whether every field passes, cross-field rules included (nothing is shown).
    public var isValid: Bool {
        let (_, messages, formLevel) = evaluate(crossField: true)
        return messages.isEmpty && formLevel.isEmpty
    }

    /// Checks every field, cross-field rules included, and shows every field's messages.
    /// Returns the values to send (hidden fields' defaults and untouched given values
    /// included), or nil when a field is refused. A server's earlier messages are cleared: its
    /// answer to these values will say again. The one-at-a-time mode continues from the values
    /// sent (a later `reject` asks just the refused fields).
    public func submit() -> FormValues? {
        submitted = true
        shown = Set(fields.map(\.name))
        serverMessages = [:]
        serverFormMessages = []
        let values = refresh()
        guard fields.allSatisfy(\.messages.isEmpty), formMessages.isEmpty else { return nil }
        session = FormSession(form: form, localizer: localizer, today: today, prefilled: values, reviews: session.reviews)
        step = session.next()
        return values
    }

    /// The server refused the values (`invalid_fields`): shows its messages on those fields
    /// until they are edited, and its form-level messages; the one-at-a-time mode asks just
    /// those fields again.
    public func reject(_ messages: [FieldMessages], formMessages: [String] = []) {
        for entry in messages {
            if field(named: entry.field) != nil {
                serverMessages[entry.field] = entry.messages
                shown.insert(entry.field)
            } else {
                serverFormMessages += entry.messages
            }
        }
        serverFormMessages += formMessages
        session.reject(messages, formMessages: formMessages)
        step = session.next()
        refresh()
    }

    // MARK: one at a time

    /// Answers the current prompt (see `FormSession.answer(_:)`); returns the localized reasons
    /// of a refusal. An accepted answer shows in its field.
    @discardableResult
    public func answer(_ text: String) -> [String] {
        guard case .prompt(let prompt) = step, let index = fields.firstIndex(where: { $0.name == prompt.field }) else { return [] }
        let refused = session.answer(text)
        if refused.isEmpty {
            let value = session.values[prompt.field]
            fields[index].text = value ?? ""
            fields[index].value = value ?? form.field(named: prompt.field).map(Self.emptyValue)
            edited.insert(prompt.field)
            serverMessages[prompt.field] = nil
            fields[index].messages = []
        } else {
            fields[index].messages = refused
        }
        step = session.next()
        if case .prompt(let next) = step, let nextIndex = fields.firstIndex(where: { $0.name == next.field }), !next.messages.isEmpty {
            fields[nextIndex].messages = next.messages
        }
        return refused
    }

    /// Confirms the review: `step` becomes the values to send.
    public func confirm() {
        session.confirm()
        step = session.next()
    }

    /// From the review: ask `field` again.
    public func edit(_ field: String) {
        session.edit(field)
        step = session.next()
    }

    // MARK: checking

    /// The value of typed text: a choice's option value as it is (a picker binds values),
    /// else as `FieldInput` reads typing.
    private func read(_ text: String, for field: FormModel.Field) -> Result<String, FieldInput.Failure> {
        if field.type == .select || field.type == .radio, field.enabledOptions.contains(where: { $0.value == text }) {
            return .success(text)
        }
        return input.value(text, for: field)
    }

    /// A field's value when nothing is typed: `false` for a checkbox, else empty.
    private static func emptyValue(_ field: FormModel.Field) -> String {
        field.type == .checkbox ? "false" : ""
    }

    /// The values the texts give, each field's messages and the form-level ones: a text that
    /// reads as no value, else the rules (cross-field ones with `crossField`, and then, as the
    /// session asks both fields of a failed `match` or `alongWith`, the other field too).
    private func evaluate(crossField: Bool) -> (FormValues, [String: [String]], [String]) {
        var values = initialValues
        var messages: [String: [String]] = [:]
        for field in fields {
            guard let definition = form.field(named: field.name) else { continue }
            // An untouched checkbox without a value is an unticked box, as an empty answer to
            // its prompt is; other untouched fields keep their given value (or none).
            let uncheckedBox = definition.type == .checkbox && initialValues[field.name] == nil
            guard edited.contains(field.name) || uncheckedBox else { continue }
            switch read(field.text, for: definition) {
            case .failure(let failure):
                messages[field.name] = [failure.message]
                values.values.removeValue(forKey: field.name)
            case .success(let value):
                // As an answer: an emptied given value is sent empty (the server clears it),
                // a value never given stays absent.
                if value.isEmpty, definition.type != .checkbox {
                    if initialValues[field.name] == nil { values.values.removeValue(forKey: field.name) } else { values[field.name] = "" }
                } else {
                    values[field.name] = value
                }
            }
        }
        let violations =
            crossField
            ? engine.validate(values).violations
            : form.fields.flatMap { engine.validate(field: $0.name, in: values, crossField: false) }
        for entry in localizer.messages(for: violations, in: form) where messages[entry.field] == nil {
            messages[entry.field] = entry.messages
        }
        for violation in violations {
            guard let kind = violation.rule, kind == .match || kind == .alongWith, let field = form.field(named: violation.field) else { continue }
            for rule in field.rules where rule.kind == kind {
                guard case .text(let other) = rule.value, messages[other] == nil else { continue }
                messages[other] = messages[violation.field]
            }
        }
        let visible = Set(fields.map(\.name))
        let formLevel = form.fields.filter { !visible.contains($0.name) }.flatMap { messages.removeValue(forKey: $0.name) ?? [] }
        return (values, messages, formLevel)
    }

    /// Re-checks and shows the messages of the shown fields; returns the values.
    @discardableResult
    private func refresh() -> FormValues {
        let (values, messages, formLevel) = evaluate(crossField: submitted)
        for index in fields.indices {
            let name = fields[index].name
            let shownMessages = shown.contains(name) ? (messages[name] ?? serverMessages[name] ?? []) : []
            if fields[index].messages != shownMessages { fields[index].messages = shownMessages }
        }
        let allFormMessages = serverFormMessages + (submitted ? formLevel : [])
        if formMessages != allFormMessages { formMessages = allFormMessages }
        return values
    }
}

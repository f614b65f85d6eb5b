/// The values of a form as the user gave them: checkbox `true`/`false`, dateselect
/// `yyyy-MM-dd`, select and radio the option's value, everything else the text.
public struct FormValues: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    public var values: [String: String]

    public init(_ values: [String: String] = [:]) {
        self.values = values
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.values = Dictionary(elements, uniquingKeysWith: { _, last in last })
    }

    public subscript(field: String) -> String? {
        get { values[field] }
        set { values[field] = newValue }
    }

    /// Whether the field holds something other than whitespace.
    public func hasValue(_ field: String) -> Bool {
        values[field].map(Self.isBlank) == false
    }

    /// Whether a text is empty or whitespace only.
    public static func isBlank(_ text: String) -> Bool {
        // Fast path: a first byte that is printable ASCII decides it.
        if let first = text.utf8.first, first > 0x20, first < 0x7F { return false }
        return text.unicodeScalars.allSatisfy(\.properties.isWhitespace)
    }
}

/// Values may be passwords: printing, `debugPrint` and `dump` show the field names only.
extension FormValues: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        "FormValues(fields: [" + values.keys.sorted().joined(separator: ", ") + "], values hidden)"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: [(label: "fields", value: values.keys.sorted() as Any)], displayStyle: .struct)
    }
}

/// A failed check: which field, which rule, which message key, with which arguments.
/// Rendering into text is the localization layer's job (`Localizer.messages(for:in:)`).
public struct RuleViolation: Sendable, Hashable {
    public var field: String
    /// The rule that failed; nil when the value has the wrong shape for the field type (a
    /// date that is not `yyyy-MM-dd`, a checkbox that is not `true`/`false`).
    public var rule: RuleKind?
    public var messageKey: String
    /// `field` and, for rules with a value, `value`. The renderer adds `label`.
    public var arguments: [String: MessageArgument]

    public init(field: String, rule: RuleKind?, messageKey: String, arguments: [String: MessageArgument]) {
        self.field = field
        self.rule = rule
        self.messageKey = messageKey
        self.arguments = arguments
    }
}

/// A rule the client did not evaluate, and why.
public struct DeferredRule: Sendable, Hashable {
    public enum Reason: String, Sendable, Hashable {
        /// `unique` needs the record store.
        case serverOnly
        /// `clientSide: false` in the flow.
        case clientSideDisabled
    }

    public var field: String
    public var rule: RuleKind
    public var reason: Reason

    public init(field: String, rule: RuleKind, reason: Reason) {
        self.field = field
        self.rule = rule
        self.reason = reason
    }
}

/// What checking a form's values found.
public struct ValidationReport: Sendable, Hashable {
    public var violations: [RuleViolation]
    /// Rules left to the server; reported, never silently skipped.
    public var deferred: [DeferredRule]

    public var isValid: Bool { violations.isEmpty }
}

/// Runs a form's rules over values. Pure: no I/O, no text; today's date is an input.
public struct RuleEngine: Sendable {
    /// Message keys of the engine's own input checks (in the built-in catalog).
    public enum InputMessage {
        public static let invalidDate = "jumpForms.input.invalidDate"
        /// A date in the right shape that names no day (`2020-02-30`).
        public static let nonexistentDate = "jumpForms.input.nonexistentDate"
        public static let invalidCheckbox = "jumpForms.input.invalidCheckbox"
    }

    /// Who runs the rules: the client leaves `clientSide: false` rules to the server; the
    /// server runs them. `unique` is always reported as deferred (the caller checks it against
    /// its store).
    public enum Side: Sendable {
        case client, server
    }

    public let form: FormModel
    public var today: CivilDate
    public var side: Side
    /// The form's fields and rules as shared references, so a check walks them without copying.
    private let programs: [FieldProgram]

    /// A field and its rules, shared (one reference count per field visited), with the
    /// arguments of the violations they report made once per form rather than per violation.
    final class FieldProgram: Sendable {
        let field: FormModel.Field
        let rules: [RuleProgram]
        /// The arguments of the field's input checks (date, checkbox): `field`.
        let arguments: [String: MessageArgument]

        init(_ field: FormModel.Field) {
            self.field = field
            self.arguments = ["field": .string(field.name)]
            self.rules = field.rules.map { RuleProgram($0, arguments: ["field": .string(field.name)]) }
        }
    }

    final class RuleProgram: Sendable {
        let rule: FormModel.Rule
        /// `field` and, for rules with a value, `value`.
        let arguments: [String: MessageArgument]

        init(_ rule: FormModel.Rule, arguments: [String: MessageArgument]) {
            self.rule = rule
            var arguments = arguments
            if let argument = rule.argument { arguments["value"] = argument }
            self.arguments = arguments
        }
    }

    public init(form: FormModel, today: CivilDate, side: Side = .client) {
        self.form = form
        self.today = today
        self.side = side
        self.programs = form.fields.map(FieldProgram.init)
    }

    /// Checks every field, cross-field rules included.
    public func validate(_ values: FormValues) -> ValidationReport {
        var report = ValidationReport(violations: [], deferred: [])
        for program in programs {
            check(program, values, crossField: true, into: &report)
        }
        return report
    }

    /// Checks one field. With `crossField: false`, `match` and `alongWith` wait (a prompt
    /// checks them once the other field has an answer).
    public func validate(field name: String, in values: FormValues, crossField: Bool = true) -> [RuleViolation] {
        guard let index = form.index(of: name) else { return [] }
        var report = ValidationReport(violations: [], deferred: [])
        check(programs[index], values, crossField: crossField, into: &report)
        return report.violations
    }

    /// The value rules see: the field's own, or for a field stored as a schemaId map, its
    /// `field[sub]` values joined by spaces.
    static func value(of field: FormModel.Field, in values: FormValues) -> String {
        if let value = values[field.name] { return value }
        guard case .map(let subs)? = field.schemaId else { return "" }
        return subs.compactMap { values["\(field.name)[\($0.key)]"] }.filter { !FormValues.isBlank($0) }.joined(separator: " ")
    }

    private func check(_ program: FieldProgram, _ values: FormValues, crossField: Bool, into report: inout ValidationReport) {
        // Read through the shared references: binding the structs would copy them.
        let value = values[program.field.name] ?? Self.value(of: program.field, in: values)
        let type = program.field.type
        let isEmpty: Bool
        switch type {
        case .checkbox:
            if !value.isEmpty, value != "true", value != "false" {
                report.violations.append(violation(program, nil, RuleEngine.InputMessage.invalidCheckbox))
                return
            }
            isEmpty = value != "true"
        default:
            isEmpty = FormValues.isBlank(value)
        }
        var date: CivilDate?
        if type == .dateselect, !isEmpty {
            switch CivilDate.reading(iso: value) {
            case .date(let parsed):
                date = parsed
            case .doesNotExist:
                report.violations.append(violation(program, nil, RuleEngine.InputMessage.nonexistentDate))
                return
            case .unreadable:
                report.violations.append(violation(program, nil, RuleEngine.InputMessage.invalidDate))
                return
            }
        }
        for ruleProgram in program.rules {
            let kind = ruleProgram.rule.kind
            if kind.isServerOnly {
                report.deferred.append(DeferredRule(field: program.field.name, rule: kind, reason: .serverOnly))
                continue
            }
            if !ruleProgram.rule.clientSide && side == .client {
                report.deferred.append(DeferredRule(field: program.field.name, rule: kind, reason: .clientSideDisabled))
                continue
            }
            if kind.isCrossField && !crossField { continue }
            if isEmpty && !kind.appliesToEmptyValues { continue }
            if !passes(ruleProgram.rule.check, value: value, isEmpty: isEmpty, date: date, values: values) {
                report.violations.append(violation(program, ruleProgram, ruleProgram.rule.messageKey))
            }
        }
    }

    private func violation(_ program: FieldProgram, _ rule: RuleProgram?, _ key: String) -> RuleViolation {
        RuleViolation(field: program.field.name, rule: rule?.rule.kind, messageKey: key, arguments: rule?.arguments ?? program.arguments)
    }

    private func passes(_ check: FormModel.Check, value: String, isEmpty: Bool, date: CivilDate?, values: FormValues) -> Bool {
        switch check {
        case .required:
            return !isEmpty
        case .format(let format):
            return format.matches(value)
        case .pattern(let regex):
            return (try? regex.wholeMatch(in: value)) != nil
        case .minLength(let n):
            // A string never has more characters than UTF-8 bytes.
            return value.utf8.count >= n && value.count >= n
        case .maxLength(let n):
            return value.utf8.count <= n || value.count <= n
        case .minYears(let n):
            return date.map { $0.age(on: today) >= n } ?? true
        case .maxYears(let n):
            return date.map { $0.age(on: today) <= n } ?? true
        case .match(let other):
            return value == (values[other] ?? "")
        case .matchOptions(let allowed):
            return allowed.contains(value)
        case .whitelist(let allowed):
            return allowed.contains(value.lowercased())
        case .blacklist(let refused, let comparison):
            return !refused.contains(comparison.key(value))
        case .emailDomainBlacklist(let domains):
            // Folded first: `＠` is an `@`, `ＣＯＭ` is `com`.
            let folded = LookAlike.folded(value)
            guard let at = folded.unicodeScalars.lastIndex(of: "@") else { return true }
            let domain = Self.foldedEmailDomain(String(folded.unicodeScalars[folded.unicodeScalars.index(after: at)...]))
            return !domains.contains { domain == $0 || domain.hasSuffix("." + $0) }
        case .alongWith(let other):
            return isEmpty || values.hasValue(other)
        case .serverOnly:
            return true
        }
    }
}

/// The localized messages of one field, as Capture's `invalid_fields` carries them.
public struct FieldMessages: Sendable, Hashable, Codable {
    public var field: String
    public var messages: [String]

    public init(field: String, messages: [String]) {
        self.field = field
        self.messages = messages
    }
}

extension Localizer {
    /// Renders violations into `field -> [messages]`, in the form's field order. Validation
    /// messages get `label` (the field's localized label), `field` and `value`.
    public func messages(for violations: [RuleViolation], in form: FormModel) -> [FieldMessages] {
        var byField: [String: [String]] = [:]
        for violation in violations {
            var arguments = violation.arguments
            let label = form.field(named: violation.field)?.label ?? violation.field
            arguments["label"] = .string(label)
            byField[violation.field, default: []].append(text(violation.messageKey, for: form.locale, arguments))
        }
        var result = form.fields.compactMap { field in
            byField.removeValue(forKey: field.name).map { FieldMessages(field: field.name, messages: $0) }
        }
        result += byField.sorted { $0.key < $1.key }.map { FieldMessages(field: $0.key, messages: $0.value) }
        return result
    }
}

extension FormValues {
    /// The values a record holds for a form's fields, by their schema paths, for prefilling an
    /// edit form: pass them as a `FormSession`'s `defaults` (each field asked with its value
    /// offered) or `prefilled` (not asked).
    ///
    /// Each field with a `schemaId` takes the record's value at that path (`primaryAddress.city`
    /// reads `{"primaryAddress": {"city": ...}}`): strings as they are, booleans as
    /// `true`/`false` (a checkbox's values), numbers as written. A field whose `schemaId` is a
    /// map takes one value per part, named `field[sub]`. Password fields, fields without a
    /// `schemaId` and paths the record lacks (or holds as `null`, an object or a list) get no
    /// value.
    ///
    /// ```swift
    /// let form = try interpreter.model(form: "editProfileForm", locale: locale)
    /// let current = FormValues(record: signIn.record, form: form)   // the `capture_user`
    /// var session = FormSession(form: form, localizer: localizer, today: .today, defaults: current)
    /// ```
    public init(record: JSONValue, form: FormModel) {
        self.init()
        func text(_ value: JSONValue?) -> String? {
            switch value {
            case .string(let text)?: text
            case .number(let number)?: number
            case .bool(let flag)?: flag ? "true" : "false"
            default: nil
            }
        }
        func lookup(_ path: String) -> JSONValue? {
            var current: JSONValue? = record
            for part in path.split(separator: ".") { current = current?[String(part)] }
            return current
        }
        for field in form.fields where field.type != .password {
            switch field.schemaId {
            case .path(let path)?:
                if let value = text(lookup(path.value)) { self[field.name] = value }
            case .map(let subs)?:
                for sub in subs {
                    if let value = text(lookup(sub.path.value)) { self["\(field.name)[\(sub.key)]"] = value }
                }
            case nil:
                continue
            }
        }
    }
}

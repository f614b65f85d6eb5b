import JumpForms

/// Checks a flow against the Capture schema its fields write to (`jump-forms lint --schema`):
/// every `schemaId` names an attribute, of a type the field can write; the registration forms
/// set every attribute the schema requires; constraints and lengths the form does not check
/// are pointed out.
public struct SchemaLinter: Sendable {
    public var schema: EntitySchema
    public var flow: Flow
    /// Names the registration forms (their defaults without one).
    public var config: ClientConfig?

    public init(schema: EntitySchema, flow: Flow, config: ClientConfig? = nil) {
        self.schema = schema
        self.flow = flow
        self.config = config
    }

    public func lint() -> [Diagnostic] {
        var findings: [Diagnostic] = []
        for field in flow.fields {
            for path in field.schemaId?.paths ?? [] {
                if let attribute = resolve(path, field: field, into: &findings) {
                    check(field, writing: attribute, at: path.location, into: &findings)
                }
            }
        }
        lintRequired(&findings)
        return findings.sortedByLocation()
    }

    // MARK: paths

    /// The attribute a field's dot path names, or a finding saying why there is none.
    private func resolve(_ path: Located<String>, field: FieldDefinition, into findings: inout [Diagnostic]) -> AttributeDefinition? {
        let segments = path.value.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        // A quoted scalar's location includes its quotes.
        let quote = path.location.length == path.value.unicodeScalars.count + 2 ? 1 : 0
        var candidates = schema.attributes
        var parent: AttributeDefinition?
        var offset = quote
        for (index, segment) in segments.enumerated() {
            let place = path.location.advanced(by: offset, length: max(1, segment.unicodeScalars.count))
            if let parent, parent.type.value == .plural {
                findings.append(
                    Diagnostic(
                        .fieldDoesNotFitAttribute,
                        "field '\(field.name)' writes '\(path.value)' inside the plural '\(parent.path)': a field cannot write a plural's elements",
                        at: path.location, related: [.init("'\(parent.name.value)' defined here", at: parent.name.location)]))
                return nil
            }
            guard let attribute = candidates.first(where: { $0.name.value == segment }) else {
                let prefix = segments[..<index].joined(separator: ".")
                var message = "field '\(field.name)' writes '\(path.value)', which is no attribute of the schema"
                var hint: String?
                if let parent, !parent.type.value.holdsAttributes {
                    message =
                        """
                        field '\(field.name)' writes '\(path.value)', but '\(parent.path)' is of type \(parent.type.value.name): it holds no \
                        attributes
                        """
                } else if let closest = Suggestion.closest(to: segment, among: candidates.map(\.name.value)) {
                    hint = "did you mean '\(prefix.isEmpty ? closest : prefix + "." + closest)'?"
                }
                findings.append(Diagnostic(.unknownSchemaAttribute, message, at: place, hint: hint))
                return nil
            }
            parent = attribute
            candidates = attribute.attributes
            offset += segment.unicodeScalars.count + 1
        }
        return parent
    }

    // MARK: one field, one attribute

    private func check(
        _ field: FieldDefinition, writing attribute: AttributeDefinition, at location: SourceLocation,
        into findings: inout [Diagnostic]
    ) {
        let type = field.type.value
        let attributeType = attribute.type.value
        let defined = Diagnostic.Related("'\(attribute.path)' defined here", at: attribute.name.location)
        if attribute.isReadOnly {
            findings.append(
                Diagnostic(
                    .fieldWritesReservedAttribute,
                    "field '\(field.name)' writes '\(attribute.path)', which the server sets", at: location,
                    hint: "remove the schemaId: no form writes id, uuid, created, lastUpdated or an id attribute", related: [defined]))
            return
        }
        guard attributeType.writingFieldTypes.contains(type) else {
            let fitting = attributeType.writingFieldTypes.map(\.rawValue)
            let hint =
                fitting.isEmpty
                ? (attributeType.holdsAttributes
                    ? "no field writes a whole \(attributeType.name); point schemaId at one of its attributes"
                    : "no field writes \(attributeType.name) attributes")
                : "\(attributeType.name) attributes are written by fields of type \(fitting.joined(separator: ", "))"
            findings.append(
                Diagnostic(
                    .fieldDoesNotFitAttribute,
                    "field '\(field.name)' of type \(type.rawValue) cannot write '\(attribute.path)', an attribute of type \(attributeType.name)",
                    at: location, hint: hint, related: [defined]))
            return
        }
        if type.offersOptions {
            for option in field.options where !option.value.value.isEmpty && !attributeType.accepts(option.value.value) {
                findings.append(
                    Diagnostic(
                        .optionDoesNotFitAttribute,
                        """
                        option '\(option.value.value)' of field '\(field.name)' is not a value of type \(attributeType.name) for '\(attribute.path)'
                        """,
                        at: option.value.location, hint: Self.valueHint(attributeType), related: [defined]))
            }
        }
        if let length = attribute.length, type.holdsText {
            for rule in field.validation where rule.kind == .maxLength {
                if case .integer(let maximum) = rule.value, maximum > length {
                    findings.append(
                        Diagnostic(
                            .lengthExceedsAttribute,
                            "field '\(field.name)' allows \(maximum) characters, but '\(attribute.path)' holds at most \(length)",
                            at: rule.valueLocation ?? rule.location, hint: "lower maxLength to \(length)", related: [defined]))
                }
            }
        }
        if type.holdsText, type != .password {
            let formats = Set(
                field.validation.compactMap { rule -> Format? in
                    guard rule.kind == .format, case .text(let name) = rule.value else { return nil }
                    return Format(rawValue: name)
                })
            let hasPattern = field.validation.contains { $0.kind == .pattern }
            for constraint in attribute.constraints {
                guard let satisfying = constraint.satisfyingFormats, !hasPattern, satisfying.isDisjoint(with: formats) else { continue }
                if constraint == .emailAddress, type == .email { continue }
                let names = satisfying.map(\.rawValue).sorted()
                findings.append(
                    Diagnostic(
                        .constraintNotChecked,
                        "'\(attribute.path)' is \(constraint.rawValue), but field '\(field.name)' does not check it",
                        at: field.type.location,
                        hint: "add { rule: format, value: \(names.joined(separator: " or ")) }"
                            + (constraint == .emailAddress ? ", or make it an email field" : ""),
                        related: [defined]))
            }
        }
    }

    static func valueHint(_ type: AttributeType) -> String? {
        switch type {
        case .boolean: "write true or false"
        case .integer: "write a whole number"
        case .decimal: "write a number such as 12.5"
        default: nil
        }
    }

    // MARK: required attributes

    /// What can make a form set a required attribute: a field writing it, one of its
    /// attributes for an object, or nothing for the types no field writes (plurals, `json`).
    static func requiredHint(_ attribute: AttributeDefinition) -> String {
        func dotted(_ path: String) -> String { EntitySchema.segments(of: path).joined(separator: ".") }
        let type = attribute.type.value
        if type == .object {
            if let inner = attribute.attributes.first(where: { !$0.isReadOnly && !$0.type.value.writingFieldTypes.isEmpty }) {
                return "add a field writing one of its attributes (such as schemaId: \(dotted(inner.path))), or drop the constraint"
            }
            return "no field can write any attribute of this object: drop the constraint from the schema"
        }
        if type.writingFieldTypes.isEmpty {
            return "no form field can write a \(type.name) attribute: drop the constraint from the schema"
        }
        return "add a field with schemaId: \(dotted(attribute.path)), or drop the constraint"
    }

    /// Every attribute the schema requires is set by each registration form of the flow.
    private func lintRequired(_ findings: inout [Diagnostic]) {
        let names = [
            config?.captureTraditionalRegistrationFormName.value ?? "registrationForm",
            config?.captureSocialRegistrationFormName.value ?? "socialRegistrationForm"
        ]
        for name in names {
            guard let form = flow.form(named: name) else { continue }
            let written = Set(
                form.fields.compactMap { flow.field(named: $0.value) }
                    .flatMap { $0.schemaId?.paths ?? [] }
                    .map { EntitySchema.path(EntitySchema.segments(of: $0.value)) })
            func writes(_ path: String) -> Bool {
                written.contains(path) || written.contains { $0.hasPrefix(path + "/") }
            }
            func walk(_ attributes: [AttributeDefinition]) {
                for attribute in attributes where !attribute.isReadOnly {
                    if attribute.isRequired, !writes(attribute.path) {
                        findings.append(
                            Diagnostic(
                                .requiredAttributeNotSet,
                                "form '\(form.name)' never sets '\(attribute.path)', which the schema requires",
                                at: form.location,
                                hint: Self.requiredHint(attribute),
                                related: [.init("required here", at: attribute.name.location)]))
                    }
                    // Inside an object the form fills, its required attributes are due too.
                    if attribute.type.value == .object, writes(attribute.path) {
                        walk(attribute.attributes)
                    }
                }
            }
            walk(schema.attributes)
        }
    }
}

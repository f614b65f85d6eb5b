import JumpCapture
import JumpForms
import JumpSchema

/// What the server knows about the attributes of a record: the entity-type schema when the
/// configuration names one (`server.schema`), else what the flow's fields say
/// (`RecordAttributes`). The entity calls check reads and writes against it.
enum RecordModel: Sendable {
    case flow(RecordAttributes)
    case schema(EntitySchema)

    var isSchema: Bool {
        if case .schema = self { return true }
        return false
    }

    /// What the attribute named by `names` (element ids left out) is.
    func role(_ names: [String]) -> AttributeRole {
        let path = RecordPath.attribute(names)
        if names.first == "profiles" { return .serverSet }
        switch self {
        case .flow(let attributes):
            if names.count == 1, RecordChanges.reservedAttributes.contains(names[0]) || names[0] == "password" { return .serverSet }
            switch attributes.shape(of: names.joined(separator: ".")) {
            case .value(let writer): return .value(.field(writer.type))
            case .object: return .object
            case .insideValue(let prefix):
                return .none("\(path) is inside the value \(RecordPath.attribute(prefix.split(separator: ".").map(String.init)))")
            case .unknown: return .unknown
            }
        case .schema(let schema):
            guard let attribute = Self.attribute(names, in: schema) else { return .none("\(path) is no attribute of the schema") }
            if attribute.isReadOnly || attribute.type.value.isPassword { return .serverSet }
            switch attribute.type.value {
            case .object: return .object
            case .plural: return .plural
            case .json: return .anyJSON
            default: return .value(.attribute(attribute))
            }
        }
    }

    /// Whether the schema requires a value of the attribute (never without a schema).
    func isRequired(_ names: [String]) -> Bool {
        guard case .schema(let schema) = self else { return false }
        return Self.attribute(names, in: schema)?.isRequired ?? false
    }

    /// Whether no two records may share the attribute's value (the schema's `unique`); the
    /// flow's `unique` rules are checked with its fields.
    func isUnique(_ names: [String]) -> Bool {
        guard case .schema(let schema) = self else { return false }
        return Self.attribute(names, in: schema)?.constraints.contains(.unique) ?? false
    }

    /// The attributes of an object or plural element the schema requires (their names), and
    /// those no two elements of one plural may share (`locally-unique`).
    func children(of names: [String]) -> (required: [String], locallyUnique: [String]) {
        guard case .schema(let schema) = self else { return ([], []) }
        let children = names.isEmpty ? schema.attributes : Self.attribute(names, in: schema)?.attributes ?? []
        let writable = children.filter { !$0.isReadOnly && !$0.type.value.isPassword }
        return (
            writable.filter(\.isRequired).map(\.name.value),
            writable.filter { $0.constraints.contains(.locallyUnique) }.map(\.name.value)
        )
    }

    /// The record as Capture answers it. With a schema: every attribute the schema has, `null`
    /// for a value not set, an object with all its attributes, `[]` for a plural, each plural
    /// element completed the same way (passwords never): Android edits only keys the record it
    /// was given holds (CaptureJsonUtils.java:217-225, 246-257). Without one: as stored.
    func completed(_ record: JSONValue) -> JSONValue {
        guard case .schema(let schema) = self else { return record }
        return Self.completed(record, attributes: schema.attributes)
    }

    private static func completed(_ value: JSONValue, attributes: [AttributeDefinition]) -> JSONValue {
        guard case .object(var entries) = value else { return value }
        for attribute in attributes where !attribute.type.value.isPassword {
            guard let index = entries.firstIndex(where: { $0.key == attribute.name.value }) else {
                entries.append((attribute.name.value, empty(attribute)))
                continue
            }
            switch (attribute.type.value, entries[index].value) {
            case (.object, .null): entries[index].value = empty(attribute)
            case (.object, let object): entries[index].value = completed(object, attributes: attribute.attributes)
            case (.plural, .array(let elements)): entries[index].value = .array(elements.map { completed($0, attributes: attribute.attributes) })
            default: break
            }
        }
        return .object(entries)
    }

    /// An attribute with nothing set: `[]` for a plural, an object of empty attributes, else `null`.
    private static func empty(_ attribute: AttributeDefinition) -> JSONValue {
        switch attribute.type.value {
        case .plural: .array([])
        case .object: .object(attribute.attributes.filter { !$0.type.value.isPassword }.map { ($0.name.value, empty($0)) })
        default: .null
        }
    }

    static func attribute(_ names: [String], in schema: EntitySchema) -> AttributeDefinition? {
        var level = schema.attributes
        var found: AttributeDefinition?
        for name in names {
            guard let attribute = level.first(where: { $0.name.value == name }) else { return nil }
            found = attribute
            level = attribute.attributes
        }
        return found
    }
}

/// What an attribute is, to the entity calls.
extension RecordModel {
    /// `record` with `transform` applied to every plural element (an object in a list the
    /// model takes for a plural: the schema's `plural` attributes; without a schema, a list at
    /// an attribute no field describes), outer elements before the plurals inside them. A
    /// schema's `json` attributes, values and what the server sets are left as they are.
    func mappingElements(_ record: JSONValue, _ transform: (JSONValue) -> JSONValue) -> JSONValue {
        mappingElements(record, names: [], transform)
    }

    private func mappingElements(_ value: JSONValue, names: [String], _ transform: (JSONValue) -> JSONValue) -> JSONValue {
        guard case .object(let entries) = value else { return value }
        return .object(
            entries.map { entry in
                let here = names + [entry.key]
                switch (role(here), entry.value) {
                case (.plural, .array(let items)), (.unknown, .array(let items)):
                    return (
                        entry.key,
                        .array(items.map { item in item.objectValue == nil ? item : mappingElements(transform(item), names: here, transform) })
                    )
                case (.object, .object), (.unknown, .object):
                    return (entry.key, mappingElements(entry.value, names: here, transform))
                default:
                    return entry
                }
            })
    }

    /// The largest plural element id in `record` (0 when there is none), so that no id given
    /// out is given again. Ids inside `json` attributes are data, not element ids.
    func largestElementID(in record: JSONValue) -> Int {
        var largest = 0
        _ = mappingElements(record) { element in
            largest = max(largest, element["id"]?.intValue ?? 0)
            return element
        }
        return largest
    }
}

enum AttributeRole: Sendable {
    /// A value (string, number, date ...): the check says whether a written value fits.
    case value(ValueCheck)
    /// Named attributes: `entity.update` merges into it, `entity.replace` replaces it whole.
    case object
    /// A list of elements (objects, each with the `id` the server gave it).
    case plural
    /// A schema's `json` attribute: any JSON value, set whole.
    case anyJSON
    /// Set by the server (`id`, `uuid`, `created`, `lastUpdated`, `profiles`, attributes of
    /// type `id`) or a password (written through the forms): no entity call writes it.
    case serverSet
    /// Nothing says what it is (no schema, no field): the record's shape, or the written
    /// value, decides.
    case unknown
    /// Not an attribute: outside the schema, or inside a value. The reason.
    case none(String)
}

/// How a written value is checked.
enum ValueCheck: Sendable {
    /// A flow field's value: a string, or `true`/`false` for a checkbox.
    case field(FieldType)
    /// A schema attribute's type, length and constraints.
    case attribute(AttributeDefinition)

    /// Why `value`, written at `path`, does not fit; nil when it does. `null` clears a value
    /// (refused for a required attribute).
    func problem(_ value: JSONValue, at path: RecordPath) -> RecordEditError? {
        switch self {
        case .field(let type):
            if value == .null { return nil }
            if type == .checkbox {
                return value.boolValue != nil ? nil : .wrongShape("\(path.attribute) takes true or false, not \(value.kindDescription)")
            }
            return value.stringValue != nil ? nil : .wrongShape("\(path.attribute) takes a string, not \(value.kindDescription)")
        case .attribute(let attribute):
            return SchemaValueRules.problem(value, of: attribute, at: path)
        }
    }
}

/// Why an entity call cannot read or write an attribute; each is one Capture error.
enum RecordEditError: Error, Sendable, Hashable {
    /// 200 `invalid_argument`: the call names or shapes things that cannot be.
    case invalid(String)
    /// A value of another JSON shape than the attribute's: 200 without a schema, 341
    /// `invalid_json_type` with one.
    case wrongShape(String)
    /// 223 `unknown_attribute`: the path (and why).
    case unknownAttribute(String, String)
    /// The write list leaves the attribute out: 223.
    case notWritable(String)
    /// Set by the server: 223 without a schema, 234 `reserved_attribute` with one.
    case reserved(String)
    /// 310 `record_not_found`: a plural element that is not there.
    case elementNotFound(String)
    /// 320 `id_in_new_record`: an element id the server did not give.
    case idInNewElement(String)
    /// 340 `invalid_data_format`.
    case dataFormat(String)
    /// 342 `invalid_date_time`.
    case dateTime(String)
    /// 360 `constraint_violation`.
    case constraint(String)
    /// 361 `unique_violation` (`locally-unique` within a plural).
    case locallyUnique(String)
    /// 362 `missing_required_attribute`.
    case required(String)
    /// 363 `length_violation`.
    case length(String)
}

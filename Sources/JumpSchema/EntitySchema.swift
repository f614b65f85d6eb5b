import JumpForms

/// A Capture entity-type schema: the attributes a record holds, with the place each was
/// defined in the schema file.
public struct EntitySchema: Sendable, Hashable {
    /// The attributes the server sets at the top of every record: read-only.
    public static let reservedAttributes: Set<String> = ["id", "uuid", "created", "lastUpdated"]

    /// The schema file.
    public var file: String
    /// The entity type's name (`user`), when the file gives one.
    public var name: String?
    public var attributes: [AttributeDefinition]

    public init(file: String, name: String? = nil, attributes: [AttributeDefinition]) {
        self.file = file
        self.name = name
        self.attributes = attributes
    }

    /// The attribute at a record path: `/primaryAddress/city`, or the flow's dot form
    /// `primaryAddress.city`. Paths go into plurals without element ids (`/photos/value`).
    public func attribute(at path: String) -> AttributeDefinition? {
        var current = attributes
        var found: AttributeDefinition?
        let segments = Self.segments(of: path)
        guard !segments.isEmpty else { return nil }
        for segment in segments {
            guard let attribute = current.first(where: { $0.name.value == segment }) else { return nil }
            found = attribute
            current = attribute.attributes
        }
        return found
    }

    /// What a record path holds, for `RecordChanges.changes(from:to:kind:)` of JumpCapture:
    /// objects are updated, plurals replaced, every other attribute (`json` included) set
    /// whole, and what the server sets (reserved attributes at the top, attributes of type
    /// `id`) read-only. Nil for a path the schema does not know.
    public func attributeKind(path: String) -> AttributeKind? {
        guard let attribute = attribute(at: path) else { return nil }
        return attribute.isReadOnly ? .readOnly : attribute.type.value.kind
    }

    /// Every attribute, depth first in schema order (plural elements' attributes included).
    public var allAttributes: [AttributeDefinition] {
        var result: [AttributeDefinition] = []
        func walk(_ attributes: [AttributeDefinition]) {
            for attribute in attributes {
                result.append(attribute)
                walk(attribute.attributes)
            }
        }
        walk(attributes)
        return result
    }

    /// The parts of a path written `/a/b`, `a/b` or `a.b`.
    public static func segments(of path: String) -> [String] {
        let separator: Character = path.contains("/") ? "/" : "."
        var parts = path.split(separator: separator, omittingEmptySubsequences: false).map(String.init)
        if separator == "/", parts.first == "" { parts.removeFirst() }
        return parts
    }

    /// `/a/b` for the segments `a`, `b`.
    public static func path(_ segments: [String]) -> String {
        "/" + segments.joined(separator: "/")
    }
}

/// One attribute definition of a schema (`attr_defs` entry).
public struct AttributeDefinition: Sendable, Hashable {
    /// `name`, where it is written.
    public var name: Located<String>
    /// `type`, where it is written.
    public var type: Located<AttributeType>
    /// `attr_defs` of an object or plural.
    public var attributes: [AttributeDefinition]
    /// `length`: the most characters a value holds.
    public var length: Int?
    /// `case-sensitive`.
    public var caseSensitive: Bool?
    /// `description`.
    public var description: String?
    /// `features`, as written.
    public var features: [String]
    /// `constraints`.
    public var constraints: [AttributeConstraint]
    /// The record path: `/primaryAddress/city` (`/photos/value` inside a plural's elements).
    public var path: String
    /// Set by the server (`id`, `uuid`, `created`, `lastUpdated` at the top of the record;
    /// every attribute of type `id`, such as a plural element's `id`).
    public var isReadOnly: Bool
    /// Whether the attribute is an element attribute of a plural (at any depth).
    public var isInPlural: Bool

    public init(
        name: Located<String>, type: Located<AttributeType>, attributes: [AttributeDefinition] = [],
        length: Int? = nil, caseSensitive: Bool? = nil, description: String? = nil,
        features: [String] = [], constraints: [AttributeConstraint] = [],
        path: String, isReadOnly: Bool = false, isInPlural: Bool = false
    ) {
        self.name = name
        self.type = type
        self.attributes = attributes
        self.length = length
        self.caseSensitive = caseSensitive
        self.description = description
        self.features = features
        self.constraints = constraints
        self.path = path
        self.isReadOnly = isReadOnly
        self.isInPlural = isInPlural
    }

    public var isRequired: Bool { constraints.contains(.required) }

    /// For a plural whose elements hold one string besides their `id` (whatever its type) and
    /// password attributes (write-only, never in the model): that string's attribute. Such a
    /// plural is a list of strings in the generated model.
    public var stringPluralElement: AttributeDefinition? {
        guard type.value == .plural else { return nil }
        let values = attributes.filter { $0.name.value != "id" && !$0.type.value.isPassword }
        guard values.count == 1, values[0].type.value == .string else { return nil }
        return values[0]
    }
}

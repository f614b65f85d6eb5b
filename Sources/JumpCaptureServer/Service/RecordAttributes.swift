import JumpForms

/// The record attributes the flow's fields describe: which field writes each schema path (the
/// fields of the preferred forms first, then the flow's others, passwords left out), and so which
/// attributes are strings, booleans or objects. Without an entity-type schema (`server.schema`),
/// the record calls check their writes against it (`RecordModel.flow`): a written value gets its
/// field's JSON type and rules.
///
/// An attribute no field describes has the shape the record gives it (a list is a plural, an
/// object an object), or any shape when it is not set.
struct RecordAttributes: Sendable {
    /// A field that writes one schema path: the field, and the name its value has in the
    /// field's form values (`field`, or `field[sub]` for a schemaId map).
    struct Writer: Sendable, Hashable {
        var field: String
        var valueName: String
        var type: FieldType
    }

    /// Dot path -> the field that writes it.
    let writers: [String: Writer]
    /// Dot paths that are objects: the proper prefixes of the fields' paths.
    let objects: Set<String>

    init(flow: Flow, preferredForms: [String]) {
        var order: [FieldDefinition] = []
        for name in preferredForms {
            order += flow.form(named: name)?.fields.compactMap { flow.field(named: $0.value) } ?? []
        }
        order += flow.fields
        var writers: [String: Writer] = [:]
        var objects = Set<String>()
        for field in order where field.type.value != .password {
            var paths: [(path: String, valueName: String)] = []
            switch field.schemaId {
            case .path(let path)?: paths = [(path.value, field.name)]
            case .map(let subs)?: paths = subs.map { ($0.path.value, "\(field.name)[\($0.key)]") }
            case nil: continue
            }
            for (path, valueName) in paths {
                if writers[path] == nil { writers[path] = Writer(field: field.name, valueName: valueName, type: field.type.value) }
                var prefix = ""
                for part in path.split(separator: ".").dropLast() {
                    prefix += (prefix.isEmpty ? "" : ".") + part
                    objects.insert(prefix)
                }
            }
        }
        self.writers = writers
        self.objects = objects
    }

    /// What the flow says an attribute (a dot path) is.
    enum Shape: Sendable, Hashable {
        /// A field's value (a string, or a boolean for a checkbox).
        case value(Writer)
        /// An object holding fields' values.
        case object
        /// Inside a field's value (`givenName.x`): no such attribute.
        case insideValue(String)
        /// No field describes it.
        case unknown
    }

    func shape(of path: String) -> Shape {
        if let writer = writers[path] { return .value(writer) }
        if objects.contains(path) { return .object }
        var prefix = ""
        for part in path.split(separator: ".") {
            prefix += (prefix.isEmpty ? "" : ".") + part
            if prefix != path, writers[prefix] != nil { return .insideValue(prefix) }
        }
        return .unknown
    }

    /// Why a write cannot go through as it is.
    enum WriteProblem: Error, Sendable, Hashable {
        /// A value of the wrong JSON type: the attribute (`/a/b`) and what it takes.
        case wrongType(attribute: String, expected: String, got: String)
    }

    /// The fields a write touches (in the order of `writers`' paths) and their values as form
    /// values (`null` is an empty value), from `patch`, the written values rooted at the record's
    /// root. A value of the wrong JSON type (a number for a string field, a list where an object
    /// holds fields) is a problem.
    func writtenFields(_ patch: JSONValue) -> Result<(fields: [String], values: FormValues), WriteProblem> {
        var fields: [String] = []
        var values = FormValues()
        for path in writers.keys.sorted() {
            let writer = writers[path]!
            var current: JSONValue? = patch
            var walked: [Substring] = []
            walk: for part in path.split(separator: ".") {
                switch current {
                case .object?:
                    current = current?[String(part)]
                    walked.append(part)
                    if current == nil { break walk }
                case .null?:
                    // An object cleared whole clears the fields inside it.
                    break walk
                case let other?:
                    return .failure(.wrongType(attribute: Self.attribute(walked), expected: "an object", got: other.kindDescription))
                case nil:
                    break walk
                }
            }
            guard let value = current else { continue }
            let text: String
            switch (writer.type, value) {
            case (_, .null): text = ""
            case (.checkbox, .bool(let flag)): text = flag ? "true" : "false"
            case (.checkbox, _):
                return .failure(
                    .wrongType(attribute: Self.attribute(path.split(separator: ".")), expected: "true or false", got: value.kindDescription))
            case (_, .string(let string)): text = string
            default:
                return .failure(.wrongType(attribute: Self.attribute(path.split(separator: ".")), expected: "a string", got: value.kindDescription))
            }
            if !fields.contains(writer.field) { fields.append(writer.field) }
            values[writer.valueName] = text
        }
        return .success((fields, values))
    }

    static func attribute(_ parts: [Substring]) -> String {
        "/" + parts.joined(separator: "/")
    }
}

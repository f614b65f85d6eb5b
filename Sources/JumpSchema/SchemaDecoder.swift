import JumpForms

/// Hand decoding of a located JSON tree into an `EntitySchema`: typed getters that record a
/// `SchemaError` and go on, so that one pass finds every problem of a file.
struct SchemaDecoder {
    let file: String
    var errors: [SchemaError] = []

    static let attributeKeys = ["name", "type", "attr_defs", "length", "case-sensitive", "description", "features", "constraints"]
    static let schemaKeys = ["name", "attr_defs"]
    static let responseKeys = ["stat", "schema"]

    init(file: String) {
        self.file = file
    }

    /// The schema, as the dashboard downloads it (a list of attribute definitions), as an
    /// object with `attr_defs` (and `name`), or as the entityType API answers
    /// (`{"stat": "ok", "schema": {"name": ..., "attr_defs": [...]}}`).
    mutating func decode(_ root: JSONNode) -> EntitySchema? {
        switch root.value {
        case .array:
            return EntitySchema(file: file, attributes: attributes(root, parent: nil, context: "the schema"))
        case .object(let members) where members.contains(where: { $0.key.value == "stat" }):
            guard let object = object(root, context: "the entityType answer", known: Self.responseKeys, ignoringUnknown: isErrorResponse(root)) else {
                return nil
            }
            if let stat = object["stat"].flatMap({ string($0.value, "'stat'") }), stat.value != "ok" {
                errors.append(.errorResponse(stat.location, message: errorMessage(root) ?? "stat is '\(stat.value)'"))
                return nil
            }
            guard let schema = object["schema"] else {
                errors.append(.missingKey(root.location, key: "schema", context: "the entityType answer"))
                return nil
            }
            return decodeSchemaObject(schema.value)
        case .object:
            return decodeSchemaObject(root)
        default:
            errors.append(
                .wrongKind(
                    root.location, expected: "a list of attribute definitions or an object with 'attr_defs'",
                    found: root.kindDescription, context: "a schema"))
            return nil
        }
    }

    private mutating func decodeSchemaObject(_ node: JSONNode) -> EntitySchema? {
        guard let object = object(node, context: "the schema", known: Self.schemaKeys) else { return nil }
        let name = object["name"].flatMap { optionalString($0.value, "the schema's 'name'") }
        guard let list = object["attr_defs"] else {
            errors.append(.missingKey(node.location, key: "attr_defs", context: "the schema"))
            return nil
        }
        return EntitySchema(file: file, name: name, attributes: attributes(list.value, parent: nil, context: "the schema's 'attr_defs'"))
    }

    private func isErrorResponse(_ node: JSONNode) -> Bool {
        guard case .object(let members) = node.value else { return false }
        return members.contains { $0.key.value == "stat" && $0.value.stringValue != "ok" }
    }

    private func errorMessage(_ node: JSONNode) -> String? {
        guard case .object(let members) = node.value else { return nil }
        for key in ["message", "error_description", "error"] {
            if let text = members.first(where: { $0.key.value == key })?.value.stringValue { return text }
        }
        return nil
    }

    // MARK: attribute definitions

    /// The attributes of a list of definitions; `parent` is nil at the top of the record.
    mutating func attributes(_ node: JSONNode, parent: AttributeDefinition?, context: String) -> [AttributeDefinition] {
        guard case .array(let items) = node.value else {
            errors.append(.wrongKind(node.location, expected: "a list of attribute definitions", found: node.kindDescription, context: context))
            return []
        }
        var result: [AttributeDefinition] = []
        var seen: [String: SourceLocation] = [:]
        for item in items {
            guard let attribute = attribute(item, parent: parent) else { continue }
            if let first = seen[attribute.name.value] {
                errors.append(.duplicateAttribute(attribute.name.location, name: attribute.name.value, first: first))
                continue
            }
            seen[attribute.name.value] = attribute.name.location
            result.append(attribute)
        }
        return result
    }

    mutating func attribute(_ node: JSONNode, parent: AttributeDefinition?) -> AttributeDefinition? {
        guard let object = object(node, context: "an attribute definition", known: Self.attributeKeys) else { return nil }
        let name = object["name"].flatMap { string($0.value, "an attribute's 'name'") }
        if object["name"] == nil {
            errors.append(.missingKey(node.location, key: "name", context: "an attribute definition"))
        }
        if let name, !Self.isValidName(name.value) {
            errors.append(.invalidName(name.location, name: name.value))
        }
        let label = name?.value ?? "?"
        var type: Located<AttributeType>?
        if let typeName = object["type"].flatMap({ string($0.value, "the 'type' of attribute '\(label)'") }) {
            if let known = AttributeType(name: typeName.value) {
                type = Located(known, at: typeName.location)
            } else {
                errors.append(.unknownType(typeName.location, type: typeName.value, attribute: label))
            }
        } else if object["type"] == nil {
            errors.append(.missingKey(node.location, key: "type", context: "attribute '\(label)'"))
        }

        let inPlural = parent.map { $0.isInPlural || $0.type.value == .plural } ?? false
        let path = (parent?.path ?? "") + "/" + label
        let length = object["length"].flatMap { positiveInteger($0.value, "the 'length' of attribute '\(label)'") }
        let caseSensitive = object["case-sensitive"].flatMap { optionalBool($0.value, "'case-sensitive' of attribute '\(label)'") }
        let description = object["description"].flatMap { optionalString($0.value, "the 'description' of attribute '\(label)'") }
        let features = object["features"].map { strings($0.value, "the 'features' of attribute '\(label)'").map(\.value) } ?? []
        var constraints: [AttributeConstraint] = []
        for text in object["constraints"].map({ strings($0.value, "the 'constraints' of attribute '\(label)'") }) ?? [] {
            if let constraint = AttributeConstraint(rawValue: text.value) {
                if !constraints.contains(constraint) { constraints.append(constraint) }
            } else {
                errors.append(.unknownConstraint(text.location, constraint: text.value, attribute: label))
            }
        }
        // `null` stands for "not given" wherever a key is optional.
        let attributeList = object["attr_defs"].flatMap { $0.value.isNull ? nil : $0 }
        if let type {
            for key in ["length", "case-sensitive"] where type.value.holdsAttributes {
                if let member = object[key], !member.value.isNull {
                    errors.append(.keyDoesNotFitType(member.key.location, key: key, type: type.value, attribute: label))
                }
            }
            if let member = attributeList, !type.value.holdsAttributes {
                errors.append(.keyDoesNotFitType(member.key.location, key: "attr_defs", type: type.value, attribute: label))
            } else if attributeList == nil, type.value.holdsAttributes {
                errors.append(.missingKey(node.location, key: "attr_defs", context: "\(type.value.name) '\(label)'"))
            }
        }
        guard let name, let type else {
            // Still look inside, so that one pass reports the nested problems too.
            if let nested = attributeList {
                _ = attributes(nested.value, parent: nil, context: "'attr_defs'")
            }
            return nil
        }
        var definition = AttributeDefinition(
            name: name, type: type, length: length, caseSensitive: caseSensitive, description: description,
            features: features, constraints: constraints, path: path,
            // A plural element's `id` is the server's, whatever type the schema gives it.
            isReadOnly: type.value == .id || (parent == nil && EntitySchema.reservedAttributes.contains(name.value))
                || (parent?.type.value == .plural && name.value == "id"),
            isInPlural: inPlural
        )
        if let nested = attributeList, type.value.holdsAttributes {
            definition.attributes = attributes(nested.value, parent: definition, context: "the 'attr_defs' of attribute '\(label)'")
        }
        return definition
    }

    /// Names are path segments: not empty, no `/`, `.`, `#`, whitespace or control characters.
    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty
            && !name.unicodeScalars.contains { scalar in
                scalar == "/" || scalar == "." || scalar == "#" || scalar.properties.isWhitespace
                    || scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format
            }
    }

    // MARK: typed getters

    /// The members of an object by key, after reporting duplicate and unknown keys.
    mutating func object(_ node: JSONNode, context: String, known: [String], ignoringUnknown: Bool = false) -> [String: JSONNode.Member]? {
        guard case .object(let members) = node.value else {
            errors.append(.wrongKind(node.location, expected: "an object", found: node.kindDescription, context: context))
            return nil
        }
        var result: [String: JSONNode.Member] = [:]
        for member in members {
            if let first = result[member.key.value] {
                errors.append(.duplicateKey(member.key.location, key: member.key.value, first: first.key.location))
                continue
            }
            if !known.contains(member.key.value) {
                if !ignoringUnknown {
                    errors.append(.unknownKey(member.key.location, key: member.key.value, context: context, known: known))
                }
                continue
            }
            result[member.key.value] = member
        }
        return result
    }

    mutating func string(_ node: JSONNode, _ context: String) -> Located<String>? {
        if let text = node.stringValue { return Located(text, at: node.location) }
        errors.append(.wrongKind(node.location, expected: "a string", found: node.kindDescription, context: context))
        return nil
    }

    /// A string, or nil for `null` (Capture writes `"description": null`).
    mutating func optionalString(_ node: JSONNode, _ context: String) -> String? {
        node.isNull ? nil : string(node, context)?.value
    }

    mutating func optionalBool(_ node: JSONNode, _ context: String) -> Bool? {
        switch node.value {
        case .null: return nil
        case .bool(let value): return value
        default:
            errors.append(.wrongKind(node.location, expected: "true, false or null", found: node.kindDescription, context: context))
            return nil
        }
    }

    /// A positive integer, or nil for `null`.
    mutating func positiveInteger(_ node: JSONNode, _ context: String) -> Int? {
        switch node.value {
        case .null: return nil
        case .number(let text):
            if let value = Int(text), value > 0 { return value }
            errors.append(.wrongKind(node.location, expected: "a positive integer", found: text, context: context))
        default:
            errors.append(.wrongKind(node.location, expected: "a positive integer or null", found: node.kindDescription, context: context))
        }
        return nil
    }

    /// A list of strings (`null` is an empty list).
    mutating func strings(_ node: JSONNode, _ context: String) -> [Located<String>] {
        switch node.value {
        case .null: return []
        case .array(let items):
            return items.compactMap { string($0, "an entry of \(context)") }
        default:
            errors.append(.wrongKind(node.location, expected: "a list of strings", found: node.kindDescription, context: context))
            return []
        }
    }
}

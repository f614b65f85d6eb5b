import JumpForms

/// A source file the generator wrote: its name and its text.
public struct GeneratedFile: Sendable, Hashable {
    public var name: String
    public var contents: String

    public init(name: String, contents: String) {
        self.name = name
        self.contents = contents
    }
}

/// Turns a Capture schema into Swift source: the app's user model (`jump-forms generate model`).
///
/// - One `Codable`, `Sendable`, `Equatable` struct per object and per plural element, nested in
///   the type that holds it (`User.PrimaryAddress`, `User.PhotosElement`), so names only need
///   to differ among siblings. A plural element's type is the plural's UpperCamel name with
///   `Element`; an element always has its `id`, even when the schema does not list it.
/// - A plural whose elements hold one string (besides `id`) is `[String]`.
/// - string, ipAddress and uuid are `String`; boolean `Bool`; integer and id `Int`; decimal
///   `Decimal` (exact: `0.1` stays `0.1`, which a `Double` would not); date and dateTime the
///   support types `CaptureDate` and `CaptureDateTime`; json `CaptureJSON`.
/// - Password attributes are not in the model: they are write-only and never in a record.
/// - Every property is optional: a record read with `attribute_name`, or one being made, holds
///   only some attributes. Attributes the server sets are `private(set)`.
/// - Explicit `CodingKeys` map every property to its exact schema name; `init(from:)` and
///   `encode(to:)` are written out, and `nil` is encoded as `null`, as records hold it.
/// - Each property's documentation carries its schema path, type, constraints and whether an
///   access token may write it; the root type lists the writable paths in
///   `writableAttributePaths`.
///
/// Names follow `SwiftNames`. The support types (`CaptureSupport.swift`) and the root type
/// carry the type prefix.
public struct ModelGenerator: Sendable {
    public var schema: EntitySchema
    public var accessSchema: AccessSchema?
    public var typePrefix: String

    public init(schema: EntitySchema, accessSchema: AccessSchema? = nil, typePrefix: String = "") {
        self.schema = schema
        self.accessSchema = accessSchema
        self.typePrefix = typePrefix
    }

    /// A prefix is empty, or ASCII letters, digits and `_` not starting with a digit.
    public static func isValidTypePrefix(_ prefix: String) -> Bool {
        prefix.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") } && prefix.first?.isNumber != true
    }

    var support: SupportSource.Names { SupportSource.Names(prefix: typePrefix) }

    /// Type names a nested type may not take: they would hide a type the code uses. The
    /// support file's name is taken too, so the model's file never overwrites it.
    var reservedTypeNames: Set<String> { SwiftNames.standardTypes.union(support.all).union([support.fileStem]) }

    /// The model's top-level type: the prefix and the entity type's name (`user` without one).
    public var rootTypeName: String {
        let name = typePrefix + SwiftNames.upperCamel(schema.name ?? "user")
        // Compared ignoring case too: on a case-insensitive disk `CAPTURESUPPORT.swift` is the support file.
        let clashes = reservedTypeNames.contains(name) || name.lowercased() == support.fileStem.lowercased()
        return clashes ? name + "Object" : name
    }

    /// The model file and the support file.
    public func files() -> [GeneratedFile] {
        [
            GeneratedFile(name: rootTypeName + ".swift", contents: modelSource()),
            GeneratedFile(name: support.fileName, contents: SupportSource.text(support))
        ]
    }

    // MARK: the type tree

    struct Property {
        var name: String
        var schemaName: String
        var type: String
        var isReadOnly: Bool
        /// For a string plural: the elements' string attribute.
        var stringElement: String?
        var documentation: [String]
    }

    struct TypeSpec {
        var name: String
        var documentation: [String]
        var properties: [Property]
        var nested: [TypeSpec]
        var isRoot: Bool
    }

    /// The type of `attributes`, with its nested types.
    func typeSpec(name: String, documentation: [String], attributes: [AttributeDefinition], isRoot: Bool) -> TypeSpec {
        let modelled = attributes.filter { !$0.type.value.isPassword }
        let propertyNames = SwiftNames.unique(
            modelled.map { SwiftNames.lowerCamel($0.name.value) },
            exact: modelled.map { SwiftNames.lowerCamel($0.name.value) == $0.name.value })
        let composite = modelled.filter { $0.type.value == .object || ($0.type.value == .plural && $0.stringPluralElement == nil) }
        let preferredTypes = composite.map { attribute -> String in
            let base = SwiftNames.upperCamel(attribute.name.value) + (attribute.type.value == .plural ? "Element" : "")
            return reservedTypeNames.contains(base) ? base + "Object" : base
        }
        // As with properties, the attribute whose name needs no mangling keeps the plain name.
        let typeNames = SwiftNames.unique(
            preferredTypes, exact: composite.map { SwiftNames.lowerCamel($0.name.value) == $0.name.value },
            taken: reservedTypeNames)
        var typeNameByPath: [String: String] = [:]
        var nested: [TypeSpec] = []
        for (attribute, typeName) in zip(composite, typeNames) {
            typeNameByPath[attribute.path] = typeName
            if attribute.type.value == .object {
                nested.append(
                    typeSpec(name: typeName, documentation: objectDocumentation(attribute), attributes: attribute.attributes, isRoot: false))
            } else {
                var elements = attribute.attributes
                if !elements.contains(where: { $0.name.value == "id" }) {
                    elements.insert(
                        AttributeDefinition(
                            name: Located("id", at: attribute.name.location), type: Located(.id, at: attribute.type.location),
                            description: "The element's id, set by the server.", path: attribute.path + "/id",
                            isReadOnly: true, isInPlural: true), at: 0)
                }
                nested.append(typeSpec(name: typeName, documentation: elementDocumentation(attribute), attributes: elements, isRoot: false))
            }
        }
        var properties: [Property] = []
        for (attribute, name) in zip(modelled, propertyNames) {
            var type = Self.valueType(attribute.type.value, support) ?? ""
            var stringElement: String?
            if attribute.type.value == .object {
                type = typeNameByPath[attribute.path]!
            } else if let element = attribute.stringPluralElement {
                type = "[String]"
                stringElement = element.name.value
            } else if attribute.type.value == .plural {
                type = "[\(typeNameByPath[attribute.path]!)]"
            }
            properties.append(
                Property(
                    name: name, schemaName: attribute.name.value, type: type,
                    isReadOnly: attribute.isReadOnly, stringElement: stringElement,
                    documentation: propertyDocumentation(attribute)))
        }
        var documentation = documentation
        let passwords = attributes.filter { $0.type.value.isPassword }
        if !passwords.isEmpty {
            documentation += [
                "",
                "Not in the model (write-only, never in a record): "
                    + passwords.map { "`\($0.name.value)` (\($0.type.value.name))" }.joined(separator: ", ") + "."
            ]
        }
        return TypeSpec(name: name, documentation: documentation, properties: properties, nested: nested, isRoot: isRoot)
    }

    /// The Swift type of a value attribute; nil for objects, plurals (their types are made
    /// from the schema) and passwords (not in the model).
    static func valueType(_ type: AttributeType, _ support: SupportSource.Names) -> String? {
        switch type {
        case .string, .ipAddress, .uuid: "String"
        case .boolean: "Bool"
        case .integer, .id: "Int"
        case .decimal: "Decimal"
        case .date: support.date
        case .dateTime: support.dateTime
        case .json: support.json
        case .object, .plural, .password: nil
        }
    }

    /// What an attribute of the type becomes in the model, as the docs say it.
    public static func modelDescription(of type: AttributeType) -> String {
        if let swift = valueType(type, SupportSource.Names(prefix: "")) { return "`\(swift)?`" }
        switch type {
        case .object: return "a nested struct named after the attribute (`primaryAddress` -> `PrimaryAddress?`)"
        case .plural:
            return
                """
                an array of a nested struct named after the plural with `Element` (`photos` -> `[PhotosElement]?`), with its `id`; `[String]?` when \
                the elements hold one string besides `id` (and password attributes, never in the model)
                """
        default: return "nothing: write-only, never in a record"
        }
    }

    // MARK: documentation

    var schemaFileName: String { Self.fileName(schema.file) }

    static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    func rootDocumentation() -> [String] {
        var lines = ["A record of the Capture entity type `\(schema.name ?? "user")`, generated from `\(schemaFileName)`.", ""]
        lines += [
            "Objects are updated (`entity.update`) and plurals replaced whole (`entity.replace`).",
            "`id`, `uuid`, `created` and `lastUpdated` are set by the server: read-only here.",
            "Every attribute is optional: a record read with `attribute_name`, or one being made,",
            "holds only some."
        ]
        return lines
    }

    func objectDocumentation(_ attribute: AttributeDefinition) -> [String] {
        var lines = descriptionLines(attribute)
        if lines.isEmpty { lines = ["The object `\(attribute.path)`."] }
        return lines + ["", "Schema path `\(attribute.path)`: object; changes are sent with `entity.update`."] + accessLines(attribute)
    }

    func elementDocumentation(_ attribute: AttributeDefinition) -> [String] {
        var lines = ["An element of the plural `\(attribute.path)`."]
        let description = descriptionLines(attribute)
        if !description.isEmpty { lines = description + [""] + lines }
        return lines + ["", "The plural is replaced whole (`entity.replace`); the server gives each element its `id`."]
    }

    func propertyDocumentation(_ attribute: AttributeDefinition) -> [String] {
        var lines = descriptionLines(attribute)
        if !lines.isEmpty { lines.append("") }
        var type = attribute.type.value.name
        switch attribute.type.value {
        case .date: type += ", `yyyy-MM-dd`"
        case .dateTime: type += ", UTC (`yyyy-MM-dd HH:mm:ss.SSSSSS +0000`)"
        case .json: type += ", any JSON value; a change sets it whole"
        case .object: type += "; changes are sent with `entity.update`"
        case .plural:
            if let element = attribute.stringPluralElement {
                type =
                    "plural of strings (each element's `\(element.name.value)`); a change replaces it whole"
                    + " (`entity.replace`) and the elements' ids are not kept"
            } else {
                type += "; a change replaces it whole (`entity.replace`)"
            }
        default: break
        }
        if let length = attribute.length { type += ", at most \(length) characters" }
        if let caseSensitive = attribute.caseSensitive { type += caseSensitive ? ", case-sensitive" : ", case-insensitive" }
        lines.append("Schema path `\(attribute.path)`: \(type).")
        if !attribute.constraints.isEmpty {
            lines.append("Constraints: \(attribute.constraints.map(\.rawValue).joined(separator: ", ")).")
        }
        if !attribute.features.isEmpty {
            lines.append("Features: \(attribute.features.map(Self.printable).joined(separator: ", ")).")
        }
        if attribute.isReadOnly {
            lines.append("Read-only: set by the server.")
        } else {
            lines += accessLines(attribute)
        }
        return lines
    }

    /// What the access schema says of an attribute, when there is one.
    func accessLines(_ attribute: AttributeDefinition) -> [String] {
        guard let accessSchema, !attribute.isInPlural, !attribute.isReadOnly, !accessSchema.allowsWriting(attribute.path) else { return [] }
        if attribute.type.value == .object, accessSchema.allowsWritingPart(of: attribute.path) {
            return ["Only some of its attributes are writable with an access token (see `writableAttributePaths`)."]
        }
        return ["Not writable with an access token: outside the access schema (the server answers error 223)."]
    }

    /// The schema's `description` as a sentence: first letter capitalized, a final period.
    func descriptionLines(_ attribute: AttributeDefinition) -> [String] {
        guard let description = attribute.description else { return [] }
        var lines = description.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            .map { Self.printable(String($0)).drop { $0 == " " } }.map(String.init)
        while lines.first?.isEmpty == true { lines.removeFirst() }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard !lines.isEmpty else { return [] }
        lines[0] = lines[0].prefix(1).uppercased() + lines[0].dropFirst()
        if let last = lines[lines.count - 1].last, last.isLetter || last.isNumber {
            lines[lines.count - 1] += "."
        }
        return lines
    }

    /// Documentation lines no wider than `width` columns once indented: words move to the
    /// next line, never splitting a `code span`.
    static func wrap(_ line: String, width: Int) -> [String] {
        var tokens: [String] = []
        var inCode = false
        for word in line.split(separator: " ", omittingEmptySubsequences: false) {
            if inCode, let last = tokens.popLast() {
                tokens.append(last + " " + word)
            } else {
                tokens.append(String(word))
            }
            if word.filter({ $0 == "`" }).count % 2 == 1 { inCode.toggle() }
        }
        var lines: [String] = []
        var current = ""
        for token in tokens {
            if current.isEmpty {
                current = token
            } else if current.count + 1 + token.count <= width {
                current += " " + token
            } else {
                lines.append(current)
                current = token
            }
        }
        lines.append(current)
        return lines
    }

    /// Text with control characters replaced by spaces and trailing spaces removed.
    static func printable(_ text: String) -> String {
        var result = String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { scalar in
                    scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format ? " " : scalar
                }))
        while result.last == " " { result.removeLast() }
        return result
    }

    /// A Swift string literal of `text`.
    static func literal(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                if scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format || scalar.value == 0x2028
                    || scalar.value == 0x2029
                {
                    out += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// The paths an access token may write: the access schema's, or without one every
    /// attribute the server does not set. Plurals are written whole, so nothing inside them
    /// is listed; password attributes are not in the model, so not in the list.
    public var writableAttributePaths: [String] {
        var paths: [String] = []
        func walk(_ attributes: [AttributeDefinition]) {
            for attribute in attributes where !attribute.isReadOnly && !attribute.type.value.isPassword {
                if accessSchema?.allowsWriting(attribute.path) ?? true { paths.append(attribute.path) }
                if attribute.type.value == .object { walk(attribute.attributes) }
            }
        }
        walk(schema.attributes)
        return paths
    }

    // MARK: rendering

    /// The widest documentation line, indentation included.
    static let lineWidth = 110

    func modelSource() -> String {
        let root = typeSpec(name: rootTypeName, documentation: rootDocumentation(), attributes: schema.attributes, isRoot: true)
        var out = "// \(rootTypeName).swift: the user model of the Capture entity type `\(schema.name ?? "user")`.\n"
        out += "// Generated by `jump-forms generate model` from `\(schemaFileName)`.\n"
        if let accessSchema { out += "// Access schema: `\(Self.fileName(accessSchema.file))`.\n" }
        out += "// Do not edit: regenerate it when the schema changes.\n\n"
        if usesDecimal(schema.attributes) {
            out += "#if canImport(FoundationEssentials)\nimport FoundationEssentials\n#else\nimport Foundation\n#endif\n\n"
        }
        render(root, indent: "", into: &out)
        return out
    }

    func usesDecimal(_ attributes: [AttributeDefinition]) -> Bool {
        attributes.contains { $0.type.value == .decimal || usesDecimal($0.attributes) }
    }

    func render(_ spec: TypeSpec, indent: String, into out: inout String) {
        let inner = indent + "    "
        let body = inner + "    "
        func doc(_ lines: [String], _ indent: String) {
            for line in lines {
                if line.isEmpty {
                    out += "\(indent)///\n"
                    continue
                }
                for part in Self.wrap(line, width: max(40, Self.lineWidth - indent.count - 4)) {
                    out += "\(indent)/// \(part)\n"
                }
            }
        }
        doc(spec.documentation, indent)
        out += "\(indent)public struct \(spec.name): Codable, Sendable, Equatable {\n"
        for (index, property) in spec.properties.enumerated() {
            if index > 0 { out += "\n" }
            doc(property.documentation, inner)
            let access = property.isReadOnly ? "public private(set) var" : "public var"
            out += "\(inner)\(access) \(SwiftNames.code(property.name)): \(property.type)?\n"
        }
        if spec.isRoot {
            if !spec.properties.isEmpty { out += "\n" }
            if let accessSchema {
                doc(
                    [
                        "The attribute paths an access token may write, from the access schema `\(Self.fileName(accessSchema.file))`:",
                        "an object's path covers its attributes. Plurals are written whole."
                    ], inner)
            } else {
                doc(
                    [
                        "The attribute paths an access token may write. Generated without an access schema: every",
                        "attribute the server does not set. Plurals are written whole."
                    ], inner)
            }
            let paths = writableAttributePaths
            if paths.isEmpty {
                out += "\(inner)public static let writableAttributePaths: Set<String> = []\n"
            } else {
                out += "\(inner)public static let writableAttributePaths: Set<String> = [\n"
                for path in paths { out += "\(body)\(Self.literal(path)),\n" }
                out += "\(inner)]\n"
            }
        }
        // The memberwise initializer: writable attributes only.
        let parameters = spec.properties.filter { !$0.isReadOnly }
        if !spec.properties.isEmpty || spec.isRoot { out += "\n" }
        doc(["Makes a value from its attributes; those the server sets start empty."], inner)
        if parameters.isEmpty {
            out += "\(inner)public init() {}\n"
        } else if parameters.count == 1, let property = parameters.first {
            let name = SwiftNames.code(property.name)
            out += "\(inner)public init(\(name): \(property.type)? = nil) {\n\(body)self.\(name) = \(name)\n\(inner)}\n"
        } else {
            out += "\(inner)public init(\n"
            for (index, property) in parameters.enumerated() {
                let separator = index == parameters.count - 1 ? "" : ","
                out += "\(body)\(SwiftNames.code(property.name)): \(property.type)? = nil\(separator)\n"
            }
            out += "\(inner)) {\n"
            for property in parameters {
                let name = SwiftNames.code(property.name)
                out += "\(body)self.\(name) = \(name)\n"
            }
            out += "\(inner)}\n"
        }
        // Coding.
        out += "\n"
        if spec.properties.isEmpty {
            out += "\(inner)enum CodingKeys: CodingKey {}\n\n"
            out += "\(inner)public init(from decoder: any Decoder) throws {\n"
            out += "\(body)_ = try decoder.container(keyedBy: CodingKeys.self)\n"
            out += "\(inner)}\n\n"
            out += "\(inner)public func encode(to encoder: any Encoder) throws {\n"
            out += "\(body)_ = encoder.container(keyedBy: CodingKeys.self)\n"
            out += "\(inner)}\n"
        } else {
            out += "\(inner)enum CodingKeys: String, CodingKey {\n"
            for property in spec.properties {
                let name = SwiftNames.code(property.name)
                out +=
                    property.name == property.schemaName
                    ? "\(body)case \(name)\n"
                    : "\(body)case \(name) = \(Self.literal(property.schemaName))\n"
            }
            out += "\(inner)}\n\n"
            out += "\(inner)public init(from decoder: any Decoder) throws {\n"
            out += "\(body)let container = try decoder.container(keyedBy: CodingKeys.self)\n"
            for property in spec.properties {
                let name = SwiftNames.code(property.name)
                if let element = property.stringElement {
                    out +=
                        "\(body)self.\(name) = try \(support.stringPlural).decode(container, forKey: .\(name), element: \(Self.literal(element)))\n"
                } else {
                    out += "\(body)self.\(name) = try container.decodeIfPresent(\(property.type).self, forKey: .\(name))\n"
                }
            }
            out += "\(inner)}\n\n"
            out += "\(inner)public func encode(to encoder: any Encoder) throws {\n"
            out += "\(body)var container = encoder.container(keyedBy: CodingKeys.self)\n"
            for property in spec.properties {
                let name = SwiftNames.code(property.name)
                if let element = property.stringElement {
                    out +=
                        """
                        \(body)try \(support.stringPlural).encode(self.\(name), to: &container, forKey: .\(name), element: \(Self.literal(element)))\
                        \n
                        """
                } else {
                    out += "\(body)try container.encode(self.\(name), forKey: .\(name))\n"
                }
            }
            out += "\(inner)}\n"
        }
        for nested in spec.nested {
            out += "\n"
            render(nested, indent: inner, into: &out)
        }
        out += "\(indent)}\n"
    }
}

import JumpForms

/// A client's write access schema: the attribute paths an access token may write
/// (`entity.update`, `entity.replace`); the server answers error 223 for the others.
///
/// The file is a JSON list of paths (`["/displayName", "/primaryAddress/city"]`; `a.b` and
/// `a/b` are read as `/a/b`), or the Capture API's answer
/// `{"stat": "ok", "access_schema": [...]}`. A path covers the attributes under it.
public struct AccessSchema: Sendable, Hashable {
    /// The access-schema file.
    public var file: String
    /// The paths, normalized to `/a/b`, where each was written.
    public var paths: [Located<String>]

    public init(file: String, paths: [Located<String>]) {
        self.file = file
        self.paths = paths
    }

    /// Whether an access token may write the attribute at `path`: it, or an object or plural
    /// above it, is listed.
    public func allowsWriting(_ path: String) -> Bool {
        let listed = Set(paths.map(\.value))
        var current = path
        while !current.isEmpty {
            if listed.contains(current) { return true }
            guard let slash = current.lastIndex(of: "/") else { break }
            current = String(current[..<slash])
        }
        return false
    }

    /// Whether some attribute below `path` is listed (an object that is only partly writable).
    public func allowsWritingPart(of path: String) -> Bool {
        paths.contains { $0.value.hasPrefix(path + "/") }
    }

    static let responseKeys = ["stat", "access_schema"]

    /// Decodes the located JSON of an access-schema file, checking every path against the
    /// schema.
    static func decode(_ root: JSONNode, file: String, schema: EntitySchema) -> (AccessSchema?, [SchemaError]) {
        var decoder = SchemaDecoder(file: file)
        var list = root
        switch root.value {
        case .array:
            break
        case .object(let members):
            let isError = members.contains { $0.key.value == "stat" && $0.value.stringValue != "ok" }
            guard let object = decoder.object(root, context: "the access schema", known: responseKeys, ignoringUnknown: isError) else {
                return (nil, decoder.errors)
            }
            if isError, let stat = object["stat"] {
                let message = ["message", "error_description", "error"].lazy
                    .compactMap { key in members.first { $0.key.value == key }?.value.stringValue }.first
                decoder.errors.append(
                    .errorResponse(stat.value.location, message: message ?? "stat is '\(stat.value.stringValue ?? stat.value.kindDescription)'"))
                return (nil, decoder.errors)
            }
            guard let member = object["access_schema"] else {
                decoder.errors.append(.missingKey(root.location, key: "access_schema", context: "the access schema"))
                return (nil, decoder.errors)
            }
            list = member.value
        default:
            decoder.errors.append(
                .wrongKind(
                    root.location, expected: "a list of attribute paths", found: root.kindDescription,
                    context: "an access schema"))
            return (nil, decoder.errors)
        }
        let known = schema.allAttributes.map(\.path)
        var paths: [Located<String>] = []
        var warnings: [SchemaError] = []
        for text in decoder.strings(list, "the access schema") {
            let path = EntitySchema.path(EntitySchema.segments(of: text.value))
            guard let attribute = schema.attribute(at: path) else {
                decoder.errors.append(.unknownAccessPath(text.location, path: text.value, known: known))
                continue
            }
            if let ignored = ignoredReason(attribute, schema: schema) {
                warnings.append(.accessPathIgnored(text.location, path: text.value, reason: ignored.reason, hint: ignored.hint))
                continue
            }
            paths.append(Located(path, at: text.location))
        }
        return decoder.errors.isEmpty ? (AccessSchema(file: file, paths: paths), warnings) : (nil, decoder.errors + warnings)
    }

    /// Why a listed attribute makes nothing writable by itself: it is inside a plural (written
    /// whole), set by the server, or a password (not in the model, written through forms).
    static func ignoredReason(_ attribute: AttributeDefinition, schema: EntitySchema) -> (reason: String, hint: String?)? {
        if attribute.isInPlural {
            let segments = EntitySchema.segments(of: attribute.path)
            let plural =
                (1...segments.count).lazy.map { EntitySchema.path(Array(segments.prefix($0))) }
                .first { schema.attribute(at: $0)?.type.value == .plural } ?? attribute.path
            return ("it is inside the plural '\(plural)', which is written whole (entity.replace)", "list '\(plural)' to make the plural writable")
        }
        if attribute.isReadOnly {
            return ("the server sets it; no access token writes it", nil)
        }
        if attribute.type.value.isPassword {
            return ("a password attribute is written through the forms and is not part of the model", nil)
        }
        return nil
    }
}

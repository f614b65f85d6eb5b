import JumpForms

/// The shape rules of `/entity.update` and `/entity.replace` that hold whatever the flow says:
/// attribute paths and keys name attributes one by one, and plurals (lists of objects, each
/// element with an `id`) are written whole by `entity.replace` only.
///
/// Each check answers the reason a write is refused (for a 200 `invalid_argument`), or nil.
enum RecordWriteShape {
    /// An `attribute_name` (`/primaryAddress/city`) whose segments cannot name attributes: an
    /// empty segment (`//`, a trailing `/`), `.` or `..`, or a segment holding a `.` (the
    /// server's paths are dotted, so it would name a nested attribute). A name without the
    /// leading `/` is left to the write list (223).
    static func attributeProblem(_ attribute: String) -> String? {
        guard attribute.hasPrefix("/"), attribute != "/" else { return nil }
        for segment in attribute.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            if let problem = keyProblem(String(segment)) { return "\(attribute): \(problem)" }
        }
        return nil
    }

    /// Why a key cannot name an attribute: empty, or holding `.` or `/`; `.` and `..` included.
    static func keyProblem(_ key: String) -> String? {
        if key.isEmpty { return "an empty attribute name" }
        if key.contains(".") || key.contains("/") {
            return "the attribute name '\(key)' holds '.' or '/' (a path separator)"
        }
        return nil
    }

    /// The first key of `value`, at any depth (inside lists too), that cannot name an
    /// attribute, with the attribute it would be under (`/primaryAddress` + key).
    static func keyProblem(in value: JSONValue, at attribute: String) -> String? {
        switch value {
        case .object(let entries):
            for (key, item) in entries {
                if let problem = keyProblem(key) { return "\(attribute.isEmpty ? "/" : attribute): \(problem)" }
                if let problem = keyProblem(in: item, at: attribute + "/" + key) { return problem }
            }
        case .array(let items):
            for item in items {
                if let problem = keyProblem(in: item, at: attribute) { return problem }
            }
        default: break
        }
        return nil
    }

    /// `entity.update` writes objects and values, never plurals: a list anywhere in the value,
    /// or a write at or inside an attribute the record holds as a list (which would turn the
    /// plural into something `entity.replace` can no longer replace). `value` is the written
    /// value at `attribute` (`""` for the root); `record` the whole record.
    static func pluralProblem(update value: JSONValue, at attribute: String, record: JSONValue) -> String? {
        var current: JSONValue? = record
        var walked = ""
        for part in attribute.split(separator: "/") {
            walked += "/" + part
            current = current?[String(part)]
            if case .array? = current { return pluralWritten(walked) }
        }
        return pluralProblem(value, at: attribute, held: current)
    }

    private static func pluralProblem(_ value: JSONValue, at attribute: String, held: JSONValue?) -> String? {
        if case .array? = held { return pluralWritten(attribute) }
        switch value {
        case .array:
            return "\(attribute) takes a list: entity.update writes no plurals (entity.replace replaces a plural whole)"
        case .object(let entries):
            for (key, item) in entries {
                if let problem = pluralProblem(item, at: attribute + "/" + key, held: held?[key]) { return problem }
            }
        default: break
        }
        return nil
    }

    private static func pluralWritten(_ attribute: String) -> String {
        "\(attribute) is a plural: entity.update cannot write it (entity.replace replaces it whole)"
    }

    /// `entity.replace`'s list: every element an object (the server gives each its `id`), and
    /// the path not inside a plural the record holds (`/photos/x`).
    static func pluralProblem(replace items: [JSONValue], at attribute: String, record: JSONValue) -> String? {
        var current: JSONValue? = record
        var walked = ""
        for part in attribute.split(separator: "/").dropLast() {
            walked += "/" + part
            current = current?[String(part)]
            if case .array? = current { return "\(attribute) is inside the plural \(walked): entity.replace replaces a plural whole" }
        }
        if let index = items.firstIndex(where: { $0.objectValue == nil }) {
            return "element \(index + 1) of \(attribute) is \(items[index].kindDescription): a plural is a list of objects"
        }
        return nil
    }
}

import JumpForms

/// One call that brings the stored record in line with local edits.
public enum RecordChange: Sendable, Hashable {
    /// `entity.update` of an object (`nil` attribute for the root) with the changed keys.
    case update(attribute: String?, value: JSONValue)
    /// `entity.replace` of a plural with its whole new list.
    case replace(attribute: String, value: JSONValue)
}

/// What kind of attribute a record path holds, when a schema says so. Defined in JumpForms
/// (a schema reader such as JumpSchema gives it without depending on JumpCapture); kept here
/// under its old name.
public typealias AttributeKind = JumpForms.AttributeKind

/// Computes the calls that turn one record into another: objects are updated (only the keys
/// that changed), plurals are replaced whole (never an update that would drop plural changes),
/// reserved attributes (`id`, `uuid`, `created`, `lastUpdated`) are never sent.
public enum RecordChanges {
    public static let reservedAttributes: Set<String> = ["id", "uuid", "created", "lastUpdated"]

    /// - Parameter kind: what a path (`/primaryAddress`) holds, from a schema
    ///   (`EntitySchema.attributeKind(path:)` of JumpSchema); without one, JSON objects are
    ///   objects and arrays are plurals.
    public static func changes(from before: JSONValue, to after: JSONValue,
                               kind: (String) -> AttributeKind? = { _ in nil }) -> [RecordChange] {
        var result: [RecordChange] = []
        diffObject(before.objectValue ?? [], after.objectValue ?? [], path: "", kind: kind, into: &result)
        return result
    }

    static func diffObject(_ old: [(key: String, value: JSONValue)], _ new: [(key: String, value: JSONValue)], path: String,
                           kind: (String) -> AttributeKind?, into result: inout [RecordChange]) {
        var updated: [(key: String, value: JSONValue)] = []
        var nested: [RecordChange] = []
        let oldValues = Dictionary(old.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
        let newKeys = Set(new.map(\.key))
        for (key, value) in new where !(path.isEmpty && reservedAttributes.contains(key)) {
            let childPath = path + "/" + key
            let previous = oldValues[key]
            if previous == value { continue }
            switch kind(childPath) ?? inferred(value, previous) {
            case .plural:
                nested.append(.replace(attribute: childPath, value: stripReserved(value)))
            case .object:
                if let previous, case .object(let oldEntries) = previous, case .object(let newEntries) = value {
                    diffObject(oldEntries, newEntries, path: childPath, kind: kind, into: &nested)
                } else {
                    updated.append((key, stripReserved(value)))
                }
            case .primitive:
                updated.append((key, value))
            }
        }
        for (key, value) in old where !newKeys.contains(key) && !(path.isEmpty && reservedAttributes.contains(key)) {
            let childPath = path + "/" + key
            if (kind(childPath) ?? inferred(value, nil)) == .plural {
                nested.append(.replace(attribute: childPath, value: .array([])))
            } else {
                updated.append((key, .null))
            }
        }
        if !updated.isEmpty {
            result.append(.update(attribute: path.isEmpty ? nil : path, value: .object(updated)))
        }
        result += nested
    }

    static func inferred(_ value: JSONValue, _ previous: JSONValue?) -> AttributeKind {
        switch value {
        case .array: .plural
        case .object: .object
        case .null:
            if case .array? = previous { .plural } else { .primitive }
        default: .primitive
        }
    }

    /// Plural elements get their ids from the server: reserved keys are dropped at every level.
    static func stripReserved(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let entries):
            .object(entries.filter { !reservedAttributes.contains($0.key) }.map { ($0.key, stripReserved($0.value)) })
        case .array(let items):
            .array(items.map(stripReserved))
        default:
            value
        }
    }
}

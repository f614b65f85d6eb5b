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
/// and what the server sets is never sent.
///
/// What the server sets: the reserved attributes at the top of the record (`id`, `uuid`,
/// `created`, `lastUpdated`), each plural element's `id`, and, given a schema, every attribute
/// it marks read-only (`AttributeKind.readOnly`: attributes of type `id` anywhere). Values are
/// never searched for such names: a `json` attribute, or a writable `created` inside an
/// object, is sent as it is.
public enum RecordChanges {
    public static let reservedAttributes: Set<String> = ["id", "uuid", "created", "lastUpdated"]

    /// - Parameter kind: what a path (`/primaryAddress`; `/photos/type` inside a plural's
    ///   elements) holds, from a schema (`EntitySchema.attributeKind(path:)` of JumpSchema);
    ///   without one, JSON objects are objects and arrays are plurals.
    public static func changes(
        from before: JSONValue, to after: JSONValue,
        kind: (String) -> AttributeKind? = { _ in nil }
    ) -> [RecordChange] {
        var result: [RecordChange] = []
        diffObject(before.objectValue ?? [], after.objectValue ?? [], path: "", kind: kind, into: &result)
        return result
    }

    /// Whether the attribute `key` of the object at `path` is set by the server.
    static func isReadOnly(_ key: String, path: String, kind: (String) -> AttributeKind?) -> Bool {
        (path.isEmpty && reservedAttributes.contains(key)) || kind(path + "/" + key) == .readOnly
    }

    static func diffObject(
        _ old: [(key: String, value: JSONValue)], _ new: [(key: String, value: JSONValue)], path: String,
        kind: (String) -> AttributeKind?, into result: inout [RecordChange]
    ) {
        var updated: [(key: String, value: JSONValue)] = []
        var nested: [RecordChange] = []
        let oldValues = Dictionary(old.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
        let newKeys = Set(new.map(\.key))
        for (key, value) in new where !isReadOnly(key, path: path, kind: kind) {
            let childPath = path + "/" + key
            let previous = oldValues[key]
            if previous == value { continue }
            switch kind(childPath) ?? inferred(value, previous) {
            case .plural:
                nested.append(.replace(attribute: childPath, value: plural(value, path: childPath, kind: kind)))
            case .object:
                let oldEntries = previous?.objectValue ?? []
                if let newEntries = value.objectValue {
                    // A new object is diffed against an empty one, so that its plurals are
                    // replaced rather than carried inside an update.
                    diffObject(oldEntries, newEntries, path: childPath, kind: kind, into: &nested)
                } else if value == .null, !oldEntries.isEmpty {
                    diffObject(oldEntries, [], path: childPath, kind: kind, into: &nested)
                } else {
                    updated.append((key, value))
                }
            case .primitive:
                updated.append((key, value))
            case .readOnly:
                continue
            }
        }
        for (key, value) in old where !newKeys.contains(key) && !isReadOnly(key, path: path, kind: kind) {
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

    /// A plural's new list as `entity.replace` sends it: each element without its `id` (the
    /// server numbers elements again) and without what the schema marks read-only.
    static func plural(_ value: JSONValue, path: String, kind: (String) -> AttributeKind?) -> JSONValue {
        guard case .array(let items) = value else { return value }
        return .array(
            items.map { item in
                guard case .object(let entries) = item else { return item }
                return .object(entries.filter { $0.key != "id" }.compactMap { writable($0, path: path, kind: kind) })
            })
    }

    /// An attribute of an element or of an object sent whole: dropped when the schema marks
    /// it read-only; objects and plurals the schema knows are cleaned the same way; anything
    /// else (a `json` value above all) is kept as it is.
    static func writable(
        _ entry: (key: String, value: JSONValue), path: String,
        kind: (String) -> AttributeKind?
    ) -> (key: String, value: JSONValue)? {
        let childPath = path + "/" + entry.key
        switch kind(childPath) {
        case .readOnly?:
            return nil
        case .plural?:
            return (entry.key, plural(entry.value, path: childPath, kind: kind))
        case .object?:
            guard case .object(let entries) = entry.value else { return entry }
            return (entry.key, .object(entries.compactMap { writable($0, path: childPath, kind: kind) }))
        case .primitive?, nil:
            return entry
        }
    }
}

import JumpForms

/// The writes of `/entity.update`, `/entity.replace` and `/entity.delete` on a record, as the
/// JUMP SDKs use them:
///
/// - update merges an object into the object (or plural element) the path names, objects
///   inside it merged too; a list given for a plural appends new elements (Android adds
///   elements with `{"photos": [element]}` at the parent);
/// - replace sets a plural (a list), an object or a plural element (`/photos#3`) whole;
/// - delete removes a plural element, empties a plural, or clears an object or value.
///
/// Every element has an `id` the server gives (`ElementIDs`): new elements get new ones, an
/// element keeps its id through updates, and a replaced list keeps the ids of the elements it
/// names by `id`. What each attribute is comes from the `RecordModel` (the schema, or the
/// flow); `writable` is the write list (`server.writeWithToken`), by attribute names.
struct RecordEditor: Sendable {
    enum Kind: Sendable, Hashable {
        case update, replace, delete

        var call: String {
            switch self {
            case .update: "entity.update"
            case .replace: "entity.replace"
            case .delete: "entity.delete"
            }
        }
    }

    /// The record a write leaves, and the values it gave attributes that must be unique
    /// among records (by their names; never inside a plural).
    struct Edited: Sendable {
        var record: JSONValue
        var unique: [(names: [String], value: JSONValue)]
    }

    let model: RecordModel
    let writable: @Sendable ([String]) -> Bool

    /// Applies one write. `value` is what the call sent (`.null` for delete); the caller has
    /// checked that an update's value is an object and that replace and delete name an
    /// attribute.
    func apply(
        _ kind: Kind, at path: RecordPath, value: JSONValue, to record: JSONValue,
        ids: inout ElementIDs
    ) throws(RecordEditError) -> Edited {
        var state = State(kind: kind, ids: ids)
        let result: JSONValue
        if path.isRoot {
            // Only an update reaches the root.
            result = try merge(record.objectValue, value.objectValue ?? [], at: .root, element: nil, whole: false, state: &state)
        } else {
            result = try edit(record, path.steps[...], walked: .root, value: value, state: &state)
        }
        ids = state.ids
        return Edited(record: result, unique: state.unique)
    }

    private struct State {
        var kind: Kind
        var ids: ElementIDs
        var unique: [(names: [String], value: JSONValue)] = []
    }

    // MARK: reaching the attribute

    /// `container` (an object, or nothing yet) with the write done at `steps` below it.
    private func edit(
        _ container: JSONValue?, _ steps: ArraySlice<RecordPath.Step>, walked: RecordPath, value: JSONValue,
        state: inout State
    ) throws(RecordEditError) -> JSONValue {
        let step = steps.first!
        let here = walked.appending(step.name)
        let names = here.names
        let held = container?[step.name]
        let role = try checkedRole(names, at: here)
        let isLast = steps.count == 1
        if let id = step.element {
            switch role {
            case .plural,
                .unknown where held?.arrayValue != nil || isUnset(held):
                break
            default: throw .invalid("\(here.attribute) is not a plural: #\(id) picks an element of a plural")
            }
            guard var items = held?.arrayValue, let index = items.firstIndex(where: { $0["id"]?.intValue == id }) else {
                throw .elementNotFound("\(here.attribute) has no element with the id \(id)")
            }
            let elementPath = walked.appending(step.name, element: id)
            if isLast {
                switch state.kind {
                case .update:
                    try requireWritable(names, at: elementPath)
                    items[index] = try merge(
                        items[index].objectValue, value.objectValue ?? [], at: elementPath, element: id, whole: false, state: &state)
                case .replace:
                    try requireWritable(names, at: elementPath)
                    guard case .object(let entries) = value else {
                        throw .wrongShape("\(elementPath) is a plural element: entity.replace takes an object for it, not \(value.kindDescription)")
                    }
                    items[index] = try merge(items[index].objectValue, entries, at: elementPath, element: id, whole: true, state: &state)
                case .delete:
                    try requireWritable(names, at: elementPath)
                    items.remove(at: index)
                }
            } else {
                items[index] = try edit(items[index], steps.dropFirst(), walked: elementPath, value: value, state: &state)
            }
            try checkLocallyUnique(items, names: names, at: here)
            return (container ?? [:]).setting(step.name, .array(items))
        }
        if !isLast {
            // A step on the way: an object (made when missing).
            switch role {
            case .object,
                .unknown where isObject(held) || isUnset(held):
                return (container ?? [:]).setting(step.name, try edit(held, steps.dropFirst(), walked: here, value: value, state: &state))
            case .plural,
                .unknown where held?.arrayValue != nil:
                throw .invalid("\(here.attribute) is a plural: name one of its elements, \(here.attribute)#<id>")
            default:
                throw .invalid("\(here.attribute) is a value: it holds no attributes")
            }
        }
        try requireWritable(names, at: here)
        let new: JSONValue
        switch state.kind {
        case .update:
            switch role {
            case .anyJSON:
                new = value
            case .object,
                .unknown where held?.arrayValue == nil && (isObject(held) || held == .null || held == nil):
                new = try merge(held?.objectValue, value.objectValue ?? [], at: here, element: nil, whole: false, state: &state)
            case .plural,
                .unknown where held?.arrayValue != nil:
                throw .wrongShape(
                    "\(here.attribute) is a plural: entity.update appends elements with {\"\(step.name)\": [...]} at its parent, "
                        + "or writes one element at \(here.attribute)#<id>")
            default:
                throw .wrongShape("\(here.attribute) is a value: entity.update takes an object of attributes; write the value at its parent")
            }
        case .replace:
            new = try replace(held, with: value, role: role, at: here, state: &state)
        case .delete:
            if model.isRequired(names) { throw .required("\(here.attribute) is required: it cannot be deleted") }
            guard let held, held != .null else { return container ?? [:] }
            new = isPlural(role, held: held) ? .array([]) : .null
        }
        return (container ?? [:]).setting(step.name, new)
    }

    /// `entity.replace` at an attribute: a plural or an object whole (a `json` value as
    /// given); values are written with `entity.update`.
    private func replace(
        _ held: JSONValue?, with value: JSONValue, role: AttributeRole, at path: RecordPath,
        state: inout State
    ) throws(RecordEditError) -> JSONValue {
        switch role {
        case .anyJSON:
            return value
        case .plural,
            .unknown where held?.arrayValue != nil || (isUnset(held) && value.arrayValue != nil):
            guard case .array(let items) = value else {
                throw .wrongShape("\(path.attribute) is a plural: entity.replace takes the list of its elements, not \(value.kindDescription)")
            }
            return try replaceElements(held?.arrayValue ?? [], with: items, at: path, state: &state)
        case .object,
            .unknown where isObject(held) || (isUnset(held) && value.objectValue != nil):
            guard case .object(let entries) = value else {
                throw .wrongShape("\(path.attribute) is an object: entity.replace takes an object for it, not \(value.kindDescription)")
            }
            return try merge(held?.objectValue, entries, at: path, element: nil, whole: true, state: &state)
        default:
            throw .invalid("\(path.attribute) is a value: entity.replace replaces plurals and objects whole, entity.update writes values")
        }
    }

    // MARK: objects and elements

    /// An object (or plural element `element`) with `entries` written: merged into what it
    /// held, or, `whole`, replacing it (attributes not given are gone, plurals inside are
    /// replaced, the schema's required attributes must be there).
    private func merge(
        _ held: [(key: String, value: JSONValue)]?, _ entries: [(key: String, value: JSONValue)], at path: RecordPath,
        element: Int?, whole: Bool, state: inout State
    ) throws(RecordEditError) -> JSONValue {
        let before = JSONValue.object(held ?? [])
        var result = JSONValue.object(whole ? [] : held ?? [])
        for (key, item) in entries {
            if element != nil, key == "id" {
                guard item.intValue == element else { throw .invalid("\(path): an element's id is set by the server") }
                continue
            }
            let childPath = path.appending(key)
            let names = childPath.names
            let role = try checkedRole(names, at: childPath)
            try requireWritable(names, at: childPath)
            if let problem = RecordWriteShape.keyProblem(key) { throw .invalid("\(path.isRoot ? "/" : path.description): \(problem)") }
            result = result.setting(key, try write(item, over: before[key], role: role, at: childPath, whole: whole, state: &state))
        }
        if let element { result = result.setting("id", .integer(element)) }
        if whole {
            for name in model.children(of: path.names).required where (result[name] ?? .null) == .null {
                throw .required("\(path.appending(name).attribute) is required: \(path) must give it")
            }
        }
        return result
    }

    /// The value an attribute gets when `item` is written over what it `held`.
    private func write(
        _ item: JSONValue, over held: JSONValue?, role: AttributeRole, at path: RecordPath, whole: Bool,
        state: inout State
    ) throws(RecordEditError) -> JSONValue {
        switch role {
        case .value(let check):
            if let problem = check.problem(item, at: path) { throw problem }
            if item != .null, !path.steps.contains(where: { $0.element != nil }), model.isUnique(path.names) {
                state.unique.append((path.names, item))
            }
            return item
        case .anyJSON:
            return item
        case .serverSet, .none:
            // `checkedRole` refused them.
            return item
        case .plural,
            .unknown where held?.arrayValue != nil || (isUnset(held) && item.arrayValue != nil):
            switch item {
            case .array(let items):
                return whole
                    ? try replaceElements(held?.arrayValue ?? [], with: items, at: path, state: &state)
                    : try appendElements(held?.arrayValue ?? [], items, at: path, state: &state)
            case .object:
                throw .wrongShape(
                    "\(path.attribute) is a plural: entity.update appends a list of elements ({\"\(path.steps.last!.name)\": [...]}), "
                        + "or writes one element at \(path.attribute)#<id>")
            default:
                throw .wrongShape(
                    "\(path.attribute) is a plural: it takes a list of elements, not \(item.kindDescription) "
                        + "(entity.delete removes elements, entity.replace with [] empties it)")
            }
        case .object,
            .unknown where isObject(held) || item.objectValue != nil:
            switch item {
            case .object(let entries):
                return try merge(whole ? nil : held?.objectValue, entries, at: path, element: nil, whole: whole, state: &state)
            case .null:
                if model.isRequired(path.names) { throw .required("\(path.attribute) is required: it cannot be null") }
                return .null
            case .array:
                throw .wrongShape("\(path.attribute) is an object: \(state.kind.call) takes an object for it, not a list")
            default:
                throw .wrongShape("\(path.attribute) is an object: it takes an object of its attributes, not \(item.kindDescription)")
            }
        case .unknown:
            // Nothing says what it is, and the record holds a value or nothing: a value.
            if item.arrayValue != nil {
                throw .wrongShape("\(path.attribute) holds \(held?.kindDescription ?? "nothing"): a list would make it a plural")
            }
            return item
        }
    }

    /// A plural's new list for `entity.replace`: each element an object; one that names the
    /// `id` of an element the plural holds keeps it, one without an id gets a new one, any other
    /// id is refused (320).
    private func replaceElements(
        _ held: [JSONValue], with items: [JSONValue], at path: RecordPath,
        state: inout State
    ) throws(RecordEditError) -> JSONValue {
        let heldIDs = Set(held.compactMap { $0["id"]?.intValue })
        var kept = Set<Int>()
        var result: [JSONValue] = []
        for (index, item) in items.enumerated() {
            guard case .object(let entries) = item else {
                throw .wrongShape("element \(index + 1) of \(path.attribute) is \(item.kindDescription): a plural is a list of objects")
            }
            let id: Int
            if let given = entries.first(where: { $0.key == "id" })?.value {
                guard let number = given.intValue, heldIDs.contains(number), kept.insert(number).inserted else {
                    throw .idInNewElement(
                        "element \(index + 1) of \(path.attribute) names the id \(given), which is no element of it: "
                            + "new elements get their ids from the server")
                }
                id = number
            } else {
                id = state.ids.take()
            }
            let elementPath = path.element(id)
            result.append(try merge(nil, entries, at: elementPath, element: id, whole: true, state: &state))
        }
        try checkLocallyUnique(result, names: path.names, at: path)
        return .array(result)
    }

    /// New elements appended to a plural (`entity.update` of `{"photos": [element]}`): objects
    /// without an `id` (320), each given a new one.
    private func appendElements(
        _ held: [JSONValue], _ items: [JSONValue], at path: RecordPath,
        state: inout State
    ) throws(RecordEditError) -> JSONValue {
        var result = held
        for (index, item) in items.enumerated() {
            guard case .object(let entries) = item else {
                throw .wrongShape("element \(index + 1) of \(path.attribute) is \(item.kindDescription): a plural is a list of objects")
            }
            if let given = entries.first(where: { $0.key == "id" })?.value {
                throw .idInNewElement(
                    "element \(index + 1) of \(path.attribute) has the id \(given): entity.update appends new elements, "
                        + "whose ids the server gives (write an element at \(path.attribute)#<id>)")
            }
            let id = state.ids.take()
            let elementPath = path.element(id)
            result.append(try merge(nil, entries, at: elementPath, element: id, whole: true, state: &state))
        }
        try checkLocallyUnique(result, names: path.names, at: path)
        return .array(result)
    }

    /// 361 when two elements of the plural at `names` share the value of a `locally-unique`
    /// attribute.
    private func checkLocallyUnique(_ items: [JSONValue], names: [String], at path: RecordPath) throws(RecordEditError) {
        for attribute in model.children(of: names).locallyUnique {
            var seen = Set<JSONValue>()
            for item in items {
                guard let value = item[attribute], value != .null else { continue }
                if !seen.insert(value).inserted {
                    throw .locallyUnique("\(path.attribute)/\(attribute) is locally-unique: two elements hold \(value.serialized())")
                }
            }
        }
    }

    // MARK: roles

    /// The attribute's role, when an entity call may write it.
    private func checkedRole(_ names: [String], at path: RecordPath) throws(RecordEditError) -> AttributeRole {
        let role = model.role(names)
        switch role {
        case .serverSet:
            throw .reserved(path.attribute)
        case .none(let reason):
            throw .unknownAttribute(path.attribute, reason)
        default:
            return role
        }
    }

    private func requireWritable(_ names: [String], at path: RecordPath) throws(RecordEditError) {
        if !writable(names) { throw .notWritable(path.attribute) }
    }

    private func isPlural(_ role: AttributeRole, held: JSONValue?) -> Bool {
        switch role {
        case .plural: true
        case .unknown: held?.arrayValue != nil
        default: false
        }
    }

    private func isObject(_ value: JSONValue?) -> Bool { value?.objectValue != nil }

    private func isUnset(_ value: JSONValue?) -> Bool { value == nil || value == .null }
}

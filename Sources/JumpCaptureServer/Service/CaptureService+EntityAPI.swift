import JumpCapture
import JumpForms
import JumpSchema

/// The Entity API, as back ends call Capture's with a client of `server.clients`
/// (`authenticateAPICall`; every call needs `direct_access`, which `owner` includes):
/// `/entity.find`, `/entity.count`, `/entity.create`, `/entity.bulkCreate`, `/entityType`, and
/// the client forms of `/entity`, `/entity.update`, `/entity.replace` and `/entity.delete`
/// (which an end user's access token calls too). Records carry `id`, `uuid`, `created`,
/// `lastUpdated` and `profiles`; an owner client also sees `password`, as Capture shows it:
/// `{"type": "password-bcrypt", "value": <the stored hash>}` for the server's own hashes, the
/// imported object as it was given for an imported one, null without a password.
extension CaptureService {
    /// The Entity API's own calls (the record calls are `CaptureOperation.isRecordCall`).
    enum EntityCall: String, Sendable, CaseIterable {
        case find = "/entity.find"
        case count = "/entity.count"
        case create = "/entity.create"
        case bulkCreate = "/entity.bulkCreate"
        case entityType = "/entityType"
    }

    /// The entity type the server keeps: the schema's name, else `user`.
    var entityTypeName: String { setup.schema?.name ?? "user" }

    /// Most records one `/entity.find` answers (`max_results`) and one `/entity.bulkCreate` takes.
    static let maximumEntityPage = 10_000

    /// The client of a server API call, or Capture's error (an end user's token cannot make it).
    private func entityCaller(_ credentials: APICredentials, client: String?) async throws -> Result<APIClient, ReplyError> {
        switch try await authenticateAPICall(credentials, needs: .directAccess, client: client) {
        case .refused(let reply): return .failure(ReplyError(reply))
        case .accepted(.endUser):
            return .failure(
                ReplyError(
                    .error(
                        403, "access_denied",
                        "\(credentials.path) is called by a client of server.clients, not with an end user's access token")))
        case .accepted(.client(let caller)): return .success(caller)
        }
    }

    /// Answers one of the Entity API's own calls.
    func entityCall(_ call: EntityCall, _ credentials: APICredentials, client: String?) async throws -> ServerReply {
        let caller: APIClient
        switch try await entityCaller(credentials, client: client) {
        case .failure(let error): return error.reply
        case .success(let value): caller = value
        }
        let parameters = credentials.parameters
        if let duplicate = parameters.duplicate { return .duplicate(duplicate) }
        if call != .entityType || parameters["type_name"] != nil, let refused = checkTypeName(parameters) { return refused }
        switch call {
        case .find: return try await find(parameters, owner: caller.features.contains(.owner))
        case .count: return try await count(parameters)
        case .create: return try await create(parameters)
        case .bulkCreate: return try await bulkCreate(parameters)
        case .entityType: return entityType()
        }
    }

    /// 100 without `type_name`, 222 for a type the server does not keep.
    private func checkTypeName(_ parameters: RequestParameters) -> ServerReply? {
        guard let type = parameters["type_name"] else { return .missing("type_name") }
        guard type == entityTypeName else {
            return .error(222, "unknown_entity_type", "the entity type '\(type)' does not exist: this server keeps '\(entityTypeName)'")
        }
        return nil
    }

    // MARK: reading

    private func find(_ parameters: RequestParameters, owner: Bool) async throws -> ServerReply {
        var query = EntityQuery()
        switch entityFilter(parameters["filter"]) {
        case .failure(let error): return error.reply
        case .success(let filter): query.filter = filter
        }
        if let text = parameters["sort_on"] {
            guard let keys = Self.stringList(text) else { return .invalid("sort_on", "a JSON list of attribute names, such as [\"-lastUpdated\"]") }
            for key in keys {
                let descending = key.hasPrefix("-")
                let path = (descending ? String(key.dropFirst()) : key).split(separator: ".", omittingEmptySubsequences: false).map(String.init)
                if let refused = checkQueryPath(path, parameter: "sort_on") { return refused }
                query.sort.append(EntitySort(path: path, descending: descending))
            }
        }
        if let text = parameters["max_results"] {
            guard let limit = Int(text), (1...Self.maximumEntityPage).contains(limit) else {
                return .invalid("max_results", "a whole number from 1 to \(Self.maximumEntityPage)")
            }
            query.limit = limit
        }
        if let text = parameters["first_result"] {
            guard let offset = Int(text), offset >= 0 else { return .invalid("first_result", "a whole number from 0") }
            query.offset = offset
        }
        var attributes: [[String]]?
        if let text = parameters["attributes"] {
            guard let names = Self.stringList(text) else { return .invalid("attributes", "a JSON list of attribute names, such as [\"email\"]") }
            attributes = names.map { $0.split(separator: ".").map(String.init) }
        }
        let showTotal: Bool
        switch parameters["show_total_count"] {
        case nil, "false"?: showTotal = false
        case "true"?: showTotal = true
        default: return .invalid("show_total_count", "must be true or false")
        }
        let users: [StoredUser]
        do {
            users = try await store.findUsers(query)
        } catch let error as EntityQueryError {
            return .invalid("filter", error.description)
        }
        let records = try await entityRecords(users, owner: owner, attributes: attributes)
        var answer: [(key: String, value: JSONValue)] = [("stat", "ok"), ("result_count", .integer(records.count)), ("results", .array(records))]
        if showTotal { answer.append(("total_count", .integer(try await store.countUsers(query.filter)))) }
        return .json(.object(answer))
    }

    private func count(_ parameters: RequestParameters) async throws -> ServerReply {
        switch entityFilter(parameters["filter"]) {
        case .failure(let error): return error.reply
        case .success(let filter):
            do {
                return .json(["stat": "ok", "total_count": .integer(try await store.countUsers(filter))])
            } catch let error as EntityQueryError {
                return .invalid("filter", error.description)
            }
        }
    }

    /// `filter` read and its attributes checked: 200 naming the position for one that cannot
    /// be read, 223 for an attribute the records cannot hold.
    func entityFilter(_ text: String?) -> Result<EntityFilter?, ReplyError> {
        guard let text, !text.allSatisfy({ $0 == " " }) else { return .success(nil) }
        let filter: EntityFilter
        do {
            filter = try EntityFilter.parse(text)
        } catch {
            return .failure(ReplyError(.invalid("filter", error.description)))
        }
        for path in filter.paths {
            if let refused = checkQueryPath(path, parameter: "filter") { return .failure(ReplyError(refused)) }
        }
        return .success(filter)
    }

    /// 223 for a path the records cannot hold (with a schema: outside it) or the password.
    private func checkQueryPath(_ path: [String], parameter: String) -> ServerReply? {
        let name = path.joined(separator: ".")
        if path.isEmpty || path.contains(where: \.isEmpty) { return .invalid(parameter, "'\(name)' is not an attribute path") }
        if EntityColumn(path) != .record(path) { return nil }
        if passwordAttributes.contains(path[0]) {
            return .error(223, "unknown_attribute", "\(name) cannot be read or compared", extra: [("attribute_name", .string(name))])
        }
        if case .none(let reason) = recordModel.role(path) {
            return .error(223, "unknown_attribute", "the record has no attribute \(name): \(reason)", extra: [("attribute_name", .string(name))])
        }
        return nil
    }

    /// Records as the Entity API answers them: the public record, the password for an owner,
    /// only `attributes` when given (paths; `id` and `uuid` always). Identities are read in
    /// one query for the page.
    func entityRecords(_ users: [StoredUser], owner: Bool, attributes: [[String]]?) async throws -> [JSONValue] {
        let identities = try await store.identities(of: users.map(\.id))
        var records: [JSONValue] = []
        records.reserveCapacity(users.count)
        for user in users {
            var record = try await publicRecord(user, identities: identities[user.id] ?? [])
            if owner, let name = passwordAttributes.first { record = record.setting(name, Self.passwordObject(user.passwordHash)) }
            if let attributes { record = Self.projected(record, attributes + [["id"], ["uuid"]]) }
            records.append(record)
        }
        return records
    }

    /// The record's top-level attributes that hold its password: the schema's password
    /// attributes, else `password`.
    var passwordAttributes: [String] {
        guard let schema = setup.schema else { return ["password"] }
        let names = schema.attributes.filter(\.type.value.isPassword).map(\.name.value)
        return names.isEmpty ? ["password"] : names
    }

    /// The password as an owner reads it: Capture's object for an imported hash, the server's
    /// own hash as `password-bcrypt` (what it is: a bcrypt hash, of the password's HMAC in the
    /// current format), null without one.
    static func passwordObject(_ stored: String?) -> JSONValue {
        guard let stored else { return .null }
        if let imported = ImportedPasswordHash(storedText: stored), let object = try? JSONValue.parse(imported.storedText) { return object }
        return ["type": "password-bcrypt", "value": .string(stored)]
    }

    /// `record` with only the attributes at `paths` (into objects and the elements of plurals).
    static func projected(_ record: JSONValue, _ paths: [[String]]) -> JSONValue {
        guard case .object(let entries) = record else { return record }
        var kept: [(key: String, value: JSONValue)] = []
        for (key, value) in entries {
            let below = paths.filter { $0.first == key }
            if below.isEmpty { continue }
            if below.contains(where: { $0.count == 1 }) {
                kept.append((key, value))
                continue
            }
            let rest = below.map { Array($0.dropFirst()) }
            switch value {
            case .array(let elements): kept.append((key, .array(elements.map { projected($0, rest + [["id"]]) })))
            case .object: kept.append((key, projected(value, rest)))
            default: kept.append((key, value))
            }
        }
        return .object(kept)
    }

    /// A JSON list of strings.
    static func stringList(_ text: String) -> [String]? {
        guard case .array(let items)? = try? JSONValue.parse(text) else { return nil }
        let strings = items.compactMap(\.stringValue)
        return strings.count == items.count ? strings : nil
    }

    /// `/entityType`: the schema in use, as Capture's `entityType` answers it; without one, the
    /// attributes the server sets and those the flow's fields store (as strings).
    private func entityType() -> ServerReply {
        var definitions: [JSONValue] = []
        if let schema = setup.schema {
            definitions = schema.attributes.map(Self.definition)
        } else {
            definitions = [
                ["name": "id", "type": "id"], ["name": "uuid", "type": "uuid"], ["name": "created", "type": "dateTime"],
                ["name": "lastUpdated", "type": "dateTime"], ["name": "password", "type": "password-bcrypt"]
            ]
            var tree = JSONValue.object([])
            for field in flow.fields {
                guard case .path(let path)? = field.schemaId, path.value != "password" else { continue }
                tree = tree.setting(path: path.value, "string")
            }
            definitions += Self.flowDefinitions(tree)
        }
        return .json(["stat": "ok", "schema": ["name": .string(entityTypeName), "attr_defs": .array(definitions)]])
    }

    private static func flowDefinitions(_ tree: JSONValue) -> [JSONValue] {
        guard case .object(let entries) = tree else { return [] }
        return entries.map { key, value in
            if case .object = value { return ["name": .string(key), "type": "object", "attr_defs": .array(flowDefinitions(value))] }
            return ["name": .string(key), "type": "string"]
        }
    }

    /// An attribute definition as Capture writes one.
    static func definition(_ attribute: AttributeDefinition) -> JSONValue {
        var entries: [(key: String, value: JSONValue)] = [("name", .string(attribute.name.value)), ("type", .string(attribute.type.value.name))]
        if let length = attribute.length { entries.append(("length", .integer(length))) }
        if let caseSensitive = attribute.caseSensitive { entries.append(("case-sensitive", .bool(caseSensitive))) }
        if let description = attribute.description { entries.append(("description", .string(description))) }
        if !attribute.features.isEmpty { entries.append(("features", .array(attribute.features.map { .string($0) }))) }
        if !attribute.constraints.isEmpty { entries.append(("constraints", .array(attribute.constraints.map { .string($0.rawValue) }))) }
        if attribute.type.value.holdsAttributes { entries.append(("attr_defs", .array(attribute.attributes.map(definition)))) }
        return .object(entries)
    }

    // MARK: creating

    private func create(_ parameters: RequestParameters) async throws -> ServerReply {
        guard let text = parameters["attributes"] else { return .missing("attributes") }
        guard let attributes = try? JSONValue.parse(text) else { return .invalid("attributes", "not JSON") }
        switch try await createEntity(attributes) {
        case .failure(let error): return error.reply
        case .success(let user): return .json(["stat": "ok", "id": .integer(Int(user.id)), "uuid": .string(user.uuid)])
        }
    }

    /// `/entity.bulkCreate`: `all_attributes`, a list of records. `commit_each=true`: each record
    /// is created on its own, a refused one answered by its error in its place; else (the
    /// default) all or none: every record is checked first (with the others of the list for
    /// the email), and when any is refused none is created and the answer is that error, with
    /// each refused record's error in `uuid_results`.
    private func bulkCreate(_ parameters: RequestParameters) async throws -> ServerReply {
        guard let text = parameters["all_attributes"] else { return .missing("all_attributes") }
        guard case .array(let records)? = try? JSONValue.parse(text) else { return .invalid("all_attributes", "a JSON list of records") }
        if records.count > Self.maximumEntityPage {
            return .invalid("all_attributes", "at most \(Self.maximumEntityPage) records in one call, not \(records.count)")
        }
        let commitEach: Bool
        switch parameters["commit_each"] {
        case nil, "false"?: commitEach = false
        case "true"?: commitEach = true
        default: return .invalid("commit_each", "must be true or false")
        }
        if !commitEach {
            var refusals: [JSONValue] = []
            var first: ServerReply?
            var emails = Set<String>()
            for record in records {
                var refusal = try await checkNewEntity(record).failure?.reply
                if refusal == nil, let email = record["email"]?.stringValue.map(normalizeEmail), !emails.insert(email).inserted {
                    refusal = .error(361, "unique_violation", "another record of the list already has this value of /email")
                }
                first = first ?? refusal
                refusals.append(refusal.map(Self.errorObject) ?? .null)
            }
            if let first {
                guard case .object(var entries) = Self.errorObject(first) else { return first }
                entries.append(("uuid_results", .array(refusals)))
                return .json(.object(entries))
            }
        }
        var ids: [JSONValue] = []
        var uuids: [JSONValue] = []
        for record in records {
            switch try await createEntity(record) {
            case .failure(let error):
                let object = Self.errorObject(error.reply)
                ids.append(object)
                uuids.append(object)
            case .success(let user):
                ids.append(.integer(Int(user.id)))
                uuids.append(.string(user.uuid))
            }
        }
        return .json(["stat": "ok", "results": .array(ids), "uuid_results": .array(uuids)])
    }

    static func errorObject(_ reply: ServerReply) -> JSONValue {
        (try? JSONValue.parse(reply.body)) ?? ["stat": "error", "code": 500, "error": "unexpected_error"]
    }

    /// A new record checked as a create would check it, without writing.
    private func checkNewEntity(_ attributes: JSONValue) async throws -> Result<NewEntity, ReplyError> {
        let prepared: NewEntity
        switch prepareEntity(attributes) {
        case .failure(let error): return .failure(error)
        case .success(let value): prepared = value
        }
        let taken = try await store.taken(prepared.unique, excluding: nil)
        if !taken.isEmpty { return .failure(ReplyError(uniqueViolation(taken))) }
        return .success(prepared)
    }

    /// What a create writes: the record (its plural elements numbered), the password given,
    /// the values to keep unique.
    struct NewEntity: Sendable {
        var record: JSONValue
        var password: JSONValue?
        var unique: [CaptureStore.UniqueCheck]
    }

    /// A record as given to a create, checked (the schema's or the flow's rules, as an owner
    /// writes: every attribute) and made ready to store. `id`, `uuid`, `created` and
    /// `lastUpdated` are the server's and left out; `profiles` links identities, which sign-in
    /// does, so only an empty list is taken.
    private func prepareEntity(_ attributes: JSONValue) -> Result<NewEntity, ReplyError> {
        guard case .object(let entries) = attributes else {
            return .failure(ReplyError(.error(341, "invalid_json_type", "a record is a JSON object")))
        }
        var rest: [(key: String, value: JSONValue)] = []
        var password: JSONValue?
        for (key, value) in entries {
            if EntitySchema.reservedAttributes.contains(key) { continue }
            if key == "profiles" {
                if case .array(let items) = value, !items.isEmpty {
                    return .failure(
                        ReplyError(.invalid("profiles", "identities are linked by signing in (or by users import), not by a create")))
                }
                continue
            }
            if passwordAttributes.contains(key) {
                password = value
                continue
            }
            rest.append((key, value))
        }
        if let password, case .some(let refused) = Self.passwordProblem(password) { return .failure(ReplyError(refused)) }
        let editor = RecordEditor(model: recordModel, writable: { _ in true })
        var ids = ElementIDs(next: ElementIDs.first)
        let edited: RecordEditor.Edited
        do {
            edited = try editor.apply(.update, at: .root, value: .object(rest), to: [:], ids: &ids)
        } catch {
            return .failure(ReplyError(reply(error)))
        }
        let unique: [CaptureStore.UniqueCheck]
        if recordModel.isSchema {
            unique = edited.unique.compactMap { entry -> CaptureStore.UniqueCheck? in
                switch entry.value {
                case .string(let text), .number(let text): (RecordPath.attribute(entry.names), entry.names.joined(separator: "."), text)
                default: nil
                }
            }
        } else {
            unique = uniqueChecks(edited.record)
        }
        return .success(NewEntity(record: edited.record, password: password, unique: unique))
    }

    /// Why a password value cannot be stored: it is text (hashed by the server), Capture's
    /// object (`{"type", "value", "salt"?}`), or null.
    static func passwordProblem(_ value: JSONValue) -> ServerReply? {
        switch value {
        case .null, .string: return nil
        case .object where ImportedPasswordHash(captureAttribute: value) != nil: return nil
        default:
            return .error(
                341, "invalid_json_type",
                "password: a password is text, or an object {\"type\": \"password-bcrypt\", \"value\": \"<hash>\"} (\"salt\" for the salted types)")
        }
    }

    /// What the users table keeps for a password value: the server's hash of a text; the
    /// server's own format as it is (a `password-bcrypt` whose value is one, as an owner reads
    /// it); else the imported object (`ImportedPasswordHash`), checked at sign-in by its type.
    func storedPassword(_ value: JSONValue?) async throws -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?: return try await hashPassword(text)
        case let object?:
            guard let imported = ImportedPasswordHash(captureAttribute: object) else { return nil }
            if imported.type == "password-bcrypt", imported.salt == nil, imported.value.hasPrefix(PasswordHash.prefix) { return imported.value }
            if PasswordHashSchemes.scheme(for: imported.type) == nil {
                logger.warning(
                    "a record is stored with a password of type \(String(imported.type.prefix(80)).debugDescription), which the server does not read: its sign-in fails until the password is set again"
                )
            }
            return imported.storedText
        }
    }

    /// Creates one record.
    func createEntity(_ attributes: JSONValue) async throws -> Result<StoredUser, ReplyError> {
        let prepared: NewEntity
        switch prepareEntity(attributes) {
        case .failure(let error): return .failure(error)
        case .success(let value): prepared = value
        }
        let hash = try await storedPassword(prepared.password)
        do {
            return .success(
                try await store.createUser(record: prepared.record, passwordHash: hash, identity: nil, unique: prepared.unique, now: now))
        } catch StoreConflict.notUnique(let fields) {
            return .failure(ReplyError(uniqueViolation(fields.isEmpty ? ["email"] : fields)))
        } catch let conflict as StoreConflict {
            if let refused = refusal(conflict, userID: 0) { return .failure(ReplyError(refused)) }
            throw conflict
        }
    }

    // MARK: the record calls of a client

    /// Whether a record call (`/entity`, `/entity.update`, ...) is made by a client rather than
    /// with an end user's access token: it carries a client secret, or `Authorization: Basic`
    /// or `Signature`.
    static func isClientRecordCall(_ credentials: APICredentials) -> Bool {
        if credentials.parameters["access_token"] != nil { return false }
        if let scheme = credentials.authorization?.split(separator: " ").first?.lowercased() {
            return scheme == "basic" || scheme == "signature"
        }
        return credentials.parameters["client_secret"] != nil
    }

    /// A record call made by a client: the record named by `uuid`, `id`, or `key_attribute`
    /// and `key_value`; `/entity` reads it (`attributes`, `attribute_name`), `/entity.update`
    /// merges `value` (or `attributes`) into it, `/entity.replace` replaces it (or the
    /// attribute `attribute_name`), `/entity.delete` deletes it (or clears `attribute_name`).
    func clientRecordCall(_ operation: CaptureOperation, _ credentials: APICredentials, client: String?) async throws -> ServerReply {
        let caller: APIClient
        switch try await entityCaller(credentials, client: client) {
        case .failure(let error): return error.reply
        case .success(let value): caller = value
        }
        let parameters = credentials.parameters
        if let duplicate = parameters.duplicate { return .duplicate(duplicate) }
        if parameters["type_name"] != nil, let refused = checkTypeName(parameters) { return refused }
        let user: StoredUser
        switch try await namedRecord(parameters) {
        case .failure(let error): return error.reply
        case .success(let value): user = value
        }
        let path: RecordPath
        switch recordPath(
            parameters["attribute_name"].map { $0.hasPrefix("/") || $0.isEmpty ? $0 : "/" + $0.split(separator: ".").joined(separator: "/") })
        {
        case .failure(let refusal): return refusal.reply
        case .success(let value): path = value
        }
        let owner = caller.features.contains(.owner)
        switch operation {
        case .readRecord:
            var attributes: [[String]]?
            if let text = parameters["attributes"] {
                guard let names = Self.stringList(text) else { return .invalid("attributes", "a JSON list of attribute names") }
                attributes = names.map { $0.split(separator: ".").map(String.init) }
            }
            guard let record = try await entityRecords([user], owner: owner, attributes: attributes).first else { return .ok }
            if path.isRoot { return .json(["stat": "ok", "result": record]) }
            switch read(path, in: record) {
            case .success(let value): return .json(["stat": "ok", "result": value])
            case .failure(let error): return reply(error)
            }
        case .deleteAttribute where path.isRoot:
            _ = try await store.deleteUser(id: user.id)
            return .ok
        case .updateObject, .replacePlural, .deleteAttribute:
            return try await clientWrite(operation, parameters, user: user, path: path)
        default:
            return .ok
        }
    }

    /// The record a client's record call names, or 100/200/310.
    private func namedRecord(_ parameters: RequestParameters) async throws -> Result<StoredUser, ReplyError> {
        let found: StoredUser?
        let named: String
        if let uuid = parameters["uuid"] {
            found = try await store.user(uuid: uuid)
            named = "the uuid \(uuid)"
        } else if let text = parameters["id"] {
            guard let id = Int64(text) else { return .failure(ReplyError(.invalid("id", "a whole number"))) }
            found = try await store.user(id: id)
            named = "the id \(id)"
        } else if let key = parameters["key_attribute"] {
            guard let text = parameters["key_value"] else { return .failure(ReplyError(.missing("key_value"))) }
            // Capture takes the value as JSON (`"ana@example.com"`); bare text is read as text.
            let value: EntityFilterValue
            switch try? JSONValue.parse(text) {
            case .string(let string)?: value = .text(string)
            case .number(let number)?: value = .number(number)
            case .bool(let flag)?: value = .bool(flag)
            default: value = .text(text)
            }
            let path = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            if let refused = checkQueryPath(path, parameter: "key_attribute") { return .failure(ReplyError(refused)) }
            do {
                found = try await store.findUsers(EntityQuery(filter: .comparison(path: path, .equal, value), limit: 1)).first
            } catch let error as EntityQueryError {
                return .failure(ReplyError(.invalid("key_value", error.description)))
            }
            named = "\(key) = \(text)"
        } else {
            return .failure(ReplyError(.missing("uuid")))
        }
        guard let found else { return .failure(ReplyError(.error(310, "record_not_found", "no record has \(named)"))) }
        return .success(found)
    }

    /// A client's `/entity.update`, `/entity.replace` or `/entity.delete` of an attribute
    /// (`RecordEditor`, every attribute writable; a password given is stored as a create
    /// stores it). A replace of the whole record keeps its id, uuid and created.
    private func clientWrite(_ operation: CaptureOperation, _ parameters: RequestParameters, user: StoredUser, path: RecordPath) async throws
        -> ServerReply
    {
        var value = JSONValue.null
        if operation != .deleteAttribute {
            guard let text = parameters["value"] ?? parameters["attributes"] else { return .missing("value") }
            guard let parsed = try? JSONValue.parse(text) else { return .invalid("value", "not JSON") }
            value = parsed
        }
        var password: JSONValue??
        if path.isRoot, case .object(let entries) = value {
            let names = passwordAttributes
            if let given = entries.first(where: { names.contains($0.key) }) {
                if let refused = Self.passwordProblem(given.value) { return refused }
                password = .some(given.value)
            }
            value = .object(entries.filter { !names.contains($0.key) && !EntitySchema.reservedAttributes.contains($0.key) && $0.key != "profiles" })
        }
        if operation == .updateObject, value.objectValue == nil { return .invalid("value", "entity.update takes an object") }
        if operation == .replacePlural, path.isRoot, value.objectValue == nil {
            return .invalid("value", "entity.replace of a record takes an object")
        }
        let passwordHash: String??
        switch password {
        case .none: passwordHash = .none
        case .some(let given): passwordHash = .some(try await storedPassword(given))
        }
        let editor = RecordEditor(model: recordModel, writable: { _ in true })
        let kind: RecordEditor.Kind = operation == .updateObject ? .update : operation == .replacePlural ? .replace : .delete
        let written = value
        let wholeReplace = operation == .replacePlural && path.isRoot
        // The checks that need the other records run on the write as it would be now.
        var scratch = ElementIDs(next: recordModel.largestElementID(in: user.record) + 1)
        let preview: RecordEditor.Edited
        do {
            preview = try Self.edit(editor, kind, path: path, value: written, record: user.record, whole: wholeReplace, ids: &scratch)
        } catch {
            return reply(error)
        }
        let unique: [CaptureStore.UniqueCheck] =
            recordModel.isSchema
            ? preview.unique.compactMap { entry -> CaptureStore.UniqueCheck? in
                switch entry.value {
                case .string(let text), .number(let text): (RecordPath.attribute(entry.names), entry.names.joined(separator: "."), text)
                default: nil
                }
            } : uniqueChecks(preview.record)
        do {
            _ = try await store.editRecord(id: user.id, unique: unique, now: now, passwordHash: passwordHash) { record, ids in
                try Self.edit(editor, kind, path: path, value: written, record: record, whole: wholeReplace, ids: &ids).record
            }
        } catch let error as RecordEditError {
            return reply(error)
        } catch StoreConflict.notUnique(let fields) {
            return uniqueViolation(fields)
        } catch let conflict as StoreConflict {
            if let refused = refusal(conflict, userID: user.id) { return refused }
            throw conflict
        }
        return .ok
    }

    /// One write; a replace of the whole record keeps what the server set (id, uuid, created).
    private static func edit(
        _ editor: RecordEditor, _ kind: RecordEditor.Kind, path: RecordPath, value: JSONValue, record: JSONValue, whole: Bool,
        ids: inout ElementIDs
    ) throws(RecordEditError) -> RecordEditor.Edited {
        guard whole else { return try editor.apply(kind, at: path, value: value, to: record, ids: &ids) }
        var kept = JSONValue.object([])
        for name in ["id", "uuid", "created", "lastUpdated"] { if let held = record[name] { kept = kept.setting(name, held) } }
        return try editor.apply(.update, at: .root, value: value, to: kept, ids: &ids)
    }
}

private extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

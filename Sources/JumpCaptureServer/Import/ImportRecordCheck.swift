import JumpCapture
import JumpForms
import JumpSchema

/// A record of an import file, checked and ready to store: the record as the users table keeps
/// it (Capture's `id`, `uuid`, `created`, `lastUpdated` and plural element ids as the file has
/// them; no password, no profiles), the imported password hash, the identities its `profiles`
/// name, and the values that must be unique.
struct ImportedUser: Sendable {
    var id: Int64?
    var uuid: String
    var created: String
    var lastUpdated: String
    var record: JSONValue
    var recordText: String
    var emailNormalized: String?
    /// Capture's password object, stored as it is (never hashed again).
    var password: ImportedPasswordHash?
    var identities: [StoredIdentity]
    var unique: [CaptureStore.UniqueValue]
    /// The next plural element id the server gives in this record (past the largest imported).
    var nextElementID: Int
}

/// Checks a record of an import file with the rules the entity calls use: the record model
/// (`server.schema`, else the flow's fields) through `RecordEditor`, as an `entity.update` of
/// every attribute on an empty record, and the store's record limits. What the server sets
/// (`id`, `uuid`, `created`, `lastUpdated`, `profiles`, the password) is read here instead:
/// an import keeps Capture's.
struct ImportRecordCheck: Sendable {
    let model: RecordModel
    let uniquePaths: [String: LookAlike.Comparison]
    let limits: RecordLimits
    /// Seconds since 1970: `created` and `lastUpdated` of a record without them.
    let now: Int

    /// The attributes the server sets, read from the record rather than checked as writes.
    static let serverAttributes: Set<String> = ["id", "uuid", "created", "lastUpdated", "profiles", "password"]

    func check(_ record: JSONValue) -> Result<ImportedUser, ImportRefusal> {
        do {
            return .success(try checked(record))
        } catch let refusal as ImportRefusal {
            return .failure(refusal)
        } catch let error as RecordEditError {
            return .failure(Self.refusal(error))
        } catch {
            return .failure(ImportRefusal(attribute: "/", reason: "\(error)"))
        }
    }

    private func checked(_ record: JSONValue) throws -> ImportedUser {
        guard case .object(let entries) = record else { throw ImportRefusal(attribute: "/", reason: "a record is a JSON object") }
        let id = try Self.id(record["id"])
        let uuid = try Self.uuid(record["uuid"])
        let created = try Self.instant(record["created"], name: "created") ?? Timestamps.capture(now)
        let lastUpdated = try Self.instant(record["lastUpdated"], name: "lastUpdated") ?? created
        let password = try Self.password(record["password"])
        let identities = try Self.identities(record["profiles"])

        // What is stored: the record without the password (and other password attributes) and
        // profiles (the identities table holds them).
        var kept: [(key: String, value: JSONValue)] = []
        var written: [(key: String, value: JSONValue)] = []
        for entry in entries where entry.key != "password" && entry.key != "profiles" {
            if case .schema(let schema) = model, RecordModel.attribute([entry.key], in: schema)?.type.value.isPassword == true { continue }
            kept.append(entry)
            if Self.serverAttributes.contains(entry.key) { continue }
            if case .serverSet = model.role([entry.key]) { continue }
            written.append(entry)
        }

        // Plural element ids: kept (positive whole numbers, none twice); an element without one
        // gets one past the largest. Read in the pass that leaves them out of what the editor
        // checks (it gives new elements ids; an import keeps Capture's).
        var seen = Set<Int>()
        var idProblem: String?
        var missing = false
        let withoutIDs = model.mappingElements(.object(written)) { element in
            switch element["id"] {
            case nil, .null?: missing = true
            case .number(let text)?:
                if let value = Int(text), value > 0, value < 1 << 53 {
                    if !seen.insert(value).inserted, idProblem == nil { idProblem = "two plural elements have the id \(value)" }
                } else if idProblem == nil {
                    idProblem = "a plural element's id is \(text): ids are positive whole numbers"
                }
            case let other?:
                if idProblem == nil { idProblem = "a plural element's id is \(other.kindDescription): ids are positive whole numbers" }
            }
            return element.removing("id")
        }
        if let idProblem { throw ImportRefusal(attribute: "id", reason: idProblem) }

        // The attributes as an entity.update writes them.
        let editor = RecordEditor(model: model, writable: { _ in true })
        var scratch = ElementIDs(next: ElementIDs.first)
        let edited = try editor.apply(.update, at: .root, value: withoutIDs, to: [:], ids: &scratch)

        var ids = ElementIDs(next: (seen.max() ?? 0) + 1)
        var stored = JSONValue.object(kept)
        if missing {
            stored = model.mappingElements(stored) { element in
                switch element["id"] {
                case nil, .null?: element.setting("id", .integer(ids.take()))
                default: element
                }
            }
        }
        if let id { stored = stored.setting("id", .integer(Int(id))) }
        stored = stored.setting("uuid", .string(uuid)).setting("created", .string(created)).setting("lastUpdated", .string(lastUpdated))
        // The schema's required attributes (the id, when the file has none, is given on insert).
        for name in model.children(of: []).required where (stored[name] ?? .null) == .null && !(name == "id" && id == nil) {
            throw ImportRefusal(attribute: RecordPath.attribute([name]), reason: "is required")
        }
        let text = stored.serialized()
        if let problem = limits.problem(text: text, record: stored) {
            switch problem {
            case let .recordTooLarge(size, limit):
                throw ImportRefusal(attribute: "/", reason: "the record is \(size) bytes, more than the limit of \(limit) (server.maximumRecordSize)")
            case let .recordTooDeep(depth, limit):
                throw ImportRefusal(attribute: "/", reason: "the record nests \(depth) levels deep: records nest at most \(limit)")
            default:
                throw ImportRefusal(attribute: "/", reason: "the record cannot be stored")
            }
        }

        // Unique values: the email (the database's index), the flow's unique fields, the schema's
        // unique attributes; each by the look-alike keys sign-up uses.
        var unique: [CaptureStore.UniqueValue] = []
        var paths = Set<String>()
        func add(_ path: String, _ value: JSONValue?) {
            let text: String
            switch value {
            case .string(let string)?: text = string
            case .number(let number)?: text = number
            default: return
            }
            guard !FormValues.isBlank(text), paths.insert(path).inserted else { return }
            unique.append(CaptureStore.UniqueValue(field: RecordPath.attribute(path.split(separator: ".").map(String.init)), path: path, value: text))
        }
        add("email", stored["email"])
        for path in uniquePaths.keys.sorted() { add(path, stored.value(atPath: path)) }
        for entry in edited.unique { add(entry.names.joined(separator: "."), entry.value) }

        return ImportedUser(
            id: id, uuid: uuid, created: created, lastUpdated: lastUpdated, record: stored, recordText: text,
            emailNormalized: stored["email"]?.stringValue.map(normalizeEmail), password: password, identities: identities, unique: unique,
            nextElementID: ids.next)
    }

    // MARK: what the server sets

    private static func id(_ value: JSONValue?) throws -> Int64? {
        switch value {
        case nil, .null?: return nil
        case .number(let text)?:
            guard let id = Int64(text), id > 0 else { throw ImportRefusal(attribute: "/id", reason: "\(text) is not a positive whole number") }
            return id
        case let other?: throw ImportRefusal(attribute: "/id", reason: "is \(other.kindDescription): a record's id is a positive whole number")
        }
    }

    private static func uuid(_ value: JSONValue?) throws -> String {
        switch value {
        case nil, .null?: return UUIDText.random()
        case .string(let text)? where SchemaValueRules.isUUID(text): return text.lowercased()
        case let other?: throw ImportRefusal(attribute: "/uuid", reason: "\(other.serialized()) is not a UUID")
        }
    }

    private static func instant(_ value: JSONValue?, name: String) throws -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)? where SchemaValueRules.isDateTime(text): return text
        case let other?:
            throw ImportRefusal(attribute: "/" + name, reason: "\(other.serialized()) is not an instant (yyyy-MM-dd HH:mm:ss[.SSSSSS] +0000)")
        }
    }

    /// Capture's password object. Never a clear-text password, and the refusal never repeats
    /// the value.
    private static func password(_ value: JSONValue?) throws -> ImportedPasswordHash? {
        switch value {
        case nil, .null?: return nil
        case .object?:
            guard let hash = ImportedPasswordHash(captureAttribute: value!), !hash.type.isEmpty, !hash.value.isEmpty else {
                throw ImportRefusal(
                    attribute: "/password",
                    reason: #"is not Capture's password object {"type": "password-...", "value": "..."} (with "salt" for some types)"#)
            }
            return hash
        case .string?:
            throw ImportRefusal(
                attribute: "/password",
                reason: #"is a string: import takes Capture's password object {"type": "password-...", "value": "..."}, never a clear-text password"#)
        case let other?:
            throw ImportRefusal(attribute: "/password", reason: "is \(other.kindDescription), not Capture's password object")
        }
    }

    /// The identities of `profiles` (`identifier` and `domain` of each; `verifiedEmail` when
    /// given). The rest of a profile (the provider's data, its tokens) is not kept.
    private static func identities(_ value: JSONValue?) throws -> [StoredIdentity] {
        switch value {
        case nil, .null?: return []
        case .array(let profiles)?:
            var identities: [StoredIdentity] = []
            for (index, profile) in profiles.enumerated() {
                guard case .string(let identifier)? = profile["identifier"], !identifier.isEmpty,
                    case .string(let domain)? = profile["domain"], !domain.isEmpty
                else {
                    throw ImportRefusal(attribute: "/profiles", reason: "profile \(index + 1) has no identifier and domain (strings)")
                }
                let identity = StoredIdentity(
                    provider: provider(ofDomain: domain), identifier: identifier, verifiedEmail: profile["verifiedEmail"]?.stringValue)
                if identities.contains(where: { $0.provider == identity.provider && $0.identifier == identifier }) { continue }
                identities.append(identity)
            }
            return identities
        case let other?: throw ImportRefusal(attribute: "/profiles", reason: "is \(other.kindDescription), not a list of profiles")
        }
    }

    /// The provider a profile's `domain` names: the reverse of `CaptureService.domain(of:)`.
    static func provider(ofDomain domain: String) -> String {
        for provider in ["google", "facebook", "twitter", "apple", "linkedin"] where CaptureService.domain(of: provider) == domain {
            return provider
        }
        return domain
    }

    /// The refusal of an editor error: the attribute its text names first, and the text.
    static func refusal(_ error: RecordEditError) -> ImportRefusal {
        let text: String
        switch error {
        case .invalid(let message), .wrongShape(let message), .notWritable(let message), .reserved(let message),
            .elementNotFound(let message), .idInNewElement(let message), .dataFormat(let message), .dateTime(let message),
            .constraint(let message), .locallyUnique(let message), .required(let message), .length(let message):
            text = message
        case let .unknownAttribute(path, reason):
            return ImportRefusal(attribute: path, reason: "no such attribute: \(reason)")
        }
        if case .reserved(let path) = error { return ImportRefusal(attribute: path, reason: "is set by the server") }
        guard let start = text.firstIndex(of: "/") else { return ImportRefusal(attribute: "/", reason: text) }
        let attribute = String(text[start...].prefix { $0 != " " && $0 != ":" && $0 != "," })
        var reason = text
        if text.hasPrefix(attribute + " ") { reason = String(text.dropFirst(attribute.count + 1)) }
        return ImportRefusal(attribute: attribute, reason: reason)
    }

    /// What a CSV cell's text is, for the attribute `names`: JSON for what is not a string
    /// (objects, plurals, `json` attributes, passwords, profiles, numbers, booleans, ids), the
    /// text itself for strings. Without a schema, a cell that starts with `{` or `[` is JSON.
    func cellValue(_ names: [String], _ text: String) -> Result<JSONValue, ImportRefusal> {
        let attribute = RecordPath.attribute(names)
        func json() -> Result<JSONValue, ImportRefusal> {
            do {
                return .success(try JSONValue.parse(text))
            } catch {
                return .failure(ImportRefusal(attribute: attribute, reason: "the cell is not JSON (\(error.message) at column \(error.column))"))
            }
        }
        if names == ["id"] || names == ["password"] || names == ["profiles"] { return json() }
        switch model.role(names) {
        case .value(.attribute(let definition)):
            switch definition.type.value {
            case .boolean, .integer, .decimal, .id: return json()
            default: return .success(.string(text))
            }
        case .value(.field(let type)):
            if type == .checkbox, text == "true" || text == "false" { return .success(.bool(text == "true")) }
            return .success(.string(text))
        case .object, .plural, .anyJSON:
            return json()
        case .serverSet:
            if case .schema(let schema) = model, let definition = RecordModel.attribute(names, in: schema) {
                switch definition.type.value {
                case .boolean, .integer, .decimal, .id, .object, .plural, .json, .password: return json()
                default: return .success(.string(text))
                }
            }
            return .success(.string(text))
        case .unknown, .none:
            return text.hasPrefix("{") || text.hasPrefix("[") ? json() : .success(.string(text))
        }
    }
}

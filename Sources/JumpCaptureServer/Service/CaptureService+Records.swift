import JumpCapture
import JumpForms

extension CaptureOperation {
    /// `/entity`, `/entity.update`, `/entity.replace`, `/entity.delete`: the access token alone
    /// authenticates them (the SDKs send no `client_id`).
    var isRecordCall: Bool { [.readRecord, .updateObject, .replacePlural, .deleteAttribute].contains(self) }
}

/// The record calls, as the JUMP SDKs use them (`RecordEditor` has the writes' rules). With
/// `include_record=true` a write answers the record, or the attribute it wrote, as `result`:
/// iOS requires it (a dictionary for an object or element replaced, a list for a plural).
extension CaptureService {
    // MARK: reading

    func readRecord(_ parameters: RequestParameters) async throws -> ServerReply {
        if let refused = validateParameters(.readRecord, parameters, form: nil) { return refused }
        let user: StoredUser
        let identities: [StoredIdentity]?
        switch try await authorized(parameters, identities: true) {
        case .failure(let error): return error.reply
        case .success(let value): (user, identities) = (value.0, value.2)
        }
        let path: RecordPath
        switch recordPath(parameters["attribute_name"]) {
        case .failure(let refusal): return refusal.reply
        case .success(let value): path = value
        }
        if path.isRoot {
            return ServerReply(
                status: .ok, contentType: ServerReply.jsonContentType,
                body: #"{"stat":"ok","result":"# + (try await publicRecordText(user, identities: identities)) + "}")
        }
        let record = try await publicRecord(user, identities: identities)
        switch read(path, in: record) {
        case .success(let value): return .json(["stat": "ok", "result": value])
        case .failure(let error): return reply(error)
        }
    }

    /// The value a path names in the (public) record; null for an attribute the record could
    /// hold but does not (as Capture answers an attribute of its schema that is not set).
    func read(_ path: RecordPath, in record: JSONValue) -> Result<JSONValue, RecordEditError> {
        var current: JSONValue? = record
        var walked = RecordPath.root
        for step in path.steps {
            walked = walked.appending(step.name)
            switch current {
            case .object?:
                current = current?[step.name]
            case nil, .null?:
                current = nil
            default:
                return .failure(.unknownAttribute(walked.attribute, "\(RecordPath(steps: Array(walked.steps.dropLast()))) holds a value"))
            }
            if let id = step.element {
                switch current {
                case .array(let items)?:
                    guard let element = items.first(where: { $0["id"]?.intValue == id }) else {
                        return .failure(.elementNotFound("\(walked.attribute) has no element with the id \(id)"))
                    }
                    current = element
                    walked = walked.element(id)
                case nil, .null?:
                    if case .none(let reason) = recordModel.role(walked.names) { return .failure(.unknownAttribute(walked.attribute, reason)) }
                    return .failure(.elementNotFound("\(walked.attribute) has no element with the id \(id)"))
                default:
                    return .failure(.invalid("\(walked.attribute) is not a plural: #\(id) picks an element of a plural"))
                }
            }
        }
        if let current { return .success(current) }
        switch recordModel.role(path.names) {
        case .none(let reason): return .failure(.unknownAttribute(path.attribute, reason))
        case .unknown where !writable(path.names):
            return .failure(.unknownAttribute(path.attribute, "no field stores it and it is not in the write list"))
        default: return .success(.null)
        }
    }

    /// `attribute_name` as a path: absent, empty or `/` is the whole record; a name without
    /// its leading `/` is no attribute (223); a malformed one is refused (200).
    func recordPath(_ attribute: String?) -> Result<RecordPath, ReplyError> {
        guard let attribute, !attribute.isEmpty, attribute != "/" else { return .success(.root) }
        guard attribute.hasPrefix("/") else {
            return .failure(ReplyError(reply(.unknownAttribute(attribute, "an attribute path starts with /"))))
        }
        switch RecordPath.parse(attribute) {
        case .failure(.malformed(let reason)): return .failure(ReplyError(.invalid("attribute_name", reason)))
        case .success(let path):
            if path.steps.count >= RecordLimits.maximumDepth {
                return .failure(
                    ReplyError(
                        reply(.dataFormat("attribute_name nests \(path.steps.count) levels deep: records nest at most \(RecordLimits.maximumDepth)")))
                )
            }
            return .success(path)
        }
    }

    // MARK: writing

    /// `/entity.update`, `/entity.replace` and `/entity.delete` (`RecordEditor`): the value in
    /// `value` (Android) or `attributes` (iOS). Attributes outside the write list get 223.
    /// Without a schema, a written value a flow field describes (by its schema path) must have
    /// the field's JSON type (200) and pass the field's rules (390, localized by `locale`,
    /// listing taken `unique` values too), `unique` alone 361; with one, the schema's types,
    /// lengths and constraints decide (223, 340-342, 360-363).
    func writeRecord(_ parameters: RequestParameters, kind: RecordEditor.Kind) async throws -> ServerReply {
        let operation: CaptureOperation =
            switch kind {
            case .update: .updateObject
            case .replace: .replacePlural
            case .delete: .deleteAttribute
            }
        if let refused = validateParameters(operation, parameters, form: nil) { return refused }
        let includeRecord: Bool
        switch parameters["include_record"] {
        case nil, "false"?: includeRecord = false
        case "true"?: includeRecord = true
        default: return .invalid("include_record", "must be true or false")
        }
        let user: StoredUser
        switch try await authorized(parameters) {
        case .failure(let error): return error.reply
        case .success(let value): user = value.0
        }
        var value = JSONValue.null
        if kind != .delete {
            if parameters["value"] != nil, parameters["attributes"] != nil {
                return .invalid("attributes", "give the new value once: as value (as Android sends it) or attributes (as iOS does)")
            }
            guard let text = parameters["value"] ?? parameters["attributes"] else { return .missing("value") }
            do { value = try JSONValue.parse(text) } catch { return .invalid("value", "not JSON: \(error)") }
        }
        let path: RecordPath
        switch recordPath(parameters["attribute_name"]) {
        case .failure(let refusal): return refusal.reply
        case .success(let parsed): path = parsed
        }
        switch kind {
        case .update:
            guard value.objectValue != nil else { return .invalid("value", "entity.update takes an object") }
        case .replace, .delete:
            if path.isRoot { return .missing("attribute_name") }
        }
        if path.steps.count + value.nestingDepth > RecordLimits.maximumDepth {
            return reply(
                .dataFormat(
                    """
                    the value at \(path) would nest \(path.steps.count + value.nestingDepth) levels deep: records nest at most \
                    \(RecordLimits.maximumDepth)
                    """
                ))
        }

        let editor = RecordEditor(model: recordModel, writable: writableCheck)
        let record = user.record
        // The write on the record as it is, for the checks that need the other records or
        // the flow's rules; the transaction writes it again on the record as it is then.
        var scratch = ElementIDs(next: recordModel.largestElementID(in: record) + 1)
        let preview: RecordEditor.Edited
        do { preview = try editor.apply(kind, at: path, value: value, to: record, ids: &scratch) } catch { return reply(error) }
        let unique: [CaptureStore.UniqueCheck]
        switch recordModel {
        case .flow:
            // The flow's fields store paths without plural elements.
            if !path.steps.contains(where: { $0.element != nil }) {
                let written = kind == .delete ? JSONValue.null : value
                let patch = path.isRoot ? written : JSONValue.object([]).setting(path: path.names.joined(separator: "."), written)
                if let refused = try await checkWrite(patch, record: preview.record, locale: locale(parameters), userID: user.id) { return refused }
                unique = uniqueChecks(patch)
            } else {
                unique = []
            }
        case .schema:
            // The schema's `unique` attributes the write sets (the email's index has the last
            // word on the email, whatever the schema says).
            unique = preview.unique.compactMap { entry -> CaptureStore.UniqueCheck? in
                switch entry.value {
                case .string(let text): (RecordPath.attribute(entry.names), entry.names.joined(separator: "."), text)
                case .number(let text): (RecordPath.attribute(entry.names), entry.names.joined(separator: "."), text)
                default: nil
                }
            }
        }
        let stored: StoredUser
        let written = value
        do {
            stored = try await store.editRecord(id: user.id, unique: unique, now: now) { record, ids in
                try editor.apply(kind, at: path, value: written, to: record, ids: &ids).record
            }
        } catch let error as RecordEditError {
            return reply(error)
        } catch StoreConflict.notUnique(let fields) {
            return uniqueViolation(fields)
        } catch let conflict as StoreConflict {
            if let refused = refusal(conflict, userID: user.id) { return refused }
            throw conflict
        }
        guard includeRecord else { return .ok }
        let result: JSONValue
        if path.isRoot || kind == .delete {
            result = try await publicRecord(stored)
        } else {
            result = stored.record.value(at: path) ?? .null
        }
        return .json(["stat": "ok", "result": result])
    }

    /// The reply for a write the store refused (the record's limits, a record it cannot
    /// read); nil for the other conflicts.
    func refusal(_ conflict: StoreConflict, userID: Int64) -> ServerReply? {
        switch conflict {
        case let .recordTooLarge(size, limit):
            return .error(
                363, "length_violation",
                "the record would be \(size) bytes, more than this server's limit of \(limit) bytes (server.maximumRecordSize)")
        case let .recordTooDeep(depth, limit):
            return .error(340, "invalid_data_format", "the record would nest \(depth) levels deep: records nest at most \(limit)")
        case .undecodableRecord(let reason):
            logger.error("the record of user \(userID) cannot be read (\(reason)): it is left as it is")
            return .error(
                500, "unexpected_error",
                "the stored record of this account cannot be read (\(reason)): it is left as it is, and no write can change it until it is repaired",
                status: .internalServerError)
        case .notUnique, .identityTaken, .engageTokenUsed:
            return nil
        }
    }

    /// The Capture error of a refused read or write.
    func reply(_ error: RecordEditError) -> ServerReply {
        let schema = recordModel.isSchema
        switch error {
        case .invalid(let text):
            return .error(200, "invalid_argument", text)
        case .wrongShape(let text):
            return schema ? .error(341, "invalid_json_type", text) : .error(200, "invalid_argument", "value: \(text)")
        case let .unknownAttribute(path, reason):
            return .error(223, "unknown_attribute", "the record has no attribute \(path): \(reason)", extra: [("attribute_name", .string(path))])
        case .notWritable(let path):
            return .error(
                223, "unknown_attribute", "\(path) cannot be written with an access token (server.writeWithToken)",
                extra: [("attribute_name", .string(path))])
        case .reserved(let path):
            let text = "\(path) is set by the server (or, a password, written with the forms)"
            return schema
                ? .error(234, "reserved_attribute", text, extra: [("attribute_name", .string(path))])
                : .error(223, "unknown_attribute", text, extra: [("attribute_name", .string(path))])
        case .elementNotFound(let text):
            return .error(310, "record_not_found", text)
        case .idInNewElement(let text):
            return .error(320, "id_in_new_record", text)
        case .dataFormat(let text):
            return .error(340, "invalid_data_format", text)
        case .dateTime(let text):
            return .error(342, "invalid_date_time", text)
        case .constraint(let text):
            return .error(360, "constraint_violation", text)
        case .locallyUnique(let text):
            return .error(361, "unique_violation", text)
        case .required(let text):
            return .error(362, "missing_required_attribute", text)
        case .length(let text):
            return .error(363, "length_violation", text)
        }
    }

    // MARK: the write list

    /// The attribute paths a token may write: `writeWithToken`, else the edit-profile form's.
    var writablePaths: Set<String> {
        if let list = setup.settings.writeWithToken { return Set(list.map(\.value)) }
        let form = flow.form(named: config.editProfileFormName.value)
        var paths = Set<String>()
        for name in form?.fields.map(\.value) ?? [] {
            for path in flow.field(named: name)?.schemaId?.paths ?? [] where path.value != "password" {
                paths.insert("/" + (path.value.split(separator: ".").first.map(String.init) ?? path.value))
            }
        }
        return paths
    }

    /// Whether attribute names are in the write list (an attribute is when it or one of the
    /// objects it is in is listed).
    var writableCheck: @Sendable ([String]) -> Bool {
        let paths = writablePaths
        return { names in
            var names = names[...]
            while !names.isEmpty {
                if paths.contains(RecordPath.attribute(Array(names))) { return true }
                names = names.dropLast()
            }
            return false
        }
    }

    func writable(_ names: [String]) -> Bool { writableCheck(names) }

    // MARK: flow checks

    /// The values of a write that flow fields describe: their JSON types (200) and the fields'
    /// rules (390), run on the record as the write leaves it (so `match` and `alongWith` see
    /// the other fields). When a rule fails, the 390 lists the `unique` values another record
    /// than `userID`'s holds too, as the forms' does. Nil when the write may go through.
    func checkWrite(_ patch: JSONValue, record: JSONValue, locale: LocaleTag, userID: Int64) async throws -> ServerReply? {
        let written: [String]
        switch recordAttributes.writtenFields(patch) {
        case .failure(.wrongType(let attribute, let expected, let got)):
            return .invalid("value", "\(attribute) takes \(expected), not \(got)")
        case .success(let result):
            written = result.fields
        }
        if written.isEmpty { return nil }
        let interpreter = FormInterpreter(flow: flow, localizer: setup.localizer)
        guard let form = try? interpreter.model(fields: written, named: "entity", locale: locale) else { return nil }
        // Other fields the rules refer to (`match`, `alongWith`) take their values from the record.
        let others = form.fields.flatMap {
            $0.rules.compactMap { rule -> String? in
                guard rule.kind == .match || rule.kind == .alongWith, case .text(let other) = rule.value else { return nil }
                return written.contains(other) ? nil : other
            }
        }
        let context = (try? interpreter.model(fields: written + others, named: "entity", locale: locale)) ?? form
        return try await checkWithUnique(FormValues(record: record, form: context), form: form, locale: locale, excluding: userID).reply
    }

    /// The values of a write that the flow says are `unique` (its fields' schema paths), and
    /// the email, which the database keeps unique: checked inside the write's transaction.
    func uniqueChecks(_ patch: JSONValue) -> [CaptureStore.UniqueCheck] {
        var checks: [CaptureStore.UniqueCheck] = []
        var paths = Set<String>()
        for field in flow.fields {
            guard field.validation.contains(where: { $0.kind == .unique }), case .path(let path)? = field.schemaId,
                paths.insert(path.value).inserted
            else { continue }
            if let value = patch.value(atPath: path.value)?.stringValue, !FormValues.isBlank(value) {
                checks.append((field.name, path.value, value))
            }
        }
        if !paths.contains("email"), let email = patch["email"]?.stringValue, !FormValues.isBlank(email) {
            checks.append(("email", "email", email))
        }
        return checks
    }

    /// 361: a write gave a unique attribute a value another record holds. `fields` are flow
    /// field names, or (with a schema) attribute paths.
    func uniqueViolation(_ fields: [String]) -> ServerReply {
        let paths = fields.map { name -> String in
            if name.hasPrefix("/") { return name }
            guard case .path(let path)? = flow.field(named: name)?.schemaId else { return "/" + name }
            return "/" + path.value.split(separator: ".").joined(separator: "/")
        }
        return .error(361, "unique_violation", "another record already has this value of \(paths.joined(separator: ", "))")
    }
}

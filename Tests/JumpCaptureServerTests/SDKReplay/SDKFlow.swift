import JumpForms

/// What an SDK keeps of the flow document it downloaded: the `version` string it sends as
/// `flow_version`, each field's `type` and `schemaId`, and each form's ordered field names
/// (iOS JRCaptureFlow.m:59-101, JRCaptureUser+Extras.m:132-171; Android
/// CaptureFlowUtils.java:53-157,194-227). The replays take it from the repository's flow, and
/// FlowDocumentReplayTests checks that the served document gives the SDKs the same.
struct SDKFlow: Sendable, Equatable {
    enum SchemaID: Sendable, Equatable {
        case path(String)
        /// `{subscript: path}`: sent as `field[subscript]`.
        case map([Sub])
    }

    struct Sub: Sendable, Equatable {
        var key: String
        var path: String
    }

    struct Field: Sendable, Equatable {
        var type: String
        var schemaId: SchemaID?
    }

    var version: String
    var fields: [String: Field]
    var forms: [String: [String]]

    init(version: String, fields: [String: Field], forms: [String: [String]]) {
        self.version = version
        self.fields = fields
        self.forms = forms
    }

    /// From a jump-forms flow: what its Capture flow document carries for the SDKs.
    init(flow: Flow) {
        version = flow.version.value
        var fields: [String: Field] = [:]
        for field in flow.fields {
            let schema: SchemaID? = field.schemaId.map {
                switch $0 {
                case .path(let path): .path(path.value)
                case .map(let subs): .map(subs.map { Sub(key: $0.key, path: $0.path.value) })
                }
            }
            fields[field.name] = Field(type: field.type.value.rawValue, schemaId: schema)
        }
        self.fields = fields
        var forms: [String: [String]] = [:]
        for form in flow.forms { forms[form.name] = form.fields.map(\.value) }
        self.forms = forms
    }

    /// From a Capture flow document, read as the SDKs read it: `version` must be a string
    /// (iOS JRCaptureData.m:236-242 and Android CaptureFlowUtils.java:194-199 drop any other
    /// type); `fields` holds forms (an entry with a `fields` list) and fields (`type`,
    /// `schemaId`: a string or an object of strings).
    init(document: JSONValue) throws {
        guard let version = document["version"]?.stringValue else {
            throw ReplayError("the flow document's `version` is not a string: \(document["version"]?.description ?? "missing")")
        }
        guard let entries = document["fields"]?.objectValue else { throw ReplayError("the flow document has no `fields` object") }
        var fields: [String: Field] = [:]
        var forms: [String: [String]] = [:]
        for (name, entry) in entries {
            if let list = entry["fields"]?.arrayValue {
                forms[name] = try list.map {
                    guard let field = $0.stringValue else { throw ReplayError("form \(name) lists a field that is not a string: \($0)") }
                    return field
                }
                continue
            }
            guard let type = entry["type"]?.stringValue else { throw ReplayError("field \(name) has no string `type`") }
            var schema: SchemaID?
            switch entry["schemaId"] {
            case .string(let path)?: schema = .path(path)
            case .object(let subs)?:
                schema = .map(
                    try subs.map {
                        guard let path = $0.value.stringValue else { throw ReplayError("field \(name): schemaId.\($0.key) is not a string") }
                        return Sub(key: $0.key, path: path)
                    })
            case nil, .null?: schema = nil
            default: throw ReplayError("field \(name): schemaId is neither a string nor an object")
            }
            fields[name] = Field(type: type, schemaId: schema)
        }
        self.version = version
        self.fields = fields
        self.forms = forms
    }

    /// The form's fields, with their definitions.
    func form(_ name: String) -> [(name: String, field: Field)] {
        (forms[name] ?? []).compactMap { name in fields[name].map { (name, $0) } }
    }

    /// The fields a form sends from a record, as `toFormFieldsForForm:withFlow:`
    /// (JRCaptureUser+Extras.m:132-171) and `getFormFields` (CaptureFlowUtils.java:53-105) make
    /// them: only fields with a `schemaId`; a value absent or null in the record is not sent;
    /// a `dateselect` field is sent as `[dateselect_year]`, `[dateselect_month]`,
    /// `[dateselect_day]`; a map schemaId as `field[sub]`.
    func formFields(_ form: String, from record: JSONValue, sdk: SDK) -> [(String, String)] {
        var out: [(String, String)] = []
        for (name, field) in self.form(form) {
            switch field.schemaId {
            case nil: continue
            case .path(let path)?:
                guard let value = Self.text(record.at(path: path), sdk: sdk) else { continue }
                if field.type == "dateselect" {
                    let parts = value.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
                    guard parts.count == 3 else { continue }
                    // iOS splits the stored yyyy-MM-dd (JRCaptureUser+Extras.m:196-201); Android
                    // parses it and prints %04d, %02d, %02d (CaptureFlowUtils.java:168-191): the
                    // same text for a well-formed date.
                    out += [(name + "[dateselect_year]", parts[0]), (name + "[dateselect_month]", parts[1]), (name + "[dateselect_day]", parts[2])]
                } else {
                    out.append((name, value))
                }
            case .map(let subs)?:
                for sub in subs {
                    if let value = Self.text(record.at(path: sub.path), sdk: sdk) { out.append((name + "[" + sub.key + "]", value)) }
                }
            }
        }
        return out
    }

    /// A record value as the SDK turns it into form text: iOS `jsonStringForValue`
    /// (JRCaptureUser+Extras.m:242-259) gives a string as it is and anything else as its JSON
    /// text; Android `toString()` (CaptureJsonUtils.java:275-301) the same for these values.
    static func text(_ value: JSONValue?, sdk: SDK) -> String? {
        switch value {
        case nil, .null?: nil
        case .string(let text)?: text
        case .bool(let flag)?: flag ? "true" : "false"
        case .number(let number)?: number
        case let other?: SDKJSON.text(other)
        }
    }

    /// The traditional sign-in form's two fields: the one of type `password`, and the other
    /// (iOS JRCaptureApidInterface.m:621-648; Android CaptureFlowUtils.java:107-157, which
    /// also requires exactly two).
    func signInFields(_ form: String) -> (user: String, password: String)? {
        let fields = self.form(form)
        guard fields.count == 2, let password = fields.first(where: { $0.field.type == "password" }),
            let user = fields.first(where: { $0.field.type != "password" })
        else { return nil }
        return (user.name, password.name)
    }

    /// The identifying field of forgot-password and resend-verification forms: the first of
    /// type `email` or `text` (JRCaptureFlow.m:81-97; CaptureFlowUtils.java:212-227).
    func identifyingField(_ form: String) -> String? {
        self.form(form).first { $0.field.type == "email" || $0.field.type == "text" }?.name
    }
}

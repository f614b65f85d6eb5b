import HTTPTypes
import JumpForms

/// Values that failed the form's client-side rules: the localized `field -> [messages]` map
/// Capture's `invalid_fields` would carry, and nothing sent.
public struct ValidationFailure: Error, Sendable, Hashable, CustomStringConvertible {
    public var form: String
    public var messages: [FieldMessages]

    public var description: String {
        messages.flatMap { entry in entry.messages.map { "\(entry.field): \($0)" } }.joined(separator: "\n")
    }
}

/// Why a request could not be built.
public enum RequestError: Error, Sendable, Hashable, CustomStringConvertible {
    case invalidValues(ValidationFailure)
    /// The configuration names a form the flow lacks: the name as `jump.yaml` writes it (with
    /// its place, for a `JF316` diagnostic) and the forms there are.
    case formMissing(CaptureOperation, form: Located<String>, known: [String])
    case noIdentifyingField(form: String)
    case missing(CaptureOperation, what: String)
    /// A plain value for a field whose `schemaId` is a map: it is sent as `field[sub]`, one
    /// value per sub-key, never as `field=value`.
    case plainValueForMapField(form: String, field: String, subKeys: [String])

    public var description: String {
        switch self {
        case .invalidValues(let failure):
            return "the values do not pass the rules of \(failure.form):\n\(failure)"
        case let .formMissing(operation, form, known):
            let hint = Suggestion.hint(for: form.value, among: known).map { " (\($0))" } ?? ""
            return "\(operation.rawValue) sends form '\(form.value)', which the flow does not have\(hint)"
        case .noIdentifyingField(let form):
            return "form '\(form)' has no field of type email or text to identify the account"
        case let .missing(operation, what):
            return "\(operation.rawValue) needs \(what)"
        case let .plainValueForMapField(form, field, subKeys):
            let parts = subKeys.map { "\(field)[\($0)]" }
            return "field '\(field)' of form '\(form)' has a schemaId map: give its parts \(parts.joined(separator: ", ")), not a plain value"
        }
    }

    /// The `JF316` diagnostic of a form the configuration names and the flow lacks, at the
    /// place `jump.yaml` names it; nil for the other errors.
    public var diagnostic: Diagnostic? {
        guard case let .formMissing(operation, form, known) = self else { return nil }
        return Diagnostic(.configNamesMissingForm,
                          "'\(operation.formKey ?? "?")' names form '\(form.value)', which the flow lacks (\(operation.rawValue) sends it)",
                          at: form.location, hint: Suggestion.hint(for: form.value, among: known))
    }
}

/// Builds the exact Capture and Engage requests of the protocol reference from the client
/// configuration, the flow and the user's values. Forms are interpreted once, when the builder
/// is made; values are checked by the rule engine before any request is built.
public struct RequestBuilder: Sendable {
    public let config: ClientConfig
    public let flow: Flow
    public let localizer: Localizer
    public let locale: LocaleTag
    public let capture: ServerURL
    private let forms: [String: FormModel]

    /// - Parameters:
    ///   - capture: where Capture is (the configured domain, or the embedded server's URL).
    public init(config: ClientConfig, flow: Flow, localizer: Localizer, locale: LocaleTag, capture: ServerURL) {
        self.config = config
        self.flow = flow
        self.localizer = localizer
        self.locale = locale
        self.capture = capture
        let interpreter = FormInterpreter(flow: flow, localizer: localizer)
        var forms: [String: FormModel] = [:]
        for form in flow.forms {
            if let model = try? interpreter.model(form: form.name, locale: locale) { forms[form.name] = model }
        }
        self.forms = forms
    }

    /// The form model an operation sends.
    public func form(for operation: CaptureOperation) throws(RequestError) -> FormModel {
        guard let name = operation.configuredFormName(in: config) else { throw .missing(operation, what: "no form") }
        guard let form = forms[name.value] else { throw .formMissing(operation, form: name, known: flow.forms.map(\.name)) }
        return form
    }

    // MARK: common parameters

    /// `client_id`, `locale`, `flow`, `flow_version`, and unless left out `redirect_uri` and
    /// `response_type`.
    func common(redirect: Bool = true) -> [RequestParameter] {
        var parameters = [
            RequestParameter("client_id", config.captureClientId.value),
            RequestParameter("locale", locale.identifier),
            RequestParameter("flow", config.captureFlowName?.value ?? flow.name.value),
            RequestParameter("flow_version", flow.version.value),
        ]
        if redirect {
            if let redirectUri = config.redirectUri { parameters.append(RequestParameter("redirect_uri", redirectUri.value)) }
            parameters.append(RequestParameter("response_type", config.responseType.value))
        }
        return parameters
    }

    func request(_ operation: CaptureOperation, _ parameters: [RequestParameter]) -> CaptureRequest {
        CaptureRequest(operation: operation, server: capture, path: operation.path, parameters: parameters)
    }

    // MARK: form fields

    /// Checks `values` against the form's client-side rules. A plain value for a field whose
    /// `schemaId` is a map is refused first: such a field is sent as `field[sub]`.
    public func validate(_ values: FormValues, form: FormModel, today: CivilDate) throws(RequestError) {
        for field in form.fields {
            if case .map(let subs) = field.schemaId, values[field.name] != nil {
                throw .plainValueForMapField(form: form.name, field: field.name, subKeys: subs.map(\.key))
            }
        }
        let report = RuleEngine(form: form, today: today).validate(values)
        guard report.isValid else {
            throw .invalidValues(ValidationFailure(form: form.name, messages: localizer.messages(for: report.violations, in: form)))
        }
    }

    /// The form's fields as parameters: field names, `field[sub]` for schemaId maps, dateselect
    /// split into year, month and day, checkboxes as JSON `true`/`false`, passwords secret.
    public func fieldParameters(_ form: FormModel, _ values: FormValues) -> [RequestParameter] {
        var parameters: [RequestParameter] = []
        for field in form.fields {
            let secret = field.type == .password
            if case .map(let subs) = field.schemaId {
                for sub in subs {
                    let name = "\(field.name)[\(sub.key)]"
                    if let value = values[name] { parameters.append(RequestParameter(name, value, secret: secret)) }
                }
                continue
            }
            guard let value = values[field.name] ?? field.defaultValue else {
                if field.type == .checkbox { parameters.append(RequestParameter(field.name, "false")) }
                continue
            }
            switch field.type {
            case .dateselect:
                if let date = CivilDate(iso: value) {
                    parameters.append(RequestParameter("\(field.name)[dateselect_year]", String(date.year)))
                    parameters.append(RequestParameter("\(field.name)[dateselect_month]", String(date.month)))
                    parameters.append(RequestParameter("\(field.name)[dateselect_day]", String(date.day)))
                } else if value.isEmpty {
                    parameters.append(RequestParameter(field.name, ""))
                }
            case .checkbox:
                parameters.append(RequestParameter(field.name, value == "true" ? "true" : "false"))
            default:
                parameters.append(RequestParameter(field.name, value, secret: secret))
            }
        }
        return parameters
    }

    /// A form-based request: validated, then the common parameters, `form`, the fields and
    /// the extras.
    func formRequest(_ operation: CaptureOperation, _ values: FormValues, today: CivilDate, redirect: Bool = true,
                     extras: [RequestParameter]) throws(RequestError) -> CaptureRequest {
        let form = try form(for: operation)
        try validate(values, form: form, today: today)
        return request(operation, common(redirect: redirect) + [RequestParameter("form", form.name)] + fieldParameters(form, values) + extras)
    }

    // MARK: operations

    /// Traditional sign-in with the sign-in form (email or username, by the form's fields).
    public func signIn(_ values: FormValues, refreshSecret: RefreshSecret, mergeToken: String? = nil,
                       today: CivilDate) throws(RequestError) -> CaptureRequest {
        var extras = [RequestParameter("refresh_secret", refreshSecret.value, secret: true)]
        if let mergeToken { extras.append(RequestParameter("merge_token", mergeToken, secret: true)) }
        return try formRequest(.signIn, values, today: today, extras: extras)
    }

    /// Sign-in with an Engage token; `thin_registration` from the configuration.
    public func socialSignIn(token: String, refreshSecret: RefreshSecret, mergeToken: String? = nil) -> CaptureRequest {
        var parameters = common() + [
            RequestParameter("token", token, secret: true),
            RequestParameter("thin_registration", config.enableThinRegistration.value ? "true" : "false"),
            RequestParameter("registration_form", config.captureSocialRegistrationFormName.value),
            RequestParameter("refresh_secret", refreshSecret.value, secret: true),
        ]
        if let mergeToken { parameters.append(RequestParameter("merge_token", mergeToken, secret: true)) }
        return request(.socialSignIn, parameters)
    }

    public func register(_ values: FormValues, refreshSecret: RefreshSecret, today: CivilDate) throws(RequestError) -> CaptureRequest {
        try formRequest(.register, values, today: today, extras: [RequestParameter("refresh_secret", refreshSecret.value, secret: true)])
    }

    /// Two-step social registration: the social registration form with the Engage token of the
    /// sign-in that answered 310.
    public func socialRegister(_ values: FormValues, token: String, refreshSecret: RefreshSecret,
                               today: CivilDate) throws(RequestError) -> CaptureRequest {
        try formRequest(.socialRegister, values, today: today, extras: [
            RequestParameter("token", token, secret: true),
            RequestParameter("refresh_secret", refreshSecret.value, secret: true),
        ])
    }

    /// The form's identifying field: its first field of type email or text.
    public func identifyingField(of form: FormModel) throws(RequestError) -> FormModel.Field {
        guard let field = form.fields.first(where: { $0.type.canIdentify }) else { throw .noIdentifyingField(form: form.name) }
        return field
    }

    func identifyingRequest(_ operation: CaptureOperation, _ values: FormValues, today: CivilDate) throws(RequestError) -> CaptureRequest {
        let form = try form(for: operation)
        try validate(values, form: form, today: today)
        let field = try identifyingField(of: form)
        return request(operation, common() + [
            RequestParameter("form", form.name),
            RequestParameter(field.name, values[field.name] ?? ""),
        ])
    }

    public func forgotPassword(_ values: FormValues, today: CivilDate) throws(RequestError) -> CaptureRequest {
        try identifyingRequest(.forgotPassword, values, today: today)
    }

    public func resendVerification(_ values: FormValues, today: CivilDate) throws(RequestError) -> CaptureRequest {
        try identifyingRequest(.resendVerification, values, today: today)
    }

    /// The edit-profile form, with the access token (no `redirect_uri`/`response_type`).
    public func updateProfile(_ values: FormValues, accessToken: String, today: CivilDate) throws(RequestError) -> CaptureRequest {
        try formRequest(.updateProfile, values, today: today, redirect: false,
                        extras: [RequestParameter("access_token", accessToken, secret: true)])
    }

    /// The change-password form, sent like the edit-profile form.
    public func changePassword(_ values: FormValues, accessToken: String, today: CivilDate) throws(RequestError) -> CaptureRequest {
        try formRequest(.changePassword, values, today: today, redirect: false,
                        extras: [RequestParameter("access_token", accessToken, secret: true)])
    }

    /// A new access token, signed with the refresh secret at `epochSeconds` (now by default).
    public func refreshAccessToken(accessToken: String, refreshSecret: RefreshSecret, epochSeconds: Int = RefreshSignature.now) -> CaptureRequest {
        let date = RefreshSignature.dateString(epochSeconds: epochSeconds)
        return request(.refreshAccessToken, [
            RequestParameter("client_id", config.captureClientId.value),
            RequestParameter("locale", locale.identifier),
            RequestParameter("access_token", accessToken, secret: true),
            RequestParameter("date", date),
            RequestParameter("signature", RefreshSignature.sign(accessToken: accessToken, date: date, secret: refreshSecret), secret: true),
        ])
    }

    public func linkAccount(accessToken: String, token: String) -> CaptureRequest {
        request(.linkAccount, common() + [
            RequestParameter("access_token", accessToken, secret: true),
            RequestParameter("token", token, secret: true),
        ])
    }

    public func unlinkAccount(accessToken: String, identifier: String) -> CaptureRequest {
        request(.unlinkAccount, common() + [
            RequestParameter("access_token", accessToken, secret: true),
            RequestParameter("identifier_to_remove", identifier),
        ])
    }

    /// The record, or one attribute of it (`/primaryAddress`).
    public func readRecord(accessToken: String, attribute: String? = nil) -> CaptureRequest {
        var parameters = [
            RequestParameter("client_id", config.captureClientId.value),
            RequestParameter("access_token", accessToken, secret: true),
        ]
        if let attribute { parameters.append(RequestParameter("attribute_name", attribute)) }
        return request(.readRecord, parameters)
    }

    /// `entity.update` of an object (`attribute` nil for the root). The new value goes in
    /// `value` (the Android SDK's name; the local server also accepts iOS's `attributes`).
    public func updateObject(accessToken: String, attribute: String?, value: JSONValue) -> CaptureRequest {
        var parameters = [
            RequestParameter("client_id", config.captureClientId.value),
            RequestParameter("access_token", accessToken, secret: true),
        ]
        if let attribute { parameters.append(RequestParameter("attribute_name", attribute)) }
        parameters.append(RequestParameter("value", value.serialized()))
        return request(.updateObject, parameters)
    }

    /// `entity.replace` of a plural: the whole list is sent.
    public func replacePlural(accessToken: String, attribute: String, value: JSONValue) -> CaptureRequest {
        request(.replacePlural, [
            RequestParameter("client_id", config.captureClientId.value),
            RequestParameter("access_token", accessToken, secret: true),
            RequestParameter("attribute_name", attribute),
            RequestParameter("value", value.serialized()),
        ])
    }

    /// `entity.delete` of one attribute: a plural element (`/photos#3`), a plural, an object
    /// or a value. As the Android SDK sends it (ApidDelete): `attribute_name` and the access
    /// token alone, no `client_id`.
    public func deleteAttribute(accessToken: String, attribute: String) -> CaptureRequest {
        request(.deleteAttribute, [
            RequestParameter("attribute_name", attribute),
            RequestParameter("access_token", accessToken, secret: true),
        ])
    }
}

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
    /// The flow has the form but it cannot be interpreted (a field it lists is not defined, a
    /// rule's value or pattern is wrong): the interpreter's error, reported when the form is used.
    case formNotBuilt(CaptureOperation, form: Located<String>, InterpretError)
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
        case let .formNotBuilt(operation, form, error):
            return "\(operation.rawValue) sends form '\(form.value)', which cannot be built: \(error)"
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
        return Diagnostic(
            .configNamesMissingForm,
            "'\(operation.formKey ?? "?")' names form '\(form.value)', which the flow lacks (\(operation.rawValue) sends it)",
            at: form.location, hint: Suggestion.hint(for: form.value, among: known))
    }
}

/// Builds the Capture requests the JUMP SDKs send (iOS 5.5, Android 7.3.0: each call below
/// names the SDK lines it follows) from the client configuration, the flow and the user's
/// values. Forms are interpreted once, when the builder is made; values are checked by the
/// rule engine before any request is built. Where the SDKs disagree, docs/client.md says
/// which one is followed.
public struct RequestBuilder: Sendable {
    public let config: ClientConfig
    public let flow: Flow
    public let localizer: Localizer
    public let locale: LocaleTag
    public let capture: ServerURL
    /// The `flow_version` sent: the downloaded flow document's `version` against a remote
    /// Capture (as the SDKs send it: JRCaptureData.m:236-242, Jump.java:1104-1108), the flow's
    /// own `version` otherwise.
    public let flowVersion: String
    /// Each form of the flow, interpreted, or why it could not be (reported when it is used, so
    /// that one broken form does not stop the calls that do not send it).
    private let forms: [String: Result<FormModel, InterpretError>]

    /// - Parameters:
    ///   - capture: where Capture is (the configured domain, or the embedded server's URL).
    ///   - flowVersion: the `flow_version` to send (`FlowDocumentDownloader` gets it from the
    ///     flow document); by default the flow's own `version`.
    public init(config: ClientConfig, flow: Flow, localizer: Localizer, locale: LocaleTag, capture: ServerURL, flowVersion: String? = nil) {
        self.config = config
        self.flow = flow
        self.localizer = localizer
        self.locale = locale
        self.capture = capture
        self.flowVersion = flowVersion ?? flow.version.value
        let interpreter = FormInterpreter(flow: flow, localizer: localizer)
        var forms: [String: Result<FormModel, InterpretError>] = [:]
        for form in flow.forms where forms[form.name] == nil {
            forms[form.name] = Result { () throws(InterpretError) in try interpreter.model(form: form.name, locale: locale) }
        }
        self.forms = forms
    }

    /// The form model an operation sends: `formMissing` when the flow lacks it, `formNotBuilt`
    /// (with the interpreter's error) when it cannot be interpreted.
    public func form(for operation: CaptureOperation) throws(RequestError) -> FormModel {
        guard let name = operation.configuredFormName(in: config) else { throw .missing(operation, what: "no form") }
        switch forms[name.value] {
        case nil: throw .formMissing(operation, form: name, known: flow.forms.map(\.name))
        case .failure(let error)?: throw .formNotBuilt(operation, form: name, error)
        case .success(let form)?: return form
        }
    }

    // MARK: common parameters

    /// The flow's name as sent in `flow` (and in the flow document's URL).
    public var flowName: String { config.captureFlowName?.value ?? flow.name.value }

    /// `redirect_uri`: the configured one, else the Capture base URL, as iOS sends it
    /// (JRCaptureData.m:244-248; Android's default is `http://android.library`, Jump.java:210-214).
    /// The SDKs always send one.
    public var redirectUri: String { config.redirectUri?.value ?? capture.description }

    /// What the call asks for: sign-in and registration calls ask for `code_and_token` when
    /// `responseType` says so (the SDKs do when the app takes codes); forgot-password, resend
    /// and link always ask for `token`.
    enum ResponseType {
        case configured, token
    }

    /// `client_id`, `locale`, `flow`, `flow_version`, and unless left out `redirect_uri` and
    /// `response_type`.
    func common(redirect: Bool = true, responseType: ResponseType = .configured) -> [RequestParameter] {
        var parameters = [
            RequestParameter("client_id", config.captureClientId.value),
            RequestParameter("locale", locale.identifier),
            RequestParameter("flow", flowName),
            RequestParameter("flow_version", flowVersion)
        ]
        if redirect {
            parameters.append(RequestParameter("redirect_uri", redirectUri))
            parameters.append(RequestParameter("response_type", responseType == .token ? "token" : config.responseType.value))
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
    /// split into a 4-digit year and 2-digit month and day, checkboxes as JSON `true`/`false`,
    /// passwords secret. A field without a value is not sent: the SDKs fill forms from the
    /// record and leave out an unset attribute (JRCaptureUser+Extras.m:180-204,
    /// CaptureFlowUtils.java:159-192), so an unset (or cleared) checkbox is not sent, while one
    /// set to false is sent as `false`; an empty date is not sent either (iOS sends no parts for
    /// it, Android cannot parse it).
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
            guard let value = values[field.name] ?? field.defaultValue else { continue }
            switch field.type {
            case .dateselect:
                // Zero-padded, as both SDKs send them (JRCaptureUser+Extras.m:196-201 splits the
                // stored yyyy-MM-dd; CaptureFlowUtils.java:185-190 formats %04d, %02d, %02d).
                if let date = CivilDate(iso: value) {
                    parameters.append(RequestParameter("\(field.name)[dateselect_year]", Self.padded(date.year, 4)))
                    parameters.append(RequestParameter("\(field.name)[dateselect_month]", Self.padded(date.month, 2)))
                    parameters.append(RequestParameter("\(field.name)[dateselect_day]", Self.padded(date.day, 2)))
                }
            case .checkbox:
                // A cleared checkbox is unset, not false.
                if !FormValues.isBlank(value) { parameters.append(RequestParameter(field.name, value == "true" ? "true" : "false")) }
            default:
                parameters.append(RequestParameter(field.name, value, secret: secret))
            }
        }
        return parameters
    }

    /// `number` in decimal digits, zero-padded to `width`.
    static func padded(_ number: Int, _ width: Int) -> String {
        let digits = String(number)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// A form-based request: validated, then the common parameters, `form`, the fields and
    /// the extras.
    func formRequest(
        _ operation: CaptureOperation, _ values: FormValues, today: CivilDate, redirect: Bool = true,
        extras: [RequestParameter]
    ) throws(RequestError) -> CaptureRequest {
        let form = try form(for: operation)
        try validate(values, form: form, today: today)
        return request(operation, common(redirect: redirect) + [RequestParameter("form", form.name)] + fieldParameters(form, values) + extras)
    }

    // MARK: operations

    /// Traditional sign-in with the sign-in form (email or username, by the form's fields):
    /// JRCaptureApidInterface.m:571-591, Capture.java:63-93.
    public func signIn(
        _ values: FormValues, refreshSecret: RefreshSecret, mergeToken: String? = nil,
        today: CivilDate
    ) throws(RequestError) -> CaptureRequest {
        var extras = [RequestParameter("refresh_secret", refreshSecret.value, secret: true)]
        if let mergeToken { extras.append(RequestParameter("merge_token", mergeToken, secret: true)) }
        return try formRequest(.signIn, values, today: today, extras: extras)
    }

    /// Sign-in with an Engage token; `thin_registration` from the configuration (Capture.java:152-181,
    /// and iOS's token-URL variant, JRCaptureData.m:180-214, sends the same set).
    public func socialSignIn(token: String, refreshSecret: RefreshSecret, mergeToken: String? = nil) -> CaptureRequest {
        var parameters =
            common() + [
                RequestParameter("token", token, secret: true),
                RequestParameter("thin_registration", config.enableThinRegistration.value ? "true" : "false"),
                RequestParameter("registration_form", config.captureSocialRegistrationFormName.value),
                RequestParameter("refresh_secret", refreshSecret.value, secret: true)
            ]
        if let mergeToken { parameters.append(RequestParameter("merge_token", mergeToken, secret: true)) }
        return request(.socialSignIn, parameters)
    }

    /// Traditional registration: JRCapture.m:753-806, Capture.java:200-242.
    public func register(_ values: FormValues, refreshSecret: RefreshSecret, today: CivilDate) throws(RequestError) -> CaptureRequest {
        try formRequest(.register, values, today: today, extras: [RequestParameter("refresh_secret", refreshSecret.value, secret: true)])
    }

    /// Two-step social registration: the social registration form with the Engage token of the
    /// sign-in that answered 310 (the same calls as `register`, with `token`).
    public func socialRegister(
        _ values: FormValues, token: String, refreshSecret: RefreshSecret,
        today: CivilDate
    ) throws(RequestError) -> CaptureRequest {
        try formRequest(
            .socialRegister, values, today: today,
            extras: [
                RequestParameter("token", token, secret: true),
                RequestParameter("refresh_secret", refreshSecret.value, secret: true)
            ])
    }

    /// The form's identifying field: its first field of type email or text.
    public func identifyingField(of form: FormModel) throws(RequestError) -> FormModel.Field {
        guard let field = form.fields.first(where: { $0.type.canIdentify }) else { throw .noIdentifyingField(form: form.name) }
        return field
    }

    /// Forgot-password and resend-verification: the form's identifying field only, and
    /// `response_type=token` whatever `responseType` says, as both SDKs send it
    /// (JRCapture.m:573-582, JRCaptureUIRequestBuilder.m `standardParameters`;
    /// Capture.java:246-264, 294-310).
    func identifyingRequest(_ operation: CaptureOperation, _ values: FormValues, today: CivilDate) throws(RequestError) -> CaptureRequest {
        let form = try form(for: operation)
        try validate(values, form: form, today: today)
        let field = try identifyingField(of: form)
        return request(
            operation,
            common(responseType: .token) + [
                RequestParameter("form", form.name),
                RequestParameter(field.name, values[field.name] ?? "")
            ])
    }

    public func forgotPassword(_ values: FormValues, today: CivilDate) throws(RequestError) -> CaptureRequest {
        try identifyingRequest(.forgotPassword, values, today: today)
    }

    public func resendVerification(_ values: FormValues, today: CivilDate) throws(RequestError) -> CaptureRequest {
        try identifyingRequest(.resendVerification, values, today: today)
    }

    /// The edit-profile form, with the access token (no `redirect_uri`/`response_type`):
    /// JRCapture.m:867-904, Capture.java:353-374.
    public func updateProfile(_ values: FormValues, accessToken: String, today: CivilDate) throws(RequestError) -> CaptureRequest {
        try formRequest(
            .updateProfile, values, today: today, redirect: false,
            extras: [RequestParameter("access_token", accessToken, secret: true)])
    }

    /// The change-password form, sent like the edit-profile form.
    public func changePassword(_ values: FormValues, accessToken: String, today: CivilDate) throws(RequestError) -> CaptureRequest {
        try formRequest(
            .changePassword, values, today: today, redirect: false,
            extras: [RequestParameter("access_token", accessToken, secret: true)])
    }

    /// A new access token, signed with the refresh secret at `epochSeconds` (now by default).
    /// iOS's parameters in iOS's order, `flow` and `flow_version` always (JRCapture.m:509-518;
    /// Android sends them only when both are known, CaptureRecord.java:377-392).
    public func refreshAccessToken(accessToken: String, refreshSecret: RefreshSecret, epochSeconds: Int = RefreshSignature.now) -> CaptureRequest {
        let date = RefreshSignature.dateString(epochSeconds: epochSeconds)
        return request(
            .refreshAccessToken,
            [
                RequestParameter("access_token", accessToken, secret: true),
                RequestParameter("signature", RefreshSignature.sign(accessToken: accessToken, date: date, secret: refreshSecret), secret: true),
                RequestParameter("date", date),
                RequestParameter("client_id", config.captureClientId.value),
                RequestParameter("locale", locale.identifier),
                RequestParameter("flow", flowName),
                RequestParameter("flow_version", flowVersion)
            ])
    }

    /// Adds the identity of an Engage token to the signed-in account: JRCapture.m:1032-1041,
    /// Capture.java:607-617. `response_type` is `token` (iOS; Android repeats the last
    /// sign-in's, and neither reads a code from the answer).
    public func linkAccount(accessToken: String, token: String) -> CaptureRequest {
        request(
            .linkAccount,
            common(responseType: .token) + [
                RequestParameter("access_token", accessToken, secret: true),
                RequestParameter("token", token, secret: true)
            ])
    }

    /// Removes an identity: the SDKs' parameters in their order, no `redirect_uri` or
    /// `response_type` (JRCapture.m:1085-1092, Capture.java:635-642).
    public func unlinkAccount(accessToken: String, identifier: String) -> CaptureRequest {
        request(
            .unlinkAccount,
            [
                RequestParameter("client_id", config.captureClientId.value),
                RequestParameter("locale", locale.identifier),
                RequestParameter("identifier_to_remove", identifier),
                RequestParameter("access_token", accessToken, secret: true),
                RequestParameter("flow", flowName),
                RequestParameter("flow_version", flowVersion)
            ])
    }

    /// The record, or one attribute of it (`/primaryAddress`). The access token alone
    /// authenticates: no `client_id` (JRCaptureApidInterface.m:217-227, Capture.java:652-657).
    public func readRecord(accessToken: String, attribute: String? = nil) -> CaptureRequest {
        var parameters = [RequestParameter("access_token", accessToken, secret: true)]
        if let attribute { parameters.append(RequestParameter("attribute_name", attribute)) }
        return request(.readRecord, parameters)
    }

    /// `entity.update` of an object (`attribute` nil for the root), without `client_id`. The
    /// new value goes in `value`, as Android sends it (ApidUpdate.java:54-65; the local server
    /// also accepts iOS's hand-built `attributes` body).
    public func updateObject(accessToken: String, attribute: String?, value: JSONValue) -> CaptureRequest {
        var parameters = [RequestParameter("access_token", accessToken, secret: true)]
        if let attribute { parameters.append(RequestParameter("attribute_name", attribute)) }
        parameters.append(RequestParameter("value", value.serialized()))
        return request(.updateObject, parameters)
    }

    /// `entity.replace` of a plural: the whole list is sent, without `client_id`
    /// (ApidReplace.java).
    public func replacePlural(accessToken: String, attribute: String, value: JSONValue) -> CaptureRequest {
        request(
            .replacePlural,
            [
                RequestParameter("access_token", accessToken, secret: true),
                RequestParameter("attribute_name", attribute),
                RequestParameter("value", value.serialized())
            ])
    }

    /// `entity.delete` of one attribute: a plural element (`/photos#3`), a plural, an object
    /// or a value. As the Android SDK sends it (ApidDelete): `attribute_name` and the access
    /// token alone, no `client_id`.
    public func deleteAttribute(accessToken: String, attribute: String) -> CaptureRequest {
        request(
            .deleteAttribute,
            [
                RequestParameter("attribute_name", attribute),
                RequestParameter("access_token", accessToken, secret: true)
            ])
    }
}

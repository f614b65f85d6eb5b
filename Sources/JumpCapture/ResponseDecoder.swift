import JumpForms

/// A successful sign-in or registration.
public struct SignInResult: Sendable, Hashable {
    public var accessToken: String
    public var authorizationCode: String?
    public var isNew: Bool
    /// The record (`capture_user`), never with the password.
    public var record: JSONValue
    public var expiresIn: Int?

    /// A sign-in as the decoder makes it from an answer; apps make their own for SwiftUI
    /// previews and tests.
    public init(accessToken: String, authorizationCode: String? = nil, isNew: Bool = false, record: JSONValue = .null, expiresIn: Int? = nil) {
        self.accessToken = accessToken
        self.authorizationCode = authorizationCode
        self.isNew = isNew
        self.record = record
        self.expiresIn = expiresIn
    }
}

/// What a successful call answered.
public enum CaptureSuccess: Sendable, Hashable {
    case signedIn(SignInResult)
    /// A new access token (`refresh`).
    case refreshed(accessToken: String, expiresIn: Int?)
    /// `/entity`: the record or the attribute asked for.
    case record(JSONValue)
    /// `{"stat": "ok"}` and anything else the call answers.
    case ok(JSONValue)
    /// Engage: a token from `/signin/oauth_token`.
    case engageToken(String)
    /// Engage: the mobile configuration.
    case engageConfiguration(JSONValue)
}

/// The error fields every Capture failure carries.
public struct ServerError: Sendable, Hashable, CustomStringConvertible {
    public var code: Int
    public var error: String
    /// `message` when the server sends one, else `error_description`.
    public var description: String
    public var body: JSONValue

    /// An error as the decoder makes it from an answer; apps make their own for previews and
    /// tests. Without `body`, the body is the one Capture sends for it:
    /// `{"stat": "error", "code": code, "error": error, "error_description": description}`.
    public init(code: Int, error: String, description: String, body: JSONValue? = nil) {
        self.code = code
        self.error = error
        self.description = description
        self.body =
            body
            ?? .object([
                (key: "stat", value: .string("error")), (key: "code", value: .integer(code)), (key: "error", value: .string(error)),
                (key: "error_description", value: .string(description))
            ])
    }
}

/// 310 from a social sign-in: the account does not exist yet.
public struct TwoStepRegistration: Sendable, Hashable {
    /// `prereg_fields` (by field name) and `prereg_attributes` (by schema path) mapped onto the
    /// social registration form's fields.
    public var prefill: FormValues
    /// The social registration token: the Engage token of the sign-in that failed.
    public var token: String?
    public var server: ServerError

    /// A 310 as the decoder makes it; apps make their own for previews and tests.
    public init(prefill: FormValues = FormValues(), token: String? = nil, server: ServerError) {
        self.prefill = prefill
        self.token = token
        self.server = server
    }
}

/// 380: the email address belongs to an account of another provider.
public struct MergeRequired: Sendable, Hashable {
    /// The provider holding the account (`capture` for a traditional account).
    public var existingProvider: String
    /// The provider of the sign-in that failed.
    public var conflictingProvider: String?
    /// The merge token: the Engage token of the sign-in that failed.
    public var mergeToken: String?
    public var server: ServerError

    /// A 380 as the decoder makes it; apps make their own for previews and tests.
    public init(existingProvider: String, conflictingProvider: String? = nil, mergeToken: String? = nil, server: ServerError) {
        self.existingProvider = existingProvider
        self.conflictingProvider = conflictingProvider
        self.mergeToken = mergeToken
        self.server = server
    }
}

/// 390: field name -> messages, and form-level messages.
public struct InvalidFields: Sendable, Hashable {
    /// The messages of the form's fields, in the server's order.
    public var fields: [FieldMessages]
    /// Messages under names that are no field of the flow.
    public var formMessages: [String]
    public var server: ServerError

    /// A 390 as the decoder makes it; apps make their own for previews and tests.
    public init(fields: [FieldMessages], formMessages: [String] = [], server: ServerError) {
        self.fields = fields
        self.formMessages = formMessages
        self.server = server
    }
}

/// A body that is not a Capture answer.
public struct MalformedResponse: Error, Sendable, Hashable, CustomStringConvertible {
    public var status: Int
    public var reason: String

    /// A refused body as the decoder describes it; apps make their own for previews and tests.
    public init(status: Int, reason: String) {
        self.status = status
        self.reason = reason
    }

    public var description: String { "the server's answer (HTTP \(status)) is not a Capture response: \(reason)" }
}

/// A failed call, typed by what the client does about it.
public enum CaptureError: Error, Sendable, Hashable, CustomStringConvertible {
    /// 210: wrong credentials; offer forgot-password.
    case badCredentials(ServerError)
    /// 310: two-step social registration.
    case registrationNeeded(TwoStepRegistration)
    /// 380: merge flow.
    case mergeRequired(MergeRequired)
    /// 390: invalid form fields.
    case invalidFields(InvalidFields)
    /// 414: refresh, then retry.
    case accessTokenExpired(ServerError)
    /// 223: the write access schema lacks the attribute.
    case unknownAttribute(ServerError)
    /// 420: configuration error.
    case redirectURIMismatch(ServerError)
    /// Any other code, kept with its `error` and description.
    case server(ServerError)
    /// Not JSON, an HTML page, an empty or truncated body.
    case malformedResponse(MalformedResponse)
    /// Engage sharing refused (`{"stat": "fail", "err": {"code", "msg"}}`): the code and
    /// Engage's message (`EngageError.needsSignIn`: sign in to the provider again).
    case engage(EngageError)

    public var serverError: ServerError? {
        switch self {
        case .badCredentials(let error), .accessTokenExpired(let error), .unknownAttribute(let error),
            .redirectURIMismatch(let error), .server(let error):
            error
        case .registrationNeeded(let value): value.server
        case .mergeRequired(let value): value.server
        case .invalidFields(let value): value.server
        case .malformedResponse: nil
        case .engage(let error): ServerError(code: error.code ?? 0, error: "engage_error", description: error.message, body: error.body)
        }
    }

    public var description: String {
        if case .malformedResponse(let response) = self { return response.description }
        if case .engage(let error) = self { return error.description }
        guard let error = serverError else { return "error" }
        return "\(error.description) (\(error.code) \(error.error))"
    }
}

/// Turns server answers into typed results.
public struct ResponseDecoder: Sendable {
    public let flow: Flow
    public let config: ClientConfig

    public init(flow: Flow, config: ClientConfig) {
        self.flow = flow
        self.config = config
    }

    /// Decodes the answer to `operation`. `engageToken` is the token the request carried (the
    /// social registration and merge token when the answer is 310 or 380).
    public func decode(_ operation: CaptureOperation, status: Int, body: [UInt8], engageToken: String? = nil) -> Result<CaptureSuccess, CaptureError>
    {
        let json: JSONValue
        switch Self.parseBody(status: status, body: body) {
        case .failure(let error): return .failure(.malformedResponse(error))
        case .success(let value): json = value
        }
        guard case .object = json else {
            return .failure(.malformedResponse(MalformedResponse(status: status, reason: "the JSON is not an object")))
        }
        if operation.isSharing { return decodeSharing(operation, json, status: status) }
        let stat = json["stat"]?.stringValue
        if stat == "ok" {
            return decodeSuccess(operation, json, status: status)
        }
        if stat == "error" || stat == "fail" || json["code"] != nil || json["err"] != nil {
            return .failure(decodeError(json, engageToken: engageToken))
        }
        return .failure(.malformedResponse(MalformedResponse(status: status, reason: "no \"stat\" field")))
    }

    /// The JSON of a body, or why it is not JSON.
    static func parseBody(status: Int, body: [UInt8]) -> Result<JSONValue, MalformedResponse> {
        let trimmed = body.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        if trimmed.isEmpty {
            return .failure(MalformedResponse(status: status, reason: "the body is empty"))
        }
        if trimmed.first == UInt8(ascii: "<") {
            let text = String(decoding: body.prefix(4096), as: UTF8.self)
            var reason = "an HTML page, not JSON"
            if let open = text.firstRange(of: "<title>"), let close = text[open.upperBound...].firstRange(of: "</title>") {
                reason += " (\"\(text[open.upperBound..<close.lowerBound].prefix(120))\")"
            }
            return .failure(MalformedResponse(status: status, reason: reason))
        }
        do {
            return .success(try JSONValue.parse(body))
        } catch  where !Self.startsStructuredJSON(trimmed.first ?? 0) {
            // `Service Unavailable`, `forbidden`: text that is no JSON at all, quoted.
            let text = String(decoding: trimmed.prefix(4096), as: UTF8.self)
            let line = text.prefix { $0 != "\n" && $0 != "\r" }.prefix(120)
            return .failure(MalformedResponse(status: status, reason: "plain text, not JSON (\"\(line)\")"))
        } catch {
            return .failure(MalformedResponse(status: status, reason: "invalid JSON: \(error)"))
        }
    }

    /// Whether a body starting with this byte was meant as JSON (an object, a list, a string,
    /// a number, or a byte order mark), so that a parse error is "invalid JSON", not text.
    static func startsStructuredJSON(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"), 0xEF: true
        default: false
        }
    }

    func decodeSuccess(_ operation: CaptureOperation, _ json: JSONValue, status: Int) -> Result<CaptureSuccess, CaptureError> {
        func missing(_ key: String) -> Result<CaptureSuccess, CaptureError> {
            .failure(.malformedResponse(MalformedResponse(status: status, reason: "a successful \(operation.rawValue) answer has no \"\(key)\"")))
        }
        switch operation {
        case .signIn, .socialSignIn, .register, .socialRegister:
            guard let token = json["access_token"]?.stringValue else { return missing("access_token") }
            return .success(
                .signedIn(
                    SignInResult(
                        accessToken: token,
                        authorizationCode: json["authorization_code"]?.stringValue,
                        isNew: json["is_new"]?.boolValue ?? false,
                        record: json["capture_user"] ?? .null,
                        expiresIn: json["expires_in"]?.intValue
                    )))
        case .refreshAccessToken:
            guard let token = json["access_token"]?.stringValue else { return missing("access_token") }
            return .success(.refreshed(accessToken: token, expiresIn: json["expires_in"]?.intValue))
        case .readRecord:
            guard let result = json["result"] else { return missing("result") }
            return .success(.record(result))
        case .engageTokenExchange:
            guard let token = json["token"]?.stringValue else { return missing("token") }
            return .success(.engageToken(token))
        case .engageMobileConfig:
            return .success(.engageConfiguration(json))
        default:
            return .success(.ok(json))
        }
    }

    /// Engage sharing's answers: `{"stat": "ok", ...}` or `{"stat": "fail", "err": {"code",
    /// "msg"}}`; the URL shortener's `{"urls": ...}` (the SDKs read `urls` and look for no
    /// `stat`); the device sign-in's `{"rpx_result": {"stat", "token", "auth_info",
    /// "device_token"}}` (a failure: `rpx_result.stat` `fail` with `error`), whose `rpx_result`
    /// is the success.
    func decodeSharing(_ operation: CaptureOperation, _ json: JSONValue, status: Int) -> Result<CaptureSuccess, CaptureError> {
        func malformed(_ reason: String) -> Result<CaptureSuccess, CaptureError> {
            .failure(.malformedResponse(MalformedResponse(status: status, reason: reason)))
        }
        func failure(_ answer: JSONValue, body: JSONValue) -> CaptureError {
            let err = answer["err"]
            let code = err?["code"]?.intValue ?? err?["code"]?.stringValue.flatMap { Int($0) }
            let message = err?["msg"]?.stringValue ?? answer["error"]?.stringValue ?? "Engage refused the request"
            return .engage(EngageError(code: code, message: message, body: body))
        }
        if operation == .engageDeviceSignIn {
            guard let result = json["rpx_result"], case .object = result else { return malformed("no \"rpx_result\" object") }
            guard result["stat"]?.stringValue == "ok" else { return .failure(failure(result, body: json)) }
            return .success(.ok(result))
        }
        let stat = json["stat"]?.stringValue
        if stat == "fail" || stat == "error" || json["err"] != nil { return .failure(failure(json, body: json)) }
        if operation == .shortenURLs {
            guard case .object? = json["urls"] else { return malformed("a \(operation.rawValue) answer has no \"urls\" object") }
            return .success(.ok(json))
        }
        guard stat == "ok" else { return malformed("no \"stat\" field") }
        return .success(.ok(json))
    }

    func decodeError(_ json: JSONValue, engageToken: String?) -> CaptureError {
        // Engage failures: {"stat": "fail", "err": {"code": 2, "msg": "..."}}
        if let err = json["err"] {
            let server = ServerError(
                code: err["code"]?.intValue ?? 0, error: "engage_error",
                description: err["msg"]?.stringValue ?? "Engage error", body: json)
            return .server(server)
        }
        var code = json["code"]?.intValue ?? Int(json["code"]?.stringValue ?? "") ?? 0
        // The iOS SDK reports server errors as 3000 + code.
        if (3000..<4000).contains(code) { code -= 3000 }
        let server = ServerError(
            code: code,
            error: json["error"]?.stringValue ?? "unknown_error",
            description: json["message"]?.stringValue ?? json["error_description"]?.stringValue ?? "the server refused the request",
            body: json
        )
        switch code {
        case 210: return .badCredentials(server)
        case 223: return .unknownAttribute(server)
        case 310: return .registrationNeeded(TwoStepRegistration(prefill: prefill(json), token: engageToken, server: server))
        case 380:
            return .mergeRequired(
                MergeRequired(
                    existingProvider: json["existing_provider"]?.stringValue ?? "capture",
                    conflictingProvider: json["conflicting_provider"]?.stringValue ?? json["provider"]?.stringValue,
                    mergeToken: engageToken ?? json["merge_token"]?.stringValue,
                    server: server
                ))
        case 390: return .invalidFields(invalidFields(json, server: server))
        case 414: return .accessTokenExpired(server)
        case 420: return .redirectURIMismatch(server)
        default: return .server(server)
        }
    }

    /// `prereg_fields` by field name, `prereg_attributes` by schema path, onto the social
    /// registration form.
    func prefill(_ json: JSONValue) -> FormValues {
        var values = FormValues()
        let formFields = flow.form(named: config.captureSocialRegistrationFormName.value)?.fields.map(\.value) ?? flow.fields.map(\.name)
        let fields = formFields.compactMap { flow.field(named: $0) }
        if let attributes = json["prereg_attributes"] {
            var flat: [String: String] = [:]
            Self.flatten(attributes, prefix: "", into: &flat)
            for field in fields {
                switch field.schemaId {
                case .path(let path)?:
                    if let value = flat[path.value] { values[field.name] = value }
                case .map(let subs)?:
                    // A map field takes its parts: `phone[home]` from `phones.home`.
                    for sub in subs {
                        if let value = flat[sub.path.value] { values["\(field.name)[\(sub.key)]"] = value }
                    }
                case nil:
                    continue
                }
            }
        }
        if let preregFields = json["prereg_fields"]?.objectValue {
            for (name, value) in preregFields where fields.contains(where: { $0.name == name }) {
                if let text = Self.text(value) { values[name] = text }
            }
        }
        return values
    }

    static func flatten(_ value: JSONValue, prefix: String, into flat: inout [String: String]) {
        if case .object(let entries) = value {
            for (key, child) in entries {
                flatten(child, prefix: prefix.isEmpty ? key : prefix + "." + key, into: &flat)
            }
        } else if let text = text(value) {
            flat[prefix] = text
        }
    }

    static func text(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): text
        case .number(let number): number
        case .bool(let flag): flag ? "true" : "false"
        default: nil
        }
    }

    func invalidFields(_ json: JSONValue, server: ServerError) -> InvalidFields {
        var fields: [FieldMessages] = []
        var formMessages: [String] = []
        for (name, value) in json["invalid_fields"]?.objectValue ?? [] {
            let messages = value.arrayValue?.compactMap(\.stringValue) ?? value.stringValue.map { [$0] } ?? []
            if flow.field(named: name) != nil {
                fields.append(FieldMessages(field: name, messages: messages))
            } else {
                formMessages += messages
            }
        }
        return InvalidFields(fields: fields, formMessages: formMessages, server: server)
    }
}

import JumpForms

/// A value that holds secrets (passwords, tokens, refresh secrets, signatures) and never
/// prints them: string interpolation and `print` (`description`), `debugPrint` and
/// `String(reflecting:)` (`debugDescription`), and `dump` or a debugger (`customMirror`) all
/// show `maskedFields`, where every secret is `RequestPrinter.mask`.
public protocol SecretMasking: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The fields as they may be shown, secrets masked, in order.
    var maskedFields: [(name: String, text: String)] { get }
}

extension SecretMasking {
    public var description: String {
        "\(Self.self)(" + maskedFields.map { "\($0.name): \($0.text)" }.joined(separator: ", ") + ")"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: maskedFields.map { (label: $0.name, value: $0.text as Any) }, displayStyle: .struct)
    }
}

/// How `SecretMasking` types show their fields.
enum MaskedText {
    /// A secret: present or not, never its text or length.
    static func secret(_ value: String?) -> String {
        value == nil ? "nil" : RequestPrinter.mask
    }

    /// Text that is not secret, quoted.
    static func quoted(_ value: String?) -> String {
        value.map { "\"\($0)\"" } ?? "nil"
    }
}

extension RequestParameter: SecretMasking {
    public var maskedFields: [(name: String, text: String)] {
        [
            ("name", MaskedText.quoted(name)), ("value", isSecret ? MaskedText.secret(value) : MaskedText.quoted(value)),
            ("isSecret", String(isSecret))
        ]
    }
}

extension CaptureRequest: SecretMasking {
    public var maskedFields: [(name: String, text: String)] {
        [
            ("operation", operation.rawValue), ("method", method.rawValue),
            ("url", "\(server.scheme)://\(server.authority)\(target(maskingSecrets: true))"),
            (
                "parameters",
                "["
                    + parameters.map { $0.isSecret ? "\($0.name)=\(RequestPrinter.mask)" : "\($0.name)=\($0.value)" }
                    .joined(separator: ", ") + "]"
            )
        ]
    }
}

extension SignInResult: SecretMasking {
    public var maskedFields: [(name: String, text: String)] {
        [
            ("accessToken", MaskedText.secret(accessToken)), ("authorizationCode", MaskedText.secret(authorizationCode)),
            ("isNew", String(isNew)), ("record", record.serialized()), ("expiresIn", expiresIn.map(String.init) ?? "nil")
        ]
    }
}

extension Session: SecretMasking {
    public var maskedFields: [(name: String, text: String)] {
        [
            ("captureDomain", MaskedText.quoted(captureDomain)), ("clientId", MaskedText.quoted(clientId)),
            ("accessToken", MaskedText.secret(accessToken)), ("refreshSecret", MaskedText.secret(refreshSecret.value)),
            ("expiresAt", expiresAt.map { "\($0)" } ?? "nil"), ("record", record.serialized()),
            ("deviceTokens", "[" + deviceTokens.keys.sorted().map { "\($0): \(RequestPrinter.mask)" }.joined(separator: ", ") + "]")
        ]
    }
}

extension EngageDeviceSignIn: SecretMasking {
    public var maskedFields: [(name: String, text: String)] {
        [
            ("provider", MaskedText.quoted(provider)), ("identifier", MaskedText.quoted(identifier)), ("profile", profile.serialized()),
            ("token", MaskedText.secret(token)), ("deviceToken", MaskedText.secret(deviceToken))
        ]
    }
}

extension RefreshSecret: SecretMasking {
    public var maskedFields: [(name: String, text: String)] { [] }
    /// Never the secret itself.
    public var description: String { "RefreshSecret(\(RequestPrinter.mask))" }
}

extension TwoStepRegistration: SecretMasking {
    public var maskedFields: [(name: String, text: String)] {
        [("prefill", prefill.description), ("token", MaskedText.secret(token)), ("server", server.description)]
    }
}

extension MergeRequired: SecretMasking {
    public var maskedFields: [(name: String, text: String)] {
        [
            ("existingProvider", MaskedText.quoted(existingProvider)), ("conflictingProvider", MaskedText.quoted(conflictingProvider)),
            ("mergeToken", MaskedText.secret(mergeToken)), ("server", server.description)
        ]
    }
}

extension CaptureSuccess: SecretMasking {
    public var maskedFields: [(name: String, text: String)] {
        switch self {
        case .signedIn(let result): [("signedIn", result.description)]
        case let .refreshed(accessToken, expiresIn):
            [("refreshed", "accessToken: \(MaskedText.secret(accessToken)), expiresIn: \(expiresIn.map(String.init) ?? "nil")")]
        case .record(let record): [("record", record.serialized())]
        case .ok(let json): [("ok", json.serialized())]
        case .engageToken(let token): [("engageToken", MaskedText.secret(token))]
        case .engageConfiguration(let json): [("engageConfiguration", json.serialized())]
        }
    }
}

/// `description` stays the message for users (it holds no secret); the debug forms mask the
/// tokens of 310 and 380 answers.
extension CaptureError: CustomDebugStringConvertible, CustomReflectable {
    public var debugDescription: String {
        switch self {
        case .registrationNeeded(let value): "CaptureError.registrationNeeded(\(value))"
        case .mergeRequired(let value): "CaptureError.mergeRequired(\(value))"
        default: "CaptureError(\(description))"
        }
    }

    public var customMirror: Mirror {
        Mirror(self, children: [(label: "error", value: debugDescription as Any)], displayStyle: .enum)
    }
}

/// An answer's body may hold an access token: it is never printed, only its size.
extension HTTPAnswer: SecretMasking {
    public var maskedFields: [(name: String, text: String)] {
        [("status", String(status)), ("contentType", MaskedText.quoted(contentType)), ("body", "\(body.count) bytes")]
    }
}

/// The body of an error answer may carry a token (a 380's `merge_token`): the debug forms show
/// the code, the error and the message, never the body.
extension ServerError: CustomDebugStringConvertible, CustomReflectable {
    public var debugDescription: String {
        "ServerError(code: \(code), error: \(MaskedText.quoted(error)), description: \(MaskedText.quoted(description)))"
    }

    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                (label: "code", value: code as Any), (label: "error", value: error as Any),
                (label: "description", value: description as Any)
            ], displayStyle: .struct)
    }
}

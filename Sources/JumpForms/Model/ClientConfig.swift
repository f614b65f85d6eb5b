/// The client configuration (`jump.yaml`): the JRCaptureConfig keys, with their defaults.
public struct ClientConfig: Sendable {
    /// Where the Capture server is.
    public enum CaptureDomain: Sendable, Hashable, CustomStringConvertible {
        /// `embedded`: the CLI starts a local server in-process.
        case embedded
        /// An absolute URL such as `https://example.us.janraincapture.com`.
        case url(String)

        public var description: String {
            switch self {
            case .embedded: "embedded"
            case .url(let url): url
            }
        }
    }

    public enum SignInType: String, Sendable, Hashable, CaseIterable {
        case email, username
    }

    public var path: String
    public var captureDomain: Located<CaptureDomain>
    public var captureClientId: Located<String>
    public var captureAppId: Located<String>?
    public var captureLocale: Located<LocaleTag>
    public var captureFlowName: Located<String>?
    public var captureFlowVersion: Located<String>
    public var captureSignInFormName: Located<String>
    public var captureTraditionalSignInType: Located<SignInType>
    public var enableThinRegistration: Located<Bool>
    public var captureTraditionalRegistrationFormName: Located<String>
    public var captureSocialRegistrationFormName: Located<String>
    public var forgottenPasswordFormName: Located<String>
    public var editProfileFormName: Located<String>
    public var resendEmailVerificationFormName: Located<String>
    /// Addition: the change-password form (`changePasswordForm`).
    public var changePasswordFormName: Located<String>
    public var engageAppId: Located<String>?
    public var engageDomain: Located<String>
    public var engageWhitelistedDomain: Located<String>?
    public var redirectUri: Located<String>?
    /// The flow file, relative to `jump.yaml`.
    public var flow: Located<String>
    /// Addition: `responseType` (`token` or `code_and_token`).
    public var responseType: Located<String>
    /// The keys written in the file (the others have their defaults).
    public var writtenKeys: Set<String> = []
    /// Addition: `server:`, the local server's settings.
    public var server = ServerSettings()
    /// `captureFlowDomain` (Android's JumpConfig key; iOS calls it `downloadFlowUrl`): where the
    /// flow document is downloaded from against a remote Capture. Nil: the SDKs' CDN
    /// (`FlowDocumentSource.defaultDomain`), or the Capture server itself when it is on loopback.
    public var captureFlowDomain: Located<String>?

    public init(
        path: String,
        captureDomain: Located<CaptureDomain>,
        captureClientId: Located<String>,
        captureAppId: Located<String>? = nil,
        captureLocale: Located<LocaleTag>,
        captureFlowName: Located<String>? = nil,
        captureFlowVersion: Located<String>,
        captureSignInFormName: Located<String>,
        captureTraditionalSignInType: Located<SignInType>,
        enableThinRegistration: Located<Bool>,
        captureTraditionalRegistrationFormName: Located<String>,
        captureSocialRegistrationFormName: Located<String>,
        forgottenPasswordFormName: Located<String>,
        editProfileFormName: Located<String>,
        resendEmailVerificationFormName: Located<String>,
        changePasswordFormName: Located<String>,
        engageAppId: Located<String>? = nil,
        engageDomain: Located<String>,
        engageWhitelistedDomain: Located<String>? = nil,
        redirectUri: Located<String>? = nil,
        flow: Located<String>,
        responseType: Located<String>
    ) {
        self.path = path
        self.captureDomain = captureDomain
        self.captureClientId = captureClientId
        self.captureAppId = captureAppId
        self.captureLocale = captureLocale
        self.captureFlowName = captureFlowName
        self.captureFlowVersion = captureFlowVersion
        self.captureSignInFormName = captureSignInFormName
        self.captureTraditionalSignInType = captureTraditionalSignInType
        self.enableThinRegistration = enableThinRegistration
        self.captureTraditionalRegistrationFormName = captureTraditionalRegistrationFormName
        self.captureSocialRegistrationFormName = captureSocialRegistrationFormName
        self.forgottenPasswordFormName = forgottenPasswordFormName
        self.editProfileFormName = editProfileFormName
        self.resendEmailVerificationFormName = resendEmailVerificationFormName
        self.changePasswordFormName = changePasswordFormName
        self.engageAppId = engageAppId
        self.engageDomain = engageDomain
        self.engageWhitelistedDomain = engageWhitelistedDomain
        self.redirectUri = redirectUri
        self.flow = flow
        self.responseType = responseType
    }

    /// A configuration from plain values, as an app sets the SDKs' `JRCaptureConfig` (iOS) or
    /// `JumpConfig` (Android) in code: no `jump.yaml`, nothing read from a file. Three values
    /// are required, as the SDKs need them; the others have the SDKs' defaults:
    ///
    /// - `captureFlowVersion` `HEAD` (JRCaptureData.m:302), `captureFlowDomain` nil (the SDKs'
    ///   CDN, JumpConfig.java:234; a loopback Capture serves its own), `engageDomain`
    ///   `https://rpxnow.com` (JREngage.java:147, JRSessionData.m:42), `enableThinRegistration`
    ///   false (JRCaptureConfig's `bool`, JumpConfig.java:238; `jump.yaml`'s default is true),
    ///   `captureTraditionalSignInType` `.email`, `redirectUri` nil (the Capture URL, as iOS
    ///   sends it), `responseType` `token`.
    /// - The form names the SDKs' sample configurations use, which Capture's standard flow
    ///   has: `signInForm`, `registrationForm`, `socialRegistrationForm`,
    ///   `forgotPasswordForm`, `editProfileForm`, `resendVerificationForm` (the SDKs have no
    ///   default and fail the call without one), and `changePasswordForm`.
    ///
    /// The values are checked when they are used: `CaptureSetup` (and so `CaptureClient`)
    /// throws for a `captureDomain` or `engageDomain` that is not an http(s) URL, and a
    /// request for a form the flow lacks fails naming it. Every value's location is
    /// `source`:1:1, which errors name (there is no file).
    ///
    /// - Parameters:
    ///   - captureDomain: the Capture server's URL (`https://example.us.janraincapture.com`).
    ///   - captureClientId: the API client id.
    ///   - captureLocale: the locale requests send (and the flow document's).
    ///   - captureAppId: the Capture app id: against a remote Capture, part of the flow
    ///     document's URL, which a client needs to read the `flow_version` it sends.
    ///   - captureFlowName: the flow's name (by default the flow's own `flow`); needed to find
    ///     the flow document before there is a flow (`FlowDocumentSource(config:)`).
    ///   - responseType: `token` or `code_and_token` (an app that takes authorization codes).
    ///   - source: what errors name instead of a file.
    public init(
        captureDomain: String,
        captureClientId: String,
        captureLocale: LocaleTag,
        captureAppId: String? = nil,
        captureFlowName: String? = nil,
        captureFlowVersion: String = "HEAD",
        captureFlowDomain: String? = nil,
        captureSignInFormName: String = "signInForm",
        captureTraditionalSignInType: SignInType = .email,
        enableThinRegistration: Bool = false,
        captureTraditionalRegistrationFormName: String = "registrationForm",
        captureSocialRegistrationFormName: String = "socialRegistrationForm",
        forgottenPasswordFormName: String = "forgotPasswordForm",
        editProfileFormName: String = "editProfileForm",
        resendEmailVerificationFormName: String = "resendVerificationForm",
        changePasswordFormName: String = "changePasswordForm",
        engageAppId: String? = nil,
        engageDomain: String = "https://rpxnow.com",
        engageWhitelistedDomain: String? = nil,
        redirectUri: String? = nil,
        responseType: String = "token",
        source: String = "ClientConfig"
    ) {
        let start = SourceLocation.startOfFile(source)
        func here<Value>(_ value: Value) -> Located<Value> { Located(value, at: start) }
        self.init(
            path: source,
            captureDomain: here(.url(captureDomain)),
            captureClientId: here(captureClientId),
            captureAppId: captureAppId.map(here),
            captureLocale: here(captureLocale),
            captureFlowName: captureFlowName.map(here),
            captureFlowVersion: here(captureFlowVersion),
            captureSignInFormName: here(captureSignInFormName),
            captureTraditionalSignInType: here(captureTraditionalSignInType),
            enableThinRegistration: here(enableThinRegistration),
            captureTraditionalRegistrationFormName: here(captureTraditionalRegistrationFormName),
            captureSocialRegistrationFormName: here(captureSocialRegistrationFormName),
            forgottenPasswordFormName: here(forgottenPasswordFormName),
            editProfileFormName: here(editProfileFormName),
            resendEmailVerificationFormName: here(resendEmailVerificationFormName),
            changePasswordFormName: here(changePasswordFormName),
            engageAppId: engageAppId.map(here),
            engageDomain: here(engageDomain),
            engageWhitelistedDomain: engageWhitelistedDomain.map(here),
            redirectUri: redirectUri.map(here),
            flow: here(""),
            responseType: here(responseType))
        self.captureFlowDomain = captureFlowDomain.map(here)
    }

    /// The forms the configuration names, with the key that names each.
    public var namedForms: [(key: String, form: Located<String>)] {
        [
            ("captureSignInFormName", captureSignInFormName),
            ("captureTraditionalRegistrationFormName", captureTraditionalRegistrationFormName),
            ("captureSocialRegistrationFormName", captureSocialRegistrationFormName),
            ("forgottenPasswordFormName", forgottenPasswordFormName),
            ("editProfileFormName", editProfileFormName),
            ("resendEmailVerificationFormName", resendEmailVerificationFormName),
            ("changePasswordFormName", changePasswordFormName)
        ]
    }
}

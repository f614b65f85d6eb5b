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

import JumpForms

/// The Capture and Engage calls jump-forms makes: one family, each with its path, method and
/// what it needs. The request builders, the local server and `jump-forms request` share it.
public enum CaptureOperation: String, Sendable, Hashable, CaseIterable, Codable {
    case signIn = "signin"
    case socialSignIn = "social-signin"
    case register
    case socialRegister = "social-register"
    case forgotPassword = "forgot-password"
    case resendVerification = "resend-verification"
    case updateProfile = "update-profile"
    case changePassword = "change-password"
    case refreshAccessToken = "refresh"
    case linkAccount = "link"
    case unlinkAccount = "unlink"
    case readRecord = "read-record"
    case updateObject = "entity-update"
    case replacePlural = "entity-replace"
    case deleteAttribute = "entity-delete"
    case engageMobileConfig = "engage-config"
    case engageTokenExchange = "engage-token"
    case tokenURLPost = "token-url"
    /// `POST /oauth/revoke` (RFC 7009): ends a token's session at once.
    case revokeToken = "revoke"
    /// Engage sharing: `POST <engage>/api/v2/activity` (JRSessionData.m:1166-1216).
    case shareActivity = "share"
    /// Engage sharing as a status: `POST <engage>/api/v2/set_status` (JRSessionData.m:1218-1256).
    case setStatus = "set-status"
    /// Engage URL shortening: `GET <baseurl>/openid/get_urls` (JRActivityObject.java:633-659).
    case shortenURLs = "shorten-urls"
    /// The end of Engage's device sign-in: `GET <baseurl>/signin/device?token=&auth_info=true`,
    /// whose `rpx_result` carries the `device_token` sharing needs (JRWebViewFragment.java:426).
    case engageDeviceSignIn = "engage-device"

    /// The path on the Capture (or Engage) server.
    public var path: String {
        switch self {
        case .signIn: "/oauth/auth_native_traditional"
        case .socialSignIn: "/oauth/auth_native"
        case .register: "/oauth/register_native_traditional"
        case .socialRegister: "/oauth/register_native"
        case .forgotPassword: "/oauth/forgot_password_native"
        case .resendVerification: "/oauth/verify_email_native"
        case .updateProfile, .changePassword: "/oauth/update_profile_native"
        case .refreshAccessToken: "/oauth/refresh_access_token"
        case .linkAccount: "/oauth/link_account_native"
        case .unlinkAccount: "/oauth/unlink_account_native"
        case .readRecord: "/entity"
        case .updateObject: "/entity.update"
        case .replacePlural: "/entity.replace"
        case .deleteAttribute: "/entity.delete"
        case .engageMobileConfig: "/openid/mobile_config_and_baseurl"
        case .engageTokenExchange: "/signin/oauth_token"
        case .tokenURLPost: ""
        case .revokeToken: "/oauth/revoke"
        case .shareActivity: "/api/v2/activity"
        case .setStatus: "/api/v2/set_status"
        case .shortenURLs: "/openid/get_urls"
        case .engageDeviceSignIn: "/signin/device"
        }
    }

    /// What the call does, for help texts and docs.
    public var summary: String {
        switch self {
        case .signIn: "traditional sign-in with the sign-in form"
        case .socialSignIn: "sign-in with an Engage token"
        case .register: "traditional registration with the registration form"
        case .socialRegister: "two-step social registration with the social registration form and the Engage token"
        case .forgotPassword: "send a password-reset email to the forgot-password form's address"
        case .resendVerification: "send the verification email again"
        case .updateProfile: "save the edit-profile form"
        case .changePassword: "save the change-password form"
        case .refreshAccessToken: "get a new access token with the refresh signature"
        case .linkAccount: "add a social identity (Engage token) to the signed-in account"
        case .unlinkAccount: "remove a social identity from the signed-in account"
        case .readRecord: "read the signed-in user's record"
        case .updateObject: "update an object of the record (entity.update)"
        case .replacePlural: "replace a plural of the record (entity.replace)"
        case .deleteAttribute: "delete a plural element or clear an attribute of the record (entity.delete)"
        case .engageMobileConfig: "fetch Engage's provider configuration"
        case .engageTokenExchange: "exchange a native provider token for an Engage token"
        case .tokenURLPost: "post an Engage token to the app's token URL"
        case .revokeToken: "end a session at once: revoke its access token (or a refresh token) (RFC 7009)"
        case .shareActivity: "share an activity on a provider through Engage"
        case .setStatus: "set the user's status on a provider through Engage"
        case .shortenURLs: "shorten an activity's URLs through Engage"
        case .engageDeviceSignIn: "read the profile and device token of an Engage sign-in"
        }
    }

    /// Whether the call goes to Engage rather than Capture.
    public var isEngage: Bool {
        [.engageMobileConfig, .engageTokenExchange, .tokenURLPost, .shareActivity, .setStatus, .shortenURLs, .engageDeviceSignIn].contains(self)
    }

    /// Whether the call is Engage sharing (a refusal is an `EngageError`).
    public var isSharing: Bool { [.shareActivity, .setStatus, .shortenURLs, .engageDeviceSignIn].contains(self) }

    /// Whether a successful answer carries a new access token and refresh secret.
    public var startsSession: Bool { [.signIn, .socialSignIn, .register, .socialRegister].contains(self) }

    /// Whether the call needs the signed-in user's access token.
    public var needsAccessToken: Bool {
        [
            .updateProfile, .changePassword, .refreshAccessToken, .linkAccount, .unlinkAccount, .readRecord, .updateObject, .replacePlural,
            .deleteAttribute
        ]
        .contains(self)
    }

    /// The `jump.yaml` form this call sends, if any.
    public func formName(in config: ClientConfig) -> String? {
        configuredFormName(in: config)?.value
    }

    /// The `jump.yaml` key naming the form this call sends, if any.
    public var formKey: String? {
        switch self {
        case .signIn: "captureSignInFormName"
        case .register: "captureTraditionalRegistrationFormName"
        case .socialRegister: "captureSocialRegistrationFormName"
        case .forgotPassword: "forgottenPasswordFormName"
        case .resendVerification: "resendEmailVerificationFormName"
        case .updateProfile: "editProfileFormName"
        case .changePassword: "changePasswordFormName"
        default: nil
        }
    }

    /// The `jump.yaml` form this call sends, where the configuration names it.
    public func configuredFormName(in config: ClientConfig) -> Located<String>? {
        switch self {
        case .signIn: config.captureSignInFormName
        case .register: config.captureTraditionalRegistrationFormName
        case .socialRegister: config.captureSocialRegistrationFormName
        case .forgotPassword: config.forgottenPasswordFormName
        case .resendVerification: config.resendEmailVerificationFormName
        case .updateProfile: config.editProfileFormName
        case .changePassword: config.changePasswordFormName
        default: nil
        }
    }
}

import JumpForms

/// Engage sharing, the client side: the requests the SDKs send to post an activity or a
/// status with a provider's `device_token`, to shorten URLs and to read the device token of a
/// sign-in (JRSessionData.m:1166-1256,1463-1497 in github:janrain/jump.ios; JRSession.java:1109-1164,
/// JRActivityObject.java:633-659 in github:janrain/jump.android).
extension EngageRequestBuilder {
    /// What jump-forms sends as `device`: Android's value (`device=android`), as the mobile
    /// configuration request does. iOS sends `iphone` or `ipad`.
    public static let sharingDevice = "android"
    /// What jump-forms sends as `app_name`.
    public static let sharingAppName = "jump-forms"

    /// `POST <engage>/api/v2/activity` with `activity` (the activity's dictionary as compact
    /// JSON: `SharedActivity.json`), `device_token` (secret), `url_shortening=true`, `device`,
    /// `provider`, `app_name`: in iOS's order (JRSessionData.m:1179-1197; Android sends
    /// `provider` before `device`, JRSession.java:1124-1131). Engage posts the activity to the
    /// provider's account the device token stands for, shortening its URL.
    public func shareActivity(
        _ activity: SharedActivity, provider: String, deviceToken: String, device: String = sharingDevice,
        appName: String = sharingAppName
    ) -> CaptureRequest {
        CaptureRequest(
            operation: .shareActivity, server: engage, path: CaptureOperation.shareActivity.path,
            parameters: [
                RequestParameter("activity", activity.json.serialized()), RequestParameter("device_token", deviceToken, secret: true),
                RequestParameter("url_shortening", "true"), RequestParameter("device", device), RequestParameter("provider", provider),
                RequestParameter("app_name", appName)
            ])
    }

    /// `POST <engage>/api/v2/set_status` with `status` (the person's own words), `device_token`
    /// (secret), `device`, `app_name`, `provider`, in iOS's order (JRSessionData.m:1222-1234).
    /// Android sends no `provider` and leaves `status` unencoded (JRSession.java:1146-1157).
    /// The SDKs post a status instead of an activity for providers that say
    /// `uses_set_status_if_no_url` when the activity has no URL (LinkedIn and Yahoo!:
    /// JRPublishActivityController.m:83-89, JRPublishFragment.java:1135-1138).
    public func setStatus(
        _ status: String, provider: String, deviceToken: String, device: String = sharingDevice, appName: String = sharingAppName
    ) -> CaptureRequest {
        CaptureRequest(
            operation: .setStatus, server: engage, path: CaptureOperation.setStatus.path,
            parameters: [
                RequestParameter("status", status), RequestParameter("device_token", deviceToken, secret: true),
                RequestParameter("device", device), RequestParameter("app_name", appName), RequestParameter("provider", provider)
            ])
    }

    /// The request that shares `activity` with `provider` as the SDKs choose it: a status
    /// (`setStatus`, the person's own words, else the action) when the provider posts an
    /// activity without a URL as a status (`SharingProvider.usesStatusWithoutURL`) and the
    /// activity has none; the activity (`shareActivity`) otherwise.
    public func sharing(_ activity: SharedActivity, provider: String, deviceToken: String) -> CaptureRequest {
        if SharingProvider(rawValue: provider)?.postsStatus(activity) == true {
            let words = activity.userGeneratedContent.flatMap { $0.isEmpty ? nil : $0 } ?? activity.action
            return setStatus(words, provider: provider, deviceToken: deviceToken)
        }
        return shareActivity(activity, provider: provider, deviceToken: deviceToken)
    }

    /// `GET <baseurl>/openid/get_urls?urls=<json>&app_name=<name>&device=android`, `urls` being
    /// `{"activity": [url...], "email": [], "sms": []}` (JRActivityObject.java:633-659; iOS
    /// leaves out empty lists, JRSessionData.m:1480-1488). The answer maps each long URL to its
    /// short one: `{"urls": {"activity": {long: short}, "email": {}, "sms": {}}}`. With
    /// `deviceToken` (which jump-forms' server requires; the SDKs send none) the request is a
    /// POST, so that the token stays out of URLs.
    public func shortenURLs(
        _ urls: [String], deviceToken: String? = nil, device: String = sharingDevice, appName: String = sharingAppName
    ) -> CaptureRequest {
        let lists = JSONValue.object([("activity", .array(urls.map(JSONValue.string))), ("email", .array([])), ("sms", .array([]))])
        var parameters = [RequestParameter("urls", lists.serialized()), RequestParameter("app_name", appName), RequestParameter("device", device)]
        if let deviceToken { parameters.append(RequestParameter("device_token", deviceToken)) }
        return CaptureRequest(
            operation: .shortenURLs, server: engage, method: deviceToken == nil ? .get : .post, path: CaptureOperation.shortenURLs.path,
            parameters: parameters)
    }

    /// `GET <baseurl>/signin/device?token=<t>&auth_info=true`: where Android's device dialog
    /// ends; the SDK loads it again with `auth_info=true` (JRWebViewFragment.java:422-430) and
    /// reads `rpx_result`: `token`, `auth_info.profile` and `device_token`, which it keeps per
    /// provider for sharing (JRAuthenticatedUser.java:83; iOS JRSessionData.m:150-160,1759-1777).
    public func deviceSignIn(token: String) -> CaptureRequest {
        CaptureRequest(
            operation: .engageDeviceSignIn, server: engage, method: .get, path: CaptureOperation.engageDeviceSignIn.path,
            parameters: [RequestParameter("token", token, secret: true), RequestParameter("auth_info", "true")])
    }
}

/// Engage's refusal: `{"stat": "fail", "err": {"code": N, "msg": "..."}}` (the codes the SDKs
/// tell apart: JRSessionData.m:1268-1430, JRSession.java:618-760).
public struct EngageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `err.code`; nil when the answer carries none (the SDKs then report code 1000).
    public var code: Int?
    /// `err.msg` (or `rpx_result.error`), as Engage wrote it.
    public var message: String
    /// The whole answer.
    public var body: JSONValue

    public init(code: Int?, message: String, body: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.body =
            body
            ?? .object([("stat", .string("fail")), ("err", .object([("code", code.map(JSONValue.integer) ?? .null), ("msg", .string(message))]))])
    }

    /// What the code means, as Engage documents it (the list in JRSessionData.m:1408-1426).
    public enum Kind: String, Sendable, Hashable {
        case missingParameter, invalidParameter, dataNotFound, authenticationError, facebookError, providerError
        case missingCredentials, credentialsRevoked, notConfigured, notSupported, twitterError, linkedInError
        case characterLimitExceeded, serviceUnavailable, other
    }

    public var kind: Kind {
        switch code {
        case -1: .serviceUnavailable
        case 0: .missingParameter
        case 1: .invalidParameter
        case 2: .dataNotFound
        case 3: .authenticationError
        case 4: .facebookError
        case 6, 12, 15, 16, 17, 20: .providerError
        case 8: .missingCredentials
        case 9: .credentialsRevoked
        case 10: .notConfigured
        case 11: .notSupported
        case 13: .twitterError
        case 14: .linkedInError
        case 100: .characterLimitExceeded
        default: .other
        }
    }

    /// Whether the person must sign in to the provider again (a new device token): Engage's
    /// `Missing parameter: apiKey` (code 0, the SDKs' re-authentication case), an
    /// authentication error (3), credentials missing or revoked (8, 9), or a provider's
    /// invalid session (code 4 naming an invalid access token).
    public var needsSignIn: Bool {
        switch code {
        case 0: message.contains("apiKey")
        case 3, 8, 9: true
        case 4:
            ["invalid oauth 2.0 access token", "error validating access token", "session has been invalidated"].contains {
                message.lowercased().contains($0)
            }
        default: false
        }
    }

    public var description: String {
        "\(message) (Engage error \(code.map(String.init) ?? "without a code"))"
    }
}

/// What the end of an Engage device sign-in gives (`rpx_result`): the Engage token, the
/// profile, and the `device_token` that posts on the person's behalf (a secret: masked in every
/// printout).
public struct EngageDeviceSignIn: Sendable, Hashable {
    /// The provider signed in with (the one the dialog was started for).
    public var provider: String
    /// `auth_info.profile.identifier`.
    public var identifier: String?
    /// `auth_info.profile`.
    public var profile: JSONValue
    /// The Engage token (secret).
    public var token: String
    /// The device token (secret).
    public var deviceToken: String

    public init(provider: String, identifier: String?, profile: JSONValue, token: String, deviceToken: String) {
        self.provider = provider
        self.identifier = identifier
        self.profile = profile
        self.token = token
        self.deviceToken = deviceToken
    }
}

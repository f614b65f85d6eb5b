import Crypto
import Foundation
import JumpCapture
import JumpForms
import NIOHTTP1
import TestSupport

/// An iOS app built on JUMP iOS 5.5 (github:janrain/jump.ios at adbc16a, files under
/// `Janrain/`), configured for the server: the values of jump.yaml in its JRCaptureConfig,
/// and the flow it downloaded. Each method returns the request one SDK call puts on the
/// wire, transcribed from the source lines it names.
struct IOSApp: Sendable {
    /// `captureDomain` as JRCaptureData keeps it: `https://` forced (JRCaptureData.m:44-54,259).
    var captureBaseUrl: String
    var clientId: String
    var locale: String
    var flowName: String
    var appId: String
    var signInForm: String
    var registrationForm: String
    var socialRegistrationForm: String
    var forgotPasswordForm: String
    var editProfileForm: String
    var resendVerificationForm: String
    var thinRegistration: Bool
    var engageAppId: String
    /// `engageWhitelistedDomain` (JRSessionData.m:43, 2083-2086).
    var whitelistedDomain: String
    /// Engage's `baseurl` from the mobile configuration (JRSessionData.m:847-848, slashes trimmed).
    var engageBaseUrl: String
    /// `code_and_token` when the delegate implements `captureDidSucceedWithCode:`
    /// (JRCaptureData.m:487-493).
    var responseType = "token"
    /// The downloaded flow; nil before the download (or when it failed).
    var flow: SDKFlow?
    let clock: TestClock

    init(config: ClientConfig, flow: Flow, server: String, clock: TestClock) {
        captureBaseUrl = Self.urlStringFromBaseDomain(server)
        clientId = config.captureClientId.value
        locale = config.captureLocale.value.description
        flowName = config.captureFlowName?.value ?? flow.name.value
        appId = config.captureAppId?.value ?? ""
        signInForm = config.captureSignInFormName.value
        registrationForm = config.captureTraditionalRegistrationFormName.value
        socialRegistrationForm = config.captureSocialRegistrationFormName.value
        forgotPasswordForm = config.forgottenPasswordFormName.value
        editProfileForm = config.editProfileFormName.value
        resendVerificationForm = config.resendEmailVerificationFormName.value
        thinRegistration = config.enableThinRegistration.value
        engageAppId = config.engageAppId?.value ?? ""
        whitelistedDomain = config.engageWhitelistedDomain?.value ?? ""
        engageBaseUrl = server
        self.flow = SDKFlow(flow: flow)
        self.clock = clock
    }

    /// `urlStringFromBaseDomain` (JRCaptureData.m:44-54): `https://` kept, `http://` turned
    /// into `https://`, none added.
    static func urlStringFromBaseDomain(_ domain: String) -> String {
        if domain.hasPrefix("https://") { return domain }
        if domain.hasPrefix("http://") { return "https://" + domain.dropFirst("http://".count) }
        return "https://" + domain
    }

    /// `redirectUri` (JRCaptureData.m:244-248): none configured, so the Capture base URL.
    var redirectUri: String { captureBaseUrl }

    var flowVersion: String? { flow?.version }

    /// What NSURLSession adds to every request.
    static let platformHeaders: [(name: String, value: String)] = [
        ("Accept", "*/*"), ("Accept-Language", "en-US,en;q=0.9"), ("Accept-Encoding", "gzip, deflate, br"),
        ("User-Agent", "JumpDemo/1 CFNetwork/1410.0.3 Darwin/22.6.0")
    ]

    /// A POST whose body `JR_setBodyWithParams:` built (NSMutableURLRequest+JRRequestUtils.m:43-49):
    /// no Content-Type.
    func post(_ path: String, _ pairs: [(String, String)], source: String) -> SDKRequest {
        SDKRequest(
            sdk: .iOS, source: source, method: .POST, target: path, headers: Self.platformHeaders,
            body: IOSEncoding.paramString(pairs))
    }

    func get(_ target: String, source: String, headers: [(name: String, value: String)] = []) -> SDKRequest {
        var all = Self.platformHeaders
        for header in headers {
            all.removeAll { $0.name.lowercased() == header.name.lowercased() }
            all.append(header)
        }
        return SDKRequest(sdk: .iOS, source: source, method: .GET, target: target, headers: all, body: nil)
    }

    // MARK: Capture

    /// `startCaptureTraditionalSignInForUser:withPassword:mergeToken:forDelegate:`
    /// (JRCapture.m:414-436) with `tradAuthParamsWithParams:` (JRCaptureApidInterface.m:571-591):
    /// the sign-in form's two fields when the flow is downloaded
    /// (JRCaptureApidInterface.m:606-648), else `user` and `password` as given.
    func traditionalSignIn(user: String, password: String, mergeToken: String? = nil, refreshSecret: String) -> SDKRequest {
        var pairs: [(String, String)] = [
            ("client_id", clientId), ("locale", locale), ("form", signInForm), ("redirect_uri", redirectUri),
            ("response_type", responseType), ("refresh_secret", refreshSecret)
        ]
        if let fields = flow?.signInFields(signInForm) {
            pairs += [(fields.user, user), (fields.password, password)]
        } else {
            pairs += [("user", user), ("password", password)]
        }
        pairs.append(("flow", flowName))
        if let flowVersion { pairs.append(("flow_version", flowVersion)) }
        if let mergeToken { pairs.append(("merge_token", mergeToken)) }
        return post("/oauth/auth_native_traditional", pairs, source: "JRCapture.m:414-436, JRCaptureApidInterface.m:571-648")
    }

    /// The token URL the SDK hands Engage for a social sign-in: Capture's `/oauth/auth_native`
    /// with every parameter in the query (JRCaptureData.m:180-214). Path and query only.
    func captureTokenURL(mergeToken: String? = nil, forAccountLinking: Bool = false, refreshSecret: String) -> String {
        var pairs: [(String, String)] = [
            ("client_id", clientId), ("locale", locale), ("response_type", responseType),
            ("redirect_uri", redirectUri), ("thin_registration", thinRegistration ? "true" : "false")
        ]
        if !forAccountLinking { pairs.append(("refresh_secret", refreshSecret)) }
        pairs.append(("flow", flowName))
        if let flowVersion { pairs.append(("flow_version", flowVersion)) }
        if let mergeToken { pairs.append(("merge_token", mergeToken)) }
        pairs.append(("registration_form", socialRegistrationForm))
        return "/oauth/auth_native?" + IOSEncoding.paramString(pairs)
    }

    /// `startMakeCallToTokenUrl:withToken:forProvider:` (JRSessionData.m:1538-1562): the
    /// Engage token appended raw as `&token=`, a POST with an empty body.
    func callTokenURL(_ tokenURL: String, token: String, source: String = "JRSessionData.m:1538-1544, JRCaptureData.m:180-214") -> SDKRequest {
        SDKRequest(sdk: .iOS, source: source, method: .POST, target: tokenURL + "&token=" + token, headers: Self.platformHeaders, body: nil)
    }

    /// The web view's social sign-in (JRWebViewController.m:509-549): when the dialog reaches
    /// `<whitelisted domain>/?token=`, a form POST with Content-Type, `registration_form`
    /// hard-coded, no `thin_registration` and no `refresh_secret`; `merge_token` from the token
    /// URL when there is one.
    func webViewSignIn(token: String, mergeToken: String? = nil) -> SDKRequest {
        var pairs: [(String, String)] = [
            ("client_id", clientId), ("flow", flowName), ("flow_version", flowVersion ?? ""), ("locale", locale),
            ("redirect_uri", redirectUri), ("registration_form", "socialRegistrationForm"),
            ("response_type", "token"), ("token", token)
        ]
        if let mergeToken { pairs.append(("merge_token", mergeToken)) }
        var headers = Self.platformHeaders
        headers.append(("Content-Type", "application/x-www-form-urlencoded"))
        return SDKRequest(
            sdk: .iOS, source: "JRWebViewController.m:509-549", method: .POST, target: "/oauth/auth_native", headers: headers,
            body: IOSEncoding.paramString(pairs))
    }

    /// `registerNewUser:socialRegistrationToken:forDelegate:` (JRCapture.m:753-806): the
    /// form's fields from the new user's record, then the common parameters.
    func register(_ record: JSONValue, socialRegistrationToken: String? = nil, refreshSecret: String) -> SDKRequest {
        let form = socialRegistrationToken == nil ? registrationForm : socialRegistrationForm
        var pairs = flow?.formFields(form, from: record, sdk: .iOS) ?? []
        pairs += [
            ("client_id", clientId), ("locale", locale), ("response_type", responseType), ("redirect_uri", redirectUri),
            ("flow", flowName), ("form", form), ("refresh_secret", refreshSecret)
        ]
        if let flowVersion { pairs.append(("flow_version", flowVersion)) }
        if let socialRegistrationToken { pairs.append(("token", socialRegistrationToken)) }
        return post(
            socialRegistrationToken == nil ? "/oauth/register_native_traditional" : "/oauth/register_native", pairs,
            source: "JRCapture.m:753-806")
    }

    /// `/entity` with the access token alone: after registration (JRCapture.m:863-864), after
    /// linking (JRCapture.m:1047-1052), before unlinking (JRCapture.m:698-704), and
    /// `fetchCaptureUserFromServer` (JRCaptureApidInterface.m:217-227).
    func entity(accessToken: String, source: String) -> SDKRequest {
        post("/entity", [("access_token", accessToken)], source: source)
    }

    /// `startForgottenPasswordRecoveryForField:delegate:` (JRCapture.m:549-592).
    func forgotPassword(_ value: String) -> SDKRequest {
        let field = flow?.identifyingField(forgotPasswordForm) ?? "(no flow)"
        return post(
            "/oauth/forgot_password_native",
            [
                ("client_id", clientId), ("locale", locale), ("response_type", "token"), ("redirect_uri", redirectUri),
                ("form", forgotPasswordForm), ("flow", flowName), ("flow_version", flowVersion ?? ""), (field, value)
            ], source: "JRCapture.m:549-592")
    }

    /// `resendVerificationEmail:delegate:` (JRCapture.m:594-624) through
    /// JRCaptureUIRequestBuilder.m:58-95.
    func resendVerification(_ email: String) -> SDKRequest {
        let field = flow?.identifyingField(resendVerificationForm) ?? "(no flow)"
        return post(
            "/oauth/verify_email_native",
            [
                (field, email), ("client_id", clientId), ("flow", flowName), ("flow_version", flowVersion ?? ""), ("locale", locale),
                ("response_type", "token"), ("redirect_uri", redirectUri), ("form", resendVerificationForm)
            ], source: "JRCapture.m:594-624, JRCaptureUIRequestBuilder.m:58-95")
    }

    /// `updateProfileForUser:delegate:` (JRCapture.m:867-904): the edit-profile form's fields
    /// from the record, no `redirect_uri` or `response_type`.
    func updateProfile(_ record: JSONValue, accessToken: String) -> SDKRequest {
        var pairs = flow?.formFields(editProfileForm, from: record, sdk: .iOS) ?? []
        pairs += [("client_id", clientId), ("access_token", accessToken), ("locale", locale), ("form", editProfileForm), ("flow", flowName)]
        if let flowVersion { pairs.append(("flow_version", flowVersion)) }
        return post("/oauth/update_profile_native", pairs, source: "JRCapture.m:867-904")
    }

    /// `refreshAccessTokenForDelegate:context:` (JRCapture.m:490-547): `flow` and
    /// `flow_version` always (a nil flow version would crash the dictionary literal).
    func refresh(accessToken: String, refreshSecret: String) -> SDKRequest {
        let date = Self.utcTimeString(clock.now)
        let signature = Self.signature(date: date, refreshSecret: refreshSecret, accessToken: accessToken)
        return post(
            "/oauth/refresh_access_token",
            [
                ("access_token", accessToken), ("signature", signature), ("date", date), ("client_id", clientId), ("locale", locale),
                ("flow", flowName), ("flow_version", flowVersion ?? "")
            ], source: "JRCapture.m:490-547")
    }

    /// `utcTimeString` (JRCapture.m:728-735): `yyyy-MM-dd HH:mm:ss` in UTC.
    static func utcTimeString(_ epochSeconds: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(epochSeconds)))
    }

    /// `base64SignatureForRefreshWithDate:refreshSecret:accessToken:` (JRCapture.m:737-751):
    /// Base64(HMAC-SHA1(secret, "refresh_access_token\n<date>\n<token>\n")). Android's
    /// CaptureRecord.java:187-208 signs the same text.
    static func signature(date: String, refreshSecret: String, accessToken: String) -> String {
        let message = "refresh_access_token\n\(date)\n\(accessToken)\n"
        let mac = HMAC<Insecure.SHA1>.authenticationCode(for: Data(message.utf8), using: SymmetricKey(data: Data(refreshSecret.utf8)))
        return Data(mac).base64EncodedString()
    }

    /// `generateAndStoreRefreshSecret` (JRCaptureData.m:216-234): 20 random bytes in hex, the
    /// first character replaced by `a`; the bytes come from a seeded generator, so a replay
    /// sends the same secret every run.
    static func newRefreshSecret(seed: UInt64 = 0x5EC_2E7A) -> String {
        var random = SplitMix(seed: seed)
        let hex = (0..<20).map { _ -> String in
            let byte = random.next(256)
            return (byte < 16 ? "0" : "") + String(byte, radix: 16)
        }.joined()
        return "a" + hex.dropFirst()
    }

    /// `startLinkNewAccountFordelegate:redirectUri:withAuthInfo:` (JRCapture.m:1014-1078).
    func link(accessToken: String, token: String) -> SDKRequest {
        post(
            "/oauth/link_account_native",
            [
                ("client_id", clientId), ("locale", locale), ("response_type", "token"), ("redirect_uri", redirectUri),
                ("access_token", accessToken), ("token", token), ("flow", flowName), ("flow_version", flowVersion ?? "")
            ], source: "JRCapture.m:1014-1043")
    }

    /// `startActualAccountUnLinking:forProfileIdentifier:` (JRCapture.m:1080-1119): no
    /// `redirect_uri` or `response_type`.
    func unlink(accessToken: String, identifier: String) -> SDKRequest {
        post(
            "/oauth/unlink_account_native",
            [
                ("client_id", clientId), ("locale", locale), ("identifier_to_remove", identifier), ("access_token", accessToken),
                ("flow", flowName), ("flow_version", flowVersion ?? "")
            ], source: "JRCapture.m:1080-1094")
    }

    // MARK: Record writes (hand-built bodies)

    /// `updateObject:atPath:withToken:` (JRCaptureApidInterface.m:246-294),
    /// `replaceObject:...` (312-360) and `replaceArray:...` (377-425): the body is built by
    /// hand, with a leading `&`, the JSON in `attributes` (escaped; `/` written `\/` by
    /// NSJSONSerialization), the token and the path raw, and no Content-Type.
    func recordWrite(_ operation: RecordWrite, _ value: JSONValue, path: String, accessToken: String) -> SDKRequest {
        var body = "&attributes=" + IOSEncoding.escape(SDKJSON.text(value))
        body += "&access_token=" + accessToken
        body += "&include_record=true"
        if !path.isEmpty { body += "&attribute_name=" + path }
        return SDKRequest(sdk: .iOS, source: operation.source, method: .POST, target: operation.path, headers: Self.platformHeaders, body: body)
    }

    enum RecordWrite {
        case updateObject, replaceObject, replaceArray

        var path: String { self == .updateObject ? "/entity.update" : "/entity.replace" }

        var source: String {
            switch self {
            case .updateObject: "JRCaptureApidInterface.m:246-294"
            case .replaceObject: "JRCaptureApidInterface.m:312-360"
            case .replaceArray: "JRCaptureApidInterface.m:377-425"
            }
        }
    }

    // MARK: Engage

    static let displayName = "Jump Demo"
    static let bundleIdentifier = "com.example.jumpdemo"
    static let libraryVersion = "5.5.0"

    /// `startGetConfiguration` (JRSessionData.m:751-771) with `appNameAndVersion`
    /// (JRSessionData.m:730-749): the names escaped twice (URLPathAllowed, then the SDK's
    /// escaping), a literal `3` after the bundle id, no `If-None-Match`.
    func mobileConfiguration(device: String = "iphone") -> SDKRequest {
        func twice(_ text: String) -> String {
            IOSEncoding.escape(text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? text)
        }
        let nameAndVersion = "appName=\(twice(Self.displayName)).\(twice(Self.bundleIdentifier))3&version=\(device)_\(twice(Self.libraryVersion))"
        return get(
            "/openid/mobile_config_and_baseurl?device=\(device)&appId=\(engageAppId)&\(nameAndVersion)",
            source: "JRSessionData.m:730-771")
    }

    /// `startUrlForProvider:` (JRSessionData.m:1103-1142) in 5.5: the provider's `url`,
    /// `token_url=<whitelisted domain>/` raw and `applicationId`; nothing else (the
    /// `openid_identifier`/`saml_provider` it works out is never added).
    func startURL(providerPath: String) -> SDKRequest {
        get("\(providerPath)?token_url=\(whitelistedDomain)/&applicationId=\(engageAppId)", source: "JRSessionData.m:1103-1142")
    }

    /// The web view's end of a dialog (JRWebViewController.m:509-515): a navigation to
    /// `<whitelisted domain>/?token=`.
    var dialogEndPrefix: String { whitelistedDomain + "/?token=" }

    /// `getAuthInfoTokenForNativeProvider:withToken:andTokenSecret:andEngageAppUrl:`
    /// (JREngage.m:276-340): `token` and `provider` in the body (no Content-Type); the query
    /// `?providername=<p>`, or for Sign in with Apple `?id_token=<token>&provider=apple` (raw);
    /// Twitter adds `token_secret`.
    func nativeTokenExchange(provider: String, token: String, tokenSecret: String? = nil) -> SDKRequest {
        let query = provider == "apple" ? "?id_token=\(token)&provider=\(provider)" : "?providername=\(provider)"
        var pairs: [(String, String)] = [("token", token), ("provider", provider)]
        if let tokenSecret, provider == "twitter" { pairs.append(("token_secret", tokenSecret)) }
        return post("/signin/oauth_token" + query, pairs, source: "JREngage.m:276-340")
    }

    // MARK: Flow

    /// `downloadFlow` (JRCaptureData.m:300-343): `Accept-Encoding: gzip` set on the request.
    func flowDownload(version: String = "HEAD") -> SDKRequest {
        get(
            "/widget_data/flows/\(appId)/\(flowName)/\(version)/\(locale).json", source: "JRCaptureData.m:300-343",
            headers: [("Accept-Encoding", "gzip")])
    }
}

import Foundation
import JumpCapture
import JumpForms
import NIOHTTP1
import TestSupport

/// An Android app built on JUMP Android 7.3.0 (github:janrain/jump.android at c1c6f08, files
/// under `Jump/src/main/java/com/janrain/android/`), configured for the server: JumpConfig
/// with the values of jump.yaml, `captureDomain` the server's host and port,
/// `captureFlowDomain` and `engageDomain` its URL. Each method returns the request one SDK
/// call puts on the wire, transcribed from the source lines it names.
struct AndroidApp: Sendable {
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
    var whitelistedDomain: String
    /// Engage's `baseurl` from the mobile configuration (JRSession.java:846, `/` chomped).
    var engageBaseUrl: String
    /// `captureRedirectUri`, default `http://android.library` (Jump.java:210-214).
    var redirectUri = "http://android.library"
    /// `code_and_token` when the sign-in handler is a `SignInCodeHandler` (Jump.java:308-316).
    var responseType = "token"
    /// `engageResponseType`: `token_profile` by default (JREngage.java:144-146).
    var engageResponseType = "token_profile"
    /// `installation_id` (JRSession.java:989-1000): a UUID kept in the preferences.
    var installationID = "6f1d8a3c-2b4e-4c71-9e0a-55d2c7b8e913"
    /// The downloaded flow; nil before the download (or when it failed).
    var flow: SDKFlow?
    let clock: TestClock

    init(config: ClientConfig, flow: Flow, server: String, clock: TestClock) {
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

    /// `Jump.getCaptureFlowVersion()` (Jump.java:1104-1108): the downloaded flow's `version`.
    var flowVersion: String? { flow?.version }

    /// What OkHttp adds to every request (transparent gzip) and the SDK's user agent
    /// (AsyncHttpClient.java:138-140).
    static let platformHeaders: [(name: String, value: String)] = [
        ("User-Agent", "nullDalvik/2.1.0 (Linux; U; Android 11; sdk_gphone_x86 Build/RSR1.201013.001)"),
        ("Accept-Encoding", "gzip"), ("Connection", "Keep-Alive")
    ]

    /// A POST of `ApiConnection` (ApiConnection.java:152-154; JRConnectionManager.java:107-111):
    /// Content-Type and Content-Language set, the body in `HashSet` order.
    func post(_ path: String, _ parameters: JavaHashSet<JavaPair>, source: String) -> SDKRequest {
        SDKRequest(
            sdk: .android, source: source, method: .POST, target: path,
            headers: Self.platformHeaders + [("Content-Type", "application/x-www-form-urlencoded"), ("Content-Language", "en-US")],
            body: AndroidEncoding.paramString(parameters))
    }

    func get(_ target: String, source: String, headers: [(name: String, value: String)] = []) -> SDKRequest {
        SDKRequest(sdk: .android, source: source, method: .GET, target: target, headers: Self.platformHeaders + headers, body: nil)
    }

    /// `getFormFields` (CaptureFlowUtils.java:53-105): a `HashSet` of the form's fields. The SDK
    /// adds them in the order of a `HashMap` of the flow's fields; here they go in the form's
    /// order, which changes the result only between fields whose hashes share a bin.
    func formFields(_ form: String, from record: JSONValue) -> JavaHashSet<JavaPair> {
        JavaHashSet((flow?.formFields(form, from: record, sdk: .android) ?? []).map { JavaPair($0.0, $0.1) }, hashCode: JavaHash.pair)
    }

    // MARK: Capture

    /// `Capture.performTraditionalSignIn` (Capture.java:63-93): the sign-in form's two fields
    /// (CaptureFlowUtils.java:107-157, password first) when the flow is downloaded, else
    /// `user` and `password`; `flow_version` only when known.
    func traditionalSignIn(user: String, password: String, mergeToken: String? = nil, refreshSecret: String) -> SDKRequest {
        var parameters = JavaHashSet<JavaPair>()
        if let fields = flow?.signInFields(signInForm) {
            var credentials = JavaHashSet<JavaPair>()
            credentials.add((fields.password, password), (fields.user, user))
            parameters.add(contentsOf: credentials)
        } else {
            parameters.add(("user", user), ("password", password))
        }
        parameters.add(
            ("client_id", clientId), ("locale", locale), ("response_type", responseType), ("redirect_uri", redirectUri),
            ("form", signInForm), ("refresh_secret", refreshSecret), ("flow", flowName), ("flow_version", flowVersion))
        parameters.add(("merge_token", mergeToken))
        return post("/oauth/auth_native_traditional", parameters, source: "Capture.java:63-93")
    }

    /// `Capture.performSocialSignIn` (Capture.java:152-181).
    func socialSignIn(token: String, mergeToken: String? = nil, refreshSecret: String) -> SDKRequest {
        var parameters = JavaHashSet<JavaPair>()
        parameters.add(
            ("client_id", clientId), ("locale", locale), ("response_type", responseType), ("redirect_uri", redirectUri),
            ("token", token), ("thin_registration", thinRegistration ? "true" : "false"), ("refresh_secret", refreshSecret))
        parameters.add(("flow_version", flowVersion), ("flow", flowName), ("registration_form", socialRegistrationForm), ("merge_token", mergeToken))
        return post("/oauth/auth_native", parameters, source: "Capture.java:152-181")
    }

    /// `Capture.performRegistration` (Capture.java:200-242).
    func register(_ record: JSONValue, socialRegistrationToken: String? = nil, refreshSecret: String) -> SDKRequest {
        let form = socialRegistrationToken == nil ? registrationForm : socialRegistrationForm
        var parameters = JavaHashSet<JavaPair>()
        parameters.add(contentsOf: formFields(form, from: record))
        parameters.add(
            ("client_id", clientId), ("locale", locale), ("response_type", responseType), ("redirect_uri", redirectUri),
            ("flow", flowName), ("form", form), ("refresh_secret", refreshSecret))
        parameters.add(("flow_version", flowVersion), ("token", socialRegistrationToken))
        return post(
            socialRegistrationToken == nil ? "/oauth/register_native_traditional" : "/oauth/register_native", parameters,
            source: "Capture.java:200-242")
    }

    /// `Capture.performForgotPassword` (Capture.java:246-264).
    func forgotPassword(_ email: String) -> SDKRequest {
        var parameters = JavaHashSet<JavaPair>()
        parameters.add(
            ("client_id", clientId), ("locale", locale), ("response_type", responseType), ("redirect_uri", redirectUri),
            (flow?.identifyingField(forgotPasswordForm) ?? "(no flow)", email))
        parameters.add(("flow_version", flowVersion), ("flow", flowName), ("form", forgotPasswordForm))
        return post("/oauth/forgot_password_native", parameters, source: "Capture.java:246-264")
    }

    /// `Capture.resendEmailVerification` (Capture.java:273-310).
    func resendVerification(_ email: String) -> SDKRequest {
        var parameters = JavaHashSet<JavaPair>()
        parameters.add(
            ("client_id", clientId), ("locale", locale), ("response_type", "token"), ("redirect_uri", redirectUri),
            ("form", resendVerificationForm), (flow?.identifyingField(resendVerificationForm) ?? "(no flow)", email))
        parameters.add(("flow_version", flowVersion), ("flow", flowName))
        return post("/oauth/verify_email_native", parameters, source: "Capture.java:273-310")
    }

    /// `Capture.updateUserProfile` (Capture.java:329-374): no `redirect_uri` or
    /// `response_type`.
    func updateProfile(_ record: JSONValue, accessToken: String) -> SDKRequest {
        var parameters = JavaHashSet<JavaPair>()
        parameters.add(contentsOf: formFields(editProfileForm, from: record))
        parameters.add(
            ("client_id", clientId), ("locale", locale), ("flow", flowName), ("flow_version", flowVersion),
            ("form", editProfileForm), ("access_token", accessToken))
        return post("/oauth/update_profile_native", parameters, source: "Capture.java:329-374")
    }

    /// `CaptureRecord.refreshAccessToken` (CaptureRecord.java:366-406): `flow` and
    /// `flow_version` only when both are known.
    func refresh(accessToken: String, refreshSecret: String) -> SDKRequest {
        let date = IOSApp.utcTimeString(clock.now)
        var parameters = JavaHashSet<JavaPair>()
        parameters.add(
            ("access_token", accessToken), ("signature", IOSApp.signature(date: date, refreshSecret: refreshSecret, accessToken: accessToken)),
            ("date", date), ("client_id", clientId), ("locale", locale))
        if let flowVersion { parameters.add(("flow", flowName), ("flow_version", flowVersion)) }
        return post("/oauth/refresh_access_token", parameters, source: "CaptureRecord.java:366-406")
    }

    /// `generateAndStoreRefreshSecret` (Capture.java:312-327): `Integer.toHexString` of
    /// random ints, cut to 40 characters; the ints come from a seeded generator, so a replay
    /// sends the same secret every run.
    static func newRefreshSecret(seed: UInt64 = 0x5EC_2E7A) -> String {
        var random = SplitMix(seed: seed)
        var text = ""
        while text.count < 40 { text += String(UInt32(random.next(1 << 32)), radix: 16) }
        return String(text.prefix(40))
    }

    /// `Capture.performLinkAccount` (Capture.java:595-620).
    func link(accessToken: String, token: String) -> SDKRequest {
        var parameters = JavaHashSet<JavaPair>()
        parameters.add(
            ("client_id", clientId), ("locale", locale), ("response_type", responseType), ("redirect_uri", redirectUri),
            ("access_token", accessToken), ("token", token), ("flow", flowName), ("flow_version", flowVersion))
        return post("/oauth/link_account_native", parameters, source: "Capture.java:595-620")
    }

    /// `Capture.performUnlinkAccount` (Capture.java:628-645).
    func unlink(accessToken: String, identifier: String) -> SDKRequest {
        var parameters = JavaHashSet<JavaPair>()
        parameters.add(
            ("client_id", clientId), ("locale", locale), ("identifier_to_remove", identifier), ("access_token", accessToken),
            ("flow", flowName), ("flow_version", flowVersion))
        return post("/oauth/unlink_account_native", parameters, source: "Capture.java:628-645")
    }

    /// `Capture.performUpdateSignedUserData` (Capture.java:652-657): `/entity` with the access
    /// token alone.
    func entity(accessToken: String) -> SDKRequest {
        var parameters = JavaHashSet<JavaPair>()
        parameters.add(("access_token", accessToken))
        return post("/entity", parameters, source: "Capture.java:652-657")
    }

    // MARK: Record writes (CaptureRecord.synchronize)

    /// One change of `CaptureRecord.synchronize` (CaptureRecord.java:216-262): the change's
    /// own parameters (ApidUpdate.java:60-64: `value`, and `attribute_name` unless the path
    /// is `/`; ApidDelete.java:51-55: `attribute_name`) copied into a new `HashSet`, then
    /// `access_token`. `value` is org.json text (`/` written `\/`).
    func apidChange(_ change: ApidChange, accessToken: String) -> SDKRequest {
        var own = JavaHashSet<JavaPair>()
        switch change {
        case .update(let value, let path):
            own.insert(JavaPair("value", SDKJSON.text(value)))
            if path != "/" { own.insert(JavaPair("attribute_name", path)) }
        case .delete(let path):
            own.insert(JavaPair("attribute_name", path))
        }
        var copy = JavaHashSet<JavaPair>(hashCode: JavaHash.pair, copying: own.count)
        copy.add(contentsOf: own)
        copy.insert(JavaPair("access_token", accessToken))
        var parameters = JavaHashSet<JavaPair>()
        parameters.add(contentsOf: copy)
        return post(change.urlPath, parameters, source: change.source)
    }

    enum ApidChange {
        /// ApidUpdate: `newVal` at `attrPath`.
        case update(JSONValue, path: String)
        /// ApidDelete: `attrPath`.
        case delete(path: String)

        var urlPath: String {
            switch self {
            case .update: "/entity.update"
            case .delete: "/entity.delete"
            }
        }

        var source: String {
            switch self {
            case .update: "CaptureRecord.java:235-262, ApidUpdate.java:53-64"
            case .delete: "CaptureRecord.java:235-262, ApidDelete.java:46-55"
            }
        }
    }

    // MARK: Engage

    static let appLabel = "Jump Demo"
    static let packageName = "com.example.jumpdemo"
    static let libraryVersion = "v7.3.0"

    /// `startGetConfiguration` (JRSession.java:810-832; the URL at JRSession.java:92-93): the
    /// configuration's `ETag` from last time in `If-None-Match` (empty the first time,
    /// JRSession.java:679, 825).
    func mobileConfiguration(etag: String) -> SDKRequest {
        let name = AndroidEncoding.urlEncode(Self.appLabel + ":" + Self.packageName)
        return get(
            """
            /openid/mobile_config_and_baseurl?appId=\(engageAppId)&device=android&app_name=\(name)&version=\
            \(AndroidEncoding.urlEncode(Self.libraryVersion))
            """,
            source: "JRSession.java:810-832", headers: [("If-None-Match", etag)])
    }

    /// `startUrlForCurrentlyAuthenticatingProvider` (JRSession.java:921-987):
    /// `extended=true`, the custom provider's `openid_identifier` (+ `opx_blob`) or
    /// `saml_provider` (URL-encoded when configured, JRSession.java:217-236), then
    /// `token_url=<urlEncode(whitelisted domain)>` (response type `token`) or `device=android`
    /// (`token_profile`, the default), `installation_id`, `applicationId`.
    func startURL(providerPath: String, openIDIdentifier: String? = nil, opxBlob: String? = nil, samlProvider: String? = nil) -> SDKRequest {
        var query = "extended=true"
        if let openIDIdentifier {
            query += "&openid_identifier=" + AndroidEncoding.urlEncode(openIDIdentifier).replacingOccurrences(of: "%@", with: "")
            if let opxBlob { query += "&opx_blob=" + AndroidEncoding.urlEncode(opxBlob) }
        } else if let samlProvider {
            query += "&saml_provider=" + AndroidEncoding.urlEncode(samlProvider)
        }
        query += engageResponseType == "token" ? "&token_url=" + AndroidEncoding.urlEncode(whitelistedDomain) : "&device=android"
        query += "&installation_id=" + AndroidEncoding.urlEncode(installationID) + "&applicationId=" + engageAppId
        return get(providerPath + "?" + query, source: "JRSession.java:921-987")
    }

    /// The dialog's end with `token_profile`: the web view reaching `<baseurl>/signin/device`
    /// (JRWebViewFragment.java:353-357), loaded again with `&auth_info=true`
    /// (JRWebViewFragment.java:422-430).
    var mobileEndpointPrefix: String { engageBaseUrl + "/signin/device" }

    func mobileEndpoint(_ url: String) -> SDKRequest {
        let target = url.hasPrefix(engageBaseUrl) ? String(url.dropFirst(engageBaseUrl.count)) : url
        return get(target + "&auth_info=true", source: "JRWebViewFragment.java:422-430")
    }

    /// `JREngage.getAuthInfoTokenForNativeProvider` (JREngage.java:907-966):
    /// `?providername=<p>`, `token` and `provider` (Twitter adds `token_secret`).
    func nativeTokenExchange(provider: String, token: String, tokenSecret: String? = nil) -> SDKRequest {
        var parameters = JavaHashSet<JavaPair>()
        if let tokenSecret {
            parameters.add(("token", token), ("token_secret", tokenSecret), ("provider", provider))
        } else {
            parameters.add(("token", token), ("provider", provider))
        }
        return post("/signin/oauth_token?providername=" + provider, parameters, source: "JREngage.java:907-966")
    }

    /// `JREngage.getAuthInfoCodeForNativeProvider` (JREngage.java:851-904): a server auth code
    /// (`code`), `redirect_uri` (default `<baseurl>/<provider>/callback`) and the hard-coded
    /// `application_id`.
    func serverAuthCodeExchange(provider: String, code: String) -> SDKRequest {
        var parameters = JavaHashSet<JavaPair>()
        parameters.add(
            ("code", code), ("provider", provider), ("redirect_uri", engageBaseUrl + "/" + provider + "/callback"),
            ("application_id", "appcfamhnpkagijaeinl"))
        return post("/signin/oauth_token?providername=" + provider, parameters, source: "JREngage.java:851-904")
    }

    /// `makeCallToTokenUrl` (JRSession.java:1169-1179): `token=<token>` as the body, raw.
    func callTokenURL(path: String, token: String) -> SDKRequest {
        SDKRequest(
            sdk: .android, source: "JRSession.java:1169-1179", method: .POST, target: path,
            headers: Self.platformHeaders + [("Content-Type", "application/x-www-form-urlencoded"), ("Content-Language", "en-US")],
            body: "token=" + token)
    }

    // MARK: Flow

    /// `downloadFlow` (Jump.java:1001-1038): a GET through `ApiConnection`, which appends `?`
    /// and the (empty) parameters (ApiConnection.java:155-157); OkHttp asks for gzip.
    func flowDownload(version: String = "HEAD") -> SDKRequest {
        get("/widget_data/flows/\(appId)/\(flowName)/\(version)/\(locale).json?", source: "Jump.java:1001-1038, ApiConnection.java:155-157")
    }
}

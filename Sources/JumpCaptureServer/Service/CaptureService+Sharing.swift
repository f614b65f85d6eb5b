import JumpCapture
import JumpForms

/// The Engage double's sharing: `/api/v2/activity`, `/api/v2/set_status`, `/openid/get_urls`
/// and its short URLs (`/s/<code>`), as the SDKs call them (JRSessionData.m:1166-1256,1463-1497;
/// JRSession.java:1109-1164). What it receives is kept in the feed (`jump-forms feed`). Its
/// refusals are Engage's: `{"stat": "fail", "err": {"code", "msg"}}` with HTTP 200, the codes
/// the SDKs tell apart:
/// - 0 `Missing parameter: apiKey` for a `device_token` that is missing, unknown or expired
///   (the SDKs' sign-in-again case: JRSessionData.m:1317-1330 compares the message exactly;
///   Engage resolves the app's API key from the device token); 0 `Missing parameter: <name>`
///   for another missing parameter;
/// - 1 `Invalid parameter: ...` for a value that cannot be posted (an activity that is not a
///   JSON object or lacks `action` or `url`, a provider other than the device token's, an
///   activity without a URL for a provider that takes it as a status only);
/// - 4 Facebook's media errors (an image without `href`, a flash object without `swfsrc` or
///   `imgsrc`: the texts the SDKs look for);
/// - 6 `Twitter server error: Status is a duplicate.` for the same tweet twice in a row;
/// - 11 `The provider or identifier does not support this feature` for a provider that does
///   not share (not a `SharingProvider`);
/// - 100 for a text over the provider's limit (Twitter: 280 weighted characters,
///   `SharingProvider.limit`; the SDKs' character-limit case).
extension CaptureService {
    /// How long a device token lasts: 60 days (the SDKs keep one per provider until it fails).
    static let deviceTokenLifetime = 60 * 86_400

    /// A device token's identity, or Engage's refusal.
    private enum DeviceCheck {
        case success(DeviceTokenGrant)
        case failure(ServerReply)
    }

    /// The identity of the request's device token, or Engage's refusal.
    private func deviceGrant(_ parameters: RequestParameters) async throws -> DeviceCheck {
        guard let token = parameters["device_token"], !token.isEmpty, let grant = try await store.deviceTokenGrant(token), grant.expiresAt > now
        else {
            return .failure(Self.engageFail(0, "Missing parameter: apiKey"))
        }
        if let provider = parameters["provider"], provider != grant.provider {
            return .failure(Self.engageFail(1, "Invalid parameter: provider (\(provider)): the device token is for \(grant.provider)"))
        }
        guard SharingProvider(rawValue: grant.provider) != nil else {
            return .failure(Self.engageFail(11, "The provider or identifier does not support this feature (\(grant.provider) does not share)"))
        }
        return .success(grant)
    }

    /// Refuses a text over the provider's limit (`SharingProvider.limit`), or a tweet that
    /// repeats the last one.
    private func checkText(_ text: String, _ grant: DeviceTokenGrant) async throws -> ServerReply? {
        guard let provider = SharingProvider(rawValue: grant.provider) else { return nil }
        if let limit = provider.limit, case let length = limit.count(text), length > limit.maximum {
            return Self.engageFail(
                100, "\(grant.provider) error: the status is \(length) characters long; \(grant.provider) takes \(limit.maximum)")
        }
        if provider == .twitter, try await store.lastFeedText(provider: grant.provider, identifier: grant.identifier) == text {
            return Self.engageFail(6, "Twitter server error: Status is a duplicate.")
        }
        return nil
    }

    /// `POST /api/v2/activity`: `activity` (JRActivityObject's dictionary as JSON),
    /// `device_token`, `url_shortening`, `device`, `provider`, `app_name`.
    func shareActivity(_ parameters: RequestParameters) async throws -> ServerReply {
        if let name = parameters.duplicate { return Self.engageFail(1, "Invalid parameter: \(name) is given more than once") }
        let grant: DeviceTokenGrant
        switch try await deviceGrant(parameters) {
        case .success(let found): grant = found
        case .failure(let reply): return reply
        }
        guard let posted = parameters["activity"] else { return Self.engageFail(0, "Missing parameter: activity") }
        guard let activity = try? JSONValue.parse(posted), case .object = activity else {
            return Self.engageFail(1, "Invalid parameter: activity (not a JSON object)")
        }
        guard let action = activity["action"]?.stringValue else { return Self.engageFail(1, "Invalid parameter: activity (no action)") }
        guard let url = activity["url"]?.stringValue else { return Self.engageFail(1, "Invalid parameter: activity (no url)") }
        if url.isEmpty, SharingProvider(rawValue: grant.provider)?.usesStatusWithoutURL == true {
            return Self.engageFail(
                1, "Invalid parameter: activity (no url): \(grant.provider) takes an activity without a URL as a status (/api/v2/set_status)")
        }
        if grant.provider == "facebook", let problem = Self.facebookMediaProblem(activity["media"]) { return Self.engageFail(4, problem) }
        let words = activity["user_generated_content"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? action
        let text = SharingProvider(rawValue: grant.provider)?.urlIsPartOfText == true && !url.isEmpty ? words + " " + url : words
        if let refusal = try await checkText(text, grant) { return refusal }
        var shortURL: String?
        if parameters["url_shortening"] == "true", !url.isEmpty {
            // A short URL redirects: only to an absolute http(s) URL (no `javascript:`, `data:`, `//host`).
            guard Self.isShortURLTarget(url) else {
                return Self.engageFail(
                    1, "Invalid parameter: activity (url \(JSONValue.string(url).serialized()) is not an absolute http(s) URL to shorten)")
            }
            shortURL = baseURL.withLock { $0 } + "/s/" + (try await store.shortCode(for: url, now: now))
        }
        try await store.appendFeed(
            kind: "activity", provider: grant.provider, identifier: grant.identifier, posted: posted, text: text, shortURL: shortURL,
            device: parameters["device"], appName: parameters["app_name"], now: now)
        return .json(["stat": "ok"])
    }

    /// Facebook's refusal of media it cannot show, in the words the SDKs look for
    /// (JRSessionData.m:1345-1356).
    static func facebookMediaProblem(_ media: JSONValue?) -> String? {
        for item in media?.arrayValue ?? [] {
            switch item["type"]?.stringValue {
            case "image" where (item["href"]?.stringValue ?? "").isEmpty || (item["src"]?.stringValue ?? "").isEmpty:
                return "Facebook Error: One or more of your image records failed to include a valid 'href' field"
            case "flash" where (item["swfsrc"]?.stringValue ?? "").isEmpty || (item["imgsrc"]?.stringValue ?? "").isEmpty:
                return "Facebook Error: flash objects must have the 'source' and 'picture' attributes"
            default: continue
            }
        }
        return nil
    }

    /// `POST /api/v2/set_status`: `status`, `device_token`, `device`, `app_name`, and
    /// `provider` (iOS; Android sends none: the device token says which).
    func setStatus(_ parameters: RequestParameters) async throws -> ServerReply {
        if let name = parameters.duplicate { return Self.engageFail(1, "Invalid parameter: \(name) is given more than once") }
        let grant: DeviceTokenGrant
        switch try await deviceGrant(parameters) {
        case .success(let found): grant = found
        case .failure(let reply): return reply
        }
        guard let status = parameters["status"] else { return Self.engageFail(0, "Missing parameter: status") }
        guard !status.allSatisfy(\.isWhitespace) else { return Self.engageFail(1, "Invalid parameter: status (empty)") }
        if let refusal = try await checkText(status, grant) { return refusal }
        try await store.appendFeed(
            kind: "status", provider: grant.provider, identifier: grant.identifier, posted: status, text: status, shortURL: nil,
            device: parameters["device"], appName: parameters["app_name"], now: now)
        return .json(["stat": "ok"])
    }

    /// At most this many URLs are shortened by one `/openid/get_urls` request (the SDKs send one
    /// activity URL, and the email and SMS URLs of one activity).
    static let maximumShortenedURLs = 20

    /// `GET /openid/get_urls?urls=<json>&app_name=&device=`: `urls` is `{"activity": [...],
    /// "email": [...], "sms": [...]}`; the answer maps each list's URLs to short ones
    /// (`<base>/s/<code>`, which redirect) under `urls` (the SDKs read `urls.activity` etc.).
    /// Short URLs are no open redirect for anyone: the request carries a credential, a
    /// `device_token` of a device sign-in or the app's `apiKey` (wrong keys count against the
    /// client address, `checkSecret`), and every URL is an absolute http(s) URL
    /// (`isShortURLTarget`), at most `maximumShortenedURLs` of them. The SDKs send neither
    /// credential: they then share the long URL (their fallback when shortening fails).
    func shortenURLs(_ parameters: RequestParameters, client: String? = nil) async throws -> ServerReply {
        if let name = parameters.duplicate { return Self.engageFail(1, "Invalid parameter: \(name) is given more than once") }
        if let apiKey = parameters["apiKey"] {
            switch try await checkSecret(
                apiKey, against: setup.settings.apiKey?.value, what: "API key at get_urls", client: client, locale: locale(parameters))
            {
            case .refused(let reply): return reply
            case .wrong: return Self.engageFail(3, "the API key is not valid")
            case .matches: break
            }
        } else {
            guard let token = parameters["device_token"], !token.isEmpty, let grant = try await store.deviceTokenGrant(token), grant.expiresAt > now
            else {
                return Self.engageFail(0, "Missing parameter: apiKey")
            }
        }
        guard let text = parameters["urls"] else { return Self.engageFail(0, "Missing parameter: urls") }
        guard let lists = try? JSONValue.parse(text), let entries = lists.objectValue else {
            return Self.engageFail(1, "Invalid parameter: urls (not a JSON object)")
        }
        if let other = entries.first(where: { !["activity", "email", "sms"].contains($0.key) }) {
            return Self.engageFail(1, "Invalid parameter: urls (unknown list \(other.key); lists: activity, email, sms)")
        }
        let count = ["activity", "email", "sms"].reduce(0) { $0 + (lists[$1]?.arrayValue?.count ?? 0) }
        if count > Self.maximumShortenedURLs {
            return Self.engageFail(1, "Invalid parameter: urls (\(count) URLs; at most \(Self.maximumShortenedURLs) in one request)")
        }
        let base = baseURL.withLock { $0 }
        var answer: [(key: String, value: JSONValue)] = []
        for key in ["activity", "email", "sms"] {
            var short: [(key: String, value: JSONValue)] = []
            for item in lists[key]?.arrayValue ?? [] {
                guard let url = item.stringValue, Self.isShortURLTarget(url) else {
                    return Self.engageFail(1, "Invalid parameter: urls (\(key): \(item.serialized()) is not an absolute http(s) URL)")
                }
                if short.contains(where: { $0.key == url }) { continue }
                short.append((url, .string(base + "/s/" + (try await store.shortCode(for: url, now: now)))))
            }
            answer.append((key, .object(short)))
        }
        return .json(["stat": "ok", "urls": .object(answer)])
    }

    /// Whether a short URL may redirect to `url`: an absolute `http` or `https` URL written
    /// with `//` and a host, without white space or control characters (which browsers strip,
    /// turning `java\tscript:` into `javascript:`) or backslashes (which they read as `/`).
    static func isShortURLTarget(_ url: String) -> Bool {
        guard BrowserURL.isWrittenPlainly(url) else { return false }
        let lower = url.lowercased()
        let rest = lower.hasPrefix("http://") ? lower.dropFirst(7) : lower.hasPrefix("https://") ? lower.dropFirst(8) : nil
        guard let rest, let first = rest.first, first != "/", let parsed = BrowserURL(url), parsed.isHTTP else { return false }
        return !(parsed.host ?? "").isEmpty
    }

    /// `GET /s/<code>`: a short URL redirects to its URL (one stored before targets were
    /// checked, and that fails `isShortURLTarget`, answers 404).
    func followShortURL(path: String) async throws -> ServerReply {
        let code = String(path.dropFirst("/s/".count))
        guard let url = try await store.longURL(code: code), Self.isShortURLTarget(url) else {
            return .html("Unknown short URL", ["No short URL \(path) here."], status: .notFound, language: flow.defaultLocale.value)
        }
        return .redirect(url)
    }

    /// Whether a path is a short URL's (`/s/<code>`).
    static func isShortURLPath(_ path: String) -> Bool {
        path.hasPrefix("/s/") && path.count > 3 && !path.dropFirst(3).contains("/")
    }

    /// A device token for the identity of an Engage grant (the device sign-in's `auth_info`).
    func issueDeviceToken(for grant: EngageGrant) async throws -> String {
        try await store.issueDeviceToken(
            provider: grant.provider, identifier: grant.identifier, expiresAt: now + Self.deviceTokenLifetime, now: now)
    }
}

import Crypto
import JumpCapture
import JumpForms
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a server API call (the entity calls a back end makes) carries to say who makes it.
struct APICredentials: Sendable {
    /// The call's path as signed: `/entity.find`.
    var path: String
    var parameters: RequestParameters
    /// The `Authorization` header, if any.
    var authorization: String?
    /// The `Date` header, if any (signed requests: `YYYY-MM-DD HH:MM:SS`, UTC).
    var date: String?
}

/// How a server API call's authentication ended: who made it, or Capture's error.
enum APIAuthentication: Sendable {
    case accepted(APICaller)
    case refused(ServerReply)
}

/// Who made a server API call.
enum APICaller: Sendable {
    /// A client of `server.clients` (or the app's login client), by its id and secret.
    case client(APIClient)
    /// An end user, by the access token of `Authorization: OAuth <token>`; the call checks the
    /// token as the record calls do.
    case endUser(accessToken: String)
}

/// The signatures of signed requests seen within the clock skew allowed, so that none is
/// accepted twice: each is kept until its `Date` is too old to be accepted anyway.
final class SignedRequestLog: Sendable {
    let store: CaptureStore

    init(store: CaptureStore) { self.store = store }

    /// Whether `signature` is new, noting it (its SHA-256, in the database: every instance on
    /// one database sees it) until `expiry` (seconds); expired ones are forgotten.
    func firstUse(_ signature: String, expiry: Int, now: Int) async throws -> Bool {
        try await store.firstUse(ofSignature: CaptureStore.hash(signature), expiresAt: expiry, now: now)
    }
}

/// The server API's authentication, as Capture accepts it: `client_id` and `client_secret`
/// parameters; `Authorization: Basic` with them; the signed form Janrain's client libraries
/// send (`Date: YYYY-MM-DD HH:MM:SS` in UTC and `Authorization: Signature <client_id>:<Base64
/// of HMAC-SHA1(secret, "<path>\n<Date>\n" and each parameter as a sorted "key=value\n" line)>`,
/// within `signatureSkew` seconds of the server's clock, and each signature once); and
/// `Authorization: OAuth <access_token>` for an end user. Errors: 100 no credentials, 205 an
/// `Authorization` header of another scheme, 402 `invalid_client` an unknown client, a wrong
/// secret or signature, a `Date` too far from the server's clock or a signature used again,
/// 403 `access_denied` a client without the feature the call needs. Secrets are compared as
/// digests (the time says nothing of how much matched), under the sign-in throttle's count of
/// the client's address (`checkSecret`), and never logged.
extension CaptureService {
    /// Seconds a signed request's `Date` may be from the server's clock, either way.
    static let signatureSkew = 300

    /// The parameters that carry credentials, which a signed request does not sign.
    static let credentialParameters: Set<String> = ["client_id", "client_secret", "access_token"]

    /// The clients of the server API: `server.clients`, and the app's login client when the
    /// server has its secret (`server.clientSecret`).
    var apiClients: [APIClient] {
        var clients = setup.settings.clients
        if let secret = setup.settings.clientSecret, !secret.value.isEmpty,
            !clients.contains(where: { $0.id.value == config.captureClientId.value })
        {
            clients.append(APIClient(id: config.captureClientId, secret: secret, features: [.loginClient]))
        }
        return clients
    }

    func apiClient(_ id: String) -> APIClient? { apiClients.first { $0.id.value == id } }

    /// Who makes the call, when the credentials hold and (for a client) it has `feature` or is
    /// an owner; else Capture's error. `client`: the connection's address (failures count
    /// against it).
    func authenticateAPICall(_ credentials: APICredentials, needs feature: APIClient.Feature, client: String?) async throws -> APIAuthentication {
        let parameters = credentials.parameters
        let locale = locale(parameters)
        let authenticated: APIClient
        if let header = credentials.authorization {
            let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
            let scheme = parts.first?.lowercased() ?? ""
            switch scheme {
            case "oauth":
                guard parts.count == 2, !parts[1].isEmpty else { return .refused(.missing("access_token")) }
                return .accepted(.endUser(accessToken: String(parts[1])))
            case "basic":
                guard let basic = Self.basicCredentials(header) else {
                    return .refused(.error(205, "invalid_auth_method", "the Authorization header must be Basic <Base64 of client_id:client_secret>"))
                }
                if (parameters["client_id"].map { $0 != basic.id } ?? false) || (parameters["client_secret"].map { $0 != basic.secret } ?? false) {
                    return .refused(.invalid("client_id", "the Authorization header and the parameters name different credentials"))
                }
                switch try await checkClient(basic.id, secret: basic.secret, client: client, locale: locale) {
                case .refused(let reply): return .refused(reply)
                case .client(let value): authenticated = value
                }
            case "signature":
                switch try await checkSignature(credentials, client: client, locale: locale) {
                case .refused(let reply): return .refused(reply)
                case .client(let value): authenticated = value
                }
            default:
                return .refused(
                    .error(205, "invalid_auth_method", "the Authorization header must be Basic, Signature or OAuth"))
            }
        } else {
            guard let id = parameters["client_id"] else { return .refused(.missing("client_id")) }
            guard let secret = parameters["client_secret"] else { return .refused(.missing("client_secret")) }
            switch try await checkClient(id, secret: secret, client: client, locale: locale) {
            case .refused(let reply): return .refused(reply)
            case .client(let value): authenticated = value
            }
        }
        guard authenticated.allows(feature) else {
            logger.info("client \(authenticated.id.value.debugDescription) refused \(credentials.path): it lacks the feature \(feature.rawValue)")
            return .refused(.error(403, "access_denied", "this client lacks the feature \(feature.rawValue), which \(credentials.path) needs"))
        }
        return .accepted(.client(authenticated))
    }

    /// A client's credentials checked: the client, or Capture's error.
    enum ClientCheck {
        case client(APIClient)
        case refused(ServerReply)
    }

    /// The client `id` names, when `secret` is its secret.
    private func checkClient(_ id: String, secret: String, client: String?, locale: LocaleTag) async throws -> ClientCheck {
        let known = apiClient(id)
        switch try await checkSecret(secret, against: known?.secret.value, what: "client secret of the server API", client: client, locale: locale) {
        case .refused(let reply): return .refused(reply)
        case .wrong: return .refused(.error(402, "invalid_client", "the client id or the client secret is not valid"))
        case .matches: return known.map { .client($0) } ?? .refused(.error(402, "invalid_client", "the client id or the client secret is not valid"))
        }
    }

    /// A signed request's client, when its signature is the client's, its `Date` within
    /// `signatureSkew` of the server's clock, and the signature new.
    private func checkSignature(_ credentials: APICredentials, client: String?, locale: LocaleTag) async throws -> ClientCheck {
        let invalid = ServerReply.error(402, "invalid_client", "the signature is not valid")
        guard let header = credentials.authorization,
            let value = header.split(separator: " ", maxSplits: 1).last.map(String.init),
            let colon = value.lastIndex(of: ":")
        else { return .refused(invalid) }
        let id = String(value[..<colon])
        let signature = String(value[value.index(after: colon)...])
        guard let date = credentials.date else { return .refused(.missing("Date")) }
        guard let signed = Self.signatureDate(date) else {
            return .refused(.invalid("Date", "a signed request's Date header is YYYY-MM-DD HH:MM:SS, in UTC"))
        }
        let now = self.now
        guard abs(signed - now) <= Self.signatureSkew else {
            logger.info("signed request of client \(id.debugDescription) refused: its Date is \(signed - now) s from the server's clock")
            return .refused(
                .error(402, "invalid_client", "the request's Date is more than \(Self.signatureSkew / 60) minutes from the server's clock"))
        }
        let known = apiClient(id)
        let message = Self.signedText(path: credentials.path, date: date, parameters: credentials.parameters)
        let check = try await checkSecret(what: "signature of the server API", client: client, locale: locale) {
            guard let known, let code = Data(base64Encoded: signature) else { return false }
            return HMAC<Insecure.SHA1>.isValidAuthenticationCode(
                code, authenticating: Array(message.utf8), using: SymmetricKey(data: Array(known.secret.value.utf8)))
        }
        switch check {
        case .refused(let reply): return .refused(reply)
        case .wrong: return .refused(invalid)
        case .matches: break
        }
        guard let known, try await signedRequests.firstUse(id + ":" + signature, expiry: signed + Self.signatureSkew, now: now) else {
            logger.info("signed request of client \(id.debugDescription) refused: its signature was used before")
            return .refused(.error(402, "invalid_client", "a signed request is accepted once"))
        }
        return .client(known)
    }

    /// What a signed request signs: `<path>\n<Date>\n`, then each parameter but the
    /// credentials as `key=value\n`, the lines sorted (by their UTF-8 bytes, as Python sorts
    /// them by code point), values as sent.
    static func signedText(path: String, date: String, parameters: RequestParameters) -> String {
        let lines = parameters.pairs.filter { !credentialParameters.contains($0.name) }.map { "\($0.name)=\($0.value)" }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return path + "\n" + date + "\n" + lines.map { $0 + "\n" }.joined()
    }

    /// Seconds since 1970 of `YYYY-MM-DD HH:MM:SS` (UTC); nil for any other text.
    static func signatureDate(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count == 19, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: " "),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":")
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
            let minute = number(14..<16), let second = number(17..<19), (1...12).contains(month), (1...31).contains(day), hour < 24,
            minute < 60, second < 61
        else { return nil }
        // Days from 1970-01-01 of a civil date (Howard Hinnant's algorithm).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return days * 86_400 + hour * 3600 + minute * 60 + second
    }
}

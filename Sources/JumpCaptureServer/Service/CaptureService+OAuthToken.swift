import JumpCapture
import JumpForms
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `/oauth/token`: what the app's own server calls to redeem the `authorization_code` a
/// sign-in or registration with `response_type=code_and_token` handed over (the SDKs pass it
/// to the app and never call this), and then the refresh tokens it hands out. As Capture: the
/// client authenticates with its id and secret (HTTP Basic, or `client_id` and
/// `client_secret`), and this is the one call that compares `redirect_uri` (420).
extension CaptureService {
    /// Seconds an authorization code waits for `/oauth/token`; then the code answers 415.
    static let authorizationCodeLifetime = 120

    static let oauthTokenParameters: Set<String> = ["grant_type", "code", "redirect_uri", "client_id", "client_secret", "refresh_token"]

    /// Redeems a grant: `grant_type=authorization_code` with `code` and `redirect_uri` (the
    /// redirect URI of the call that made the code), or `grant_type=refresh_token` with
    /// `refresh_token`. Either is used up; the answer is `access_token`, `refresh_token`,
    /// `expires_in` and `token_type`. Codes: 100 a parameter is missing, 200 a value is not
    /// valid (an unknown or used code or refresh token), 201 repeated, 205 an `Authorization`
    /// header that is not Basic, 402 the client id or secret is wrong (or the server has no
    /// `clientSecret`), 415 the code expired, 420 the redirect URI differs.
    /// `client`: the address of the connection (wrong secrets count against it, as wrong
    /// passwords do; 510 with `retry_after` once it must wait). A code or refresh token
    /// presented again ends the grant it began or belongs to (RFC 6749 section 4.1.2).
    func oauthToken(_ parameters: RequestParameters, authorization: String?, client: String? = nil) async throws -> ServerReply {
        if let name = parameters.duplicate { return .duplicate(name) }
        if let unknown = parameters.names.first(where: { !Self.oauthTokenParameters.contains($0) }) {
            let hint = Suggestion.hint(for: unknown, among: Self.oauthTokenParameters).map { " (\($0))" } ?? ""
            return .invalid(unknown, "unknown parameter for /oauth/token\(hint)")
        }
        var clientID = parameters["client_id"]
        var secret = parameters["client_secret"]
        if let authorization {
            guard let basic = Self.basicCredentials(authorization) else {
                return .error(205, "invalid_auth_method", "the Authorization header must be Basic <Base64 of client_id:client_secret>")
            }
            if (clientID.map { $0 != basic.id } ?? false) || (secret.map { $0 != basic.secret } ?? false) {
                return .invalid("client_id", "the Authorization header and the parameters name different credentials")
            }
            clientID = basic.id
            secret = basic.secret
        }
        guard let clientID else { return .missing("client_id") }
        guard let secret else { return .missing("client_secret") }
        guard !apiClients.isEmpty else {
            return .error(
                402, "invalid_client",
                "this server has no client secret (server.clientSecret or server.clients in jump.yaml), so /oauth/token accepts no client")
        }
        // Compared as digests, and counted per client address (`checkSecret`): a wrong client id
        // or secret is a failed guess, and an address that guessed too often waits (510). The
        // app's client, or a client of `server.clients` with `login_client` (or `owner`).
        let expected = apiClient(clientID)
        switch try await checkSecret(
            secret, against: expected?.secret.value, what: "client secret at /oauth/token", client: client, locale: locale(parameters))
        {
        case .refused(let reply): return reply
        case .wrong: return .error(402, "invalid_client", "the client id or the client secret is not valid")
        case .matches: break
        }
        if let expected, !expected.allows(.loginClient) {
            return .error(403, "access_denied", "this client lacks the feature login_client, which /oauth/token needs")
        }
        guard let grant = parameters["grant_type"] else { return .missing("grant_type") }
        let accessLifetime = setup.settings.accessTokenLifetime
        let redemption: CaptureStore.Redemption
        switch grant {
        case "authorization_code":
            if parameters["refresh_token"] != nil { return .invalid("refresh_token", "not a parameter of grant_type authorization_code") }
            guard let code = parameters["code"] else { return .missing("code") }
            guard let redirect = parameters["redirect_uri"] else { return .missing("redirect_uri") }
            redemption = try await store.redeemAuthorizationCode(
                code, redirectURI: redirect, accessLifetime: accessLifetime,
                refreshLifetime: setup.settings.refreshLifetime, now: now)
        case "refresh_token":
            if parameters["code"] != nil { return .invalid("code", "not a parameter of grant_type refresh_token") }
            guard let token = parameters["refresh_token"] else { return .missing("refresh_token") }
            redemption = try await store.redeemRefreshToken(
                token, accessLifetime: accessLifetime,
                refreshLifetime: setup.settings.refreshLifetime, now: now)
        default:
            return .invalid("grant_type", "must be authorization_code or refresh_token")
        }
        switch redemption {
        case .issued(let access, let refresh, let expiresAt):
            return .json([
                "stat": "ok", "access_token": .string(access), "refresh_token": .string(refresh),
                "expires_in": .integer(expiresAt - now), "token_type": "Bearer"
            ])
        case .replayed:
            logger.warning(
                "\(grant == "authorization_code" ? "an authorization code" : "a refresh token") was presented again: its grant's tokens are revoked")
            return grant == "authorization_code"
                ? .invalid("code", "the authorization code is not valid or was used already")
                : .invalid("refresh_token", "the refresh token is not valid or was used already")
        case .invalid:
            return grant == "authorization_code"
                ? .invalid("code", "the authorization code is not valid or was used already")
                : .invalid("refresh_token", "the refresh token is not valid or was used already")
        case .expired:
            return grant == "authorization_code"
                ? .error(415, "authorization_code_expired", "the authorization code has expired")
                : .invalid("refresh_token", "the refresh token has expired")
        case .redirectMismatch:
            return .error(420, "redirect_uri_mismatch", "redirect_uri differs from the one of the call that issued the authorization code")
        }
    }

    /// The client id and secret of `Authorization: Basic <Base64 of id:secret>`; nil for any
    /// other scheme or a value that is not Base64 of UTF-8 text with a colon.
    static func basicCredentials(_ header: String) -> (id: String, secret: String)? {
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "basic",
            let data = Data(base64Encoded: String(parts[1].filter { $0 != " " })),
            let text = String(bytes: data, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else { return nil }
        return (String(text[..<colon]), String(text[text.index(after: colon)...]))
    }
}

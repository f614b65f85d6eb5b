import AsyncHTTPClient
import JumpCapture
import JumpForms
import NIOCore
import NIOHTTP1
import Testing

/// Steps that set a scene for the call under test without replaying an SDK: an account
/// registered the way the jump-forms client registers (every field of the registration form,
/// jump.yaml's `redirect_uri`), so that a test of, say, the SDK's refresh does not depend on
/// the SDK's registration going through.
struct Account: Sendable {
    var email: String
    var password: String
    var accessToken: String
    var refreshSecret: String
    var record: JSONValue
}

enum Arrange {
    static let password = "correct horse battery"

    static func register(_ server: ReplayServer, email: String, displayName: String) async throws -> Account {
        try await register(url: server.url, config: server.config, flow: server.flow, client: SDKWire.client, email: email, displayName: displayName)
    }

    static func register(url: String, config: ClientConfig, flow: Flow, client: HTTPClient, email: String, displayName: String) async throws
        -> Account
    {
        let secret = IOSApp.newRefreshSecret()
        let pairs: [(name: String, value: String)] = [
            ("client_id", config.captureClientId.value), ("locale", "en-US"), ("response_type", "token"),
            ("redirect_uri", config.redirectUri?.value ?? ""), ("flow", flow.name.value), ("flow_version", flow.version.value),
            ("form", config.captureTraditionalRegistrationFormName.value), ("refresh_secret", secret),
            ("emailAddress", email), ("displayName", displayName), ("firstName", "Ana"), ("lastName", "Ruiz"),
            ("newPassword", password), ("newPasswordConfirm", password), ("birthdate[dateselect_year]", "1990"),
            ("birthdate[dateselect_month]", "04"), ("birthdate[dateselect_day]", "01"), ("optIn", "true")
        ]
        var request = HTTPClientRequest(url: url + "/oauth/register_native_traditional")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(ByteBuffer(string: FormEncoding.encode(pairs)))
        let response = try await client.execute(request, timeout: .seconds(15))
        let body = String(buffer: try await response.body.collect(upTo: 1 << 22))
        guard let json = try? JSONValue.parse(body), json["stat"] == .string("ok"), let token = json["access_token"]?.stringValue,
            let record = json["capture_user"]
        else {
            throw ReplayError("arranging: the registration of \(email) (jump-forms client style) failed: HTTP \(response.status.code) \(body)")
        }
        return Account(email: email, password: password, accessToken: token, refreshSecret: secret, record: record)
    }
}

/// Checks made from outside the SDK: what the record holds now, what an Engage token stands for.
enum Check {
    /// The record of a session, read with `/entity` as the jump-forms client reads it today
    /// (with `client_id`, which the server accepts before and after issue 21).
    static func record(_ server: ReplayServer, _ accessToken: String) async throws -> JSONValue {
        let json = try await post(server.url + "/entity", ["access_token": accessToken, "client_id": server.config.captureClientId.value])
        guard json["stat"] == .string("ok"), let record = json["result"], record.objectValue != nil else {
            throw ReplayError("checking: /entity did not answer the record: \(json)")
        }
        return record
    }

    /// What a token URL's server learns from Engage: `POST /api/v2/auth_info` with the app's
    /// secret API key (server-side, never in an SDK).
    static func authInfo(_ base: String, token: String) async throws -> JSONValue {
        let json = try await post(base + "/api/v2/auth_info", ["apiKey": ReplayProject.apiKey, "token": token])
        guard json["stat"] == .string("ok"), let profile = json["profile"] else {
            throw ReplayError("checking: auth_info did not answer a profile for token \(token): \(json)")
        }
        return profile
    }

    static func post(_ url: String, _ parameters: [String: String], client: HTTPClient = SDKWire.client) async throws -> JSONValue {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(ByteBuffer(string: FormEncoding.encode(parameters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })))
        let response = try await client.execute(request, timeout: .seconds(15))
        let body = String(buffer: try await response.body.collect(upTo: 1 << 22))
        return (try? JSONValue.parse(body)) ?? .string("HTTP \(response.status.code): \(body)")
    }
}

/// An Engage provider dialog as the SDK's web view runs it: the start URL (the SDK's
/// request), a click on the test identity when the double shows a page to choose from, and
/// the redirect that ends the dialog.
enum Dialog {
    /// Returns the `Location` the dialog ends on.
    static func run(_ start: SDKRequest, on server: String, identity: String) async throws -> String {
        var answer = try await SDKWire.send(start, to: server)
        if answer.status == 200, answer.body.contains("identity=") {
            // The double's chooser: the user taps the identity's link (an href, HTML-escaped).
            let wanted = "identity=" + FormEncoding.encodeComponent(identity)
            guard let link = links(in: answer.body).first(where: { $0.contains(wanted) }) else {
                throw ReplayError("\(start.sdk.rawValue) \(start.source): the dialog's page has no link for \(identity): \(answer)")
            }
            var click = start
            click.source = "the user's choice on the dialog's page"
            click.target = link.hasPrefix("http") ? String(link.drop { $0 != "/" }.dropFirst(2).drop { $0 != "/" }) : link
            answer = try await SDKWire.send(click, to: server)
        }
        guard (300..<400).contains(answer.status), let location = answer.headers.first(name: "location") else {
            throw ReplayError("\(start.sdk.rawValue) \(start.source): the dialog did not end on a redirect\n  request: \(start)\n  answer: \(answer)")
        }
        return location
    }

    static func links(in html: String) -> [String] {
        html.components(separatedBy: "href=\"").dropFirst().compactMap { $0.split(separator: "\"", maxSplits: 1).first.map(String.init) }
            .map { $0.replacingOccurrences(of: "&amp;", with: "&") }
    }
}

/// A new user as an app fills in a JRCaptureUser / CaptureRecord before registering it.
enum NewUser {
    static func record(email: String?, displayName: String, password: String? = Arrange.password) -> JSONValue {
        var entries: [(key: String, value: JSONValue)] = []
        if let email { entries.append(("email", .string(email))) }
        entries += [("displayName", .string(displayName)), ("givenName", "Ana"), ("familyName", "Ruiz")]
        if let password { entries.append(("password", .string(password))) }
        entries += [("birthday", "1990-04-01"), ("optIn", ["status": true])]
        return .object(entries)
    }
}

extension JSONValue {
    /// The object with `value` at a dot path (objects made as needed).
    func replacing(path: String, with value: JSONValue) -> JSONValue {
        let parts = path.split(separator: ".", maxSplits: 1).map(String.init)
        guard case .object(var entries) = self else {
            return parts.count == 1 ? [parts[0]: value] : [parts[0]: JSONValue.null.replacing(path: parts[1], with: value)]
        }
        let key = parts[0]
        let new = parts.count == 1 ? value : (self[key] ?? .null).replacing(path: parts[1], with: value)
        if let index = entries.firstIndex(where: { $0.key == key }) { entries[index].value = new } else { entries.append((key, new)) }
        return .object(entries)
    }
}

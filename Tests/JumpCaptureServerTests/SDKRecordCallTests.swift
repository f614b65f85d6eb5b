import JumpCapture
import JumpForms
import Testing
import TestSupport

/// The record calls (`/entity`, `/entity.update`, `/entity.replace`, `/entity.delete`) with the
/// bytes the JUMP SDKs send, over real HTTP, asserting what each SDK reads back.
///
/// iOS 5.5 (JRCaptureApidInterface.m): `/entity` is a form body of `access_token` and
/// `attribute_name` (entityRequestForPath, :217-227); update and replace are hand-built bodies,
/// `&attributes=<json>&access_token=<t>&include_record=true[&attribute_name=<path>]`, the JSON
/// escaped by stringByAddingUrlPercentEscapes (URLQueryAllowed minus `?+=&`,
/// JRConnectionManager.m:45-59), the token and path raw, no Content-Type (:246-294, :312-425).
/// Success needs `result`: any for an update (JRCaptureObject.m:126-132), a dictionary for a
/// replaced object (:205-210), a list for a replaced plural (:281-290), whose elements' ids
/// become their paths `/photos#<id>` (JRPhotosElement.m).
///
/// Android 7.3.0: form bodies (URLEncoder) with `Content-Type: application/x-www-form-urlencoded`;
/// ApidUpdate.java:54-65 (`value`, `attribute_name` unless `/`), ApidDelete.java:46-55
/// (`attribute_name`); CaptureRecord.java collapses every change to one root update, new plural
/// elements as `{"photos": [element]}` (CaptureJsonUtils.java:117-137); it reads `stat` only.
@Suite(.timeLimit(.minutes(5))) struct SDKRecordCallTests {
    static let writable = ["/aboutMe", "/primaryAddress", "/photos", "/givenName", "/displayName"].map { Located($0, at: ServerFixtures.here) }

    /// `stringByAddingUrlPercentEscapes`: URLQueryAllowed minus `?+=&` kept, the rest
    /// percent-encoded as UTF-8 (space as %20).
    static func iOSEscaped(_ text: String) -> String {
        let kept = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$'()*,;:@/".utf8)
        var out = ""
        for byte in text.utf8 {
            if kept.contains(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(2)
            }
        }
        return out
    }

    /// NSJSONSerialization's text: `/` written `\/`.
    static func iOSJSON(_ value: JSONValue) -> String {
        value.serialized().replacingAll("/", with: "\\/")
    }

    /// The body iOS builds for entity.update and entity.replace.
    static func iOSBody(_ value: JSONValue, token: String, path: String?) -> [UInt8] {
        var body = "&attributes=\(iOSEscaped(iOSJSON(value)))&access_token=\(token)&include_record=true"
        if let path { body += "&attribute_name=\(path)" }
        return Array(body.utf8)
    }

    /// An iOS write: POST without Content-Type.
    static func iOS(_ server: TestServer, _ call: String, _ value: JSONValue, token: String, path: String?) async throws -> JSONValue {
        let answer = try await server.raw(.POST, call, body: iOSBody(value, token: token, path: path), contentType: nil)
        #expect(answer.status == 200)
        return try JSONValue.parse(Array(answer.body.utf8))
    }

    /// An Android call: URLEncoder form body (space as `+`), with the form Content-Type.
    static func android(_ server: TestServer, _ call: String, _ pairs: [(name: String, value: String)]) async throws -> JSONValue {
        let answer = try await server.raw(.POST, call, form: FormEncoding.encode(pairs))
        #expect(answer.status == 200)
        return try JSONValue.parse(Array(answer.body.utf8))
    }

    // MARK: iOS

    /// iOS reads the user after registration, linking and before unlinking with the token
    /// alone; `result` is the record.
    @Test func iOSReadsTheRecordWithTheTokenAlone() async throws {
        try await withServer { server in
            let token = try await server.register().result.accessToken
            let answer = try await server.raw(.POST, "/entity", form: "access_token=\(token)")
            let json = try JSONValue.parse(Array(answer.body.utf8))
            #expect(json["stat"] == "ok", "\(answer.body)")
            #expect(json.at("result.email") == "ana.ruiz@example.com")
            #expect(json.at("result.profiles") == .array([]))
            let one = try JSONValue.parse(
                Array(try await server.raw(.POST, "/entity", form: "access_token=\(token)&attribute_name=%2FgivenName").body.utf8))
            #expect(one == ["stat": "ok", "result": "Ana"])
            // A client_id sent anyway must be this server's.
            let own = try await server.raw(.POST, "/entity", form: "access_token=\(token)&client_id=\(server.config.captureClientId.value)")
            #expect(own.body.hasPrefix(#"{"stat":"ok""#), "\(own.body)")
            let other = try JSONValue.parse(
                Array(try await server.raw(.POST, "/entity", form: "access_token=\(token)&client_id=someoneelse").body.utf8))
            #expect(other["code"] == .integer(402))
        }
    }

    /// updateObject: the hand-built body, `result` present; an object path answers the object,
    /// the root the record.
    @Test func iOSUpdatesObjectsAndGetsTheResult() async throws {
        try await withServer(configure: { $0.server.writeWithToken = Self.writable }) { server in
            let token = try await server.register().result.accessToken
            let address: JSONValue = ["address1": "5 rue Vaubecour", "city": "Lyon", "zip": "69002"]
            let updated = try await Self.iOS(server, "/entity.update", address, token: token, path: "/primaryAddress")
            #expect(updated["stat"] == "ok", "\(updated)")
            #expect(updated["result"] == address)
            // Root: the record, with what the body carried (spaces, quotes, `+`, `&`, `=`, `/`).
            let about = #"J'aime "Lyon" & 1+1=2 / café ~ ok?"#
            let root = try await Self.iOS(server, "/entity.update", ["aboutMe": .string(about)], token: token, path: nil)
            #expect(root.at("result.aboutMe") == .string(about), "\(root)")
            #expect(root.at("result.primaryAddress.city") == "Lyon")
            #expect(root.at("result.email") == "ana.ruiz@example.com")
            #expect(try await server.record(token)["aboutMe"] == .string(about))
        }
    }

    /// replaceArray: the list back with the ids the server gave, which iOS makes the
    /// elements' paths; updateObject and replaceObject of one element at `/photos#<id>`;
    /// replaceObject of an object answers the object.
    @Test func iOSReplacesPluralsAndObjectsAndWritesElements() async throws {
        try await withServer(configure: { $0.server.writeWithToken = Self.writable }) { server in
            let token = try await server.register().result.accessToken
            let photos: JSONValue = [
                ["type": "small", "value": "https://img.example.com/s.jpg"], ["type": "large", "value": "https://img.example.com/l.jpg"]
            ]
            let replaced = try await Self.iOS(server, "/entity.replace", photos, token: token, path: "/photos")
            let items = try #require(replaced["result"]?.arrayValue, "\(replaced)")
            #expect(items.count == 2)
            let ids = items.compactMap { $0["id"]?.intValue }
            #expect(ids.count == 2 && Set(ids).count == 2)
            #expect(items[1]["value"] == "https://img.example.com/l.jpg")

            let second = ids[1]
            let element = try await Self.iOS(server, "/entity.update", ["type": "huge"], token: token, path: "/photos#\(second)")
            #expect(element["result"] == ["type": "huge", "value": "https://img.example.com/l.jpg", "id": .integer(second)], "\(element)")
            let whole = try await Self.iOS(
                server, "/entity.replace", ["value": "https://img.example.com/x.jpg"], token: token, path: "/photos#\(second)")
            #expect(whole["result"] == ["value": "https://img.example.com/x.jpg", "id": .integer(second)], "\(whole)")

            // replaceObject: a dictionary in `result`, the attributes not given gone.
            _ = try await Self.iOS(
                server, "/entity.update", ["address1": "1 quai Rambaud", "city": "Lyon", "zip": "69002"], token: token, path: "/primaryAddress")
            let object = try await Self.iOS(
                server, "/entity.replace", ["address1": "2 Storgata", "city": "Oslo"], token: token, path: "/primaryAddress")
            #expect(object["result"] == ["address1": "2 Storgata", "city": "Oslo"], "\(object)")

            let record = try await server.record(token)
            #expect(
                record["photos"] == [
                    ["type": "small", "value": "https://img.example.com/s.jpg", "id": .integer(ids[0])],
                    ["value": "https://img.example.com/x.jpg", "id": .integer(second)]
                ])
            #expect(record["primaryAddress"] == ["address1": "2 Storgata", "city": "Oslo"])
            // An element is read by its path too.
            #expect(
                try await server.readRecord(token, attribute: "/photos#\(second)")
                    == .success(.record(["value": "https://img.example.com/x.jpg", "id": .integer(second)])))
            #expect(try await server.readRecord(token, attribute: "/photos#\(second)/value") == .success(.record("https://img.example.com/x.jpg")))
        }
    }

    // MARK: Android

    /// synchronize(): one root update with the changed values and new plural elements
    /// appended (`{"photos": [element]}`), then entity.delete of `/photos#<id>`.
    @Test func androidAppendsElementsAtTheRootAndDeletesThem() async throws {
        try await withServer(configure: { $0.server.writeWithToken = Self.writable }) { server in
            let token = try await server.register().result.accessToken
            let first = try await Self.android(
                server, "/entity.update",
                [
                    ("value", #"{"givenName":"Anna Maria","photos":[{"type":"small","value":"https:\/\/img.example.com\/a b.jpg"}]}"#),
                    ("access_token", token)
                ])
            #expect(first["stat"] == "ok", "\(first)")
            let second = try await Self.android(
                server, "/entity.update",
                [
                    ("access_token", token),
                    ("value", #"{"photos":[{"type":"large","value":"l"},{"type":"huge","value":"h"}]}"#)
                ])
            #expect(second["stat"] == "ok", "\(second)")
            var record = try await server.record(token)
            #expect(record["givenName"] == "Anna Maria")
            let photos = try #require(record["photos"]?.arrayValue)
            #expect(photos.map { $0["type"] } == ["small", "large", "huge"])
            #expect(photos[0]["value"] == "https://img.example.com/a b.jpg")
            let ids = photos.compactMap { $0["id"]?.intValue }
            #expect(Set(ids).count == 3)

            // Android deletes elements one by one.
            let deleted = try await Self.android(server, "/entity.delete", [("attribute_name", "/photos#\(ids[1])"), ("access_token", token)])
            #expect(deleted == ["stat": "ok"])
            record = try await server.record(token)
            #expect(record["photos"]?.arrayValue?.compactMap { $0["id"]?.intValue } == [ids[0], ids[2]])
            // The same element again: not found.
            let again = try await Self.android(server, "/entity.delete", [("attribute_name", "/photos#\(ids[1])"), ("access_token", token)])
            #expect(again["code"] == .integer(310), "\(again)")
            #expect(again["error"] == "record_not_found")
        }
    }

    /// Ids are the server's: stable through updates and replaces, never given twice, and an
    /// element sent with an id the plural does not hold is refused (320).
    @Test func elementIDsAreStableAndNeverReused() async throws {
        try await withServer(configure: { $0.server.writeWithToken = Self.writable }) { server in
            let token = try await server.register().result.accessToken
            let builder = server.builder()
            #expect(
                try await server.send(builder.updateObject(accessToken: token, attribute: nil, value: ["photos": [["value": "a"], ["value": "b"]]]))
                    .isOK)
            let ids = try #require(try await server.record(token)["photos"]?.arrayValue?.compactMap { $0["id"]?.intValue })
            // Delete the newest, append: the new element does not take its id.
            #expect(try await server.send(builder.deleteAttribute(accessToken: token, attribute: "/photos#\(ids[1])")).isOK)
            #expect(try await server.send(builder.updateObject(accessToken: token, attribute: nil, value: ["photos": [["value": "c"]]])).isOK)
            let after = try #require(try await server.record(token)["photos"]?.arrayValue)
            #expect(after.count == 2)
            let newest = try #require(after.last?["id"]?.intValue)
            #expect(!ids.contains(newest))
            // An update of an element keeps its id.
            #expect(try await server.send(builder.updateObject(accessToken: token, attribute: "/photos#\(ids[0])", value: ["value": "A"])).isOK)
            // A replace keeps the ids it names and numbers the others anew.
            let list: JSONValue = [["id": .integer(ids[0]), "value": "A2"], ["value": "d"]]
            #expect(try await server.send(builder.replacePlural(accessToken: token, attribute: "/photos", value: list)).isOK)
            let replaced = try #require(try await server.record(token)["photos"]?.arrayValue)
            #expect(replaced.first == ["value": "A2", "id": .integer(ids[0])])
            let fresh = try #require(replaced.last?["id"]?.intValue)
            #expect(![ids[0], ids[1], newest].contains(fresh))
            // Ids the plural does not hold: in a replace, and in an update's new elements.
            let foreign = try await server.send(builder.replacePlural(accessToken: token, attribute: "/photos", value: [["id": 999, "value": "x"]]))
            #expect(foreign.code == 320, "\(foreign)")
            let appended = try await server.send(
                builder.updateObject(accessToken: token, attribute: nil, value: ["photos": [["id": .integer(ids[0]), "value": "x"]]]))
            #expect(appended.code == 320, "\(appended)")
            #expect(try await server.send(builder.updateObject(accessToken: token, attribute: "/photos#999", value: ["value": "x"])).code == 310)
            #expect(try await server.readRecord(token, attribute: "/photos#999").code == 310)
            #expect(try await server.record(token)["photos"]?.arrayValue == replaced)
        }
    }

    /// entity.delete clears an object or value and empties a plural; the whole record, the
    /// server's attributes and those outside the write list are not deleted.
    @Test func deleteClearsAttributes() async throws {
        try await withServer(configure: { $0.server.writeWithToken = Self.writable }) { server in
            let token = try await server.register().result.accessToken
            let builder = server.builder()
            #expect(
                try await server.send(
                    builder.updateObject(
                        accessToken: token, attribute: nil,
                        value: ["aboutMe": "x", "primaryAddress": ["address1": "1 quai Rambaud", "city": "Lyon"], "photos": [["value": "a"]]])
                ).isOK)
            for attribute in ["/aboutMe", "/primaryAddress", "/photos"] {
                #expect(try await server.send(builder.deleteAttribute(accessToken: token, attribute: attribute)).isOK, "\(attribute)")
            }
            let record = try await server.record(token)
            #expect(record["aboutMe"] == .null)
            #expect(record["primaryAddress"] == .null)
            #expect(record["photos"] == .array([]))
            #expect(try await server.send(builder.deleteAttribute(accessToken: token, attribute: "/")).code == 100)
            #expect(try await server.send(builder.deleteAttribute(accessToken: token, attribute: "/uuid")).code == 223)
            #expect(try await server.send(builder.deleteAttribute(accessToken: token, attribute: "/email")).code == 223)
            #expect(try await server.record(token)["email"] == "ana.ruiz@example.com")
            // include_record answers the record.
            let answer = try await server.raw(.POST, "/entity.delete", form: "access_token=\(token)&attribute_name=%2FaboutMe&include_record=true")
            #expect(try JSONValue.parse(Array(answer.body.utf8)).at("result.email") == "ana.ruiz@example.com", "\(answer.body)")
            // A field's rules still hold: the first name is required.
            #expect(try await server.send(builder.deleteAttribute(accessToken: token, attribute: "/givenName")).code == 390)
        }
    }

    // MARK: common parameters

    /// `redirect_uri` is compared by `/oauth/token` only: the SDKs' defaults (iOS the Capture
    /// base URL, Android `http://android.library`) go through every other call.
    @Test func theSDKsDefaultRedirectURIsAreAccepted() async throws {
        try await withServer(.socket) { server in
            let ios = try server.builder().register(
                ServerFixtures.registration(email: "ios@example.com", displayName: "ios_user"),
                refreshSecret: .generate(), today: server.today
            )
            .setting("redirect_uri", server.url.description)
            #expect(try await server.send(ios).signedIn != nil)
            let android = try server.builder().register(
                ServerFixtures.registration(email: "droid@example.com", displayName: "droid_user"),
                refreshSecret: .generate(), today: server.today
            )
            .setting("redirect_uri", "http://android.library")
            let session = try #require(try await server.send(android).signedIn)
            let link = server.builder().linkAccount(
                accessToken: session.accessToken, token: try await server.engageToken("google", identity: "marta.keller@example.com")
            )
            .setting("redirect_uri", "http://android.library")
            #expect(try await server.send(link).isOK)
        }
    }

    /// The other calls still need the client id.
    @Test func otherCallsStillNeedTheClientID() async throws {
        try await withServer { server in
            let request = try server.builder().register(ServerFixtures.registration(), refreshSecret: .generate(), today: server.today)
            #expect(try await server.send(request.removing("client_id")).code == 100)
            #expect(try await server.server.accountCount() == 0)
        }
    }

    /// `include_record` is `true` or `false`; a value and attributes together are refused.
    @Test func parametersOfTheWrites() async throws {
        try await withServer(configure: { $0.server.writeWithToken = Self.writable }) { server in
            let token = try await server.register().result.accessToken
            let bad = try await server.raw(.POST, "/entity.update", form: "access_token=\(token)&value=%7B%7D&include_record=yes")
            #expect(try JSONValue.parse(Array(bad.body.utf8))["code"] == .integer(200))
            let both = try await server.raw(.POST, "/entity.update", form: "access_token=\(token)&value=%7B%7D&attributes=%7B%7D")
            #expect(try JSONValue.parse(Array(both.body.utf8))["code"] == .integer(200))
            let plain = try await server.raw(.POST, "/entity.update", form: "access_token=\(token)&value=%7B%22aboutMe%22%3A%22x%22%7D")
            #expect(plain.body == #"{"stat":"ok"}"#)
        }
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}

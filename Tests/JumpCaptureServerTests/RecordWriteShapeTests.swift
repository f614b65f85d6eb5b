import JumpCapture
import JumpForms
import Testing
import TestSupport

/// `/entity.update` and `/entity.replace` keep the record model: plurals are lists of objects
/// with ids, replaced whole by entity.replace, appended to or written element by element by
/// entity.update; attribute names and keys name one attribute.
@Suite(.timeLimit(.minutes(5))) struct RecordWriteShapeTests {
    static let writable = ["/aboutMe", "/primaryAddress", "/photos"].map { Located($0, at: ServerFixtures.here) }

    /// A write with its value as JSON text (the builder's request, the value replaced).
    static func write(_ server: TestServer, replace: Bool, _ token: String, _ attribute: String?, _ json: String) async throws -> Result<
        CaptureSuccess, CaptureError
    > {
        let request =
            replace
            ? server.builder().replacePlural(accessToken: token, attribute: attribute ?? "", value: [])
            : server.builder().updateObject(accessToken: token, attribute: attribute, value: [:])
        return try await server.send(request.setting("value", json))
    }

    static func description(_ result: Result<CaptureSuccess, CaptureError>) -> String {
        result.error?.serverError?.description ?? ""
    }

    /// entity.update of a plural used to turn it into an object that entity.replace then
    /// refused for good.
    @Test func entityUpdateDoesNotWriteAPlural() async throws {
        try await withServer(configure: { $0.server.writeWithToken = Self.writable }) { server in
            let token = try await server.register().result.accessToken
            #expect(try await Self.write(server, replace: true, token, "/photos", #"[{"value":"http://x/1.png"}]"#).isOK)
            for (attribute, value) in [
                ("/photos", #"{"value":"y"}"#), ("/photos", "{}"), (nil, #"{"photos":{"value":"y"}}"#),
                (nil, #"{"photos":null}"#), ("/photos/x", #"{"value":"y"}"#)
            ] {
                let result = try await Self.write(server, replace: false, token, attribute, value)
                #expect(result.code == 200, "\(attribute ?? "/") \(value): \(result)")
                #expect(Self.description(result).contains("plural"), "\(result)")
            }
            let photos = try #require(try await server.record(token)["photos"]?.arrayValue)
            #expect(photos == [["value": "http://x/1.png", "id": .integer(1 << 31)]])
            #expect(try await Self.write(server, replace: true, token, "/photos", #"[{"value":"z"}]"#).isOK)
        }
    }

    /// A plural's elements are objects (each gets an id). A list in an update appends
    /// elements to a plural, as Android adds them (`{"photos": [element]}`); a list of
    /// anything but objects is refused there too (it used to be stored without ids).
    @Test func pluralsAreListsOfObjects() async throws {
        try await withServer(configure: { $0.server.writeWithToken = Self.writable }) { server in
            let token = try await server.register().result.accessToken
            let elements = try await Self.write(server, replace: true, token, "/photos", #"[1,"x",null,[2]]"#)
            #expect(elements.code == 200, "\(elements)")
            #expect(Self.description(elements).contains("element 1 of /photos is a number"), "\(elements)")
            #expect(try await Self.write(server, replace: true, token, "/photos", #"[{"a":1},"x"]"#).code == 200)
            let root = try await Self.write(server, replace: false, token, nil, #"{"photos":["x"]}"#)
            #expect(root.code == 200, "\(root)")
            #expect(Self.description(root).contains("element 1 of /photos is a string"), "\(root)")
            #expect(try await Self.write(server, replace: false, token, "/primaryAddress", #"{"lines":["a","b"]}"#).code == 200)
            var record = try await server.record(token)
            #expect(record["photos"] == nil)
            #expect(record.at("primaryAddress.lines") == nil)
            #expect(try await Self.write(server, replace: false, token, nil, #"{"photos":[{"a":1}]}"#).isOK)
            record = try await server.record(token)
            #expect(record["photos"] == [["a": .integer(1), "id": .integer(1 << 31)]])
            // A path inside a plural is not replaced either.
            #expect(try await Self.write(server, replace: true, token, "/photos", #"[{"a":2}]"#).isOK)
            #expect(try await Self.write(server, replace: true, token, "/photos/x", #"[{"a":3}]"#).code == 200)
            #expect(try await server.record(token)["photos"] == [["a": .integer(2), "id": .integer((1 << 31) + 1)]])
        }
    }

    /// Empty keys slipped past the type check, keys with `.` or `/` were split into paths, and
    /// `..` in attribute_name wrote elsewhere.
    @Test func keysAndPathsNameOneAttribute() async throws {
        try await withServer(configure: { $0.server.writeWithToken = Self.writable }) { server in
            let token = try await server.register().result.accessToken
            #expect(try await Self.write(server, replace: false, token, "/primaryAddress", #"{"address1":"1 Main St","city":"Oslo"}"#).isOK)
            let refused: [(String?, String, String)] = [
                ("/primaryAddress", #"{"":"a string"}"#, "empty attribute name"),
                (nil, #"{"primaryAddress":{"":[1,2,3]}}"#, "empty attribute name"),
                ("/primaryAddress", #"{"k.l":3}"#, "'k.l'"),
                ("/primaryAddress", #"{"k/l":3}"#, "'k/l'"),
                ("/primaryAddress", #"{"k":{"m.n":3}}"#, "/primaryAddress/k: the attribute name 'm.n'"),
                ("/primaryAddress/../email", #"{"z":1}"#, "'..'"),
                ("/primaryAddress/./x", #"{"z":1}"#, "'.'"),
                ("/primaryAddress//x", #"{"z":1}"#, "empty attribute name"),
                ("/primaryAddress/", #"{"z":1}"#, "empty attribute name"),
                ("/primaryAddress/a.b", #"{"z":1}"#, "'a.b'")
            ]
            for (attribute, value, named) in refused {
                let result = try await Self.write(server, replace: false, token, attribute, value)
                #expect(result.code == 200, "\(attribute ?? "/") \(value): \(result)")
                #expect(Self.description(result).contains(named), "\(attribute ?? "/") \(value): \(result)")
            }
            let replaced = try await Self.write(server, replace: true, token, "/photos", #"[{"a.b":1}]"#)
            #expect(replaced.code == 200, "\(replaced)")
            #expect(try await Self.write(server, replace: true, token, "/photos/../aboutMe", #"[{"a":1}]"#).code == 200)
            // At the root an empty key is not a writable attribute: 223, as before.
            #expect(try await Self.write(server, replace: false, token, nil, #"{"":{"city":"x"}}"#).code == 223)
            let record = try await server.record(token)
            #expect(record["primaryAddress"] == ["address1": "1 Main St", "city": "Oslo"])
            #expect(record["email"] == "ana.ruiz@example.com")
            #expect(record["photos"] == nil)
            #expect(record["aboutMe"] == nil)
        }
    }
}

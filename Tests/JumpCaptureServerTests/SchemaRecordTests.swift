import JumpCapture
import JumpForms
import JumpSchema
import Testing
import TestSupport

/// The record calls with an entity-type schema (`server.schema`): attributes, plurals, types,
/// lengths and constraints follow it, with Capture's codes and `error` names (JRCaptureError.h
/// and .m of the iOS SDK): 223 `unknown_attribute`, 234 `reserved_attribute`, 310
/// `record_not_found`, 320 `id_in_new_record`, 340 `invalid_data_format`, 341
/// `invalid_json_type`, 342 `invalid_date_time`, 360 `constraint_violation`, 361
/// `unique_violation`, 362 `missing_required_attribute`, 363 `length_violation`.
@Suite(.timeLimit(.minutes(5))) struct SchemaRecordTests {
    static let defaultSchema: EntitySchema = {
        let loaded = SchemaLoader.schema(path: Repository.path("schemas/default-schema.json"))
        return loaded.value!
    }()

    static let writable = [
        "/email", "/displayName", "/givenName", "/gender", "/birthday", "/aboutMe", "/primaryAddress", "/photos",
        "/lastLogin", "/display", "/optIn", "/nickname", "/uuid", "/profiles", "/password"
    ]
    .map { Located($0, at: ServerFixtures.here) }

    static func withSchemaServer<T: Sendable>(_ schema: EntitySchema = defaultSchema, _ body: (TestServer) async throws -> T) async throws -> T {
        try await withServer(configure: { $0.server.writeWithToken = Self.writable }, schema: schema, body)
    }

    static func update(_ server: TestServer, _ token: String, _ value: JSONValue, attribute: String? = nil) async throws -> Result<
        CaptureSuccess, CaptureError
    > {
        try await server.send(server.builder().updateObject(accessToken: token, attribute: attribute, value: value))
    }

    static func error(_ result: Result<CaptureSuccess, CaptureError>) -> String? {
        result.error?.serverError?.error
    }

    /// Plurals get element ids as the schema's `id` says, written through every SDK path.
    @Test func pluralsOfTheSchemaHaveElementIDs() async throws {
        try await Self.withSchemaServer { server in
            let token = try await server.register().result.accessToken
            let builder = server.builder()
            #expect(try await Self.update(server, token, ["photos": [["type": "small", "value": "s"], ["type": "large", "value": "l"]]]).isOK)
            let photos = try #require(try await server.record(token)["photos"]?.arrayValue)
            let ids = photos.compactMap { $0["id"]?.intValue }
            #expect(ids.count == 2 && Set(ids).count == 2)
            #expect(try await Self.update(server, token, ["value": "L"], attribute: "/photos#\(ids[1])").isOK)
            #expect(try await server.send(builder.deleteAttribute(accessToken: token, attribute: "/photos#\(ids[0])")).isOK)
            #expect(try await server.record(token)["photos"] == [["type": "large", "value": "L", "id": .integer(ids[1])]])
            #expect(try await server.readRecord(token, attribute: "/photos#\(ids[0])").code == 310)
            // An element attribute outside the schema, and an element id the server did not give.
            let unknown = try await Self.update(server, token, ["photos": [["colour": "red"]]])
            #expect(unknown.code == 223, "\(unknown)")
            #expect(unknown.error?.serverError?.body["attribute_name"] == "/photos/colour")
            #expect(try await Self.update(server, token, ["photos": [["id": 7, "value": "x"]]]).code == 320)
        }
    }

    /// 223 for an attribute outside the schema, whatever the write list says; unset
    /// attributes of the schema read as null (objects as their attributes, plurals as []); 234 for what the server sets.
    @Test func attributesOutsideTheSchemaAre223() async throws {
        try await Self.withSchemaServer { server in
            let token = try await server.register().result.accessToken
            let nickname = try await Self.update(server, token, ["nickname": "ana"])
            #expect(nickname.code == 223, "\(nickname)")
            #expect(Self.error(nickname) == "unknown_attribute")
            #expect(nickname.error?.serverError?.body["attribute_name"] == "/nickname")
            #expect(try await Self.update(server, token, ["primaryAddress": ["planet": "Mars"]]).code == 223)
            #expect(try await server.readRecord(token, attribute: "/nickname").code == 223)
            // An object never set reads as its attributes, each null, as Capture answers it.
            let address = try await server.readRecord(token, attribute: "/primaryAddress")
            if case .success(.record(let value)) = address {
                #expect(value["city"] == .null && value["zip"] == .null, "\(value)")
            } else {
                Issue.record("/primaryAddress: \(address)")
            }
            #expect(try await server.readRecord(token, attribute: "/primaryAddress/city") == .success(.record(.null)))
            for reserved: JSONValue in [["uuid": "x"], ["profiles": []], ["password": "secret"]] {
                let result = try await Self.update(server, token, reserved)
                #expect(result.code == 234, "\(reserved): \(result)")
                #expect(Self.error(result) == "reserved_attribute")
            }
            // `json` takes any value, set whole, keys included.
            #expect(try await Self.update(server, token, ["display": ["any": [1, ["a.b": nil]]]]).isOK)
            #expect(try await server.record(token).at("display.any") == [1, ["a.b": nil]])
        }
    }

    /// Types (341), dates and instants (342), lengths (363) and character constraints (360).
    @Test func typesLengthsAndConstraints() async throws {
        try await Self.withSchemaServer { server in
            let token = try await server.register().result.accessToken
            let cases: [(JSONValue, Int, String)] = [
                (["givenName": 5], 341, "invalid_json_type"),
                (["primaryAddress": "Lyon"], 341, "invalid_json_type"),
                (["optIn": ["status": "yes"]], 341, "invalid_json_type"),
                (["photos": ["value": "x"]], 341, "invalid_json_type"),
                (["birthday": "1990-13-01"], 342, "invalid_date_time"),
                (["lastLogin": "yesterday"], 342, "invalid_date_time"),
                (["gender": .string(String(repeating: "x", count: 101))], 363, "length_violation"),
                (["photos": [["type": .string(String(repeating: "t", count: 101))]]], 363, "length_violation"),
                (["email": "not an address"], 360, "constraint_violation"),
                (["displayName": "ana\u{7}"], 360, "constraint_violation")
            ]
            for (value, code, name) in cases {
                let result = try await Self.update(server, token, value)
                #expect(result.code == code, "\(value): \(result)")
                #expect(Self.error(result) == name, "\(value): \(result)")
            }
            let record = try await server.record(token)
            #expect(record["givenName"] == "Ana")
            #expect(record["photos"] == [], "a plural never written reads as []: \(record)")
            // What fits goes through.
            #expect(
                try await Self.update(
                    server, token,
                    [
                        "birthday": "1990-02-28", "lastLogin": "2025-06-15 10:30:00.000000 +0000",
                        "gender": "female", "optIn": ["status": false], "email": "ana@example.org"
                    ]
                ).isOK)
            #expect(try await server.record(token).at("optIn.status") == .bool(false))
        }
    }

    /// `unique` against the other records (361), with the attribute's path.
    @Test func uniqueAttributesOfTheSchema() async throws {
        try await Self.withSchemaServer { server in
            _ = try await server.register()
            let eve = try await server.register(ServerFixtures.registration(email: "eve@example.com", displayName: "eve_e")).result.accessToken
            let taken = try await Self.update(server, eve, ["email": "ana.ruiz@example.com"])
            #expect(taken.code == 361, "\(taken)")
            #expect(Self.error(taken) == "unique_violation")
            #expect(taken.error?.serverError?.description.contains("/email") == true)
            #expect(try await server.record(eve)["email"] == "eve@example.com")
        }
    }

    static let customSchema: EntitySchema = {
        let json = #"""
            {"name": "user", "attr_defs": [
              {"name": "id", "type": "id", "constraints": ["required", "unique"]},
              {"name": "uuid", "type": "uuid", "constraints": ["required", "unique"]},
              {"name": "created", "type": "dateTime"}, {"name": "lastUpdated", "type": "dateTime"},
              {"name": "email", "type": "string", "constraints": ["unique", "email-address"]},
              {"name": "displayName", "type": "string"}, {"name": "givenName", "type": "string"},
              {"name": "familyName", "type": "string"}, {"name": "birthday", "type": "date"},
              {"name": "optIn", "type": "object", "attr_defs": [{"name": "status", "type": "boolean"}]},
              {"name": "nickname", "type": "string", "constraints": ["required"]},
              {"name": "visits", "type": "integer"}, {"name": "device", "type": "uuid"},
              {"name": "lastAddress", "type": "ipAddress"},
              {"name": "accounts", "type": "plural", "attr_defs": [
                {"name": "id", "type": "id"},
                {"name": "domain", "type": "string", "constraints": ["required", "locally-unique"]},
                {"name": "username", "type": "string"}]}
            ]}
            """#
        return SchemaLoader.schema(bytes: Array(json.utf8), path: "custom-schema.json").value!
    }()

    /// Formats (340), required attributes (362) and `locally-unique` (361) of a schema that has them.
    @Test func formatsRequiredAndLocallyUnique() async throws {
        let writable = ["/visits", "/device", "/lastAddress", "/nickname", "/accounts"].map { Located($0, at: ServerFixtures.here) }
        try await withServer(configure: { $0.server.writeWithToken = writable }, schema: Self.customSchema) { server in
            let token = try await server.register().result.accessToken
            let builder = server.builder()
            let cases: [(JSONValue, Int, String)] = [
                (["visits": .number("1.5")], 340, "invalid_data_format"),
                (["visits": "3"], 341, "invalid_json_type"),
                (["device": "not-a-uuid"], 340, "invalid_data_format"),
                (["lastAddress": "300.1.1.1"], 340, "invalid_data_format"),
                (["nickname": nil], 362, "missing_required_attribute"),
                (["accounts": [["username": "ana"]]], 362, "missing_required_attribute"),
                (["accounts": [["domain": "a.example"], ["domain": "a.example"]]], 361, "unique_violation")
            ]
            for (value, code, name) in cases {
                let result = try await Self.update(server, token, value)
                #expect(result.code == code, "\(value): \(result)")
                #expect(Self.error(result) == name, "\(value): \(result)")
            }
            #expect(
                try await Self.update(
                    server, token,
                    [
                        "visits": 3, "device": "0b6c1e0f-2a11-4a4e-9d56-7d0c1a3e3f43", "lastAddress": "2001:db8::8a2e:370:7334",
                        "nickname": "ana", "accounts": [["domain": "a.example"], ["domain": "b.example"]]
                    ]
                ).isOK)
            #expect(try await Self.update(server, token, ["lastAddress": "::ffff:192.0.2.1"]).isOK)
            // Appending a second element with a domain the plural holds: 361 too.
            #expect(try await Self.update(server, token, ["accounts": [["domain": "b.example"]]]).code == 361)
            #expect(try await server.send(builder.deleteAttribute(accessToken: token, attribute: "/nickname")).code == 362)
            let replaced = try await server.send(builder.replacePlural(accessToken: token, attribute: "/accounts", value: [["username": "x"]]))
            #expect(replaced.code == 362, "\(replaced)")
            let record = try await server.record(token)
            #expect(record["nickname"] == "ana")
            #expect(record["accounts"]?.arrayValue?.count == 2)
        }
    }
}

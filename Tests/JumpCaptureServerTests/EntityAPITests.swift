import Foundation
import JumpCapture
@testable import JumpCaptureServer
import JumpForms
import Testing
import TestSupport

/// The Entity API on the local server: `/entity.find`, `/entity.count`, `/entity.create`,
/// `/entity.bulkCreate`, `/entityType` and the client forms of the record calls, with signed
/// requests as Janrain's libraries send them and the features each client has.
@Suite(.timeLimit(.minutes(5))) struct EntityAPITests {
    static let ownerSecret = "owner-secret-0123456789"
    static let readerSecret = "reader-secret-9876543210"
    static let loginSecret = "login-secret-5555555555"

    static func configure(_ config: inout ClientConfig) {
        let here = ServerFixtures.here
        config.server.clients = [
            APIClient(id: Located("owner-client", at: here), secret: Located(ownerSecret, at: here), features: [.owner]),
            APIClient(id: Located("reader", at: here), secret: Located(readerSecret, at: here), features: [.directAccess]),
            APIClient(id: Located("login-only", at: here), secret: Located(loginSecret, at: here), features: [.loginClient])
        ]
    }

    static func owner(_ server: TestServer) -> EntityAPIClient {
        EntityAPIClient(
            server: server.url, clientID: "owner-client", clientSecret: ownerSecret, transport: server.transport, clock: { Self.tick(server) })
    }

    static func reader(_ server: TestServer) -> EntityAPIClient {
        EntityAPIClient(server: server.url, clientID: "reader", clientSecret: readerSecret, transport: server.transport, clock: { Self.tick(server) })
    }

    /// The server's clock, a second later: a signed request is accepted once, so two equal
    /// calls need two Dates.
    static func tick(_ server: TestServer) -> Int {
        server.clock.advance(1)
        return server.clock.now
    }

    /// The error code of a refused call, or nil when it succeeded.
    static func code(_ body: () async throws(EntityAPIError) -> JSONValue) async -> Int? {
        do {
            _ = try await body()
            return nil
        } catch {
            if case .refused(_, let code, _, _) = error { return code }
            return -1
        }
    }

    static func description(_ body: () async throws(EntityAPIError) -> JSONValue) async -> String? {
        do {
            _ = try await body()
            return nil
        } catch {
            if case .refused(_, _, _, let description) = error { return description }
            return "\(error)"
        }
    }

    static func record(_ email: String, _ name: String, extra: [(key: String, value: JSONValue)] = []) -> JSONValue {
        .object([("email", .string(email)), ("displayName", .string(name)), ("givenName", .string("G")), ("familyName", .string("F"))] + extra)
    }

    /// bulkCreate with `commit_each=true`, returning the ids.
    static func create(_ client: EntityAPIClient, _ records: [JSONValue]) async throws -> [Int] {
        let answer = try await client.call(
            "/entity.bulkCreate", [("type_name", "user"), ("all_attributes", JSONValue.array(records).serialized()), ("commit_each", "true")])
        guard case .array(let ids)? = answer["results"] else { return [] }
        return ids.compactMap { Int($0.description) }
    }

    static func ids(_ answer: JSONValue) -> [Int] {
        guard case .array(let records)? = answer["results"] else { return [] }
        return records.compactMap { $0["id"].flatMap { Int($0.description) } }
    }

    /// find, count, sort, attributes, total; the password only to an owner; the filter's values
    /// bound (a quote in one finds nothing, breaks nothing).
    @Test func findsAndCounts() async throws {
        try await withServer(configure: Self.configure) { server in
            let owner = Self.owner(server)
            let created = try await Self.create(
                owner,
                [
                    Self.record("ana@example.com", "ana", extra: [("password", "first password 1")]),
                    Self.record("bo@example.com", "bo"),
                    Self.record("cy@example.com", "cy")
                ])
            #expect(created.count == 3)
            let all = try await owner.call("/entity.find", [("type_name", "user"), ("sort_on", #"["-displayName"]"#), ("show_total_count", "true")])
            #expect(all["total_count"]?.description == "3")
            #expect(all["result_count"]?.description == "3")
            #expect(Self.ids(all) == created.reversed())
            guard case .array(let records)? = all["results"] else { Issue.record("no results"); return }
            let ana = try #require(records.last)
            #expect(ana["password"]?["type"]?.stringValue == "password-bcrypt")
            #expect(ana["password"]?["value"]?.stringValue?.hasPrefix(PasswordHash.prefix) == true)
            #expect(records.first?["password"] == .null)
            for attribute in ["id", "uuid", "created", "lastUpdated", "profiles"] { #expect(ana[attribute] != nil, "\(attribute)") }

            // A direct_access client reads records without passwords.
            let read = try await Self.reader(server).call("/entity.find", [("type_name", "user"), ("filter", "email = 'ana@example.com'")])
            #expect(Self.ids(read) == [created[0]])
            if case .array(let found)? = read["results"] { #expect(found.first?["password"] == nil) }

            let some = try await owner.call(
                "/entity.find", [("type_name", "user"), ("filter", "id > \(created[0]) and displayName != 'cy'"), ("attributes", #"["email"]"#)])
            #expect(Self.ids(some) == [created[1]])
            if case .array(let found)? = some["results"], let first = found.first, case .object(let entries) = first {
                #expect(entries.map(\.key).sorted() == ["email", "id", "uuid"])
            }
            let count = try await owner.call("/entity.count", [("type_name", "user"), ("filter", "displayName = 'bo' or displayName = 'cy'")])
            #expect(count["total_count"]?.description == "2")
            let injected = try await owner.call("/entity.find", [("type_name", "user"), ("filter", "displayName = 'x'' or 1=1 --'")])
            #expect(Self.ids(injected).isEmpty)
            let page = try await owner.call("/entity.find", [("type_name", "user"), ("max_results", "1"), ("first_result", "1")])
            #expect(Self.ids(page) == [created[1]])
        }
    }

    /// Capture's errors: a filter that cannot be read names its position (200), an unknown
    /// type 222, out-of-range paging 200, a client without direct_access 403, an end user's
    /// token 403, a wrong secret 402, none 100; never a 500.
    @Test func refusals() async throws {
        try await withServer(configure: Self.configure) { server in
            let owner = Self.owner(server)
            #expect(
                await Self.description { () async throws(EntityAPIError) -> JSONValue in
                    try await owner.call("/entity.find", [("type_name", "user"), ("filter", "id >")])
                } == "filter: at character 5: expected a value ('text', a number, a date, true or false) after '>', found the end of the filter")
            #expect(
                await Self.code { () async throws(EntityAPIError) -> JSONValue in
                    try await owner.call("/entity.find", [("type_name", "user"), ("filter", "id = 'seven'")])
                } == 200)
            #expect(
                await Self.code { () async throws(EntityAPIError) -> JSONValue in
                    try await owner.call("/entity.find", [("type_name", "person")])
                } == 222)
            #expect(
                await Self.code { () async throws(EntityAPIError) -> JSONValue in
                    try await owner.call("/entity.find", [("type_name", "user"), ("max_results", "10001")])
                } == 200)
            #expect(
                await Self.code { () async throws(EntityAPIError) -> JSONValue in
                    try await owner.call("/entity.find", [("type_name", "user"), ("filter", "password is null")])
                } == 223)
            let loginOnly = EntityAPIClient(
                server: server.url, clientID: "login-only", clientSecret: Self.loginSecret, transport: server.transport, clock: { Self.tick(server) })
            for path in CaptureService.EntityCall.allCases.map(\.rawValue) + ["/entity", "/entity.update", "/entity.delete"] {
                #expect(
                    await Self.code { () async throws(EntityAPIError) -> JSONValue in
                        try await loginOnly.call(path, [("type_name", "user"), ("uuid", "x")])
                    } == 403, "\(path)")
            }
            let wrong = EntityAPIClient(
                server: server.url, clientID: "reader", clientSecret: "nope", transport: server.transport, clock: { Self.tick(server) })
            #expect(
                await Self.code { () async throws(EntityAPIError) -> JSONValue in try await wrong.call("/entity.count", [("type_name", "user")]) }
                    == 402)
            // Parameters instead of a signature; Basic; an end user's token.
            let plain = try await server.raw(.POST, "/entity.count", form: "type_name=user&client_id=reader&client_secret=\(Self.readerSecret)")
            #expect(plain.body.contains(#""total_count":0"#), "\(plain.body)")
            let none = try await server.raw(.POST, "/entity.count", form: "type_name=user")
            #expect(none.body.contains(#""code":100"#), "\(none.body)")
        }
    }

    /// `/entity` by uuid, id and key; the owner forms of update, replace and delete; `/entityType`.
    @Test func recordCallsOfAClient() async throws {
        try await withServer(configure: Self.configure, schema: SchemaRecordTests.defaultSchema) { server in
            let owner = Self.owner(server)
            let created = try await owner.call(
                "/entity.create",
                [
                    ("type_name", "user"),
                    ("attributes", #"{"email": "ana@example.com", "displayName": "ana", "photos": [{"type": "avatar", "value": "a.png"}]}"#)
                ])
            let uuid = try #require(created["uuid"]?.stringValue)
            let id = try #require(created["id"].flatMap { Int($0.description) })
            let byUUID = try await owner.call("/entity", [("type_name", "user"), ("uuid", uuid)])
            #expect(byUUID["result"]?["email"]?.stringValue == "ana@example.com")
            let photoID = try #require(byUUID["result"]?["photos"].flatMap { if case .array(let items) = $0 { items.first?["id"] } else { nil } })
            let byID = try await owner.call("/entity", [("type_name", "user"), ("id", String(id)), ("attributes", #"["displayName"]"#)])
            #expect(byID["result"]?["displayName"]?.stringValue == "ana")
            #expect(byID["result"]?["email"] == nil)
            let byKey = try await owner.call("/entity", [("type_name", "user"), ("key_attribute", "email"), ("key_value", #""ana@example.com""#)])
            #expect(byKey["result"]?["uuid"]?.stringValue == uuid)

            _ = try await owner.call("/entity.update", [("type_name", "user"), ("uuid", uuid), ("value", #"{"givenName": "Ana"}"#)])
            let updated = try await owner.call("/entity", [("type_name", "user"), ("uuid", uuid)])
            #expect(updated["result"]?["givenName"]?.stringValue == "Ana")
            #expect(updated["result"]?["photos"].flatMap { if case .array(let items) = $0 { items.first?["id"] } else { nil } } == photoID)
            _ = try await owner.call(
                "/entity.replace", [("type_name", "user"), ("id", String(id)), ("value", #"{"email": "ana@example.com", "displayName": "ana2"}"#)])
            let replaced = try await owner.call("/entity", [("type_name", "user"), ("uuid", uuid)])
            #expect(replaced["result"]?["displayName"]?.stringValue == "ana2")
            #expect(replaced["result"]?["givenName"] == .null)
            #expect(replaced["result"]?["uuid"]?.stringValue == uuid)

            let schema = try await owner.call("/entityType", [("type_name", "user")])
            #expect(schema["schema"]?["name"]?.stringValue != nil)
            if case .array(let definitions)? = schema["schema"]?["attr_defs"] {
                #expect(definitions.contains { $0["name"]?.stringValue == "photos" && $0["type"]?.stringValue == "plural" })
            } else {
                Issue.record("no attr_defs")
            }

            // An owner sets the password (text: hashed by the server), and the person signs in with it.
            _ = try await owner.call("/entity.update", [("type_name", "user"), ("uuid", uuid), ("value", #"{"password": "a new password 42"}"#)])
            #expect(try await server.signIn("ana@example.com", "a new password 42").signedIn != nil)
            // The client's credentials as parameters work on the record calls too.
            let plain = try await server.raw(
                .POST, "/entity",
                form: "type_name=user&uuid=\(uuid)&client_id=owner-client&client_secret=\(Self.ownerSecret)&attributes=%5B%22email%22%5D")
            #expect(plain.body.contains(#""email":"ana@example.com""#), "\(plain.body)")
            _ = try await owner.call("/entity.delete", [("type_name", "user"), ("uuid", uuid)])
            #expect(
                await Self.code { () async throws(EntityAPIError) -> JSONValue in
                    try await owner.call("/entity", [("type_name", "user"), ("uuid", uuid)])
                } == 310)
        }
    }

    /// bulkCreate: refused records are answered by their errors in place, the others created
    /// (commit_each) or none (all or none); imported password objects of several types are
    /// kept and their old passwords sign in.
    @Test func bulkCreateWithImportedPasswords() async throws {
        let vectors = ImportedPasswordHashTests.vectors
        var chosen: [ImportedPasswordHashTests.Vector] = []
        for type in ImportedPasswordHashTests.captureTypes {
            if let vector = vectors.first(where: { $0.type == type && $0.password.unicodeScalars.allSatisfy(\.isASCII) && $0.password.count >= 8 }) {
                chosen.append(vector)
            }
        }
        #expect(chosen.count >= 10)
        try await withServer(configure: Self.configure) { server in
            let owner = Self.owner(server)
            var records: [JSONValue] = []
            for (index, vector) in chosen.enumerated() {
                var password: [(key: String, value: JSONValue)] = [("type", .string(vector.type)), ("value", .string(vector.value))]
                if let salt = vector.salt { password.append(("salt", .string(salt))) }
                records.append(Self.record("user\(index)@example.com", "user\(index)", extra: [("password", .object(password))]))
            }
            let bad: [JSONValue] = [
                Self.record("user0@example.com", "dup"),  // the email of the first
                "not a record",
                Self.record("bad@example.com", "bad", extra: [("password", ["type": "password-md5"])])
            ]
            // All or none: nothing is created.
            let refused = await Self.code { () async throws(EntityAPIError) -> JSONValue in
                try await owner.call("/entity.bulkCreate", [("type_name", "user"), ("all_attributes", JSONValue.array(records + bad).serialized())])
            }
            #expect(refused == 361)
            #expect(try await owner.call("/entity.count", [("type_name", "user")])["total_count"]?.description == "0")

            let answer = try await owner.call(
                "/entity.bulkCreate",
                [("type_name", "user"), ("all_attributes", JSONValue.array(records + bad).serialized()), ("commit_each", "true")])
            guard case .array(let results)? = answer["uuid_results"] else { Issue.record("no uuid_results"); return }
            #expect(results.count == records.count + bad.count)
            #expect(results.prefix(records.count).allSatisfy { $0.stringValue != nil })
            #expect(results.suffix(3).map { $0["code"]?.description } == ["361", "341", "341"])

            // The owner reads each password object back as it was given.
            let found = try await owner.call("/entity.find", [("type_name", "user"), ("filter", "displayName != 'x'"), ("max_results", "100")])
            guard case .array(let stored)? = found["results"] else { Issue.record("no results"); return }
            for (index, vector) in chosen.enumerated() {
                let password = stored.first { $0["email"]?.stringValue == "user\(index)@example.com" }?["password"]
                #expect(password?["type"]?.stringValue == vector.type)
                #expect(password?["value"]?.stringValue == vector.value)
            }
            for (index, vector) in chosen.enumerated() {
                let email = "user\(index)@example.com"
                #expect(try await server.signIn(email, vector.wrong).code == 210, "\(vector.type)")
                #expect(try await server.signIn(email, vector.password).signedIn != nil, "\(vector.type)")
                let user = try #require(try await server.server.service.store.user(emailNormalized: email))
                #expect(user.passwordHash?.hasPrefix(PasswordHash.prefix) == true, "\(vector.type)")
            }
        }
    }

    /// Paging as the data library does it (`sort_on ["id"]`, `filter "id > N"`): every record
    /// once, in order, however the pages fall; and the query reads the primary key's index.
    @Test func pagingByIDIsExactAndUsesTheIndex() async throws {
        try await withServer(configure: Self.configure) { server in
            let owner = Self.owner(server)
            var created: [Int] = []
            for batch in 0..<3 {
                created += try await Self.create(owner, (0..<100).map { Self.record("p\(batch)-\($0)@example.com", "p\(batch)-\($0)") })
            }
            #expect(created.count == 300)
            // A hole in the ids: paging goes past it.
            _ = try await owner.call("/entity.delete", [("type_name", "user"), ("id", String(created[150]))])
            var seen: [Int] = []
            var last = 0
            while true {
                let page = try await owner.call(
                    "/entity.find", [("type_name", "user"), ("sort_on", #"["id"]"#), ("filter", "id > \(last)"), ("max_results", "7")])
                let ids = Self.ids(page)
                if ids.isEmpty { break }
                seen += ids
                last = ids.last!
            }
            var expected = created
            expected.remove(at: 150)
            #expect(seen == expected)

            let store = server.server.service.store
            if store.database.engine == .sqlite {
                let plan = try await store.queryPlan(
                    EntityQuery(filter: .comparison(path: ["id"], .greater, .number("5")), sort: [EntitySort(path: ["id"], descending: false)]))
                let text = plan.joined(separator: "\n")
                #expect(text.contains("INTEGER PRIMARY KEY"), "\(text)")
                #expect(!text.contains("SCAN"), "\(text)")
                #expect(!text.contains("TEMP B-TREE"), "\(text)")
                let byEmail = try await store.queryPlan(EntityQuery(filter: .comparison(path: ["email"], .equal, .text("A@example.com"))))
                #expect(byEmail.joined().contains("users_email_normalized"), "\(byEmail)")
            }
        }
    }
}

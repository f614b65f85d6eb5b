import JumpForms
import Testing

/// Record writes on a server with the Capture schema (`server.schema`): iOS's plural replace
/// and element update (`/photos#<id>`), and Android's `CaptureRecord.synchronize`, which
/// diffs the record it was given against the app's edits and so needs every schema attribute
/// in it. docs/sdk-calls.md, "Records".
@Suite(.replayServer(.schema), .timeLimit(.minutes(5)))
struct PluralReplayTests {
    static let photo1: JSONValue = ["type": "avatar", "value": "https://img.example.com/u/1.jpg"]
    static let photo2: JSONValue = ["type": "cover", "value": nil]

    /// The ids of a plural as both SDKs read them: integers (iOS `integerValue` for the
    /// element's path `/photos#<id>`, JRPhotosElement.m:136; Android `hasIds` wants an Integer
    /// or Long, CaptureJsonUtils.java:91-99), outside the 32-bit range: Android's org.json
    /// makes an `Integer` of a number that fits in 32 bits, and `synchronize` casts every id to
    /// `Long` (CaptureJsonUtils.java:201), so a smaller id throws before anything is sent.
    /// Below 2^53, so that JavaScript reads them exactly.
    static func ids(_ plural: JSONValue?) throws -> [Int] {
        func fail(_ text: String) -> ReplayError { ReplayError(text) }
        guard let elements = plural?.arrayValue else { throw fail("the SDKs read the plural as an array, got \(plural?.description ?? "nothing")") }
        return try elements.map {
            guard case .number(let number)? = $0["id"], let id = Int(number) else {
                throw fail("the SDKs need each element's `id` as a JSON integer: \($0)")
            }
            guard id > Int(Int32.max), id < 1 << 53 else {
                throw fail(
                    "Android's org.json reads the id \(id) as an Integer, which `(Long) element.opt(\"id\")` (CaptureJsonUtils.java:201) cannot cast: \($0)"
                )
            }
            return id
        }
    }

    @Test(
        """
        iOS JRCaptureApidInterface.m:377-425 entity.replace of /photos: result is the array, each element with an integer id \
        (JRCaptureObject.m:262-366)
        """
    )
    func iOSReplaceArray() async throws {
        let server = try ReplayServer.get()
        let account = try await Arrange.register(server, email: "replace.array.ios@replay.example.com", displayName: "replace_array_ios")
        // replacePhotosArrayOnCaptureForDelegate (JRCaptureUser.m:1311-1315): the path is the
        // user's path and the array's name (JRCaptureObject.m:603).
        let answer = try await server.send(
            server.iOS.recordWrite(.replaceArray, [Self.photo1, Self.photo2], path: "/photos", accessToken: account.accessToken))
        let json = try answer.read().ok()
        let ids = try Self.ids(json["result"])
        #expect(ids.count == 2 && Set(ids).count == 2, "\(json)")
    }

    @Test("iOS JRCaptureApidInterface.m:246-294 entity.update of a plural element /photos#<id> (JRPhotosElement.m:136, 209-222)")
    func iOSUpdatePluralElement() async throws {
        let server = try ReplayServer.get()
        let iOS = server.iOS
        let account = try await Arrange.register(server, email: "update.element.ios@replay.example.com", displayName: "update_element_ios")
        let replaced = try await server.send(
            iOS.recordWrite(.replaceArray, [Self.photo1, Self.photo2], path: "/photos", accessToken: account.accessToken))
        let ids = try Self.ids(try replaced.read().ok()["result"])
        let second = try #require(ids.last)
        let request = iOS.recordWrite(
            .updateObject, ["value": "https://img.example.com/u/2.jpg"], path: "/photos#\(second)", accessToken: account.accessToken)
        #expect(request.body?.hasSuffix("&attribute_name=/photos#\(second)") == true, "\(request)")
        let json = try await server.send(request).read().ok()
        #expect(json["result"] != nil, "iOS fails the update without `result` (JRCaptureObject.m:130-132): \(json)")
        let photos = try await Check.record(server, account.accessToken)["photos"]?.arrayValue ?? []
        #expect(photos.count == 2, "\(photos)")
        #expect(photos.first { $0["id"]?.intValue == second }?["value"] == .string("https://img.example.com/u/2.jpg"), "\(photos)")
        #expect(photos.first { $0["id"]?.intValue == ids.first }?["value"] == .string("https://img.example.com/u/1.jpg"), "\(photos)")
    }

    @Test(
        """
        Android CaptureRecord.java:216-262 new photos: entity.update of {\"photos\": [element]} at the root (CaptureJsonUtils.java:74-82, 117-122; \
        CaptureRecord.java:313-329), appended
        """
    )
    func androidAppendPhotos() async throws {
        let server = try ReplayServer.get()
        let android = server.android
        let account = try await Arrange.register(server, email: "append.android@replay.example.com", displayName: "append_android")
        // compileChangeSet refuses a key the record did not have (CaptureJsonUtils.java:217-220):
        // the record must hold `photos` for the app to add one.
        #expect(
            account.record["photos"]?.arrayValue != nil, "Android can add photos only to a record that holds `photos` (a list): \(account.record)")
        // First photo: the plural was empty (no ids), so the change is the whole list, wrapped
        // in its parent at "/" (ApidUpdate.java:60-64: `value`, no attribute_name).
        let first = android.apidChange(.update(["photos": [Self.photo1]], path: "/"), accessToken: account.accessToken)
        #expect(first.bodyParameters["attribute_name"] == nil && first.bodyParameters["value"]?.contains("https:\\/\\/img") == true, "\(first)")
        try await server.send(first).read().ok()
        // Second photo: the record now has ids, so the new element is wrapped the same way.
        try await server.send(android.apidChange(.update(["photos": [Self.photo2]], path: "/"), accessToken: account.accessToken)).read().ok()
        let stored = try await Check.record(server, account.accessToken)
        let ids = try Self.ids(stored["photos"])
        #expect(ids.count == 2, "the second update appends, the first photo stays: \(stored)")
    }

    @Test("Android CaptureRecord.java:216-262 root update of aboutMe and primaryAddress (CaptureJsonUtils.java:233-262, CaptureRecord.java:264-329)")
    func androidUpdateAttributes() async throws {
        let server = try ReplayServer.get()
        let android = server.android
        let account = try await Arrange.register(server, email: "attributes.android@replay.example.com", displayName: "attributes_android")
        // The changed attributes must be in the record the app edited (CaptureJsonUtils.java:217-225,
        // 246-257: a new key, or an object where null was, cannot be written).
        #expect(account.record.objectValue?.contains { $0.key == "aboutMe" } == true, "capture_user lacks aboutMe: \(account.record)")
        #expect(account.record["primaryAddress"]?["city"] != nil, "capture_user lacks primaryAddress.city: \(account.record)")
        // aboutMe at /aboutMe and primaryAddress.address1, .city: collapsed into one update at "/".
        let change: JSONValue = ["aboutMe": "Kayak / bike", "primaryAddress": ["address1": "Unter den Linden 1", "city": "Berlin"]]
        try await server.send(android.apidChange(.update(change, path: "/"), accessToken: account.accessToken)).read().ok()
        let stored = try await Check.record(server, account.accessToken)
        #expect(stored["aboutMe"] == .string("Kayak / bike") && stored.at(path: "primaryAddress.city") == .string("Berlin"), "\(stored)")
    }

    @Test("Android ApidDelete.java:46-55 entity.delete of /photos#<id>")
    func androidDeleteElement() async throws {
        let server = try ReplayServer.get()
        let android = server.android
        let account = try await Arrange.register(server, email: "delete.android@replay.example.com", displayName: "delete_android")
        try await server.send(android.apidChange(.update(["photos": [Self.photo1, Self.photo2]], path: "/"), accessToken: account.accessToken)).read()
            .ok()
        let before = try await Check.record(server, account.accessToken)
        let ids = try Self.ids(before["photos"])
        let first = try #require(ids.first)
        try await server.send(android.apidChange(.delete(path: "/photos#\(first)"), accessToken: account.accessToken)).read().ok()
        let photos = try await Check.record(server, account.accessToken)["photos"]?.arrayValue ?? []
        #expect(photos.count == 1 && photos.first?["id"]?.intValue == ids.last, "\(photos)")
    }

    @Test(
        """
        Android CaptureJsonUtils.java:129,146 entity.delete as synchronize builds its path (/#<id>, the plural's name lost): a Capture error, the \
        record unchanged
        """
    )
    func androidDeleteWithSDKPath() async throws {
        let server = try ReplayServer.get()
        let android = server.android
        let account = try await Arrange.register(server, email: "delete.sdkpath.android@replay.example.com", displayName: "delete_sdkpath_android")
        try await server.send(android.apidChange(.update(["photos": [Self.photo1]], path: "/"), accessToken: account.accessToken)).read().ok()
        let before = try await Check.record(server, account.accessToken)
        let id = try #require(try Self.ids(before["photos"]).first)
        let answer = try await server.send(android.apidChange(.delete(path: "/#\(id)"), accessToken: account.accessToken))
        // fireNextChange (CaptureRecord.java:245-256) reports any stat but ok as a CaptureApiError.
        let json = try answer.read().object()
        #expect(json["stat"] != .string("ok") && json["code"]?.intValue != nil, "\(answer)")
        #expect(try await Check.record(server, account.accessToken)["photos"] == before["photos"])
    }
}

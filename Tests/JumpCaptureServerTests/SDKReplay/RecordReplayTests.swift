import JumpForms
import Testing

/// iOS's hand-built record writes on a server without an entity-type schema (the flow
/// describes the record): entity.update of an object and of the user, entity.replace of an
/// object. The body starts with `&`, carries `attributes` (not `value`) and no Content-Type,
/// and success needs `result` in the answer. docs/sdk-calls.md, "Records".
@Suite(.replayServer(.records), .timeLimit(.minutes(5)))
struct RecordReplayTests {
    @Test(
        """
        iOS JRCaptureApidInterface.m:246-294 entity.update of /primaryAddress: hand-built body, no Content-Type; result read \
        (JRCaptureObject.m:126-132)
        """
    )
    func iOSUpdateObject() async throws {
        let server = try ReplayServer.get()
        let account = try await Arrange.register(server, email: "update.object.ios@replay.example.com", displayName: "update_object_ios")
        // JRPrimaryAddress's path is /primaryAddress (JRPrimaryAddress.m:186); toUpdateDictionary
        // holds the dirty properties (JRPrimaryAddress.m:386-420).
        let value: JSONValue = ["address1": "Seestrasse 12/3", "city": "Zürich"]
        let request = server.iOS.recordWrite(.updateObject, value, path: "/primaryAddress", accessToken: account.accessToken)
        #expect(request.body?.hasPrefix("&attributes=%7B%22address1%22:%22Seestrasse%2012%5C/3%22,") == true, "\(request)")
        #expect(request.header("Content-Type") == nil)
        let json = try await server.send(request).read().ok()
        #expect(json["result"] != nil, "iOS fails the update without `result` (JRCaptureObject.m:130-132): \(json)")
        let stored = try await Check.record(server, account.accessToken)
        #expect(
            stored.at(path: "primaryAddress.address1") == .string("Seestrasse 12/3") && stored.at(path: "primaryAddress.city") == .string("Zürich"),
            "\(stored)")
    }

    @Test("iOS JRCaptureApidInterface.m:246-294 entity.update of the user: no attribute_name")
    func iOSUpdateUser() async throws {
        let server = try ReplayServer.get()
        let account = try await Arrange.register(server, email: "update.user.ios@replay.example.com", displayName: "update_user_ios")
        // JRCaptureUser's path is "" (JRCaptureUser.m:649): no attribute_name.
        let request = server.iOS.recordWrite(
            .updateObject, ["aboutMe": "Hiking & climbing; 100% \"outdoors\""], path: "", accessToken: account.accessToken)
        #expect(request.bodyParameters["attribute_name"] == nil)
        let json = try await server.send(request).read().ok()
        #expect(json["result"] != nil, "iOS fails the update without `result` (JRCaptureObject.m:130-132): \(json)")
        #expect(try await Check.record(server, account.accessToken)["aboutMe"] == .string("Hiking & climbing; 100% \"outdoors\""))
    }

    @Test("iOS JRCaptureApidInterface.m:312-360 entity.replace of /primaryAddress: result is the object (JRCaptureObject.m:207-216)")
    func iOSReplaceObject() async throws {
        let server = try ReplayServer.get()
        let account = try await Arrange.register(server, email: "replace.object.ios@replay.example.com", displayName: "replace_object_ios")
        // toReplaceDictionary (JRPrimaryAddress.m:427-446): every property, NSNull for the unset.
        let value: JSONValue = [
            "address1": "Unter den Linden 1", "address2": nil, "city": "Berlin", "company": nil, "country": "DE",
            "mobile": nil, "phone": nil, "stateAbbreviation": nil, "zip": "10117", "zipPlus4": nil
        ]
        let answer = try await server.send(server.iOS.recordWrite(.replaceObject, value, path: "/primaryAddress", accessToken: account.accessToken))
        let read = answer.read()
        let result = try read.object("result", in: try read.ok(), "JRCaptureObject.m:207-212")
        // replaceFromDictionary:withPath: reads the object's own keys from `result`.
        #expect(result["city"] == .string("Berlin") && result["zip"] == .string("10117"), "result should be the replaced object: \(result)")
        let stored = try await Check.record(server, account.accessToken)
        #expect(
            stored.at(path: "primaryAddress.city") == .string("Berlin") && stored.at(path: "primaryAddress.country") == .string("DE"), "\(stored)")
    }
}

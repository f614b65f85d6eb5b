import JumpCapture
import JumpForms
import JumpSchema
import Testing

/// The calls that bring a stored record in line with local edits, with the schema deciding
/// what each attribute is (`RecordChanges.changes(from:to:kind: schema.attributeKind(path:))`).
@Suite struct RecordChangesWithSchemaTests {
    let before: JSONValue = [
        "id": 7, "uuid": "u-1", "created": "2024-01-01 00:00:00.000000 +0000", "lastUpdated": "2024-01-02 00:00:00.000000 +0000",
        "email": "ana@example.com", "displayName": "ana",
        "name": ["givenName": "Ana", "familyName": "Ruiz"],
        "primaryAddress": ["city": "Kraków", "zip": "31-042"],
        "photos": [["id": 1, "type": "large", "value": "a.png"]],
        "statuses": [["id": 1, "status": "verified"]],
        "display": ["theme": "dark", "fontScale": 1],
        "optIn": ["status": false]
    ]

    func changes(_ after: JSONValue) throws -> [RecordChange] {
        let schema = try Fixtures.defaultSchema
        return RecordChanges.changes(from: before, to: after, kind: schema.attributeKind(path:))
    }

    @Test func objectsAreUpdatedWithTheKeysThatChanged() throws {
        let after = before.setting("primaryAddress", ["city": "Warszawa", "zip": "31-042"]).setting("optIn", ["status": true])
        #expect(
            try changes(after) == [
                .update(attribute: "/primaryAddress", value: ["city": "Warszawa"]),
                .update(attribute: "/optIn", value: ["status": true])
            ])
    }

    @Test func pluralsAreReplacedWholeWithoutTheirIds() throws {
        let after =
            before
            .setting("photos", [["id": 1, "type": "large", "value": "a.png"], ["type": "small", "value": "b.png"]])
            .setting("statuses", [["id": 1, "status": "verified"], ["status": "premium"]])
        #expect(
            try changes(after) == [
                .replace(attribute: "/photos", value: [["type": "large", "value": "a.png"], ["type": "small", "value": "b.png"]]),
                .replace(attribute: "/statuses", value: [["status": "verified"], ["status": "premium"]])
            ])
    }

    @Test func aJSONAttributeIsUpdatedWholeNotDiffedLikeAnObject() throws {
        // Without the schema `display` would look like an object and only `theme` be sent.
        let after = before.setting("display", ["theme": "light", "fontScale": 1])
        #expect(try changes(after) == [.update(attribute: nil, value: ["display": ["theme": "light", "fontScale": 1]])])
        #expect(RecordChanges.changes(from: before, to: after) == [.update(attribute: "/display", value: ["theme": "light"])])
    }

    @Test func aJSONAttributeHoldingAListIsNotAPlural() throws {
        let after = before.setting("display", ["compact", "dark"])
        #expect(try changes(after) == [.update(attribute: nil, value: ["display": ["compact", "dark"]])])
    }

    @Test func reservedAttributesAreNeverSent() throws {
        let after = before.setting("id", 99).setting("uuid", "u-2").setting("created", "x").setting("lastUpdated", "y")
            .setting("displayName", "ana_r")
        #expect(try changes(after) == [.update(attribute: nil, value: ["displayName": "ana_r"])])
    }

    @Test func anObjectSetFromNothingIsUpdatedWithItsAttributes() throws {
        let after = before.removing("name")
        #expect(try changes(after) == [.update(attribute: nil, value: ["name": nil])])
        let added = after.setting("name", ["givenName": "Ana"])
        let schema = try Fixtures.defaultSchema
        #expect(
            RecordChanges.changes(from: after, to: added, kind: schema.attributeKind(path:))
                == [.update(attribute: "/name", value: ["givenName": "Ana"])])
    }

    @Test func aJSONAttributeInsideAPluralElementIsSentIntact() throws {
        let profile: JSONValue = [
            "id": 4, "domain": "google.com", "identifier": "g-1",
            "profile": ["id": "google-user-77", "created": "2020", "uuid": "p-1"],
            "accessCredentials": ["id": 5, "token": "t"]
        ]
        let after = before.setting("profiles", [profile])
        #expect(
            try changes(after) == [
                .replace(
                    attribute: "/profiles",
                    value: [
                        [
                            "domain": "google.com", "identifier": "g-1",
                            "profile": ["id": "google-user-77", "created": "2020", "uuid": "p-1"],
                            "accessCredentials": ["id": 5, "token": "t"]
                        ]
                    ])
            ])
    }

    @Test func nestedPluralElementsLoseTheirIdsButNotTheirValues() throws {
        let after = before.setting("profiles", [["id": 4, "identifier": "g-1", "followers": [["id": 8, "identifier": "f-1"]]]])
        #expect(
            try changes(after) == [
                .replace(attribute: "/profiles", value: [["identifier": "g-1", "followers": [["identifier": "f-1"]]]])
            ])
    }

    @Test func aWritableCreatedInsideAnObjectIsSent() throws {
        let schema = try SchemaLoader.schema(
            bytes: Array(
                #"""
                [{"name": "id", "type": "id"}, {"name": "created", "type": "dateTime"},
                 {"name": "primaryAddress", "type": "object", "attr_defs": [{"name": "city", "type": "string"}, {"name": "created", "type": "string"},
                                                                         {"name": "serial", "type": "id"},
                                                                         {"name": "phones", "type": "plural", "attr_defs": [{"name": "number", "type": "string"}]}]}]
                """#.utf8), path: "schema.json"
        ).value.unwrap()
        let old: JSONValue = ["id": 1, "created": "x", "primaryAddress": ["city": "Kraków", "created": "1999", "serial": 3]]
        let new: JSONValue = ["id": 1, "created": "x", "primaryAddress": ["city": "Kraków", "created": "2001", "serial": 4]]
        #expect(
            RecordChanges.changes(from: old, to: new, kind: schema.attributeKind(path:))
                == [.update(attribute: "/primaryAddress", value: ["created": "2001"])], "attributes of type id are never sent")
        // A new primaryAddress: its plural is replaced, its id-typed attribute left out.
        let fresh: JSONValue = [
            "id": 1, "created": "x",
            "primaryAddress": [
                "city": "Gdańsk", "created": "2001", "serial": 9,
                "phones": [["id": 2, "number": "5"]]
            ]
        ]
        #expect(
            RecordChanges.changes(from: ["id": 1, "created": "x"], to: fresh, kind: schema.attributeKind(path:)) == [
                .update(attribute: "/primaryAddress", value: ["city": "Gdańsk", "created": "2001"]),
                .replace(attribute: "/primaryAddress/phones", value: [["number": "5"]])
            ])
    }

    @Test func aRemovedPluralIsReplacedByAnEmptyList() throws {
        #expect(try changes(before.removing("photos")) == [.replace(attribute: "/photos", value: [])])
    }
}

extension Optional {
    struct Missing: Error {}

    func unwrap() throws -> Wrapped {
        guard let self else { throw Missing() }
        return self
    }
}

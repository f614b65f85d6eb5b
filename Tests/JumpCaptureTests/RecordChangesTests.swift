import JumpCapture
import JumpForms
import Testing

@Suite struct RecordChangesTests {
    let before: JSONValue = [
        "id": 7, "uuid": "u-1", "created": "2024-01-01", "lastUpdated": "2024-01-02",
        "email": "ana@example.com", "displayName": "ana",
        "name": ["givenName": "Ana", "familyName": "Ruiz"],
        "primaryAddress": ["city": "Kraków", "zip": "31-147", "phones": [["type": "home", "number": "1"]]],
        "photos": [["id": 1, "type": "large", "value": "a.png"]],
        "statuses": ["active"],
        "aboutMe": "hi"
    ]

    @Test func unchangedRecordsNeedNoCalls() {
        #expect(RecordChanges.changes(from: before, to: before).isEmpty)
    }

    @Test func objectsAreUpdatedWithTheirChangedKeysAndPluralsReplacedWhole() {
        var after = before
        after = after.setting("displayName", "ana_r")
        after = after.setting("primaryAddress", ["city": "Warszawa", "zip": "31-147", "phones": [["type": "home", "number": "1"]]])
        after = after.setting("photos", [["id": 1, "type": "large", "value": "a.png"], ["type": "small", "value": "b.png"]])
        after = after.setting("statuses", ["active", "verified"])
        after = after.removing("aboutMe")
        #expect(
            RecordChanges.changes(from: before, to: after) == [
                .update(attribute: nil, value: ["displayName": "ana_r", "aboutMe": nil]),
                .update(attribute: "/primaryAddress", value: ["city": "Warszawa"]),
                .replace(attribute: "/photos", value: [["type": "large", "value": "a.png"], ["type": "small", "value": "b.png"]]),
                .replace(attribute: "/statuses", value: ["active", "verified"])
            ])
    }

    @Test func aPluralInsideAnObjectIsReplacedNotDropped() {
        let after = before.setting("primaryAddress", ["city": "Kraków", "zip": "31-147", "phones": [["type": "home", "number": "2"]]])
        #expect(
            RecordChanges.changes(from: before, to: after) == [
                .replace(attribute: "/primaryAddress/phones", value: [["type": "home", "number": "2"]])
            ])
    }

    @Test func reservedAttributesAreNeverSent() {
        let after = before.setting("id", 99).setting("uuid", "u-2").setting("created", "x").setting("lastUpdated", "y")
        #expect(RecordChanges.changes(from: before, to: after).isEmpty)
    }

    @Test func insideAPluralElementOnlyItsOwnIdIsDropped() {
        // `data` holds JSON with an `id` key of its own: sent as it is.
        let after = before.setting("photos", [["id": 1, "type": "large", "value": "a.png", "data": ["id": "x-9", "created": "today"]]])
        #expect(
            RecordChanges.changes(from: before, to: after) == [
                .replace(attribute: "/photos", value: [["type": "large", "value": "a.png", "data": ["id": "x-9", "created": "today"]]])
            ])
    }

    @Test func writableAttributesNamedLikeReservedOnesAreSentInsideObjects() {
        // Only the top of the record has reserved names; `created` of an address is the user's.
        let added = before.removing("primaryAddress").setting("primaryAddress", ["city": "Kraków", "created": "1999"])
        #expect(
            RecordChanges.changes(from: before.removing("primaryAddress"), to: added) == [
                .update(attribute: "/primaryAddress", value: ["city": "Kraków", "created": "1999"])
            ])
        let changed = before.setting("primaryAddress", ["city": "Kraków", "zip": "31-147", "phones": [["type": "home", "number": "1"]], "id": "A-1"])
        #expect(RecordChanges.changes(from: before, to: changed) == [.update(attribute: "/primaryAddress", value: ["id": "A-1"])])
    }

    @Test func aNewObjectsPluralsAreReplacedNotCarriedInAnUpdate() {
        let without = before.removing("primaryAddress")
        let after = without.setting("primaryAddress", ["city": "Gdańsk", "phones": [["id": 3, "type": "work", "number": "9"]]])
        #expect(
            RecordChanges.changes(from: without, to: after) == [
                .update(attribute: "/primaryAddress", value: ["city": "Gdańsk"]),
                .replace(attribute: "/primaryAddress/phones", value: [["type": "work", "number": "9"]])
            ])
        // From null, too.
        let fromNull = without.setting("primaryAddress", nil)
        #expect(RecordChanges.changes(from: fromNull, to: after) == RecordChanges.changes(from: without, to: after))
    }

    @Test func aSchemaDecidesWhatAnAttributeIs() {
        // `statuses` held JSON (an opaque value) in this schema: updated, not replaced.
        let after = before.setting("statuses", ["x"])
        let changes = RecordChanges.changes(from: before, to: after) { $0 == "/statuses" ? .primitive : nil }
        #expect(changes == [.update(attribute: nil, value: ["statuses": ["x"]])])
    }
}

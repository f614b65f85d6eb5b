import Logging
@testable import JumpCaptureServer
import JumpForms
import Testing
import TestSupport

/// Plural element ids from 2^31 on, for JUMP Android's `(Long) element.opt("id")`
/// (CaptureJsonUtils.java:201; docs/sdk-calls.md): a database from before gets its plural
/// elements' ids moved up when a store with the record model opens it (migration
/// `12-wide-element-ids` marks the records, `widenElementIDs` moves them). Lists that are no
/// plurals (a schema's `json` attributes) keep their objects' ids.
@Suite(.timeLimit(.minutes(2))) struct ElementIDMigrationTests {
    static let first = 1 << 31

    /// Without a schema: the flow's record model.
    static var flowModel: RecordModel {
        .flow(RecordAttributes(flow: ServerFixtures.flow, preferredForms: ["editProfileForm", "registrationForm"]))
    }

    /// Writes `records` (with their `next_element_id`) into a database at migration 11, then
    /// opens it as the server does (all migrations, then the widening with `model`) and reads
    /// the records back.
    static func migrated(_ records: [(text: String, next: Int)], model: RecordModel = flowModel) async throws -> [(text: String, next: Int)] {
        let folder = try TemporaryFolder("jump-element-ids")
        defer { folder.remove() }
        let path = folder.path + "/capture.sqlite"
        do {
            let old = try StoreDatabase(.sqlite(path: path), logger: Logger(label: "test"))
            try await CaptureStore.migrate(old, upTo: "11-engage-sharing")
            for (index, record) in records.enumerated() {
                try await old.execute(
                    "INSERT INTO users (id, uuid, record, created, last_updated, next_element_id) VALUES (?, ?, ?, 'x', 'x', ?)",
                    [index + 1, "uuid-\(index + 1)", record.text, record.next])
            }
        }
        // A store without a model (the outbox's reader) migrates but moves nothing.
        let reader = try CaptureStore(path: path)
        let untouched = try await reader.texts("SELECT record FROM users ORDER BY id")
        #expect(untouched == records.map(\.text))
        let store = try CaptureStore(path: path, recordModel: model)
        let texts = try await store.texts("SELECT record FROM users ORDER BY id")
        let nexts = try await store.integers("SELECT next_element_id FROM users ORDER BY id")
        return zip(texts, nexts).map { ($0 ?? "", $1 ?? 0) }
    }

    /// The records still to move are found through a partial index, so a start-up on a large
    /// database whose records all moved reads no table.
    @Test func theRecordsToMoveAreFoundWithoutAScan() async throws {
        let folder = try TemporaryFolder("jump-element-ids")
        defer { folder.remove() }
        let store = try CaptureStore(path: folder.path + "/capture.sqlite", recordModel: Self.flowModel)
        try await store.prepare()
        let plan = try await store.texts(
            "EXPLAIN QUERY PLAN SELECT id, record, next_element_id FROM users WHERE element_ids_wide = 0", column: "detail"
        )
        .compactMap { $0 }.joined(separator: "; ")
        #expect(plan.contains("USING INDEX users_narrow_element_ids"), "\(plan)")
    }

    @Test func storedElementsMoveUpInOrder() async throws {
        // Element 3 was deleted: its id is not given again.
        let record: JSONValue = [
            "id": 1, "email": "ana@example.com",
            "photos": [["id": 1, "value": "a"], ["id": 2, "value": "b", "tags": [["id": 4, "name": "x"]]]],
            "profiles": [["identifier": "https://example.com/ana", "domain": "example.com"]]
        ]
        let rows = try await Self.migrated([(record.serialized(), 5)])
        let stored = try JSONValue.parse(try #require(rows.first).text)
        let photos = try #require(stored["photos"]?.arrayValue)
        #expect(photos.map { $0["id"]?.intValue } == [Self.first + 1, Self.first + 2], "\(stored)")
        #expect(photos.last?["tags"]?.arrayValue?.first?["id"]?.intValue == Self.first + 4, "\(stored)")
        // The record's own id and the profiles (which have none) stay as they are.
        #expect(stored["id"]?.intValue == 1 && stored["profiles"] == record["profiles"], "\(stored)")
        #expect(rows.first?.next == Self.first + 5)
    }

    /// A schema's `json` attribute holding a list of objects with ids is data, not a plural:
    /// its ids stay; the schema's plural moves up.
    @Test func jsonAttributesKeepTheirIDs() async throws {
        let record: JSONValue = [
            "display": [["id": 7, "theme": "dark"]], "photos": [["id": 1, "type": "avatar", "value": "a"]]
        ]
        let rows = try await Self.migrated([(record.serialized(), 2)], model: .schema(SchemaRecordTests.defaultSchema))
        let stored = try JSONValue.parse(rows[0].text)
        #expect(stored["display"] == record["display"], "\(stored)")
        #expect(stored["photos"]?.arrayValue?.first?["id"]?.intValue == Self.first + 1, "\(stored)")
        #expect(rows[0].next == Self.first + 2)
        // Ids inside json data do not count as given element ids either.
        let model = RecordModel.schema(SchemaRecordTests.defaultSchema)
        #expect(model.largestElementID(in: ["display": [["id": 99]], "photos": []]) == 0)
    }

    @Test func recordsWithoutElementsAndUnreadableRecordsStay() async throws {
        let plain: JSONValue = ["id": 1, "email": "bo@example.com", "photos": []]
        let rows = try await Self.migrated([(plain.serialized(), 1), ("not json", 3)])
        #expect(try JSONValue.parse(rows[0].text) == plain)
        #expect(rows[0].next == 1)
        #expect(rows[1].text == "not json" && rows[1].next == 3)
    }

    /// A record that already holds an id at or above 2^31 (written by hand): the small ids
    /// move past it, so no two elements share one.
    @Test func smallIDsMovePastWideOnes() async throws {
        let record: JSONValue = ["photos": [["id": 2, "value": "a"], ["id": .integer(Self.first + 1), "value": "b"]]]
        let rows = try await Self.migrated([(record.serialized(), Self.first + 2)])
        let ids = try #require(try JSONValue.parse(rows[0].text)["photos"]?.arrayValue).compactMap { $0["id"]?.intValue }
        // The offset is one past the largest id, 2^31 + 2: the 2 becomes 2^31 + 4.
        #expect(ids == [Self.first + 4, Self.first + 1], "\(ids)")
        #expect(rows[0].next > ids.max()!)
    }
}

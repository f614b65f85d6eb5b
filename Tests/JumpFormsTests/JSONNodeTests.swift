import JumpForms
import Testing

/// The located JSON reader: the same grammar and errors as `JSONValue.parse`, with places.
@Suite struct JSONNodeTests {
    @Test func valuesAndKeysKnowTheirLineAndColumn() throws {
        let text = "{\n  \"name\": \"Zoë\",\n  \"ünï\": [1, true, null],\n  \"nested\": {\"a\": -2.5e3}\n}"
        let root = try JSONNode.parse(Array(text.utf8), file: "x.json")
        #expect(root.location == SourceLocation(file: "x.json", line: 1, column: 1))
        guard case .object(let members) = root.value else { Issue.record("not an object"); return }
        #expect(members.map(\.key.value) == ["name", "ünï", "nested"])
        #expect(members[0].key.location == SourceLocation(file: "x.json", line: 2, column: 3, length: 6))
        // Columns count Unicode scalars; a string's place spans its quotes.
        #expect(members[0].value.location == SourceLocation(file: "x.json", line: 2, column: 11, length: 5))
        #expect(members[1].key.location == SourceLocation(file: "x.json", line: 3, column: 3, length: 5))
        guard case .array(let items) = members[1].value.value else { Issue.record("not a list"); return }
        #expect(items.map(\.location.column) == [11, 14, 20])
        #expect(items.map(\.location.length) == [1, 4, 4])
        guard case .object(let inner) = members[2].value.value else { Issue.record("not an object"); return }
        #expect(inner[0].value.value == .number("-2.5e3"))
        #expect(inner[0].value.location == SourceLocation(file: "x.json", line: 4, column: 19, length: 6))
    }

    @Test func duplicateKeysAreKeptWithTheirPlaces() throws {
        let root = try JSONNode.parse(Array(#"{"a": 1, "b": 2, "a": 3}"#.utf8), file: "d.json")
        guard case .object(let members) = root.value else { Issue.record("not an object"); return }
        #expect(members.map(\.key.value) == ["a", "b", "a"])
        #expect(members[2].key.location.column == 18)
        // As a plain value, the last wins at the first's position, as JSONValue.parse does.
        #expect(root.plain == ["a": 3, "b": 2])
        #expect(root.plain.serialized() == (try JSONValue.parse(#"{"a": 1, "b": 2, "a": 3}"#)).serialized())
    }

    @Test(arguments: ["", "[1, 2", "{\"a\" 1}", "[01]", "\"\\x\"", "<html>", "{\"a\": tru}", "[1,]", "\"\u{1}\""])
    func errorsAreThoseOfJSONValueParse(_ text: String) {
        var plainError: JSONParseError?
        var locatedError: JSONParseError?
        do { _ = try JSONValue.parse(text) } catch { plainError = error }
        do { _ = try JSONNode.parse(Array(text.utf8), file: "e.json") } catch { locatedError = error }
        #expect(plainError != nil)
        #expect(plainError == locatedError)
    }

    @Test func plainValuesMatchJSONValueParse() throws {
        let text = #"{"s": "a\nb\u00e9", "n": [0, -1, 1.5, 2E10], "t": true, "f": false, "z": null, "o": {}}"#
        #expect(try JSONNode.parse(Array(text.utf8), file: "p.json").plain.serialized() == JSONValue.parse(text).serialized())
    }
}

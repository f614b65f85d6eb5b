@testable import JumpCaptureServer
import Testing

/// The Entity API's filter grammar (`EntityFilter`): what it reads, and the message (with the
/// character it names) of what it does not.
@Suite struct EntityFilterTests {
    static let valid: [(String, EntityFilter)] = [
        ("id > 10", .comparison(path: ["id"], .greater, .number("10"))),
        ("id>=10", .comparison(path: ["id"], .greaterOrEqual, .number("10"))),
        ("email = 'ana@example.com'", .comparison(path: ["email"], .equal, .text("ana@example.com"))),
        ("displayName != 'O\\'Brien'", .comparison(path: ["displayName"], .notEqual, .text("O'Brien"))),
        ("displayName = 'O''Brien'", .comparison(path: ["displayName"], .equal, .text("O'Brien"))),
        ("displayName = 'back\\\\slash'", .comparison(path: ["displayName"], .equal, .text("back\\slash"))),
        ("primaryAddress.city <= 'Zürich'", .comparison(path: ["primaryAddress", "city"], .lessOrEqual, .text("Zürich"))),
        ("birthday < 1990-04-01", .comparison(path: ["birthday"], .less, .date("1990-04-01"))),
        ("score = -3.5", .comparison(path: ["score"], .equal, .number("-3.5"))),
        ("optIn = TRUE", .comparison(path: ["optIn"], .equal, .bool(true))),
        ("gender is null", .isNull(path: ["gender"], negated: false)),
        ("gender IS NOT NULL", .isNull(path: ["gender"], negated: true)),
        (
            "id > 1 and email = 'a' or id < 0",
            .or(
                .and(.comparison(path: ["id"], .greater, .number("1")), .comparison(path: ["email"], .equal, .text("a"))),
                .comparison(path: ["id"], .less, .number("0")))
        ),
        (
            "id > 1 and (email = 'a' or id < 0)",
            .and(
                .comparison(path: ["id"], .greater, .number("1")),
                .or(.comparison(path: ["email"], .equal, .text("a")), .comparison(path: ["id"], .less, .number("0"))))
        ),
        ("((id = 1))", .comparison(path: ["id"], .equal, .number("1"))),
        ("profiles.identifier = 'https://x'", .comparison(path: ["profiles", "identifier"], .equal, .text("https://x")))
    ]

    @Test(arguments: valid.indices) func reads(_ index: Int) throws {
        let (text, expected) = Self.valid[index]
        #expect(try EntityFilter.parse(text) == expected, "\(text)")
    }

    /// The golden messages: where and what.
    static let invalid: [(String, String)] = [
        ("", "at character 1: expected an attribute or '(', found the end of the filter"),
        ("id >", "at character 5: expected a value ('text', a number, a date, true or false) after '>', found the end of the filter"),
        ("id > 10 and", "at character 12: expected an attribute or '(', found the end of the filter"),
        ("email = 'open", "at character 9: the string that starts here is not closed with '"),
        ("email == 'a'", "at character 8: expected a value ('text', a number, a date, true or false) after '=', found '='"),
        ("email <> 'a'", "at character 7: '<>' is not a comparison: write !="),
        ("email ! 'a'", "at character 7: '!' must be followed by '=' (write !=)"),
        ("(id = 1", "at character 8: expected ')' to close the '(' at character 1, found the end of the filter"),
        ("id = 1)", "at character 7: unexpected ')' after a complete filter"),
        ("id = 1 email = 'a'", "at character 8: unexpected 'email' after a complete filter"),
        ("email = null", "at character 9: compare with null as 'is null' or 'is not null'"),
        ("email is 'a'", "at character 10: expected null after 'is', found a string"),
        ("email like 'a%'", "at character 7: expected a comparison (= != > >= < <=) or 'is' after email, found 'like'"),
        ("id > 12abc", "at character 6: '12abc' is neither a number nor a date (YYYY-MM-DD)"),
        ("birthday > 1990-13-01", "at character 12: '1990-13-01' is neither a number nor a date (YYYY-MM-DD)"),
        ("name = 'a\\n'", "at character 10: a backslash in a string escapes ' or \\ only"),
        ("primaryAddress. = 'x'", "at character 17: expected an attribute after '.', found '='"),
        ("id = 1; drop table users", "at character 7: unexpected character ';'"),
        ("and = 1", "at character 1: expected an attribute or '(', found 'and'")
    ]

    @Test(arguments: invalid.indices) func refuses(_ index: Int) {
        let (text, message) = Self.invalid[index]
        #expect(throws: EntityFilterError.self, "\(text)") { try EntityFilter.parse(text) }
        do {
            _ = try EntityFilter.parse(text)
        } catch {
            #expect(error.description == message, "\(text)")
        }
    }
}

@testable import JumpCaptureServer
import JumpForms
import JumpSchema
import Testing

/// The formats the schema's types take (`SchemaValueRules`), value by value.
@Suite struct SchemaValueRulesTests {
    @Test func instants() {
        for valid in [
            "2025-06-15 10:30:00", "2025-06-15 10:30:00.000000 +0000", "2025-06-15T10:30:00Z", "2025-06-15T10:30:00.5+02:00",
            "2024-02-29 23:59:60 -0130"
        ] {
            #expect(SchemaValueRules.isDateTime(valid), "\(valid)")
        }
        for invalid in [
            "", "yesterday", "2025-06-15", "2025-13-15 10:30:00", "2025-06-15 24:00:00", "2025-06-15 10:61:00",
            "2025-06-15 10:30:00.", "2025-06-15 10:30:00 UTC", "2025-06-15 10:30:00 +00", "2023-02-29 10:30:00", "2025-06-15X10:30:00"
        ] {
            #expect(!SchemaValueRules.isDateTime(invalid), "\(invalid)")
        }
    }

    @Test func addresses() {
        for valid in [
            "127.0.0.1", "255.255.255.255", "::1", "::", "2001:db8::8a2e:370:7334", "fe80::", "::ffff:192.0.2.1",
            "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:192.0.2.1"
        ] {
            #expect(SchemaValueRules.isIPv4(valid) || SchemaValueRules.isIPv6(valid), "\(valid)")
        }
        for invalid in [
            "", "256.1.1.1", "1.2.3", "01234.1.1.1", "1:2:3:4:5:6:7:8:9", "1::2::3", "12345::", "g::1", ":::", "1:2:3:4:5:6:7",
            "::ffff:300.0.2.1"
        ] {
            #expect(!SchemaValueRules.isIPv4(invalid) && !SchemaValueRules.isIPv6(invalid), "\(invalid)")
        }
        #expect(SchemaValueRules.isUUID("0b6c1e0f-2a11-4a4e-9d56-7d0c1a3e3f43"))
        #expect(!SchemaValueRules.isUUID("0b6c1e0f2a114a4e9d567d0c1a3e3f43"))
        #expect(!SchemaValueRules.isUUID("0b6c1e0f-2a11-4a4e-9d56-7d0c1a3e3f4z"))
    }

    @Test func constraints() {
        #expect(SchemaValueRules.constraintProblem(.alphabetic, "Ana") == nil)
        #expect(SchemaValueRules.constraintProblem(.alphabetic, "Ana1") != nil)
        #expect(SchemaValueRules.constraintProblem(.alphanumeric, "Ana1") == nil)
        #expect(SchemaValueRules.constraintProblem(.alphanumeric, "Aña") != nil)
        #expect(SchemaValueRules.constraintProblem(.unicodeLetters, "Łódźあ") == nil)
        #expect(SchemaValueRules.constraintProblem(.unicodeLetters, "a b") != nil)
        #expect(SchemaValueRules.constraintProblem(.unicodePrintable, "tab\there") != nil)
        #expect(SchemaValueRules.constraintProblem(.unicodePrintable, "émoji 🙂") == nil)
        #expect(SchemaValueRules.constraintProblem(.emailAddress, "ana@example.com") == nil)
        #expect(SchemaValueRules.constraintProblem(.emailAddress, "ana@") != nil)
    }

    /// Lengths count characters, not bytes; null is refused for a required attribute only.
    @Test func lengthsAndNull() {
        let here = SourceLocation(file: "schema.json", line: 1, column: 1)
        let attribute = AttributeDefinition(
            name: Located("gender", at: here), type: Located(.string, at: here), length: 3,
            constraints: [.required], path: "/gender")
        let path = RecordPath.root.appending("gender")
        #expect(SchemaValueRules.problem("ééé", of: attribute, at: path) == nil)
        #expect(SchemaValueRules.problem("éééé", of: attribute, at: path) == .length("/gender holds at most 3 characters, got 4"))
        #expect(SchemaValueRules.problem(.null, of: attribute, at: path) == .required("/gender is required: it cannot be null"))
        var optional = attribute
        optional.constraints = []
        #expect(SchemaValueRules.problem(.null, of: optional, at: path) == nil)
        #expect(SchemaValueRules.problem(3, of: optional, at: path) != nil)
    }
}

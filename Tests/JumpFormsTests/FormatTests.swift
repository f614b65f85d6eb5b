import JumpForms
import Testing

@Suite struct FormatTests {
    @Test(arguments: Format.allCases)
    func documentedExamplesHold(_ format: Format) {
        let (valid, invalid) = format.examples
        #expect(!valid.isEmpty && !invalid.isEmpty)
        for value in valid {
            #expect(format.matches(value), "\(format.rawValue) should accept '\(value)'")
        }
        for value in invalid {
            #expect(!format.matches(value), "\(format.rawValue) should refuse '\(value)'")
        }
    }

    @Test(arguments: Format.allCases)
    func emptyValueNeverMatches(_ format: Format) {
        #expect(!format.matches(""))
    }

    @Test func emailLengthLimits() {
        let local64 = String(repeating: "a", count: 64)
        #expect(Format.email.matches("\(local64)@example.com"))
        #expect(!Format.email.matches("\(local64)a@example.com"))
        let label63 = String(repeating: "b", count: 63)
        #expect(Format.email.matches("a@\(label63).com"))
        #expect(!Format.email.matches("a@\(label63)b.com"))
        let long = "a@" + Array(repeating: label63, count: 4).joined(separator: ".") + ".com"
        #expect(!Format.email.matches(long))
    }

    @Test func formatNamesAreTheCaptureVocabulary() {
        #expect(
            Format.allCases.map(\.rawValue) == [
                "alpha", "alphaExtended", "alphaExtendedSpaces", "alphaNumeric", "alphaNumericExtended", "email",
                "i18nAlphaNumeric", "numeric", "numericReal", "phone", "phoneInternational", "zipCode", "zipCode+4"
            ])
    }
}

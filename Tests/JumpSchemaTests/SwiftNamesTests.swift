import JumpSchema
import Testing

/// Schema names -> Swift names: deterministic, valid, and distinct among siblings.
@Suite struct SwiftNamesTests {
    @Test(arguments: [
        ("aboutMe", "aboutMe"), ("remote_key", "remoteKey"), ("first-name", "firstName"), ("URL", "url"),
        ("URLValue", "urlValue"), ("Type", "type"), ("2fa", "_2fa"), ("_", "attribute"), ("émoji", "moji"),
        ("self", "selfValue"), ("Self", "selfValue"), ("ABc", "aBc")
    ])
    func propertiesAreLowerCamel(_ name: String, _ expected: String) {
        #expect(SwiftNames.lowerCamel(name) == expected)
    }

    @Test(arguments: [
        ("primaryAddress", "PrimaryAddress"), ("remote_key", "RemoteKey"), ("2fa", "Attribute2fa"), ("--", "Attribute"),
        ("self", "Self")
    ])
    func typesAreUpperCamel(_ name: String, _ expected: String) {
        #expect(SwiftNames.upperCamel(name) == expected)
    }

    @Test func keywordsAreWrittenInBackticks() {
        #expect(SwiftNames.code("default") == "`default`")
        #expect(SwiftNames.code("class") == "`class`")
        #expect(SwiftNames.code("init") == "`init`")
        #expect(SwiftNames.code("type") == "type")
        #expect(SwiftNames.code("aboutMe") == "aboutMe")
    }
}

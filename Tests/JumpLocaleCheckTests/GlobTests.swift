@testable import JumpLocaleCheck
import Testing

@Suite struct GlobTests {
    @Test(arguments: [
        ("providers.*", "providers.corp.name", true),
        ("providers.*.name", "providers.corp.name", true),
        ("providers.*.name", "providers.corp.label", false),
        ("options.country.CA", "options.country.CA", true),
        ("options.country.CA", "options.country.CAN", false),
        ("*", "anything.at.all", true),
        ("a*b*c", "axxbyyc", true),
        ("a*b*c", "axxbyy", false)
    ])
    func patternsMatchDottedKeys(_ pattern: String, _ key: String, _ expected: Bool) {
        #expect(Glob.matches(pattern, key) == expected)
    }
}

import JumpLocaleInterchange
import Testing

@Suite struct ArgumentOrderTests {
    @Test func declaredNamesComeFirstThenTheReferenceArguments() {
        let order = ArgumentOrder(referenceArguments: ["cli.merge": ["provider", "newProvider"]])
        #expect(order.names(for: "cli.merge") == ["label", "field", "value", "provider", "newProvider"])
        #expect(order.position(of: "newProvider", for: "cli.merge") == 5)
        #expect(order.position(of: "value", for: "validation.minLength") == 3)
        #expect(order.position(of: "provider", for: "other.key") == nil)
    }
}

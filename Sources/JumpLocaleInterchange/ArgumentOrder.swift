import JumpForms

/// How positional placeholders (`%1$s`, `%2$@`) map to named ICU arguments.
///
/// Android's `getString(id, a, b)` and Apple's `String(format:)` pass arguments by position; ICU
/// messages name them. The order is *declared*: first the names given (`--argument-order`,
/// default `label, field, value`: the arguments jump-forms gives validation messages, in that
/// order), then, per key, the arguments of the reference message in order of first use that
/// the list lacks. Export and import use the same declaration, so a round trip maps every
/// placeholder back to its name.
public struct ArgumentOrder: Sendable, Hashable {
    /// The declared names, position 1 first.
    public var declared: [String]
    /// Per key, the reference message's arguments in order of first use.
    public var referenceArguments: [String: [String]]

    public static let defaultDeclared = ["label", "field", "value"]

    public init(declared: [String] = ArgumentOrder.defaultDeclared, referenceArguments: [String: [String]] = [:]) {
        self.declared = declared
        self.referenceArguments = referenceArguments
    }

    /// The reference message arguments of every key of `reference`.
    public init(declared: [String] = ArgumentOrder.defaultDeclared, reference: LocaleCatalog?) {
        var arguments: [String: [String]] = [:]
        for message in reference?.allMessages ?? [] {
            if case .success(let pattern) = message.pattern { arguments[message.key] = pattern.argumentNames }
        }
        self.init(declared: declared, referenceArguments: arguments)
    }

    /// The names of `key` by position (index 0 is `%1$`): the declared ones, then the
    /// reference's others, then `extra` (this message's own others, in order of first use).
    public func names(for key: String, extra: [String] = []) -> [String] {
        var result = declared
        for name in (referenceArguments[key] ?? []) + extra where !result.contains(name) { result.append(name) }
        return result
    }

    /// The 1-based position of `name` for `key`.
    public func position(of name: String, for key: String, extra: [String] = []) -> Int? {
        names(for: key, extra: extra).firstIndex(of: name).map { $0 + 1 }
    }
}

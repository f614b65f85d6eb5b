import JumpDiagnostics

/// A BCP 47 language tag (`en-US`, `fr`, `zh-Hant-TW`), in canonical case.
public struct LocaleTag: Sendable, Hashable, Comparable, CustomStringConvertible, Codable {
    /// The canonical tag: language lower-case, script title-case, region upper-case.
    public let identifier: String
    public let language: String
    public let script: String?
    public let region: String?
    public let variants: [String]

    /// Parses a tag; `_` is accepted as a separator (`pt_BR`). Nil when it is not BCP 47.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "_", omittingEmptySubsequences: false) }
        guard let first = parts.first, (2...3).contains(first.count),
            first.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return nil }
        var script: String?
        var region: String?
        var variants: [String] = []
        var index = 1
        if index < parts.count, parts[index].count == 4, parts[index].allSatisfy({ $0.isASCII && $0.isLetter }) {
            script = parts[index].prefix(1).uppercased() + parts[index].dropFirst().lowercased()
            index += 1
        }
        if index < parts.count {
            let part = parts[index]
            if part.count == 2, part.allSatisfy({ $0.isASCII && $0.isLetter }) {
                region = part.uppercased()
                index += 1
            } else if part.count == 3, part.allSatisfy({ $0.isASCII && $0.isNumber }) {
                region = String(part)
                index += 1
            }
        }
        while index < parts.count {
            let part = parts[index]
            let isVariant =
                (5...8).contains(part.count) && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
                || part.count == 4 && part.first?.isNumber == true && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
            guard isVariant else { return nil }
            variants.append(part.lowercased())
            index += 1
        }
        self.language = first.lowercased()
        self.script = script
        self.region = region
        self.variants = variants
        self.identifier = ([language] + [script, region].compactMap { $0 } + variants).joined(separator: "-")
    }

    public var description: String { identifier }

    /// The tag and its truncations, most specific first: `zh-Hant-TW`, `zh-Hant`, `zh`. Only
    /// the written subtags: CLDR's inheritance (`es-AR` → `es-419`, `zh-HK` → `zh-Hant`) is
    /// `inheritanceChain`, and which files serve a locale is `LocaleMatcher`'s to say.
    public var truncations: [LocaleTag] {
        var result: [LocaleTag] = [self]
        var parts = identifier.split(separator: "-").map(String.init)
        while parts.count > 1 {
            parts.removeLast()
            if let tag = LocaleTag(parts.joined(separator: "-")) { result.append(tag) }
        }
        return result
    }

    public static func < (lhs: LocaleTag, rhs: LocaleTag) -> Bool { lhs.identifier < rhs.identifier }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let tag = LocaleTag(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a BCP 47 tag: \(text)"))
        }
        self = tag
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(identifier)
    }
}

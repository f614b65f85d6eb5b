import JumpForms

/// Reads the Engage double's test identities (`identities.yaml`):
///
/// ```yaml
/// identities:
///   - { provider: google, identifier: "https://www.google.com/profiles/1001", email: ana@example.com,
///       verifiedEmail: true, givenName: Ana, familyName: Ruiz, displayName: ana, nativeToken: google-native-ana }
/// ```
public enum IdentitiesLoader {
    enum Key: String, CaseIterable { case identities }
    enum IdentityKey: String, CaseIterable {
        case provider, identifier, email, verifiedEmail, givenName, familyName, displayName, nativeToken
    }

    /// What each key holds (`decode` and `FormatSchema` read these).
    static func spec(_ key: Key) -> KeySpec {
        switch key {
        case .identities: KeySpec(value: .list(.named("identity")), required: true)
        }
    }

    static func spec(_ key: IdentityKey) -> KeySpec {
        switch key {
        case .provider, .identifier: .text(required: true)
        case .verifiedEmail: KeySpec(value: .boolean)
        case .email, .givenName, .familyName, .displayName, .nativeToken: .text()
        }
    }

    /// The identities, or the located problems of the file. A relative `path` is read from
    /// `directory` (nil: the process's working directory).
    public static func load(path: String, limits: LoaderLimits = .default, directory: String? = nil) -> (
        identities: [TestIdentity], diagnostics: [Diagnostic], sources: SourceFiles
    ) {
        var sources = SourceFiles()
        let bytes: [UInt8]
        switch FileAccess.read(path, limit: limits.maximumFileSize, from: directory) {
        case .failure(let error): return ([], [error.diagnostic], sources)
        case .success(let read): bytes = read
        }
        sources.add(path: path, text: String(decoding: bytes, as: UTF8.self))
        let result = YAMLReader.read(bytes, path: path, limits: limits)
        guard let document = result.document else { return ([], result.diagnostics, sources) }
        let decoded = decode(document, path: path)
        return (decoded.identities, result.diagnostics + decoded.diagnostics, sources)
    }

    /// The identities of a read file (`lint` checks identities files this way too).
    static func decode(_ document: YAMLDocument, path: String) -> (identities: [TestIdentity], diagnostics: [Diagnostic]) {
        var decoder = NodeDecoder(path: path)
        var identities: [TestIdentity] = []
        var seen: [String: SourceLocation] = [:]
        if let root = decoder.mapping(document.root, "an identities file") {
            let keyed = decoder.keyed(root, Key.self, context: "the identities file")
            if let list = decoder.required(keyed, .identities), let sequence = decoder.sequence(list, "'identities'") {
                for item in sequence.items {
                    guard let mapping = decoder.mapping(item, "an identity") else { continue }
                    let fields = decoder.keyed(mapping, IdentityKey.self, context: "an identity")
                    let provider = decoder.required(fields, .provider).flatMap { decoder.string($0, "'provider'") }
                    let identifier = decoder.required(fields, .identifier).flatMap { decoder.string($0, "'identifier'") }
                    func text(_ key: IdentityKey) -> String? { fields[key].flatMap { decoder.string($0, "'\(key.rawValue)'") }?.value }
                    guard let provider, let identifier else { continue }
                    let key = provider.value + "|" + identifier.value
                    let here = decoder.location(mapping.start)
                    if let first = seen[key] {
                        decoder.errors.append(
                            .duplicateIdentity(identifier.location, provider: provider.value, identifier: identifier.value, first: first))
                        continue
                    }
                    seen[key] = identifier.location
                    identities.append(
                        TestIdentity(
                            provider: provider.value, identifier: identifier.value, email: text(.email),
                            verifiedEmail: fields[.verifiedEmail].flatMap { decoder.bool($0, "'verifiedEmail'") }?.value ?? false,
                            givenName: text(.givenName), familyName: text(.familyName), displayName: text(.displayName),
                            nativeToken: text(.nativeToken), location: here
                        ))
                }
            }
        }
        return (identities, decoder.errors.map(\.diagnostic))
    }
}

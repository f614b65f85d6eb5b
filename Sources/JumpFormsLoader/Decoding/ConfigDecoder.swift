import JumpForms

/// Decodes `jump.yaml`. String values may name environment variables: `${NAME}` or
/// `${NAME:-default}`, so secrets stay out of files.
struct ConfigDecoder {
    enum Key: String, CaseIterable {
        case captureDomain, captureClientId, captureAppId, captureLocale, captureFlowName, captureFlowVersion
        case captureSignInFormName, captureTraditionalSignInType, enableThinRegistration
        case captureTraditionalRegistrationFormName, captureSocialRegistrationFormName, forgottenPasswordFormName
        case editProfileFormName, resendEmailVerificationFormName, changePasswordFormName
        case engageAppId, engageDomain, engageWhitelistedDomain, redirectUri, flow, responseType, server
        case captureFlowDomain
    }

    enum ServerKey: String, CaseIterable {
        case accessTokenLifetime, bcryptCost, identities, database, databaseConnections, writeWithToken, maximumRequestSize, apiKey
        case clientSecret
        case schema, maximumRecordSize
        case signInFailureLimit, clientFailureLimit, signInWait, signInMaximumWait, signInFailureReset, clientFailureReset
        case emailsPerAddress, emailWindow, maximumConnections, passwordHashQueue
        case refreshLifetime, privilegedSessionMaxAge
        case metricsAllow
        case publicURL
        case clients
        case legacy

        /// The environment variable that sets the key, winning over jump.yaml (for
        /// containers): `JUMP_` and the key in upper snake case (`bcryptCost`:
        /// `JUMP_BCRYPT_COST`; an acronym is one word, `publicURL`: `JUMP_PUBLIC_URL`). A list
        /// takes comma-separated items.
        var environmentName: String {
            var name = "JUMP_"
            var previous: Character?
            for character in rawValue {
                if character.isUppercase, let previous, !previous.isUppercase { name += "_" }
                name += character.uppercased()
                previous = character
            }
            return name
        }
    }

    /// The keys of an item of `server.clients`.
    enum ClientKey: String, CaseIterable {
        case id, secret, features
    }

    /// The keys of `server.legacy`.
    enum LegacyKey: String, CaseIterable {
        case captureDomain, clientId, clientSecret
    }

    /// The values of `responseType`.
    static let responseTypes = ["token", "code_and_token"]

    /// What each key holds (the decoder below and `FormatSchema` read these).
    static func spec(_ key: Key) -> KeySpec {
        switch key {
        case .captureDomain, .captureClientId, .captureLocale, .flow: .text(required: true)
        case .captureTraditionalSignInType: KeySpec(value: .choice(ClientConfig.SignInType.allCases.map(\.rawValue)))
        case .enableThinRegistration: KeySpec(value: .boolean)
        case .responseType: KeySpec(value: .choice(responseTypes))
        case .server: KeySpec(value: .named("server"))
        case .captureAppId, .captureFlowName, .captureFlowVersion, .captureSignInFormName,
            .captureTraditionalRegistrationFormName, .captureSocialRegistrationFormName, .forgottenPasswordFormName,
            .editProfileFormName, .resendEmailVerificationFormName, .changePasswordFormName, .engageAppId, .engageDomain,
            .engageWhitelistedDomain, .redirectUri, .captureFlowDomain:
            .text()
        }
    }

    static func spec(_ key: ServerKey) -> KeySpec {
        switch key {
        case .accessTokenLifetime: KeySpec(value: .integer(1...31_536_000))
        case .bcryptCost: KeySpec(value: .integer(4...31))
        case .maximumRequestSize: KeySpec(value: .integer(1024...(16 << 20)))
        case .signInFailureLimit, .clientFailureLimit: KeySpec(value: .integer(0...1_000_000))
        case .signInWait, .signInMaximumWait, .privilegedSessionMaxAge: KeySpec(value: .integer(1...86_400))
        case .signInFailureReset, .clientFailureReset, .emailWindow: KeySpec(value: .integer(1...31_536_000))
        case .emailsPerAddress: KeySpec(value: .integer(1...1000))
        case .maximumConnections: KeySpec(value: .integer(2...1_000_000))
        case .passwordHashQueue: KeySpec(value: .integer(0...100_000))
        case .databaseConnections: KeySpec(value: .integer(1...10_000))
        case .refreshLifetime: KeySpec(value: .integer(60...31_536_000))
        case .maximumRecordSize: KeySpec(value: .integer(1024...(3 << 20)))
        case .identities, .database, .apiKey, .clientSecret, .schema, .publicURL: .text()
        case .writeWithToken, .metricsAllow: KeySpec(value: .list(.text))
        case .clients: KeySpec(value: .list(.named("client")))
        case .legacy: KeySpec(value: .named("legacy"))
        }
    }

    static func spec(_ key: LegacyKey) -> KeySpec {
        .text(required: true)
    }

    static func spec(_ key: ClientKey) -> KeySpec {
        switch key {
        case .id, .secret: .text(required: true)
        case .features: KeySpec(value: .list(.choice(APIClient.Feature.allCases.map(\.rawValue))))
        }
    }

    /// Keys `server:` had and no longer has, with the hint their unknown-key error gives.
    static let removedServerKeys = [
        "commitDelay": "'commitDelay' was removed: concurrent refreshes share a commit without waiting for one another; delete the key"
    ]

    var decoder: NodeDecoder
    let environment: [String: String]
    /// The values that took text from the environment, which diagnostics never show
    /// (`Withheld`).
    var expansions: [Withheld.Expansion] = []

    init(path: String, environment: [String: String]) {
        decoder = NodeDecoder(path: path)
        self.environment = environment
    }

    mutating func decode(_ document: YAMLDocument) -> ClientConfig? {
        guard let root = decoder.mapping(document.root, "jump.yaml") else { return nil }
        let keyed = decoder.keyed(root, Key.self, context: "jump.yaml")
        let start = decoder.location(root.start)

        func fallback(_ value: String) -> Located<String> { Located(value, at: start) }

        let domain: Located<ClientConfig.CaptureDomain>? = decoder.required(keyed, .captureDomain).flatMap { node in
            guard let text = string(node, "'captureDomain'") else { return nil }
            if text.value == "embedded" { return Located(.embedded, at: text.location) }
            guard url(text, "'captureDomain'") else { return nil }
            return Located(.url(text.value), at: text.location)
        }
        let clientId = decoder.required(keyed, .captureClientId).flatMap { string($0, "'captureClientId'") }
        let locale: Located<LocaleTag>? = decoder.required(keyed, .captureLocale).flatMap { node in
            guard let text = string(node, "'captureLocale'") else { return nil }
            guard let tag = LocaleTag(text.value) else {
                decoder.errors.append(.invalidLocaleTag(text.location, text: text.value))
                return nil
            }
            return Located(tag, at: text.location)
        }
        let flow = decoder.required(keyed, .flow).flatMap { string($0, "'flow'") }
        let signInType: Located<ClientConfig.SignInType> =
            keyed[.captureTraditionalSignInType]
            .flatMap { string($0, "'captureTraditionalSignInType'") }
            .flatMap { decoder.oneOf($0, what: "sign-in type") } ?? Located(.email, at: start)
        let thin = keyed[.enableThinRegistration].flatMap { decoder.bool($0, "'enableThinRegistration'") } ?? Located(true, at: start)
        let responseType: Located<String> =
            keyed[.responseType].flatMap { node in
                guard let text = string(node, "'responseType'") else { return nil }
                guard Self.responseTypes.contains(text.value) else {
                    decoder.errors.append(.unknownValue(text.location, value: text.value, what: "response type", known: Self.responseTypes))
                    return nil
                }
                return text
            } ?? fallback("token")

        func optionalURL(_ key: Key) -> Located<String>? {
            guard let node = keyed[key], let text = string(node, "'\(key.rawValue)'") else { return nil }
            return url(text, "'\(key.rawValue)'") ? text : nil
        }
        func form(_ key: Key, _ defaultName: String) -> Located<String> {
            keyed[key].flatMap { string($0, "'\(key.rawValue)'") } ?? fallback(defaultName)
        }

        let engageDomain = optionalURL(.engageDomain) ?? fallback("https://rpxnow.com")
        // An app's own scheme too (`myapp://host`, as the iOS samples whitelist): the SDK's
        // WebView stops at `<whitelisted>/?token=` without loading it.
        let whitelisted: Located<String>? = keyed[.engageWhitelistedDomain].flatMap { node in
            guard let text = string(node, "'engageWhitelistedDomain'") else { return nil }
            return url(text, "'engageWhitelistedDomain'", anyScheme: true) ? text : nil
        }
        let redirect = optionalURL(.redirectUri)
        let flowDomain = optionalURL(.captureFlowDomain)
        let config = ClientConfig(
            path: document.path,
            captureDomain: domain ?? Located(.embedded, at: start),
            captureClientId: clientId ?? fallback(""),
            captureAppId: keyed[.captureAppId].flatMap { string($0, "'captureAppId'") },
            captureLocale: locale ?? Located(LocaleTag("en-US")!, at: start),
            captureFlowName: keyed[.captureFlowName].flatMap { string($0, "'captureFlowName'") },
            captureFlowVersion: keyed[.captureFlowVersion].flatMap { string($0, "'captureFlowVersion'") } ?? fallback("HEAD"),
            captureSignInFormName: form(.captureSignInFormName, "signInForm"),
            captureTraditionalSignInType: signInType,
            enableThinRegistration: thin,
            captureTraditionalRegistrationFormName: form(.captureTraditionalRegistrationFormName, "registrationForm"),
            captureSocialRegistrationFormName: form(.captureSocialRegistrationFormName, "socialRegistrationForm"),
            forgottenPasswordFormName: form(.forgottenPasswordFormName, "forgotPasswordForm"),
            editProfileFormName: form(.editProfileFormName, "editProfileForm"),
            resendEmailVerificationFormName: form(.resendEmailVerificationFormName, "resendVerificationForm"),
            changePasswordFormName: form(.changePasswordFormName, "changePasswordForm"),
            engageAppId: keyed[.engageAppId].flatMap { string($0, "'engageAppId'") },
            engageDomain: engageDomain,
            engageWhitelistedDomain: whitelisted,
            redirectUri: redirect,
            flow: flow ?? fallback(""),
            responseType: responseType
        )
        guard domain != nil, clientId != nil, locale != nil, flow != nil else { return nil }
        var result = config
        result.writtenKeys = Set(keyed.entries.keys.map(\.rawValue))
        result.server = server(keyed[.server])
        result.captureFlowDomain = flowDomain
        return result
    }

    /// `server:`, each key's environment variable (`ServerKey.environmentName`) winning over
    /// what the file says.
    mutating func server(_ node: YAMLNode?) -> ServerSettings {
        var settings = ServerSettings()
        var keyed: Keyed<ServerKey>?
        if let node {
            guard let mapping = decoder.mapping(node, "'server'") else { return settings }
            keyed = decoder.keyed(mapping, ServerKey.self, context: "'server'", removed: Self.removedServerKeys)
        }
        let start = node?.start ?? YAMLMark(line: 1, column: 1)
        let environment = environment
        /// The key's node: with its environment variable set, a plain scalar (at the key's place
        /// in the file, else at `server:`, else at the file's start) holding a number's digits,
        /// or for text `${NAME}`, so that `string` expands it and diagnostics withhold it
        /// (`Withheld`), as a secret must be; else the file's node.
        func value(_ key: ServerKey) -> YAMLNode? {
            let name = key.environmentName
            guard let text = environment[name], !text.isEmpty else { return keyed?[key] }
            let mark = keyed?[key]?.start ?? start
            var written = "${\(name)}"
            if case .integer = Self.spec(key).value { written = text }
            return .scalar(YAMLScalar(value: written, style: .plain, tag: nil, start: mark, end: mark))
        }
        /// A list key's items: its environment variable's comma-separated items, else the file's list.
        func list(_ key: ServerKey) -> [Located<String>]? {
            guard let text = environment[key.environmentName], !text.isEmpty else {
                return keyed?[key].flatMap { decoder.strings($0, "'\(key.rawValue)'") }
            }
            let location = decoder.location(keyed?[key]?.start ?? start)
            return text.split(separator: ",").map { Located(String($0.filter { $0 != " " }), at: location) }.filter { !$0.value.isEmpty }
        }
        func bounded(_ key: ServerKey) -> Int? {
            guard let node = value(key), let number = decoder.integer(node, "'\(key.rawValue)'") else { return nil }
            guard case .integer(let range?) = Self.spec(key).value, !range.contains(number.value) else { return number.value }
            decoder.errors.append(.valueOutOfRange(number.location, value: number.value, context: "'\(key.rawValue)'", range: range))
            return nil
        }
        if let value = bounded(.accessTokenLifetime) { settings.accessTokenLifetime = value }
        if let value = bounded(.bcryptCost) { settings.bcryptCost = value }
        if let value = bounded(.maximumRequestSize) { settings.maximumRequestSize = value }
        if let value = bounded(.signInFailureLimit) { settings.signInFailureLimit = value }
        if let value = bounded(.clientFailureLimit) { settings.clientFailureLimit = value }
        if let value = bounded(.signInWait) { settings.signInWait = value }
        if let value = bounded(.signInMaximumWait) { settings.signInMaximumWait = value }
        if let value = bounded(.signInFailureReset) { settings.signInFailureReset = value }
        if let value = bounded(.clientFailureReset) { settings.clientFailureReset = value }
        if let value = bounded(.emailsPerAddress) { settings.emailsPerAddress = value }
        if let value = bounded(.emailWindow) { settings.emailWindow = value }
        if let value = bounded(.maximumConnections) { settings.maximumConnections = value }
        if let value = bounded(.passwordHashQueue) { settings.passwordHashQueue = value }
        if let value = bounded(.databaseConnections) { settings.databaseConnections = value }
        if let value = bounded(.refreshLifetime) { settings.refreshLifetime = value }
        if let value = bounded(.privilegedSessionMaxAge) { settings.privilegedSessionMaxAge = value }
        settings.identities = value(.identities).flatMap { string($0, "'identities'") }
        settings.database = value(.database).flatMap { string($0, "'database'") }
        settings.apiKey = value(.apiKey).flatMap { string($0, "'apiKey'") }
        settings.clientSecret = value(.clientSecret).flatMap { string($0, "'clientSecret'") }
        settings.schema = value(.schema).flatMap { string($0, "'schema'") }
        settings.publicURL = value(.publicURL).flatMap { string($0, "'publicURL'") }.flatMap { url($0, "'publicURL'") ? $0 : nil }
        if let value = bounded(.maximumRecordSize) { settings.maximumRecordSize = value }
        if let paths = list(.writeWithToken) {
            settings.writeWithToken = paths.map { $0.value.hasPrefix("/") ? $0 : Located("/" + $0.value, at: $0.location) }
        }
        for item in list(.metricsAllow) ?? [] {
            if let range = AddressRange(item.value) {
                settings.metricsAllow.append(range)
            } else {
                decoder.errors.append(
                    .wrongNodeKind(
                        item.location, expected: "an IP address or CIDR range (10.0.0.0/8, ::1)", found: "'\(item.value)'",
                        context: "an item of 'metricsAllow'"))
            }
        }
        settings.clients = clients(keyed?[.clients])
        settings.legacy = legacy(keyed?[.legacy])
        return settings
    }

    /// `server.legacy`: the Capture users move from as they sign in, with an owner client
    /// (`clientSecret` `${NAME}` keeps the secret in the environment).
    mutating func legacy(_ node: YAMLNode?) -> LegacyCapture? {
        guard let node, let mapping = decoder.mapping(node, "'legacy'") else { return nil }
        let keyed = decoder.keyed(mapping, LegacyKey.self, context: "'legacy'")
        let domain = decoder.required(keyed, .captureDomain).flatMap { string($0, "'captureDomain'") }
        let clientId = decoder.required(keyed, .clientId).flatMap { string($0, "'clientId'") }
        let secret = decoder.required(keyed, .clientSecret).flatMap { string($0, "'clientSecret'") }
        guard let domain, url(domain, "'captureDomain'"), let clientId, let secret else { return nil }
        if secret.value.isEmpty {
            decoder.errors.append(.wrongNodeKind(secret.location, expected: "a secret", found: "an empty text", context: "'clientSecret'"))
            return nil
        }
        return LegacyCapture(captureDomain: domain, clientId: clientId, clientSecret: secret)
    }

    /// `server.clients`: each a mapping of `id`, `secret` (`${NAME}` keeps it in the
    /// environment) and `features`. Ids are unique.
    mutating func clients(_ node: YAMLNode?) -> [APIClient] {
        guard let node, let sequence = decoder.sequence(node, "'clients'") else { return [] }
        var clients: [APIClient] = []
        for item in sequence.items {
            guard let mapping = decoder.mapping(item, "an item of 'clients'") else { continue }
            let keyed = decoder.keyed(mapping, ClientKey.self, context: "an item of 'clients'")
            let id = decoder.required(keyed, .id).flatMap { string($0, "'id'") }
            let secret = decoder.required(keyed, .secret).flatMap { string($0, "'secret'") }
            var features: Set<APIClient.Feature> = []
            for name in keyed[.features].flatMap({ decoder.strings($0, "'features'") }) ?? [] {
                guard let feature = APIClient.Feature(rawValue: name.value) else {
                    decoder.errors.append(
                        .unknownValue(name.location, value: name.value, what: "client feature", known: APIClient.Feature.allCases.map(\.rawValue)))
                    continue
                }
                features.insert(feature)
            }
            guard let id, let secret else { continue }
            if secret.value.isEmpty {
                decoder.errors.append(.wrongNodeKind(secret.location, expected: "a secret", found: "an empty text", context: "'secret'"))
                continue
            }
            if clients.contains(where: { $0.id.value == id.value }) {
                decoder.errors.append(
                    .wrongNodeKind(id.location, expected: "a client id not used before", found: "'\(id.value)' again", context: "'id'"))
                continue
            }
            clients.append(APIClient(id: id, secret: secret, features: features))
        }
        return clients
    }

    /// A string with `${NAME}` / `${NAME:-default}` replaced from the environment.
    mutating func string(_ node: YAMLNode, _ context: String) -> Located<String>? {
        guard let text = decoder.string(node, context) else { return nil }
        guard text.value.contains("${") else { return text }
        var result = ""
        var rest = Substring(text.value)
        var given: [(name: String, value: String)] = []
        while let open = rest.firstRange(of: "${") {
            result += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].firstIndex(of: "}") else {
                result += rest[open.lowerBound...]
                rest = ""
                break
            }
            let reference = rest[open.upperBound..<close]
            let (name, defaultValue): (Substring, Substring?) = {
                if let separator = reference.firstRange(of: ":-") {
                    return (reference[..<separator.lowerBound], reference[separator.upperBound...])
                }
                return (reference, nil)
            }()
            if let value = environment[String(name)], !value.isEmpty {
                result += value
                given.append((String(name), value))
            } else if let defaultValue {
                result += defaultValue
            } else {
                let column = text.value.distance(from: text.value.startIndex, to: open.lowerBound)
                decoder.errors.append(
                    .undefinedEnvironmentVariable(
                        text.location.advanced(by: column, length: reference.count + 3), name: String(name)))
                return nil
            }
            rest = rest[rest.index(after: close)...]
        }
        result += rest
        if !given.isEmpty {
            expansions.append(Withheld.Expansion(location: text.location, written: text.value, value: result, variables: given))
        }
        return Located(result, at: text.location)
    }

    /// Whether `text` is an absolute http(s) URL (with `anyScheme`, any `scheme://host`);
    /// if not, the error is recorded.
    mutating func url(_ text: Located<String>, _ context: String, anyScheme: Bool = false) -> Bool {
        decoder.url(text, context, anyScheme: anyScheme)
    }
}

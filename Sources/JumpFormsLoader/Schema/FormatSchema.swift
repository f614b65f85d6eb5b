import JumpForms

/// JSON Schemas (draft 2020-12) of the four YAML formats jump-forms reads, for editors
/// (yaml-language-server and others): generated from the same key enums and value tables
/// (`KeySpec`) the decoders check, and the model's registries (field types, rules, formats,
/// providers), so the schemas cannot drift from the loader.
///
/// A text value is "any scalar but null" as the loader reads it (`version: 3` is the text
/// `3`), so text keys accept strings, numbers and booleans; a boolean is `true`/`false` only,
/// which is what the schema type `boolean` matches in a YAML 1.2 editor.
public enum FormatSchema: String, CaseIterable, Sendable {
    /// A flow file (`flows/standard.yaml`).
    case flow
    /// A locale file (`locales/en-US.yaml`).
    case locale
    /// The client configuration, `jump.yaml`, with its `server:` section.
    case jump
    /// The Engage double's test identities (`identities.yaml`).
    case identities

    /// The file `jump-forms schema --out` writes: `flow.schema.json`, ...
    public var fileName: String { "\(rawValue).schema.json" }

    /// The schema as JSON text (two-space indents, a final newline).
    public var text: String { document.serialized(pretty: true) + "\n" }

    /// The schema.
    public var document: JSONValue {
        switch self {
        case .flow:
            Self.root(
                title: "jump-forms flow file",
                description: "A flow: its fields, forms and sign-in providers (docs/flow-format.md, \"Flow files\").",
                mapping: Self.mapping(FlowDecoder.FlowKey.self, FlowDecoder.spec, Self.flowDescriptions),
                defs: [
                    ("fields", Self.namedMapping(of: Self.ref("field"), description: "Field name -> field, in prompt order.")),
                    ("field", Self.mapping(FlowDecoder.FieldKey.self, FlowDecoder.spec, Self.fieldDescriptions)),
                    ("schemaId", Self.schemaID),
                    ("option", Self.mapping(FlowDecoder.OptionKey.self, FlowDecoder.spec, Self.optionDescriptions)),
                    ("rule", Self.rule),
                    ("forms", Self.namedMapping(of: Self.ref("form"), description: "Form name -> form.")),
                    ("form", Self.form),
                    ("provider", Self.provider),
                    (
                        "activities",
                        Self.namedMapping(of: Self.ref("activity"), description: "Activity name -> activity (what an app shares).")
                    ),
                    ("activity", Self.mapping(FlowDecoder.ActivityKey.self, FlowDecoder.spec, Self.activityDescriptions)),
                    ("actionLink", Self.mapping(FlowDecoder.ActionLinkKey.self, FlowDecoder.spec, Self.actionLinkDescriptions)),
                    ("media", Self.media),
                    ("properties", ["description": "Property name -> text, as written.", "type": "object", "additionalProperties": Self.scalar])
                ])
        case .locale:
            Self.root(
                title: "jump-forms locale file",
                description: "The messages of one locale (docs/flow-format.md, \"Locale files\").",
                mapping: Self.mapping(LocaleDecoder.LocaleKey.self, LocaleDecoder.spec, Self.localeDescriptions),
                defs: [("messages", Self.messages)])
        case .jump:
            Self.root(
                title: "jump-forms client configuration (jump.yaml)",
                description:
                    "The SDK's configuration keys and the local server's settings (docs/flow-format.md, \"Client configuration\"). "
                    + "String values may name environment variables: ${NAME} or ${NAME:-default}.",
                mapping: Self.mapping(ConfigDecoder.Key.self, ConfigDecoder.spec, Self.configDescriptions),
                defs: [
                    ("server", Self.mapping(ConfigDecoder.ServerKey.self, ConfigDecoder.spec, Self.serverDescriptions)),
                    ("client", Self.mapping(ConfigDecoder.ClientKey.self, ConfigDecoder.spec, Self.clientDescriptions)),
                    ("legacy", Self.mapping(ConfigDecoder.LegacyKey.self, ConfigDecoder.spec, Self.legacyDescriptions))
                ])
        case .identities:
            Self.root(
                title: "jump-forms test identities (identities.yaml)",
                description: "The identities the local Engage double signs in with (docs/local-server.md).",
                mapping: Self.mapping(IdentitiesLoader.Key.self, IdentitiesLoader.spec, Self.identitiesDescriptions),
                defs: [
                    ("identity", Self.mapping(IdentitiesLoader.IdentityKey.self, IdentitiesLoader.spec, Self.identityDescriptions))
                ])
        }
    }

    // MARK: building blocks

    private static func root(
        title: String, description: String, mapping: JSONValue, defs: [(String, JSONValue)]
    ) -> JSONValue {
        var entries: [(key: String, value: JSONValue)] = [
            ("$schema", "https://json-schema.org/draft/2020-12/schema"),
            ("title", .string(title)),
            ("description", .string(description))
        ]
        entries += mapping.objectValue ?? []
        entries.append(("$defs", .object(defs.map { (key: $0.0, value: $0.1) })))
        return .object(entries)
    }

    private static func ref(_ name: String) -> JSONValue { ["$ref": .string("#/$defs/\(name)")] }

    /// Any scalar but null: what the decoders read as text.
    private static let scalar: JSONValue = ["type": ["string", "number", "boolean"]]

    private static func schema(_ value: KeySpec.Value) -> JSONValue {
        switch value {
        case .text: return scalar
        case .boolean: return ["type": "boolean"]
        case .integer(let range):
            var entries: [(key: String, value: JSONValue)] = [("type", "integer")]
            if let range { entries += [("minimum", .integer(range.lowerBound)), ("maximum", .integer(range.upperBound))] }
            return .object(entries)
        case .choice(let values): return ["enum": .array(values.map(JSONValue.string))]
        case .list(let item): return ["type": "array", "items": schema(item)]
        case .named(let name): return ref(name)
        }
    }

    /// A mapping of the keys of `Key`: each with its kind and description, the required ones,
    /// and no other key (the loader's unknown-key error).
    private static func mapping<Key>(
        _ keys: Key.Type, _ spec: (Key) -> KeySpec, _ descriptions: [Key: String], extra: [(key: String, value: JSONValue)] = []
    ) -> JSONValue where Key: RawRepresentable & CaseIterable & Hashable, Key.RawValue == String {
        let properties: [(key: String, value: JSONValue)] = Key.allCases.map { key in
            var property = schema(spec(key).value).objectValue ?? []
            if let description = descriptions[key] { property.insert(("description", .string(description)), at: 0) }
            return (key.rawValue, .object(property))
        }
        var entries: [(key: String, value: JSONValue)] = [("type", "object"), ("properties", .object(properties))]
        let required = Key.allCases.filter { spec($0).required }.map { JSONValue.string($0.rawValue) }
        if !required.isEmpty { entries.append(("required", .array(required))) }
        entries.append(("additionalProperties", false))
        return .object(entries + extra)
    }

    /// Names (of fields, forms) -> `item`; a name is a letter, then letters, digits, `_` or `-`.
    private static func namedMapping(of item: JSONValue, description: String) -> JSONValue {
        [
            "description": .string(description), "type": "object",
            "propertyNames": ["pattern": "^[A-Za-z][A-Za-z0-9_-]*$"], "additionalProperties": item
        ]
    }

    private static let schemaID: JSONValue = [
        "anyOf": [
            scalar,
            ["type": "object", "minProperties": 1, "additionalProperties": scalar]
        ]
    ]

    private static let form: JSONValue = {
        var form = mapping(FlowDecoder.FormKey.self, FlowDecoder.spec, formDescriptions)
        // An empty list of fields is an error of its own (JF214).
        if case .object(var entries) = form, let index = entries.firstIndex(where: { $0.key == "properties" }),
            let fields = entries[index].value["fields"]
        {
            entries[index].value = ["fields": fields.setting("minItems", 1)]
            form = .object(entries)
        }
        return form
    }()

    /// A rule: `value` takes the shape its rule asks for (`RuleKind.valueShape`).
    private static let rule: JSONValue = {
        let shapes: [RuleKind.ValueShape] = [.none, .integer, .fieldName, .format, .pattern, .stringList]
        var conditions: [JSONValue] = []
        for shape in shapes {
            let kinds = RuleKind.allCases.filter { $0.valueShape == shape }
            if shape == .none {
                // `required` may say `value: true`; the others take no value.
                for kind in kinds {
                    let then: JSONValue =
                        kind == .required ? ["properties": ["value": ["const": true]]] : ["not": ["required": ["value"]]]
                    conditions.append(["if": ["properties": ["rule": ["const": .string(kind.rawValue)]], "required": ["rule"]], "then": then])
                }
                continue
            }
            let value: JSONValue
            switch shape {
            case .integer: value = ["type": "integer"]
            case .format: value = ["enum": .array(Format.allCases.map { .string($0.rawValue) })]
            case .stringList: value = ["type": "array", "items": scalar]
            default: value = scalar
            }
            conditions.append([
                "if": ["properties": ["rule": ["enum": .array(kinds.map { .string($0.rawValue) })]], "required": ["rule"]],
                "then": ["required": ["value"], "properties": ["value": value]]
            ])
        }
        var rule = mapping(FlowDecoder.RuleKey.self, FlowDecoder.spec, ruleDescriptions, extra: [("allOf", .array(conditions))])
        // `value`'s own schema is the rule's; drop the generic one.
        if case .object(var entries) = rule, let index = entries.firstIndex(where: { $0.key == "properties" }),
            let value = entries[index].value["value"]
        {
            entries[index].value = entries[index].value.setting("value", ["description": value["description"] ?? ""])
            rule = .object(entries)
        }
        return rule
    }()

    /// A provider: a built-in provider's id, or a mapping whose keys depend on its `type`.
    private static let provider: JSONValue = {
        let builtIn = JSONValue.array(BuiltInProvider.allCases.map { .string($0.rawValue) })
        func names(_ type: FlowDecoder.ProviderType?) -> JSONValue {
            .array(FlowDecoder.providerKeys(type).map { .string($0.rawValue) })
        }
        var conditions: [JSONValue] = [
            [
                "if": ["not": ["required": ["type"]]],
                "then": ["propertyNames": ["enum": names(nil)], "properties": ["id": ["enum": builtIn]]]
            ]
        ]
        for type in FlowDecoder.ProviderType.allCases {
            conditions.append([
                "if": ["properties": ["type": ["const": .string(type.rawValue)]], "required": ["type"]],
                "then": ["propertyNames": ["enum": names(type)]]
            ])
        }
        let keyed = mapping(FlowDecoder.ProviderKey.self, FlowDecoder.spec, providerDescriptions, extra: [("allOf", .array(conditions))])
        return [
            "anyOf": [
                ["description": "A built-in provider by its id.", "enum": builtIn],
                keyed
            ]
        ]
    }()

    /// A media item: the keys its `type` takes (`ActivityMediaType`).
    private static let media: JSONValue = {
        var conditions: [JSONValue] = []
        for type in ActivityMediaType.allCases {
            conditions.append([
                "if": ["properties": ["type": ["const": .string(type.rawValue)]], "required": ["type"]],
                "then": [
                    "propertyNames": ["enum": .array(FlowDecoder.mediaKeys(type).map { .string($0.rawValue) })],
                    "required": .array(type.requiredKeys.map(JSONValue.string))
                ]
            ])
        }
        return mapping(FlowDecoder.MediaKey.self, FlowDecoder.spec, mediaDescriptions, extra: [("allOf", .array(conditions))])
    }()

    /// Messages (or notes): texts, or mappings of them, flattened to dotted keys.
    private static let messages: JSONValue = [
        "type": "object",
        "additionalProperties": ["anyOf": [scalar, ref("messages")]]
    ]

    // MARK: descriptions (from docs/flow-format.md)

    static let flowDescriptions: [FlowDecoder.FlowKey: String] = [
        .flow: "The flow's name, sent as the `flow` parameter.",
        .version: "A string, sent as `flow_version`.",
        .defaultLocale: "A BCP 47 tag; its locale file must exist and hold every key the flow uses.",
        .locales: "The folder of locale files, relative to the flow file (default `../locales`).",
        .fields: "A mapping of field name -> field, in prompt order.",
        .forms: "A mapping of form name -> form (its list of fields).",
        .providers: "The sign-in providers, in display order: built-in ids, or mappings (OpenID, SAML).",
        .activities: "A mapping of activity name -> activity: what an app shares (`jump-forms share`).",
        .sharing: "The providers an activity may be posted to (each listed under `providers`)."
    ]

    static let activityDescriptions: [FlowDecoder.ActivityKey: String] = [
        .action: "Message key of what the person did; its arguments are the activity's `arguments`.",
        .url: "The shared resource's absolute http(s) URL.",
        .title: "Message key of the title.",
        .description: "Message key of the description.",
        .userContent: "`true`: the person adds their own words (`user_generated_content`); default `false`.",
        .actionLinks: "Links shown under the activity: `{ text: <message key>, href: <URL> }`.",
        .media: "Media items: " + ActivityMediaType.allCases.map { "`\($0.rawValue)` (\($0.summary))" }.joined(separator: ", ") + ".",
        .properties: "Name -> text shown by some providers, as written.",
        .arguments: "The ICU arguments the activity's messages may use; their values come from `--set name=value`."
    ]

    static let actionLinkDescriptions: [FlowDecoder.ActionLinkKey: String] = [
        .text: "Message key of the link's text.",
        .href: "The link's absolute http(s) URL."
    ]

    static let mediaDescriptions: [FlowDecoder.MediaKey: String] = [
        .type: "`image`, `flash` or `mp3`.",
        .src: "The image's or MP3's absolute URL.",
        .href: "Where the image links to (absolute URL).",
        .swfsrc: "The Flash movie's absolute URL.",
        .imgsrc: "The Flash movie's preview image (absolute URL).",
        .width: "Pixels (flash).",
        .height: "Pixels (flash).",
        .expandedWidth: "Pixels (flash).",
        .expandedHeight: "Pixels (flash).",
        .title: "The MP3's title.",
        .artist: "The MP3's artist.",
        .album: "The MP3's album."
    ]

    static let fieldDescriptions: [FlowDecoder.FieldKey: String] = [
        .type: "The field type: "
            + FieldType.allCases.map { "`\($0.rawValue)` (\($0.summary))" }.joined(separator: ", ") + ".",
        .schemaId:
            "Where the value is stored in the record: a dot path (`primaryAddress.phone`), or a mapping of sub-key -> path, sent as `field[sub]`.",
        .label: "Message key of the label (the field name is shown when there is none).",
        .placeholder: "Message key of the placeholder.",
        .tip: "Message key of the tip.",
        .options: "The options of a select or radio field.",
        .validation: "The field's validation rules, checked in order.",
        .default: "The value the form starts with; hidden fields send it unchanged."
    ]

    static let optionDescriptions: [FlowDecoder.OptionKey: String] = [
        .value: "The value sent (an empty option must be quoted: \"\").",
        .label: "Message key of the option's text.",
        .disabled: "`true` hides the option from choices (default `false`)."
    ]

    static let ruleDescriptions: [FlowDecoder.RuleKey: String] = [
        .rule: "The rule's name: " + RuleKind.allCases.map { "`\($0.rawValue)`" }.joined(separator: ", ") + ".",
        .value:
            "Depends on the rule: an integer (lengths, years), a field name (match, alongWith), a format name, a regular expression, or a list of strings.",
        .message: "Message key shown when the rule fails; it gets the arguments {label}, {field} and {value}.",
        .clientSide: "`false` leaves the rule to the server (Capture's `disableClientSide`)."
    ]

    static let formDescriptions: [FlowDecoder.FormKey: String] = [
        .fields: "The names of the form's fields, in prompt order (each defined under the flow's `fields`)."
    ]

    static let providerDescriptions: [FlowDecoder.ProviderKey: String] = [
        .id: "The provider's id: a built-in provider, or your own for `type: openid` / `type: saml`.",
        .type: "`openid` or `saml` for a provider of your own; absent for a built-in one.",
        .name: "The name shown (default: the built-in provider's name, or the id).",
        .openidIdentifier: "The OpenID identifier URL (type: openid).",
        .opxBlob: "The OpenID provider's opx_blob (type: openid).",
        .samlProvider: "The SAML provider's name in Engage (type: saml).",
        .icon: "An icon file next to the flow."
    ]

    static let localeDescriptions: [LocaleDecoder.LocaleKey: String] = [
        .locale: "The file's BCP 47 tag; it must match the file name (`fr-FR.yaml`: `fr-FR`).",
        .messages: "Message key -> ICU MessageFormat text; keys may be dotted or nested mappings.",
        .sameAsSource: "Message keys whose text is deliberately the same as the default locale's.",
        .notes: "Notes for translators, by message key (dotted or nested)."
    ]

    static let configDescriptions: [ConfigDecoder.Key: String] = [
        .captureDomain: "`embedded` (a local server started in-process), or an absolute http(s) URL.",
        .captureClientId: "The API client id.",
        .captureAppId: "The Capture app id; against a remote Capture, part of the flow document's URL.",
        .captureLocale: "The locale sent as `locale`; a locale file must serve it.",
        .captureFlowName: "Must equal the flow's `flow` (default: it).",
        .captureFlowVersion: "The version of the flow document downloaded against a remote Capture (default `HEAD`: the latest).",
        .captureSignInFormName: "Default `signInForm`.",
        .captureTraditionalSignInType: "`email` (default) or `username`.",
        .enableThinRegistration: "`true` (default) or `false`.",
        .captureTraditionalRegistrationFormName: "Default `registrationForm`.",
        .captureSocialRegistrationFormName: "Default `socialRegistrationForm`.",
        .forgottenPasswordFormName: "Default `forgotPasswordForm`.",
        .editProfileFormName: "Default `editProfileForm`.",
        .resendEmailVerificationFormName: "Default `resendVerificationForm`.",
        .changePasswordFormName: "Default `changePasswordForm`.",
        .engageAppId: "The Engage app id.",
        .engageDomain: "Default `https://rpxnow.com`.",
        .engageWhitelistedDomain: "An absolute URL (any scheme, e.g. `myapp://host`).",
        .redirectUri: "An absolute URL, sent as `redirect_uri` (default: the Capture URL).",
        .flow: "The flow file, relative to jump.yaml.",
        .responseType: "`token` (default) or `code_and_token`.",
        .server: "The local server's settings (`jump-forms serve`; docs/local-server.md).",
        .captureFlowDomain: "Absolute URL of the flow documents (Android's key; default: the SDKs' CDN, or a loopback server)."
    ]

    static let serverDescriptions: [ConfigDecoder.ServerKey: String] = [
        .accessTokenLifetime: "Seconds an access token lives.",
        .bcryptCost: "The bcrypt cost of stored passwords.",
        .identities: "The Engage double's test identities file, relative to jump.yaml.",
        .database: "The database: a SQLite file relative to jump.yaml, or postgres://user@host:port/db (PostgreSQL).",
        .writeWithToken: "Record paths an access token may write (entity.update), e.g. /aboutMe.",
        .maximumRequestSize: "The largest request body accepted, in bytes.",
        .apiKey: "The key of the server's admin API (use ${NAME} to keep it out of the file).",
        .clientSecret: "The client secret of the direct-access API (use ${NAME}).",
        .schema: "A Capture entity-type schema (JSON) the records follow, relative to jump.yaml.",
        .maximumRecordSize: "The largest record stored, in bytes.",
        .signInFailureLimit: "Failed sign-ins of one account before it waits (0: no limit).",
        .clientFailureLimit: "Failed sign-ins of one client before it waits (0: no limit).",
        .signInWait: "Seconds of the first wait after the limit.",
        .signInMaximumWait: "The longest wait, in seconds.",
        .signInFailureReset: "Seconds after which an account's failures are forgotten.",
        .clientFailureReset: "Seconds after which a client's failures are forgotten.",
        .emailsPerAddress: "Emails sent to one address per window.",
        .emailWindow: "The window of emailsPerAddress, in seconds.",
        .maximumConnections: "Connections served at once.",
        .passwordHashQueue: "Password hashes that may wait for a thread (0: none wait).",
        .databaseConnections: "Database connections the process's pool may open at most (default: 4 per core).",
        .refreshLifetime: "Seconds a refresh secret lives.",
        .privilegedSessionMaxAge: "Seconds a sign-in counts as recent for privileged changes.",
        .metricsAllow: "Client addresses (CIDR ranges, e.g. 10.0.0.0/8, ::1) GET /metrics answers; others get 403 (default: any).",
        .publicURL: "The URL clients reach the server by (its host passes the Host check), e.g. https://capture.example.com.",
        .clients: "Clients of the server API: each an id, a secret (use ${NAME}) and its features.",
        .legacy: "The Capture users move from as they sign in (just-in-time migration): its URL and an owner client."
    ]

    static let legacyDescriptions: [ConfigDecoder.LegacyKey: String] = [
        .captureDomain: "The legacy Capture's URL.",
        .clientId: "An API client of the legacy Capture with the owner feature.",
        .clientSecret: "Its secret (use ${NAME} to keep it out of the file)."
    ]

    static let clientDescriptions: [ConfigDecoder.ClientKey: String] = [
        .id: "The client id.",
        .secret: "The client secret (use ${NAME} to keep it out of the file).",
        .features: "What the client may do: owner, access_issuer, direct_access, login_client."
    ]

    static let identitiesDescriptions: [IdentitiesLoader.Key: String] = [
        .identities: "The test identities: each signs in through the local Engage double as its provider."
    ]

    static let identityDescriptions: [IdentitiesLoader.IdentityKey: String] = [
        .provider: "The provider's id (`google`, `facebook`, ...).",
        .identifier: "The identity's identifier URL; provider and identifier are unique together.",
        .email: "The email the provider reports.",
        .verifiedEmail: "Whether the provider reports the email as verified (default `false`).",
        .givenName: "Given name.",
        .familyName: "Family name.",
        .displayName: "Display name.",
        .nativeToken: "The token a native SDK sign-in sends for this identity."
    ]
}

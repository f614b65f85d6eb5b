/// The stable codes of every diagnostic. A code never changes meaning once released;
/// `docs/diagnostics.md` is generated from this list (see `DiagnosticCode.documentation`), in
/// the order of the numbers. A new code goes at the end (under "Added since"), whatever its
/// number: a case in the middle renumbers the cases after it, and a module an incremental build
/// does not recompile would then name the wrong code. The `JF3xx` codes' severities and
/// descriptions come from the lint rules' files (`LintRule`, module JumpForms), and the locale
/// rules' from theirs (`LocaleRule`, module JumpLocaleCheck), through generated tables.
public enum DiagnosticCode: String, Sendable, Hashable, CaseIterable, Codable {
    // MARK: read (bytes -> YAML events)
    case fileUnreadable = "JF100"
    case emptyFile = "JF101"
    case fileTooLarge = "JF102"
    case invalidUTF8 = "JF103"
    case byteOrderMark = "JF104"
    case tabIndentation = "JF105"
    case yamlSyntax = "JF106"
    case multipleDocuments = "JF107"
    case nestingTooDeep = "JF108"
    case aliasBudgetExceeded = "JF109"
    case nonScalarKey = "JF110"
    case duplicateKey = "JF111"
    case undefinedAlias = "JF112"
    case mergeKey = "JF113"
    case unsupportedTag = "JF114"
    case directoryUnreadable = "JF115"

    // MARK: decode (located nodes -> model)
    case unknownKey = "JF200"
    case missingKey = "JF201"
    case wrongNodeKind = "JF202"
    case nullValue = "JF203"
    case notABoolean = "JF204"
    case notAnInteger = "JF205"
    case unknownValue = "JF206"
    case invalidName = "JF207"
    case invalidLocaleTag = "JF208"
    case invalidRuleValue = "JF209"
    case undefinedEnvironmentVariable = "JF210"
    case localeTagMismatch = "JF211"
    case duplicateMessageKey = "JF212"
    case invalidURL = "JF213"
    case emptyList = "JF214"
    case duplicateIdentity = "JF215"
    case unknownFileKind = "JF216"
    case valueOutOfRange = "JF217"

    // MARK: lint (semantic checks)
    case undefinedField = "JF300"
    case fieldRepeatedInForm = "JF301"
    case ruleDoesNotFitField = "JF302"
    case unknownFieldReference = "JF303"
    case referenceOutsideForm = "JF304"
    case unknownFormat = "JF305"
    case invalidPattern = "JF306"
    case backtrackingPattern = "JF307"
    case messageMissingInDefaultLocale = "JF308"
    case messageMissingInLocale = "JF309"
    case duplicateOptionValue = "JF310"
    case duplicateProvider = "JF311"
    case openIDWithoutIdentifier = "JF312"
    case samlWithoutProvider = "JF313"
    case unknownProvider = "JF314"
    case missingIcon = "JF315"
    case configNamesMissingForm = "JF316"
    case signInFormShape = "JF317"
    case unusedField = "JF318"
    case unusedMessage = "JF319"
    case messageSyntax = "JF320"
    case messageArgument = "JF321"
    case missingLocale = "JF322"
    case ruleValueRange = "JF323"
    case choiceWithoutOptions = "JF324"
    case formWithoutIdentifier = "JF325"
    case optionsOnNonChoiceField = "JF326"
    case configFlowMismatch = "JF327"
    case duplicateRule = "JF328"
    case emptyRuleList = "JF329"
    case sharingProviderNotListed = "JF330"
    case activityNotPostable = "JF331"
    case mistypedMessageKey = "JF332"
    case fieldNotSent = "JF333"

    // MARK: schema (Capture entity-type schemas, access schemas, the flow against its schema)
    case schemaSyntax = "JF400"
    case schemaWrongKind = "JF401"
    case schemaUnknownKey = "JF402"
    case schemaMissingKey = "JF403"
    case unknownAttributeType = "JF404"
    case keyDoesNotFitAttributeType = "JF405"
    case duplicateAttribute = "JF406"
    case duplicateSchemaKey = "JF407"
    case unknownConstraint = "JF408"
    case invalidAttributeName = "JF409"
    case schemaErrorResponse = "JF410"
    case unknownAccessPath = "JF411"
    case unknownSchemaAttribute = "JF412"
    case fieldDoesNotFitAttribute = "JF413"
    case fieldWritesReservedAttribute = "JF414"
    case requiredAttributeNotSet = "JF415"
    case optionDoesNotFitAttribute = "JF416"
    case lengthExceedsAttribute = "JF417"
    case constraintNotChecked = "JF418"
    case accessPathIgnored = "JF419"

    // MARK: locales (`jump-forms locales`: checks of locale files, interchange formats; each
    // code has a rule id, see `ruleID` and DiagnosticCode+Locales.swift)
    case missingLocaleFile = "JF500"
    case localeMissingKey = "JF501"
    case localeObsoleteKey = "JF502"
    case localeEmptyValue = "JF503"
    case localeSameAsSource = "JF504"
    case localeICUSyntax = "JF505"
    case localeArgumentUnknown = "JF506"
    case localeArgumentDropped = "JF507"
    case pluralMissingCategory = "JF508"
    case pluralUnusedCategory = "JF509"
    case selectWithoutOther = "JF510"
    case markupMismatch = "JF511"
    case urlMismatch = "JF512"
    case numberMismatch = "JF513"
    case whitespaceEdge = "JF514"
    case doubleSpace = "JF515"
    case newlineMismatch = "JF516"
    case invisibleCharacter = "JF517"
    case bidiControl = "JF518"
    case yamlTrap = "JF519"
    case localeDuplicateKey = "JF520"
    case yamlAlias = "JF521"
    case renderFailure = "JF522"
    case unknownLanguage = "JF523"
    case localeArgumentAdded = "JF524"
    case interchangeSyntax = "JF530"
    case interchangeDuplicateKey = "JF531"
    case interchangeUnsupported = "JF532"
    case interchangeArgument = "JF533"

    // MARK: flow documents (Capture's flow JSON: `flow import`, `--flow FILE.json`, `flow export`)
    case flowDocumentSyntax = "JF600"
    case flowDocumentWrongKind = "JF601"
    case flowDocumentMissingKey = "JF602"
    case flowDocumentUnknownValue = "JF603"
    case flowDocumentDropped = "JF604"
    case flowDocumentsDisagree = "JF605"
    case flowDocumentDuplicateKey = "JF606"
    case flowDocumentTextMismatch = "JF607"
    case fieldAndFormShareName = "JF608"

    // MARK: Added since (in the order they were added; each in its phase by its number)
    case endingPunctuation = "JF525"

    /// The phase that reports the code.
    public enum Phase: String, Sendable, CaseIterable {
        case read, decode, lint
        /// Reading a Capture schema or access schema (JSON), and checking a flow against it.
        case schema
        /// `jump-forms locales`: locale file checks and interchange formats (codes with rule ids).
        case locales
        /// Capture's flow documents (JSON): reading one as a flow, writing one from a flow.
        case flowDocument = "flow document"
    }

    public var phase: Phase {
        switch rawValue.dropFirst(2).first {
        case "1": .read
        case "2": .decode
        case "4": .schema
        case "5": .locales
        case "6": .flowDocument
        default: .lint
        }
    }

    /// The severity a diagnostic of this code has unless a check says otherwise.
    public var defaultSeverity: Diagnostic.Severity {
        if let entry = Self.lintCatalog[self] { return entry.severity }
        if let entry = Self.localeCatalog[self] { return entry.severity }
        return switch self {
        case .lengthExceedsAttribute, .constraintNotChecked, .accessPathIgnored, .flowDocumentDropped, .flowDocumentTextMismatch:
            .warning
        default:
            .error
        }
    }

    /// One line: what the code means.
    public var title: String { Self.catalog[self]?.title ?? Self.lintCatalog[self]?.title ?? Self.localeCatalog[self]?.title ?? rawValue }

    /// What causes it and how to fix it.
    public var explanation: String {
        Self.catalog[self]?.explanation ?? Self.lintCatalog[self]?.explanation ?? Self.localeCatalog[self]?.explanation ?? ""
    }

    /// A short example of the input that triggers it; empty for the lint rules' codes (`JF3xx`),
    /// whose examples are projects (`LintRule.triggeringExamples`, module JumpForms).
    public var example: String { Self.catalog[self]?.example ?? Self.localeCatalog[self]?.example ?? "" }

    private struct Entry {
        var title: String
        var explanation: String
        var example: String
    }

    /// A `JF3xx` code's entry: the rules of `jump-forms lint` (`LintRule`, module JumpForms, one
    /// file each) feed it through DiagnosticCode+LintRules.generated.swift.
    struct LintEntry {
        var severity: Diagnostic.Severity
        var title: String
        var explanation: String
    }

    /// The lint rules' entries, by code.
    static let lintCatalog: [DiagnosticCode: LintEntry] = {
        var result: [DiagnosticCode: LintEntry] = [:]
        for (number, entry) in lintRuleCatalog {
            if let code = DiagnosticCode(rawValue: number) { result[code] = entry }
        }
        return result
    }()

    // swiftlint:disable line_length
    private static let catalog: [DiagnosticCode: Entry] = [
        .fileUnreadable: Entry(
            title: "file cannot be read",
            explanation:
                """
                The path does not exist, is not a regular file, or cannot be opened. Check the path (relative paths are relative to the current \
                directory, or to the file that names them); for a misspelt `flow:` in `jump.yaml` the hint names the closest existing file.
                """,
            example: "jump-forms lint flows/missing.yaml"),
        .emptyFile: Entry(
            title: "file is empty",
            explanation:
                "The file holds no YAML document (only whitespace or comments). A flow, a locale file and `jump.yaml` each hold exactly one mapping.",
            example: "# nothing here"),
        .fileTooLarge: Entry(
            title: "file is over the size limit",
            explanation:
                """
                Files larger than the limit (default 8 MiB) are refused before parsing so that a stray file cannot exhaust memory. Split the file or \
                raise the limit: `--max-file-size 16M` for `lint`, `show`, `validate`, the account commands, `locales check`, `coverage`, `import`, \
                `export` and `pseudo`, `LoaderLimits.maximumFileSize` in code.
                """,
            example: "a 9 MiB locale file"),
        .invalidUTF8: Entry(
            title: "file is not valid UTF-8",
            explanation: "The bytes at the given place are not UTF-8. Save the file as UTF-8 (without a byte-order mark).",
            example: "label: caf\\xE9 (Latin-1)"),
        .byteOrderMark: Entry(
            title: "file starts with a byte-order mark",
            explanation: "A UTF-8 byte-order mark (or a UTF-16/32 one) precedes the content. Save the file as UTF-8 without BOM.",
            example: "EF BB BF flow: standard"),
        .tabIndentation: Entry(
            title: "tab used for indentation",
            explanation:
                """
                YAML forbids tabs in indentation; editors that mix tabs and spaces make the structure ambiguous. Indent with spaces. A tab in \
                content is allowed, as YAML allows it: on a block scalar's line after its indentation, inside a quoted scalar or a flow collection, \
                after a value, on a blank or comment line.
                """,
            example: "fields:\n\temail: {}"),
        .yamlSyntax: Entry(
            title: "YAML syntax error",
            explanation:
                """
                libyaml could not parse the file at this place. The message names what the parser expected; for the common mistakes a hint \
                says what to change: a key indented unlike the keys around it, `key:value` without a space after the colon (read as text, \
                not as a key), a line indented under a key that has its value already, `: ` inside an unquoted value, a quote never closed.
                """,
            example: "fields: [email, name"),
        .multipleDocuments: Entry(
            title: "more than one YAML document",
            explanation: "The file holds a second document (`---`). Each file holds exactly one document; move the second one to its own file.",
            example: "flow: a\n---\nflow: b"),
        .nestingTooDeep: Entry(
            title: "nesting too deep",
            explanation:
                """
                Sequences and mappings are nested deeper than the limit (default 100 levels, `LoaderLimits.maximumDepth`). No real flow needs that; \
                the file is refused before it can exhaust the stack.
                """,
            example: "[[[[[[ ... 5000 levels"),
        .aliasBudgetExceeded: Entry(
            title: "aliases expand to too many nodes",
            explanation:
                """
                Anchors and aliases would expand to more nodes than the budget (default 100,000, `LoaderLimits.maximumAliasExpansion`): the shape of \
                a \"billion laughs\" attack. Write the values out, or share less.
                """,
            example: "a: &a [x, x]\nb: &b [*a, *a]\n..."),
        .nonScalarKey: Entry(
            title: "mapping key is not a plain scalar",
            explanation: "Keys must be strings written in place: a sequence, a mapping or an alias (`*name`) used as a key is refused.",
            example: "*anchor : value"),
        .duplicateKey: Entry(
            title: "duplicate key",
            explanation:
                """
                The same key appears twice in one mapping; YAML parsers would silently keep one of them. Both places are named; remove or rename \
                one.
                """,
            example: "label: a\nlabel: b"),
        .undefinedAlias: Entry(
            title: "alias names no anchor", explanation: "`*name` refers to an anchor `&name` that was not defined before it in the document.",
            example: "rules: *missing"),
        .mergeKey: Entry(
            title: "merge key `<<` is not supported",
            explanation: "YAML 1.1 merge keys are not part of the flow format; write the keys out, or use an alias for a whole value.",
            example: "<<: *defaults"),
        .unsupportedTag: Entry(
            title: "unsupported YAML tag",
            explanation: "Explicit tags other than `!!str` are refused: values are typed by the flow format, not by tags.",
            example: "value: !!python/object foo"),
        .directoryUnreadable: Entry(
            title: "folder cannot be read",
            explanation:
                """
                A folder named by the flow (`locales`) or on the command line does not exist or cannot be listed, or a folder given on the command \
                line holds no `.yaml` or `.yml` file. For a misspelt folder the hint names the closest existing one.
                """,
            example: "locales: ../missing"),

        .unknownKey: Entry(
            title: "unknown key",
            explanation: "The key is not part of the flow format at this place. A typo never passes silently; the hint names the closest known key.",
            example: "lable: fields.email.label"),
        .missingKey: Entry(
            title: "required key missing", explanation: "A key the format requires at this place is absent.", example: "a rule without `message`"),
        .wrongNodeKind: Entry(
            title: "wrong kind of value", explanation: "A mapping, a sequence or a scalar was expected and something else was found.",
            example: "fields: [email]"),
        .nullValue: Entry(
            title: "value is empty",
            explanation: "The key has no value (or `~`/`null`) where a value is required. Quote an empty string as `\"\"` if that is what you mean.",
            example: "label:"),
        .notABoolean: Entry(
            title: "not a boolean",
            explanation:
                """
                Booleans are `true` or `false` only. `yes`, `no`, `on`, `off` and their variants are refused because YAML 1.1 and 1.2 parsers \
                disagree on them.
                """,
            example: "disabled: yes"),
        .notAnInteger: Entry(
            title: "not an integer", explanation: "An integer was expected (a plain scalar of digits, optionally with a leading minus).",
            example: "value: eight"),
        .unknownValue: Entry(
            title: "unknown value",
            explanation:
                """
                The value is not one of the names the format defines here (field types, rule names, provider types). The hint names the closest one.
                """,
            example: "type: emial"),
        .invalidName: Entry(
            title: "invalid name",
            explanation:
                """
                Field, form and provider names are sent as HTTP parameter names and used as message-key parts: they must start with a letter and use \
                only letters, digits, `_` and `-`.
                """,
            example: "\"first name\": {}"),
        .invalidLocaleTag: Entry(
            title: "invalid locale tag", explanation: "Locale tags are BCP 47 (`en-US`, `fr`, `zh-Hant-TW`).", example: "defaultLocale: english"),
        .invalidRuleValue: Entry(
            title: "invalid rule value",
            explanation:
                """
                The rule's `value` has the wrong shape for that rule (an integer for `minLength`, a field name for `match`, a list for `whitelist`, \
                none for `required`).
                """,
            example: "{ rule: minLength, value: [8] }"),
        .undefinedEnvironmentVariable: Entry(
            title: "environment variable not set",
            explanation: "`jump.yaml` refers to `${NAME}` and the variable is not set. Set it, or write `${NAME:-default}`.",
            example: "captureClientId: ${JUMP_CLIENT_ID}"),
        .localeTagMismatch: Entry(
            title: "locale tag does not match the file name", explanation: "A locale file `<tag>.yaml` must declare `locale: <tag>`.",
            example: "locales/fr-FR.yaml with locale: fr-CA"),
        .duplicateMessageKey: Entry(
            title: "message key defined twice",
            explanation: "Flat and nested keys flatten to the same dotted key (`a.b` and `a: {b: ...}`). Both places are named.",
            example: "fields.email.label: x\nfields: {email: {label: y}}"),
        .invalidURL: Entry(
            title: "invalid URL", explanation: "The value must be an absolute URL (`https://...`), or `embedded` for `captureDomain`.",
            example: "captureDomain: example.com"),
        .duplicateIdentity: Entry(
            title: "test identity listed twice",
            explanation: "Two entries of identities.yaml have the same provider and identifier; the Engage double could not tell them apart.",
            example: "- { provider: google, identifier: \"1001\" }\n- { provider: google, identifier: \"1001\" }"),
        .emptyList: Entry(
            title: "list is empty", explanation: "The list must hold at least one item.", example: "forms: { signInForm: { fields: [] } }"),
        .valueOutOfRange: Entry(
            title: "value out of range",
            explanation:
                """
                The number is outside the range the key allows (the `server:` settings of jump.yaml: `accessTokenLifetime` 1...31536000, \
                `bcryptCost` 4...31, `maximumRequestSize` 1024...16777216, `maximumRecordSize` 1024...3145728, `signInFailureLimit` and \
                `clientFailureLimit` 0...1000000, `signInWait` and `signInMaximumWait` 1...86400, `signInFailureReset`, `clientFailureReset` and \
                `emailWindow` 1...31536000, `emailsPerAddress` 1...1000, `maximumConnections` 2...1000000, `passwordHashQueue` 0...100000, `databaseConnections` 1...10000). The \
                message names the range.
                """,
            example: "server: { bcryptCost: 3 }"),
        .unknownFileKind: Entry(
            title: "not a file jump-forms reads",
            explanation:
                """
                A YAML file given to `lint` (or found in a folder given to it) is neither a flow (`flow`, `fields`, `forms` ...), a locale file \
                (`locale`, `messages`), a client configuration (`jump.yaml`, `capture...` keys) nor an identities file (`identities`). One \
                diagnostic names the keys it has; check the file's name and keys, or leave it out of the paths given to `lint`.
                """,
            example: "services: { web: { image: nginx } }"),

        .schemaSyntax: Entry(
            title: "schema is not valid JSON",
            explanation:
                """
                A Capture schema or access schema file is JSON; the parser stopped at this place. The message names what it expected. An empty file, \
                an HTML error page or a truncated download ends here too.
                """,
            example: "[{\"name\": \"email\", \"type\": \"string\"}"),
        .schemaWrongKind: Entry(
            title: "wrong kind of value in a schema",
            explanation:
                """
                An object, a list, a string, an integer or a boolean was expected and something else was found: the schema is a list of attribute \
                definitions (or an object with `attr_defs`, or the entityType API's answer), each definition an object, `constraints` and `features` \
                lists of strings, `length` an integer.
                """,
            example: "{\"name\": \"email\", \"type\": \"string\", \"length\": \"256\"}"),
        .schemaUnknownKey: Entry(
            title: "unknown key in a schema",
            explanation:
                """
                The key is not part of a Capture attribute definition (`name`, `type`, `attr_defs`, `length`, `case-sensitive`, `description`, \
                `features`, `constraints`) or of a wrapper (`stat` and `schema` of the entityType answer, `name` and `attr_defs` of a schema object, \
                `stat` and `access_schema` of an access schema). The hint names the closest known key.
                """,
            example: "{\"name\": \"email\", \"typ\": \"string\"}"),
        .schemaMissingKey: Entry(
            title: "required schema key missing",
            explanation:
                """
                Every attribute definition has a `name` and a `type`; objects and plurals have `attr_defs`; the entityType API's answer has \
                `schema`.
                """,
            example: "{\"type\": \"string\"}"),
        .unknownAttributeType: Entry(
            title: "unknown attribute type",
            explanation:
                """
                The type is not one of Capture's: string, boolean, integer, decimal, date, dateTime, ipAddress, uuid, id, json, object, plural, or a \
                password type (`password`, `password-bcrypt`, ...). The hint names the closest one.
                """,
            example: "{\"name\": \"birthday\", \"type\": \"datetime\"}"),
        .keyDoesNotFitAttributeType: Entry(
            title: "key does not fit the attribute type",
            explanation:
                """
                `attr_defs` belongs to objects and plurals only; `length` and `case-sensitive` to attributes that hold a value of their own, never \
                to objects and plurals.
                """,
            example: "{\"name\": \"email\", \"type\": \"string\", \"attr_defs\": []}"),
        .duplicateAttribute: Entry(
            title: "attribute defined twice",
            explanation:
                """
                Two attribute definitions of one object (or of the schema's top level) have the same name. Both places are named; remove or rename \
                one.
                """,
            example: "[\n  {\"name\": \"email\", \"type\": \"string\"},\n  {\"name\": \"email\", \"type\": \"string\"}\n]"),
        .duplicateSchemaKey: Entry(
            title: "key written twice in a schema object",
            explanation: "The same key appears twice in one JSON object; JSON parsers would silently keep one of them. Both places are named.",
            example: "{\"name\": \"email\", \"name\": \"mail\", \"type\": \"string\"}"),
        .unknownConstraint: Entry(
            title: "unknown constraint",
            explanation:
                """
                Capture's constraints are required, unique, locally-unique, alphabetic, alphanumeric, unicode-letters, unicode-printable and \
                email-address. The hint names the closest one.
                """,
            example: "{\"name\": \"email\", \"type\": \"string\", \"constraints\": [\"uniqe\"]}"),
        .invalidAttributeName: Entry(
            title: "invalid attribute name",
            explanation:
                """
                Attribute names are parts of record paths (`/primaryAddress/city`, `primaryAddress.city`): they are not empty and hold no `/`, `.`, \
                `#`, whitespace or control characters.
                """,
            example: "{\"name\": \"primary address\", \"type\": \"object\", \"attr_defs\": []}"),
        .schemaErrorResponse: Entry(
            title: "schema file holds an API error",
            explanation: "The file is a Capture API answer with `\"stat\": \"error\"` (a failed download), not a schema. Download the schema again.",
            example: "{\"stat\": \"error\", \"code\": 403, \"error_description\": \"...\"}"),
        .unknownAccessPath: Entry(
            title: "access schema names an unknown attribute",
            explanation:
                """
                Every path of an access schema (`/displayName`, `/primaryAddress/city`) must name an attribute of the schema. The hint names the \
                closest path.
                """,
            example: "[\"/displayname\"]"),
        .unknownSchemaAttribute: Entry(
            title: "schemaId names no attribute of the schema",
            explanation:
                """
                With `lint --schema`, every field's `schemaId` path must exist in the Capture schema; the server refuses values for unknown \
                attributes. The hint names the closest attribute.
                """,
            example: "schemaId: primaryAddress.mobil"),
        .fieldDoesNotFitAttribute: Entry(
            title: "field type does not fit the attribute",
            explanation:
                """
                The attribute's type cannot hold what the field sends: a `dateselect` writes a `date`, a `checkbox` a `boolean`, a `password` field \
                a password attribute and nothing else; text fields write strings (or numbers, IP addresses); no field writes a whole object, a \
                plural or a `json` attribute.
                """,
            example: "birthdate: { type: dateselect, schemaId: displayName }"),
        .fieldWritesReservedAttribute: Entry(
            title: "field writes an attribute the server sets",
            explanation:
                "`id`, `uuid`, `created` and `lastUpdated` (and every attribute of type `id`) are set by the server; a form cannot write them.",
            example: "schemaId: uuid"),
        .requiredAttributeNotSet: Entry(
            title: "registration form never sets a required attribute",
            explanation:
                """
                The schema marks the attribute `required`, but the registration form (traditional or social) has no field that writes it, so every \
                registration would be refused. Add a field, or drop the constraint.
                """,
            example: "givenName required, registrationForm without a givenName field"),
        .optionDoesNotFitAttribute: Entry(
            title: "option value does not fit the attribute type",
            explanation:
                """
                A select or radio field writes its options' values: for a `boolean` attribute they are `true` or `false`, for an `integer` one \
                integers, for a `decimal` one numbers.
                """,
            example: "options: [{ value: maybe }] on a boolean attribute"),
        .lengthExceedsAttribute: Entry(
            title: "field allows values longer than the attribute holds",
            explanation:
                """
                The field's `maxLength` is above the attribute's `length`: values in between pass the form and are refused by the server. Lower \
                `maxLength`.
                """,
            example: "{ rule: maxLength, value: 500 } on an attribute of length 100"),
        .constraintNotChecked: Entry(
            title: "field does not check an attribute constraint",
            explanation:
                """
                The attribute accepts only email addresses (`email-address`), letters (`alphabetic`) or letters and digits (`alphanumeric`), and the \
                field does not check it (an `email` field, or a `format` rule), so the server refuses what the form let through.
                """,
            example: "a text field on an email-address attribute"),
        .accessPathIgnored: Entry(
            title: "access-schema path makes nothing writable",
            explanation:
                """
                A path of the access schema names an attribute inside a plural (plurals are written whole with `entity.replace`: list the plural \
                itself), one the server sets (`id`, `uuid`, `created`, `lastUpdated`, attributes of type `id`), or a password attribute (written \
                through the forms, not part of the generated model). The path is left out, so the generated documentation and \
                `writableAttributePaths` do not count it.
                """,
            example: "[\"/photos/value\", \"/id\"]"),

        .flowDocumentSyntax: Entry(
            title: "flow document is not valid JSON",
            explanation:
                """
                A Capture flow document (`flow import`, `--flow FILE.json`, a `flow:` of jump.yaml ending in `.json`) is JSON; the parser stopped at \
                this place, and the message names what it expected. An empty file, an HTML error page or a truncated download ends here too.
                """,
            example: "{\"version\": \"1\", \"fields\": {"),
        .flowDocumentWrongKind: Entry(
            title: "wrong kind of value in a flow document",
            explanation:
                """
                An object, a list, a string, a number or a boolean was expected and something else was found: the document is an object; `fields` an \
                object of fields and forms; a field an object with a string `type`; a form's `fields` a list of field names; `validation` and \
                `options` lists of objects; labels, tips, placeholders and messages strings (see the section \"Capture flow documents\" of \
                docs/flow-format.md).
                """,
            example: "{\"version\": \"1\", \"fields\": {\"signInForm\": {\"fields\": \"email\"}}}"),
        .flowDocumentMissingKey: Entry(
            title: "required key missing in a flow document",
            explanation:
                """
                The document has no `version` or `fields`, a field has no `type`, a rule no `rule` or `message`, an option no `value`; or nothing \
                says the document's flow or locale: documents `flow export` writes say both (`jumpForms.flow`, `jumpForms.locale`), Capture's own \
                are named by their CDN path (`<flow>/<version>/<locale>.json`), or `flow import --name` gives the flow.
                """,
            example: "{\"fields\": {}}"),
        .flowDocumentUnknownValue: Entry(
            title: "unknown field type or rule in a flow document",
            explanation:
                """
                The field type or validation rule is not one jump-forms knows (field types: text, email, password, dateselect, select, radio, \
                checkbox, textarea, hidden; rules: Capture's, plus `pattern` and `maxYears`). The hint names the closest one. Capture's \
                `clientFunctionName` and `serverRegexSetting` are known and dropped with a warning (JF604) instead.
                """,
            example: "{\"type\": \"emial\", \"schemaId\": \"email\"}"),
        .flowDocumentDropped: Entry(
            title: "part of a flow document dropped",
            explanation:
                """
                The document holds something the flow format has no place for (Capture keys such as `socialProfileData`, `emptyMeansNull` or a \
                form's `features`, the rules `clientFunctionName` and `serverRegexSetting`, unknown top-level keys). The flow is made without it; \
                the hint names the closest known key when the key looks like a typo. See \"What each format holds\" in docs/flow-format.md.
                """,
            example: "{\"type\": \"text\", \"socialProfileData\": \"profile.displayName\"}"),
        .flowDocumentsDisagree: Entry(
            title: "flow documents of one flow disagree",
            explanation:
                """
                The documents given together are the locales of one flow: they must have the same flow name and `version`, each a locale of its own, \
                and the same fields, forms, types, schema paths, options and rules; only their texts differ. A message the documents carry \
                (`jumpForms.messages`) must say the same in each. The first document's place is named too.
                """,
            example: "flow import standard/v1/en-US.json standard/v2/fr-FR.json"),
        .flowDocumentDuplicateKey: Entry(
            title: "key written twice in a flow document object",
            explanation:
                """
                The same key appears twice in one JSON object; JSON parsers would silently keep one of them (and a field or form written twice would \
                hide the first). Both places are named.
                """,
            example: "{\"fields\": {\"email\": {...}, \"email\": {...}}}"),
        .flowDocumentTextMismatch: Entry(
            title: "text differs from the message it was made from",
            explanation:
                """
                A document `flow export` wrote carries each text's message (`labelKey`, `messageKey`, ... and `jumpForms.messages`); this text no \
                longer reads as its message renders, so it was edited by hand. The message is kept: change it in `jumpForms.messages` (or in the \
                locale file after import), or drop the key so that the text becomes the message.
                """,
            example: "\"label\": \"E-mail\", \"labelKey\": \"fields.emailAddress.label\" (whose message says \"Email address\")"),
        .fieldAndFormShareName: Entry(
            title: "a field and a form share a name",
            explanation:
                """
                A flow keeps fields and forms apart, but Capture's flow document holds both in one map (`fields`): a field and a form of the same \
                name cannot both be written, so `flow export` and the server's flow document refuse the flow. Rename one of them.
                """,
            example: "fields: { signInForm: {...} }\nforms: { signInForm: {...} }")
    ]
    // swiftlint:enable line_length
}

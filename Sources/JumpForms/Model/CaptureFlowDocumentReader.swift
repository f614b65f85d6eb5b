/// Reads Capture flow documents (JSON) back into a flow and its messages, every part with the
/// place it was written, collecting every problem as a located diagnostic (`JF6xx`, and the
/// decode codes they share with YAML flows: invalid names, locale tags and rule values).
///
/// A document from `CaptureFlowDocument.encode` carries its message keys and ICU messages and
/// comes back as the same flow. One of Capture's own carries rendered texts only: each text
/// becomes a message of the document's locale under a key made from the field's name
/// (`fields.<field>.label`, `options.<field>.<value>`, `validation.<field>.<rule>`), written so
/// that it renders as the text. What the flow format cannot hold is dropped with a warning
/// (JF604). Several documents (one per locale of one flow) make one flow with one catalog per
/// locale (`combine`).
public enum CaptureFlowDocumentReader {
    /// What one document says.
    public struct Document: Sendable {
        public var path: String
        public var version: Located<String>?
        /// `jumpForms.flow`.
        public var flowName: Located<String>?
        /// The flow the document's path names in the CDN layout (`<flow>/<version>/<locale>.json`).
        public var flowNameFromPath: String?
        /// `jumpForms.locale`, else the file's name (`fr-FR.json`).
        public var locale: Located<LocaleTag>?
        /// `jumpForms.defaultLocale`.
        public var defaultLocale: Located<LocaleTag>?
        public var fields: [FieldDefinition] = []
        public var forms: [FormDefinition] = []
        /// `jumpForms.providers` (nil when the document has none: Capture's never do).
        public var providers: [ProviderDefinition]?
        /// The messages the document carries or makes, by locale, in order of first appearance.
        public var messages: [(locale: Located<LocaleTag>, messages: [LocaleMessage])] = []
        /// Each text of the document with the message key it stands for (when the document
        /// says the key, and carries its messages): checked against the message in `combine`.
        public var keyedTexts: [KeyedText] = []
        /// Where the document starts (its first byte).
        public var start: SourceLocation
        /// Whether the file is a JSON object (else only its diagnostics count).
        public var isReadable = false
        public var diagnostics: [Diagnostic] = []

        init(path: String) {
            self.path = path
            start = SourceLocation(file: path, line: 1, column: 1)
        }
    }

    /// A text the document holds under a message key it names.
    public struct KeyedText: Sendable {
        public enum Slot: Sendable, Hashable {
            case label, placeholder, tip
            case option(Int)
            case rule(Int)
        }

        public var field: String
        public var slot: Slot
        public var text: Located<String>
    }

    /// The flow several documents make, with one catalog per locale.
    public struct Result: Sendable {
        public var flow: Flow?
        public var catalogs: [LocaleCatalog]
        public var diagnostics: [Diagnostic]
    }

    /// Capture's rules the flow format has no place for: dropped with a warning.
    static let droppedRules: Set<String> = ["clientFunctionName", "serverRegexSetting"]
    /// Capture's rule that leaves a field's other rules to the server.
    static let serverSideRule = "disableClientSide"

    // MARK: one document

    /// Reads one document. `file` names it in the locations.
    public static func read(_ bytes: [UInt8], file: String) -> Document {
        var reader = DocumentReader(path: file)
        reader.read(bytes)
        return reader.document
    }

    /// The flow of a set of documents (each a locale of one flow). `name` and `defaultLocale`
    /// (from the command line) win over what the documents say; `fallbackCatalogs` are the
    /// built-in words the texts were rendered with (for the check of texts against messages).
    public static func combine(
        _ documents: [Document], name: String? = nil, defaultLocale: LocaleTag? = nil,
        fallbackCatalogs: [LocaleCatalog] = []
    ) -> Result {
        var combiner = Combiner(documents: documents)
        return combiner.combine(name: name, defaultLocale: defaultLocale, fallbackCatalogs: fallbackCatalogs)
    }

    /// The flow a CDN path names: `.../<flow>/<version>/<locale>.json` (`version` may be `HEAD`).
    static func flowName(fromPath path: String, version: String?) -> String? {
        let parts = path.split(separator: "/").map(String.init)
        guard parts.count >= 3 else { return nil }
        let folder = parts[parts.count - 2]
        guard folder == "HEAD" || folder == version else { return nil }
        return parts[parts.count - 3]
    }

    /// The locale a file's name says (`fr-FR.json`), if it is a tag.
    static func locale(fromPath path: String) -> LocaleTag? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard name.hasSuffix(".json") else { return nil }
        return LocaleTag(String(name.dropLast(5)))
    }

    static func isValidName(_ name: String) -> Bool {
        let scalars = name.unicodeScalars
        func letter(_ scalar: Unicode.Scalar) -> Bool { ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) }
        return scalars.first.map(letter) == true
            && scalars.allSatisfy { letter($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" }
    }
}

// MARK: - reading one document

private struct DocumentReader {
    typealias Member = JSONNode.Member
    var document: CaptureFlowDocumentReader.Document
    /// Whether the document carries its messages (`jumpForms.messages`): then the keys it
    /// names are used; otherwise keys are made from the field names and texts become messages.
    var usesNamedKeys = false
    /// Messages made from texts (documents without `jumpForms.messages`).
    var madeMessages: [LocaleMessage] = []
    var madeKeys = Set<String>()

    init(path: String) {
        document = CaptureFlowDocumentReader.Document(path: path)
    }

    var path: String { document.path }

    mutating func report(
        _ code: DiagnosticCode, _ message: String, at location: SourceLocation?, hint: String? = nil,
        related: [Diagnostic.Related] = []
    ) {
        document.diagnostics.append(Diagnostic(code, message, at: location, hint: hint, related: related, file: path))
    }

    mutating func read(_ bytes: [UInt8]) {
        if let tag = CaptureFlowDocumentReader.locale(fromPath: path) { document.locale = Located(tag, at: document.start) }
        let root: JSONNode
        do {
            root = try JSONNode.parse(bytes, file: path)
        } catch {
            report(
                .flowDocumentSyntax, "not valid JSON: \(error.message)",
                at: SourceLocation(file: path, line: error.line, column: error.column),
                hint: bytes.isEmpty ? "the file is empty" : Self.syntaxHint(bytes))
            return
        }
        guard let members = object(root, "a flow document") else { return }
        document.isReadable = true
        let keyed = self.keyed(members, known: CaptureFlowDocument.Key.allCases.map(\.rawValue), context: "the document", dropping: true)
        if let node = keyed["version"] {
            document.version = string(node, "'version'")
        } else {
            report(
                .flowDocumentMissingKey, "the document has no 'version'", at: root.location,
                hint: "Capture's documents say their version (the SDKs send it as flow_version)")
        }
        if let node = keyed[CaptureFlowDocument.Key.jumpForms.rawValue] { readExtension(node) }
        document.flowNameFromPath = CaptureFlowDocumentReader.flowName(fromPath: path, version: document.version?.value)
        var schemaPaths: [Member] = []
        if let info = keyed[CaptureFlowDocument.Key.schemaInfo.rawValue], let infoMembers = object(info, "'schema_info'") {
            let infoKeyed = self.keyed(
                infoMembers, known: CaptureFlowDocument.SchemaInfoKey.allCases.map(\.rawValue), context: "'schema_info'", dropping: true)
            if let node = infoKeyed["paths"], let pathMembers = object(node, "'schema_info.paths'") {
                schemaPaths = unique(pathMembers, context: "'schema_info.paths'")
            }
        }
        if let node = keyed[CaptureFlowDocument.Key.fields.rawValue] {
            readEntries(node)
        } else {
            report(.flowDocumentMissingKey, "the document has no 'fields' (its fields and forms)", at: root.location)
        }
        applySchemaPaths(schemaPaths)
        if !madeMessages.isEmpty, let locale = document.locale {
            document.messages.insert((locale, madeMessages), at: 0)
        }
    }

    /// What a JSON syntax error most likely is, when the start of the file tells.
    static func syntaxHint(_ bytes: [UInt8]) -> String? {
        let start = String(decoding: bytes.prefix(64), as: UTF8.self).drop { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }.lowercased()
        if start.hasPrefix("flow:") || start.hasPrefix("#") { return "the file looks like a YAML flow file: name it NAME.yaml" }
        return nil
    }

    // MARK: JSON helpers

    mutating func object(_ node: JSONNode, _ context: String) -> [Member]? {
        guard case .object(let members) = node.value else {
            report(.flowDocumentWrongKind, "\(context) must be an object, found \(node.kindDescription)", at: node.location)
            return nil
        }
        return members
    }

    mutating func array(_ node: JSONNode, _ context: String) -> [JSONNode]? {
        guard case .array(let items) = node.value else {
            report(.flowDocumentWrongKind, "\(context) must be a list, found \(node.kindDescription)", at: node.location)
            return nil
        }
        return items
    }

    mutating func string(_ node: JSONNode, _ context: String) -> Located<String>? {
        guard case .string(let text) = node.value else {
            report(.flowDocumentWrongKind, "\(context) must be a string, found \(node.kindDescription)", at: node.location)
            return nil
        }
        return Located(text, at: node.location)
    }

    mutating func bool(_ node: JSONNode, _ context: String) -> Bool? {
        guard case .bool(let flag) = node.value else {
            report(.flowDocumentWrongKind, "\(context) must be true or false, found \(node.kindDescription)", at: node.location)
            return nil
        }
        return flag
    }

    /// The members, each key once: a key written again is reported (JF606) and its later
    /// values ignored.
    mutating func unique(_ members: [Member], context: String) -> [Member] {
        var first: [String: SourceLocation] = [:]
        var kept: [Member] = []
        for member in members {
            if let location = first[member.key.value] {
                report(
                    .flowDocumentDuplicateKey, "'\(member.key.value)' is written twice in \(context)", at: member.key.location,
                    related: [Diagnostic.Related("first written here", at: location)])
                continue
            }
            first[member.key.value] = member.key.location
            kept.append(member)
        }
        return kept
    }

    /// The members by key. Keys not in `known` are reported: dropped with a warning where the
    /// document is Capture's (`dropping`), refused where it is jump-forms' own (`jumpForms`).
    mutating func keyed(_ members: [Member], known: [String], context: String, dropping: Bool) -> [String: JSONNode] {
        var result: [String: JSONNode] = [:]
        for member in unique(members, context: context) {
            guard known.contains(member.key.value) else {
                if dropping {
                    report(
                        .flowDocumentDropped, "'\(member.key.value)' of \(context) is dropped: the flow format has no place for it",
                        at: member.key.location, hint: Suggestion.hint(for: member.key.value, among: known))
                } else {
                    let hint = Suggestion.hint(for: member.key.value, among: known) ?? "known keys: \(known.joined(separator: ", "))"
                    report(.unknownKey, "unknown key '\(member.key.value)' in \(context)", at: member.key.location, hint: hint)
                }
                continue
            }
            result[member.key.value] = member.value
        }
        return result
    }

    mutating func localeTag(_ node: JSONNode, _ context: String) -> Located<LocaleTag>? {
        guard let text = string(node, context) else { return nil }
        guard let tag = LocaleTag(text.value) else {
            report(
                .invalidLocaleTag, "'\(text.value)' is not a BCP 47 locale tag", at: text.location,
                hint: "write a tag such as en-US, fr, pt-BR or zh-Hant-TW")
            return nil
        }
        return Located(tag, at: text.location)
    }

    mutating func checkName(_ name: Located<String>, what: String) -> Bool {
        guard CaptureFlowDocumentReader.isValidName(name.value) else {
            report(.invalidName, "invalid \(what) name '\(name.value)': use a letter, then letters, digits, '_' or '-'", at: name.location)
            return false
        }
        return true
    }

    // MARK: the jumpForms object

    mutating func readExtension(_ node: JSONNode) {
        guard let members = object(node, "'jumpForms'") else { return }
        let keyed = self.keyed(members, known: CaptureFlowDocument.ExtensionKey.allCases.map(\.rawValue), context: "'jumpForms'", dropping: false)
        if let node = keyed["flow"], let name = string(node, "'jumpForms.flow'") { document.flowName = name }
        if let node = keyed["locale"] { document.locale = localeTag(node, "'jumpForms.locale'") }
        if let node = keyed["defaultLocale"] { document.defaultLocale = localeTag(node, "'jumpForms.defaultLocale'") }
        if let node = keyed["providers"], let items = array(node, "'jumpForms.providers'") {
            document.providers = items.compactMap { provider($0) }
        }
        if let node = keyed["messages"], let byLocale = object(node, "'jumpForms.messages'") {
            usesNamedKeys = true
            for entry in unique(byLocale, context: "'jumpForms.messages'") {
                guard let tag = LocaleTag(entry.key.value) else {
                    report(
                        .invalidLocaleTag, "'\(entry.key.value)' is not a BCP 47 locale tag", at: entry.key.location,
                        hint: "'jumpForms.messages' holds an object of messages per locale tag")
                    continue
                }
                guard let messages = object(entry.value, "the messages of \(tag)") else { continue }
                let list = unique(messages, context: "the messages of \(tag)").compactMap { member -> LocaleMessage? in
                    guard let text = string(member.value, "message '\(member.key.value)'") else { return nil }
                    return Self.message(key: member.key.value, keyLocation: member.key.location, text: text)
                }
                document.messages.append((Located(tag, at: entry.key.location), list))
            }
        }
    }

    static func message(key: String, keyLocation: SourceLocation, text: Located<String>) -> LocaleMessage {
        // The text starts after the opening quote.
        LocaleMessage(
            key: key, text: text.value, keyLocation: keyLocation, valueLocation: text.location,
            offsetMap: .linear(line: text.location.line, column: text.location.column + 1))
    }

    mutating func provider(_ node: JSONNode) -> ProviderDefinition? {
        if case .string(let id) = node.value {
            return ProviderDefinition(id: Located(id, at: node.location), kind: .builtIn, location: node.location)
        }
        guard let members = object(node, "a provider") else { return nil }
        let keyed = self.keyed(members, known: CaptureFlowDocument.ProviderKey.allCases.map(\.rawValue), context: "a provider", dropping: false)
        guard let idNode = keyed["id"] else {
            report(.flowDocumentMissingKey, "a provider has no 'id'", at: node.location)
            return nil
        }
        guard let id = string(idNode, "the id of a provider") else { return nil }
        func text(_ key: CaptureFlowDocument.ProviderKey) -> Located<String>? {
            keyed[key.rawValue].flatMap { string($0, "'\(key.rawValue)' of provider '\(id.value)'") }
        }
        let name = text(.name)
        let kind: ProviderDefinition.Kind
        switch keyed["type"].flatMap({ string($0, "the type of provider '\(id.value)'") }) {
        case nil: kind = .builtIn
        case let type? where type.value == "openid": kind = .openID(identifier: text(.openidIdentifier), opxBlob: text(.opxBlob))
        case let type? where type.value == "saml": kind = .saml(provider: text(.samlProvider))
        case let type?:
            report(
                .flowDocumentUnknownValue, "unknown provider type '\(type.value)'", at: type.location,
                hint: Suggestion.hint(for: type.value, among: ["openid", "saml"]) ?? "expected one of: openid, saml")
            return nil
        }
        return ProviderDefinition(id: id, kind: kind, name: name, location: node.location)
    }

    // MARK: fields and forms

    mutating func readEntries(_ node: JSONNode) {
        guard let members = object(node, "'fields'") else { return }
        for entry in unique(members, context: "'fields'") {
            guard let entryMembers = object(entry.value, "field or form '\(entry.key.value)'") else { continue }
            let keys = Set(entryMembers.map(\.key.value))
            if keys.contains(CaptureFlowDocument.FieldKey.type.rawValue) {
                guard checkName(entry.key, what: "field") else { continue }
                if let field = field(entry.key, entryMembers) { document.fields.append(field) }
            } else if keys.contains(CaptureFlowDocument.FormKey.fields.rawValue) {
                guard checkName(entry.key, what: "form") else { continue }
                if let form = form(entry.key, entryMembers) { document.forms.append(form) }
            } else {
                report(
                    .flowDocumentMissingKey, "'\(entry.key.value)' has neither 'type' (a field) nor 'fields' (a form)",
                    at: entry.key.location)
            }
        }
    }

    mutating func form(_ name: Located<String>, _ members: [Member]) -> FormDefinition? {
        let context = "form '\(name.value)'"
        let keyed = self.keyed(members, known: CaptureFlowDocument.FormKey.allCases.map(\.rawValue), context: context, dropping: true)
        guard let list = keyed["fields"], let items = array(list, "the fields of \(context)") else { return nil }
        let fields = items.compactMap { string($0, "a field name of \(context)") }
        if items.isEmpty { report(.flowDocumentWrongKind, "\(context) lists no fields", at: list.location) }
        return FormDefinition(name: name.value, location: name.location, fields: fields)
    }

    mutating func field(_ name: Located<String>, _ members: [Member]) -> FieldDefinition? {
        let context = "field '\(name.value)'"
        let keyed = self.keyed(members, known: CaptureFlowDocument.FieldKey.allCases.map(\.rawValue), context: context, dropping: true)
        let type: Located<FieldType>? = keyed["type"].flatMap { string($0, "the type of \(context)") }.flatMap { text in
            guard let type = FieldType(rawValue: text.value) else {
                let known = FieldType.allCases.map(\.rawValue)
                report(
                    .flowDocumentUnknownValue, "unknown field type '\(text.value)' of \(context)", at: text.location,
                    hint: Suggestion.hint(for: text.value, among: known) ?? "expected one of: \(known.joined(separator: ", "))")
                return nil
            }
            return Located(type, at: text.location)
        }
        let schemaId = keyed["schemaId"].flatMap { schemaID($0, context) }
        func slot(
            _ textKey: CaptureFlowDocument.FieldKey, _ keyKey: CaptureFlowDocument.FieldKey,
            _ slot: CaptureFlowDocumentReader.KeyedText.Slot
        ) -> Located<String>? {
            guard let text = keyed[textKey.rawValue].flatMap({ string($0, "the \(textKey.rawValue) of \(context)") }) else { return nil }
            let named = keyed[keyKey.rawValue].flatMap { string($0, "'\(keyKey.rawValue)' of \(context)") }
            return messageKey(named: named, made: "fields.\(name.value).\(textKey.rawValue)", text: text, field: name.value, slot: slot)
        }
        let label = slot(.label, .labelKey, .label)
        let placeholder = slot(.placeholder, .placeholderKey, .placeholder)
        let tip = slot(.tip, .tipKey, .tip)
        var defaultValue = keyed["default"].flatMap { string($0, "the default of \(context)") }
        var options: [FieldOption] = []
        if let node = keyed["options"], let items = array(node, "the options of \(context)") {
            var selected: [Located<String>] = []
            for (index, item) in items.enumerated() {
                if let (option, isSelected) = option(item, index: index, field: name.value, taken: options) {
                    options.append(option)
                    if isSelected { selected.append(option.value) }
                }
            }
            // Capture's pre-selected option is the flow format's `default`.
            if defaultValue == nil, let first = selected.first { defaultValue = first }
            for extra in selected.dropFirst() {
                report(
                    .flowDocumentDropped, "option '\(extra.value)' of \(context) is pre-selected too: only the first becomes the field's default",
                    at: extra.location)
            }
        }
        var rules: [ValidationRule] = []
        if let node = keyed["validation"], let items = array(node, "the validation of \(context)") {
            var serverSide = false
            for item in items {
                switch rule(item, field: name.value, taken: rules) {
                case .rule(let rule): rules.append(rule)
                case .serverSide: serverSide = true
                case .none: break
                }
            }
            if serverSide { for index in rules.indices { rules[index].clientSide = false } }
        }
        guard let type else {
            if keyed["type"] == nil { report(.flowDocumentMissingKey, "\(context) has no 'type'", at: name.location) }
            return nil
        }
        return FieldDefinition(
            name: name.value, location: name.location, type: type, schemaId: schemaId, label: label,
            placeholder: placeholder, tip: tip, options: options,
            optionsLocation: members.first { $0.key.value == "options" }?.key.location,
            validation: rules, defaultValue: defaultValue)
    }

    /// The key a text stands for: the one the document names when it carries its messages,
    /// else `made` (unique in the document), whose message is the text itself.
    mutating func messageKey(
        named: Located<String>?, made: String, text: Located<String>, field: String,
        slot: CaptureFlowDocumentReader.KeyedText.Slot
    ) -> Located<String> {
        if usesNamedKeys, let named {
            document.keyedTexts.append(CaptureFlowDocumentReader.KeyedText(field: field, slot: slot, text: text))
            return named
        }
        var key = made
        var counter = 2
        while !madeKeys.insert(key).inserted {
            key = "\(made).\(counter)"
            counter += 1
        }
        let source = MessagePrinter.escape(text.value, inPlural: false, followedBySpecial: false)
        madeMessages.append(Self.message(key: key, keyLocation: text.location, text: Located(source, at: text.location)))
        return Located(key, at: text.location)
    }

    mutating func schemaID(_ node: JSONNode, _ context: String) -> SchemaID? {
        if case .object(let members) = node.value {
            let subs = unique(members, context: "the schemaId of \(context)").compactMap { member -> SchemaID.SubPath? in
                guard let path = string(member.value, "schemaId '\(member.key.value)' of \(context)") else { return nil }
                return SchemaID.SubPath(key: member.key.value, path: path)
            }
            if members.isEmpty { report(.flowDocumentWrongKind, "the schemaId of \(context) is an empty object", at: node.location) }
            return subs.isEmpty ? nil : .map(subs)
        }
        guard case .string(let path) = node.value else {
            report(
                .flowDocumentWrongKind, "the schemaId of \(context) must be a string or an object of strings, found \(node.kindDescription)",
                at: node.location)
            return nil
        }
        return .path(Located(path, at: node.location))
    }

    mutating func option(_ node: JSONNode, index: Int, field: String, taken: [FieldOption]) -> (FieldOption, selected: Bool)? {
        let context = "an option of field '\(field)'"
        guard let members = object(node, context) else { return nil }
        let keyed = self.keyed(members, known: CaptureFlowDocument.OptionKey.allCases.map(\.rawValue), context: context, dropping: true)
        guard let valueNode = keyed["value"] else {
            report(.flowDocumentMissingKey, "\(context) has no 'value'", at: node.location)
            return nil
        }
        let value: Located<String>
        switch valueNode.value {
        case .string(let text): value = Located(text, at: valueNode.location)
        // Capture writes some option values as numbers or booleans: the form sends their text.
        case .number(let text): value = Located(text, at: valueNode.location)
        case .bool(let flag): value = Located(flag ? "true" : "false", at: valueNode.location)
        default:
            report(.flowDocumentWrongKind, "the value of \(context) must be a string, found \(valueNode.kindDescription)", at: valueNode.location)
            return nil
        }
        let text = keyed["text"].flatMap { string($0, "the text of \(context)") } ?? value
        let named = keyed["textKey"].flatMap { string($0, "'textKey' of \(context)") }
        let takenKeys = Set(taken.map(\.label.value))
        var made = "options.\(field).\(value.value)"
        if !CaptureFlowDocumentReader.isValidName(value.value) || takenKeys.contains(made) { made = "options.\(field).option\(index + 1)" }
        let label = messageKey(named: named, made: made, text: text, field: field, slot: .option(taken.count))
        let disabled = keyed["disabled"].flatMap { bool($0, "'disabled' of \(context)") } ?? false
        let selected = keyed["selected"].flatMap { bool($0, "'selected' of \(context)") } ?? false
        return (FieldOption(value: value, label: label, disabled: disabled, location: node.location), selected)
    }

    enum RuleRead {
        case rule(ValidationRule)
        /// `{"rule": "disableClientSide", "value": true}`: the field's rules are the server's.
        case serverSide
    }

    mutating func rule(_ node: JSONNode, field: String, taken: [ValidationRule]) -> RuleRead? {
        let context = "a rule of field '\(field)'"
        guard let members = object(node, context) else { return nil }
        let keyed = self.keyed(members, known: CaptureFlowDocument.RuleKey.allCases.map(\.rawValue), context: context, dropping: true)
        guard let ruleNode = keyed["rule"] else {
            report(.flowDocumentMissingKey, "\(context) has no 'rule'", at: node.location)
            return nil
        }
        guard let name = string(ruleNode, "'rule' of \(context)") else { return nil }
        if name.value == CaptureFlowDocumentReader.serverSideRule {
            let on = keyed["value"].map { $0.value == .bool(true) } ?? true
            return on ? .serverSide : nil
        }
        if CaptureFlowDocumentReader.droppedRules.contains(name.value) {
            report(
                .flowDocumentDropped,
                "rule '\(name.value)' of field '\(field)' is dropped: it names server or browser code the flow format cannot run",
                at: name.location, hint: name.value == "serverRegexSetting" ? "write the expression as a 'pattern' rule" : nil)
            return nil
        }
        guard let kind = RuleKind(rawValue: name.value) else {
            let known = RuleKind.allCases.map(\.rawValue)
            report(
                .flowDocumentUnknownValue, "unknown rule '\(name.value)' of field '\(field)'", at: name.location,
                hint: Suggestion.hint(
                    for: name.value, among: known + CaptureFlowDocumentReader.droppedRules + [CaptureFlowDocumentReader.serverSideRule])
                    ?? "expected one of: \(known.joined(separator: ", "))")
            return nil
        }
        let valueNode = keyed["value"]
        let value: RuleValue
        switch ruleValue(kind, valueNode, ruleLocation: name.location) {
        case .value(let read): value = read
        case .off: return nil
        case .invalid: return nil
        }
        guard let messageNode = keyed["message"] else {
            report(.flowDocumentMissingKey, "\(context) ('\(kind.rawValue)') has no 'message'", at: node.location)
            return nil
        }
        guard let text = string(messageNode, "the message of \(context)") else { return nil }
        let named = keyed["messageKey"].flatMap { string($0, "'messageKey' of \(context)") }
        let message = messageKey(named: named, made: "validation.\(field).\(kind.rawValue)", text: text, field: field, slot: .rule(taken.count))
        let serverSide = keyed["disableClientSide"].flatMap { bool($0, "'disableClientSide' of \(context)") } ?? false
        return .rule(
            ValidationRule(
                kind: kind, value: value, message: message, clientSide: !serverSide, location: name.location,
                valueLocation: valueNode?.location))
    }

    enum ValueRead {
        case value(RuleValue)
        /// `"value": false` on a rule that takes none: the rule is off (Capture's optional field).
        case off
        case invalid
    }

    mutating func ruleValue(_ kind: RuleKind, _ node: JSONNode?, ruleLocation: SourceLocation) -> ValueRead {
        func invalid(_ problem: String, at location: SourceLocation) -> ValueRead {
            report(.invalidRuleValue, "rule '\(kind.rawValue)': \(problem)", at: location)
            return .invalid
        }
        switch kind.valueShape {
        case .none:
            guard let node else { return .value(.none) }
            switch node.value {
            case .bool(true): return .value(.none)
            case .bool(false): return .off
            default: return invalid("takes true (or false to turn it off), found \(node.kindDescription)", at: node.location)
            }
        case .integer:
            guard let node else { return invalid("needs an integer 'value'", at: ruleLocation) }
            switch node.value {
            // Capture writes some numbers as strings.
            case .number(let text), .string(let text):
                guard let number = Int(text) else { return invalid("'value' must be an integer, found '\(text)'", at: node.location) }
                return .value(.integer(number))
            default: return invalid("'value' must be an integer, found \(node.kindDescription)", at: node.location)
            }
        case .fieldName, .format, .pattern:
            let what = kind.valueShape == .fieldName ? "a field name" : kind.valueShape == .format ? "a format name" : "a regular expression"
            guard let node else { return invalid("needs \(what) as 'value'", at: ruleLocation) }
            guard case .string(let text) = node.value else {
                return invalid("'value' must be \(what), found \(node.kindDescription)", at: node.location)
            }
            return .value(.text(text))
        case .stringList:
            guard let node else { return invalid("needs a list of strings as 'value'", at: ruleLocation) }
            guard case .array(let items) = node.value else {
                return invalid("'value' must be a list of strings, found \(node.kindDescription)", at: node.location)
            }
            var list: [String] = []
            for item in items {
                guard case .string(let text) = item.value else {
                    return invalid("'value' must be a list of strings, found \(item.kindDescription) in it", at: item.location)
                }
                list.append(text)
            }
            return .value(.list(list))
        }
    }

    /// `schema_info.paths`: a field without `schemaId` takes its path from there; a path that
    /// disagrees with the field's `schemaId`, or names no field (nor a `SchemaRole` the SDK reads
    /// by name), is dropped with a warning.
    mutating func applySchemaPaths(_ paths: [Member]) {
        let fieldIndex = Dictionary(document.fields.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        for entry in paths {
            guard let index = fieldIndex[entry.key.value] else {
                let isRole = CaptureFlowDocument.SchemaRole(rawValue: entry.key.value) != nil
                if !isRole && !document.forms.contains(where: { $0.name == entry.key.value }) {
                    report(
                        .flowDocumentDropped, "'schema_info.paths' names '\(entry.key.value)', which is no field of the document: dropped",
                        at: entry.key.location)
                }
                continue
            }
            guard let path = schemaID(entry.value, "'schema_info.paths'") else { continue }
            if let own = document.fields[index].schemaId {
                if CaptureFlowDocument.schemaID(own) != CaptureFlowDocument.schemaID(path) {
                    report(
                        .flowDocumentDropped,
                        "'schema_info.paths' gives field '\(entry.key.value)' another path than its schemaId: the schemaId is kept",
                        at: entry.value.location,
                        related: [Diagnostic.Related("the field's schemaId", at: own.paths.first?.location ?? document.fields[index].location)])
                }
            } else {
                document.fields[index].schemaId = path
            }
        }
    }
}

// MARK: - combining the documents of one flow

private struct Combiner {
    var documents: [CaptureFlowDocumentReader.Document]
    var diagnostics: [Diagnostic] = []

    init(documents: [CaptureFlowDocumentReader.Document]) {
        self.documents = documents
    }

    mutating func report(
        _ code: DiagnosticCode, _ message: String, at location: SourceLocation, hint: String? = nil,
        related: [Diagnostic.Related] = []
    ) {
        diagnostics.append(Diagnostic(code, message, at: location, hint: hint, related: related))
    }

    mutating func combine(name: String?, defaultLocale: LocaleTag?, fallbackCatalogs: [LocaleCatalog]) -> CaptureFlowDocumentReader.Result {
        diagnostics = documents.flatMap(\.diagnostics)
        // A file that is no JSON object has said all there is to say.
        documents = documents.filter(\.isReadable)
        guard let first = documents.first else { return .init(flow: nil, catalogs: [], diagnostics: diagnostics) }

        // The flow's name, version and locales.
        let flowName: Located<String>? =
            name.map { Located($0, at: first.start) } ?? first.flowName
            ?? first.flowNameFromPath.map { Located($0, at: first.start) }
        if flowName == nil {
            report(
                .flowDocumentMissingKey, "the document does not say which flow it is", at: first.start,
                hint: "give the flow's name (flow import --name NAME), or keep Capture's CDN layout: <flow>/<version>/<locale>.json")
        }
        for document in documents.dropFirst() {
            if name == nil, let own = document.flowName, let theirs = first.flowName, own.value != theirs.value {
                report(
                    .flowDocumentsDisagree, "the document is of flow '\(own.value)', \(first.path) of flow '\(theirs.value)'", at: own.location,
                    related: [Diagnostic.Related("the first document's flow", at: theirs.location)])
            }
            if let own = document.version, let theirs = first.version, own.value != theirs.value {
                report(
                    .flowDocumentsDisagree, "the document is of version '\(own.value)', \(first.path) of version '\(theirs.value)'",
                    at: own.location, related: [Diagnostic.Related("the first document's version", at: theirs.location)])
            }
        }
        var seenLocales: [LocaleTag: SourceLocation] = [:]
        for document in documents {
            guard let locale = document.locale else {
                report(
                    .flowDocumentMissingKey, "the document does not say its locale", at: document.start,
                    hint: "name the file after its locale (fr-FR.json), as Capture's CDN does")
                continue
            }
            if let earlier = seenLocales[locale.value] {
                report(
                    .flowDocumentsDisagree, "a second document of locale \(locale.value)", at: locale.location,
                    hint: "give one document per locale", related: [Diagnostic.Related("the first one", at: earlier)])
            } else {
                seenLocales[locale.value] = locale.location
            }
        }
        let defaultTag: Located<LocaleTag>? = defaultLocale.map { Located($0, at: first.start) } ?? first.defaultLocale ?? first.locale
        if defaultLocale == nil, let theirs = first.defaultLocale {
            for document in documents.dropFirst() {
                if let own = document.defaultLocale, own.value != theirs.value {
                    report(
                        .flowDocumentsDisagree, "the document's default locale is \(own.value), \(first.path)'s \(theirs.value)", at: own.location,
                        related: [Diagnostic.Related("the first document's default locale", at: theirs.location)])
                }
            }
        }

        // The same fields, forms and providers in every document.
        for document in documents.dropFirst() { compareStructure(document, with: first) }

        // One catalog per locale: the messages of every document.
        var catalogs: [(tag: Located<LocaleTag>, path: String, messages: [LocaleMessage], index: [String: LocaleMessage])] = []
        for document in documents {
            for (tag, messages) in document.messages {
                let position: Int
                if let found = catalogs.firstIndex(where: { $0.tag.value == tag.value }) {
                    position = found
                } else {
                    catalogs.append((tag, document.path, [], [:]))
                    position = catalogs.count - 1
                }
                for message in messages {
                    if let earlier = catalogs[position].index[message.key] {
                        if earlier.text != message.text {
                            report(
                                .flowDocumentsDisagree,
                                "message '\(message.key)' (\(tag.value)) says something else than in \(earlier.valueLocation.file)",
                                at: message.valueLocation, related: [Diagnostic.Related("the first document's message", at: earlier.valueLocation)])
                        }
                        continue
                    }
                    catalogs[position].index[message.key] = message
                    catalogs[position].messages.append(message)
                }
            }
        }
        let localeCatalogs = catalogs.map { LocaleCatalog(path: $0.path, tag: $0.tag, messages: $0.messages) }

        guard let flowName, let version = first.version, let defaultTag else {
            return .init(flow: nil, catalogs: localeCatalogs, diagnostics: diagnostics)
        }
        let flow = Flow(
            path: first.path, name: flowName, version: version, defaultLocale: defaultTag,
            localesDirectory: Located("../locales", at: first.start), fields: first.fields, forms: first.forms,
            providers: first.providers ?? [])
        checkTexts(flow: flow, localizer: Localizer(defaultLocale: defaultTag.value, catalogs: localeCatalogs, fallbackCatalogs: fallbackCatalogs))
        return .init(flow: flow, catalogs: localeCatalogs, diagnostics: diagnostics)
    }

    /// Reports the first difference of each field, form and the provider list of `document`
    /// from `first`'s.
    mutating func compareStructure(_ document: CaptureFlowDocumentReader.Document, with first: CaptureFlowDocumentReader.Document) {
        let firstFields = Dictionary(first.fields.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let firstForms = Dictionary(first.forms.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for field in document.fields {
            guard let theirs = firstFields[field.name] else {
                report(.flowDocumentsDisagree, "field '\(field.name)' is not in \(first.path)", at: field.location)
                continue
            }
            if let difference = Self.difference(field, theirs) {
                report(
                    .flowDocumentsDisagree, "field '\(field.name)' differs from \(first.path): \(difference)", at: field.location,
                    related: [Diagnostic.Related("the first document's field", at: theirs.location)])
            }
        }
        for form in document.forms {
            guard let theirs = firstForms[form.name] else {
                report(.flowDocumentsDisagree, "form '\(form.name)' is not in \(first.path)", at: form.location)
                continue
            }
            if form.fields.map(\.value) != theirs.fields.map(\.value) {
                report(
                    .flowDocumentsDisagree, "form '\(form.name)' lists other fields than in \(first.path)", at: form.location,
                    related: [Diagnostic.Related("the first document's form", at: theirs.location)])
            }
        }
        let names = Set(document.fields.map(\.name) + document.forms.map(\.name))
        for missing in first.fields.map({ ($0.name, $0.location) }) + first.forms.map({ ($0.name, $0.location) }) where !names.contains(missing.0) {
            report(
                .flowDocumentsDisagree, "'\(missing.0)' of \(first.path) is not in this document", at: document.start,
                related: [Diagnostic.Related("defined here", at: missing.1)])
        }
        if let providers = document.providers, let theirs = first.providers,
            providers.map(CaptureFlowDocument.provider) != theirs.map(CaptureFlowDocument.provider)
        {
            report(.flowDocumentsDisagree, "the providers differ from \(first.path)'s", at: providers.first?.location ?? document.start)
        }
    }

    /// What differs between two definitions of one field (texts aside), or nil.
    static func difference(_ field: FieldDefinition, _ other: FieldDefinition) -> String? {
        if field.type.value != other.type.value { return "type \(field.type.value.rawValue), there \(other.type.value.rawValue)" }
        if field.schemaId.map(CaptureFlowDocument.schemaID) != other.schemaId.map(CaptureFlowDocument.schemaID) { return "another schemaId" }
        if field.label?.value != other.label?.value || field.placeholder?.value != other.placeholder?.value || field.tip?.value != other.tip?.value {
            return "other texts (label, placeholder or tip)"
        }
        if field.defaultValue?.value != other.defaultValue?.value { return "another default" }
        let options = field.options.map { [$0.value.value, $0.label.value, $0.disabled ? "disabled" : ""] }
        if options != other.options.map({ [$0.value.value, $0.label.value, $0.disabled ? "disabled" : ""] }) { return "other options" }
        if field.validation.count != other.validation.count
            || zip(field.validation, other.validation).contains(where: {
                $0.kind != $1.kind || $0.value != $1.value || $0.clientSide != $1.clientSide || $0.message.value != $1.message.value
            })
        {
            return "other validation rules"
        }
        return nil
    }

    /// Each text a document says with its message key reads as that message renders for the
    /// document's locale (else it was edited by hand: JF607, the message wins).
    mutating func checkTexts(flow: Flow, localizer: Localizer) {
        for document in documents where !document.keyedTexts.isEmpty {
            guard let locale = document.locale?.value else { continue }
            let texts = CaptureFlowDocument.TextRenderer(localizer: localizer, locale: locale)
            for keyed in document.keyedTexts {
                guard let field = flow.field(named: keyed.field) else { continue }
                let expected: String?
                switch keyed.slot {
                case .label: expected = field.label.map { texts.text($0.value) }
                case .placeholder: expected = field.placeholder.map { texts.text($0.value) }
                case .tip: expected = field.tip.map { texts.text($0.value) }
                case .option(let index): expected = index < field.options.count ? texts.text(field.options[index].label.value) : nil
                case .rule(let index):
                    let label = field.label.map { texts.text($0.value) } ?? field.name
                    expected = index < field.validation.count ? texts.ruleMessage(field.validation[index], fieldName: field.name, label: label) : nil
                }
                guard let expected, expected != keyed.text.value else { continue }
                report(
                    .flowDocumentTextMismatch, "this text is not what its message renders (\"\(expected)\"): the message is kept",
                    at: keyed.text.location,
                    hint: "edit the message in 'jumpForms.messages', or drop the key so that the text becomes the message")
            }
        }
    }
}

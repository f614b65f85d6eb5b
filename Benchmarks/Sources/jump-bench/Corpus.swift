#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import JumpFiles
import JumpForms

/// The deterministic corpus of the load + lint benchmark: flows whose fields carry every kind
/// of rule, sharing one locales folder of catalogs in many locales, each message valid ICU
/// MessageFormat with the plural categories its locale has in CLDR.
///
/// Layout: `OUT/flows/flowNN.yaml` (each with `locales: ../locales`) and
/// `OUT/locales/<tag>.yaml`. Every locale file holds every key; every key is used by a flow.
struct CorpusSpec: Sendable {
    var seed: UInt64 = 20_250_115
    var flows = 10
    /// Fields of one flow; a multiple of 10 (fields come in groups of ten, one group per form).
    var fieldsPerFlow = 200
    var locales = 30
    /// Keys of every locale file; tips are added to fields until the count is reached.
    var keys = 5000

    var formsPerFlow: Int { fieldsPerFlow / 10 }
}

struct CorpusSummary: Sendable {
    var flowFiles: [String] = []
    var localeFiles: [String] = []
    var forms = 0
    var fields = 0
    var rules = 0
    var keysPerLocale = 0
    var pluralMessagesPerLocale = 0
    var bytes = 0

    var allFiles: [String] { flowFiles + localeFiles }
}

/// A locale of the corpus: its tag, the CLDR cardinal plural categories its plural messages
/// use (always ending in `other`) and the letters its words are made of.
struct CorpusLocale: Sendable {
    var tag: String
    var categories: [String]
    var letters: [String]
    var spaced: Bool

    init(_ tag: String, _ categories: String, _ extra: String, base: String = "abcdefghijklmnopqrstuvwxyz", spaced: Bool = true) {
        self.tag = tag
        self.categories = categories.split(separator: " ").map(String.init)
        self.letters = (base + extra).map { String($0) }
        self.spaced = spaced
    }

    /// Thirty locales. Categories are the CLDR cardinal ones that every recent CLDR release
    /// agrees on for integers (e.g. pl one/few/many/other, ar all six, ja other only).
    static let all: [CorpusLocale] = [
        CorpusLocale("en-US", "one other", ""),
        CorpusLocale("de-DE", "one other", "äöüß"),
        CorpusLocale("fr-FR", "one other", "éèàçêô"),
        CorpusLocale("es-ES", "one other", "ñáéíóú"),
        CorpusLocale("it-IT", "one other", "àèìòù"),
        CorpusLocale("pt-BR", "one other", "ãõçáéê"),
        CorpusLocale("nl-NL", "one other", "ë"),
        CorpusLocale("sv-SE", "one other", "åäö"),
        CorpusLocale("da-DK", "one other", "æøå"),
        CorpusLocale("nb-NO", "one other", "æøå"),
        CorpusLocale("fi-FI", "one other", "äö"),
        CorpusLocale("pl-PL", "one few many other", "ąćęłńóśźż"),
        CorpusLocale("ru-RU", "one few many other", "", base: "абвгдеёжзийклмнопрстуфхцчшщыьэюя"),
        CorpusLocale("uk-UA", "one few many other", "", base: "абвгґдеєжзиіїйклмнопрстуфхцчшщьюя"),
        CorpusLocale("cs-CZ", "one few many other", "áčďéěíňóřšťúůýž"),
        CorpusLocale("sk-SK", "one few many other", "áäčďéíľňóôŕšťúýž"),
        CorpusLocale("lt-LT", "one few many other", "ąčęėįšųūž"),
        CorpusLocale("lv-LV", "zero one other", "āčēģīķļņšūž"),
        CorpusLocale("ro-RO", "one few other", "ăâîșț"),
        CorpusLocale("hr-HR", "one few other", "čćđšž"),
        CorpusLocale("sl-SI", "one two few other", "čšž"),
        CorpusLocale("ar-EG", "zero one two few many other", "", base: "ابتثجحخدذرزسشصضطظعغفقكلمنهوي"),
        CorpusLocale("he-IL", "one two other", "", base: "אבגדהוזחטיכלמנסעפצקרשת"),
        CorpusLocale("cy-GB", "zero one two few many other", "âêîôûŵŷ"),
        CorpusLocale("ga-IE", "one two few many other", "áéíóú"),
        CorpusLocale("ja-JP", "other", "", base: "あいうえおかきくけこさしすせそたちつてとなにぬねの日本語入力確認", spaced: false),
        CorpusLocale("zh-CN", "other", "", base: "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年", spaced: false),
        CorpusLocale("ko-KR", "other", "", base: "가나다라마바사아자차카타파하거너더러머버서어저처고노도로모보소오조초"),
        CorpusLocale("tr-TR", "one other", "çğıöşü"),
        CorpusLocale("hu-HU", "one other", "áéíóöőúüű")
    ]
}

/// Generates the corpus.
struct CorpusGenerator {
    // MARK: the model being generated

    /// What a message says, which decides the ICU arguments it may use: the lint formats each
    /// used message with exactly the arguments its call site provides.
    enum Shape {
        /// Label, placeholder or option text: no arguments.
        case text
        /// A tip: no arguments, sometimes written over two lines.
        case tip
        /// A validation message of a rule without value: `{label}`, `{field}`.
        case labelOnly
        /// Like labelOnly, with a `select` on `{field}`.
        case selectOnField(fields: [String])
        /// A rule with a text value: `{label}` and `{value}`.
        case labelValue
        /// A rule with an integer value: `{value, plural, ...}`.
        case plural
    }

    enum RuleValue {
        case integer(Int)
        case word(String)
        case quoted(String)
        case list([String])
        case anchoredList(anchor: String, [String])
        case alias(String)
    }

    struct Rule {
        var rule: String
        var value: RuleValue?
        var message: String
        var clientSide: Bool? = nil
    }

    struct Option {
        var value: String
        var label: String
        var disabled = false
    }

    enum Options {
        case none
        case list([Option])
        case anchored(String, [Option])
        case alias(String)
    }

    struct Field {
        var name: String
        var type: String
        var schemaId: String?
        /// Slot name (label, placeholder, tip, minLength) -> shape; keys are `prefix.slot`.
        var slots: [(slot: String, shape: Shape)] = []
        var keyPrefix: String
        /// Its keys are written as flat dotted keys rather than nested under the flow.
        var flatKeys: Bool
        var options: Options = .none
        var rules: [Rule] = []
        var defaultValue: String?

        func key(_ slot: String) -> String { keyPrefix + "." + slot }
        func has(_ slot: String) -> Bool { slots.contains { $0.slot == slot } }
    }

    struct Form {
        var name: String
        var fields: [String]
    }

    struct FlowModel {
        var name: String
        var fields: [Field] = []
        var forms: [Form] = []
        var providers: [String] = []
        /// Flat keys other than the fields' (options, validation), in file order.
        var flatMessages: [(key: String, shape: Shape)] = []

        var keyCount: Int {
            fields.reduce(0) { $0 + $1.slots.count } + flatMessages.count
        }
    }

    let spec: CorpusSpec
    var random: SplitMix64

    init(spec: CorpusSpec) {
        self.spec = spec
        self.random = SplitMix64(seed: spec.seed)
    }

    // MARK: building the flows

    static let validationKeys: [(String, Shape)] = [
        ("required", .labelOnly), ("email", .labelOnly), ("maxLength", .plural), ("minLength", .plural),
        ("emailDomain", .labelValue), ("emailTaken", .labelOnly), ("nameFormat", .labelOnly), ("reserved", .labelValue),
        ("passwordsMatch", .labelOnly), ("minYears", .plural), ("maxYears", .plural), ("matchOptions", .labelOnly),
        ("postalCode", .labelOnly), ("addressIncomplete", .labelValue), ("phone", .labelOnly), ("zip", .labelOnly),
        ("numeric", .labelOnly), ("alphaNumeric", .labelOnly), ("checkboxRequired", .labelOnly), ("whitelist", .labelValue)
    ]

    static let patterns = [
        "[A-Z0-9]{3,10}",
        "[0-9]{5}(-[0-9]{4})?",
        "[A-Za-z0-9][A-Za-z0-9 -]{1,8}[A-Za-z0-9]",
        "[A-Z]{1,2}[0-9][A-Z0-9]? ?[0-9][A-Z]{2}"
    ]
    static let domains = ["mailinator.com", "guerrillamail.com", "10minutemail.com", "trashmail.de", "yopmail.com", "tempmail.net"]
    static let choiceValues = [
        ["US", "CA", "GB", "FR"], ["red", "green", "blue", "black"], ["s", "m", "l", "xl"],
        ["daily", "weekly", "monthly", "never"], ["a1", "b2", "c3", "d4"]
    ]
    static let providerSets = [["google", "facebook", "apple"], ["github", "linkedin"], ["twitter", "yahoo", "amazon", "paypal"], []]

    mutating func makeFlow(_ index: Int) -> FlowModel {
        let flowName = "flow" + zeroPad(index + 1, 2)
        var flow = FlowModel(name: flowName)
        let v = flowName + ".validation."
        var sharedOptions: [Option] = []
        for group in 0..<spec.formsPerFlow {
            var names: [String] = []
            for j in 0..<10 {
                names.append("f" + zeroPad(group * 10 + j + 1, 4))
            }
            let flat = group % 5 == 4
            func field(_ j: Int, _ type: String, _ schemaId: String?) -> Field {
                Field(
                    name: names[j], type: type, schemaId: schemaId, slots: [("label", .text)],
                    keyPrefix: flowName + ".fields." + names[j], flatKeys: flat)
            }
            let path = "custom.g\(group)."
            // 0: email
            var email = field(0, "email", group == 0 ? "email" : path + "email")
            email.slots += [("placeholder", .text), ("tip", .tip)]
            let domainCount = random.int(in: 2...4)
            email.rules = [
                Rule(rule: "required", message: v + "required"),
                Rule(rule: "format", value: .word("email"), message: v + "email"),
                Rule(rule: "maxLength", value: .integer(254), message: v + "maxLength"),
                Rule(
                    rule: "emailDomainBlacklist", value: .list(Array(Self.domains.shuffled(using: &random).prefix(domainCount))),
                    message: v + "emailDomain"),
                Rule(rule: "unique", message: v + "emailTaken")
            ]
            // 1: a name
            var name = field(1, "text", path + "givenName")
            name.slots += [("placeholder", .text), ("minLength", .plural)]
            name.rules = [
                Rule(rule: "required", message: v + "required"),
                Rule(rule: "minLength", value: .integer(random.int(in: 1...3)), message: name.key("minLength")),
                Rule(rule: "maxLength", value: .integer(random.pick([40, 60, 80])), message: v + "maxLength"),
                Rule(rule: "format", value: .word("alphaExtendedSpaces"), message: v + "nameFormat"),
                Rule(
                    rule: "blacklist",
                    value: group == 0
                        ? .anchoredList(anchor: "reserved", ["admin", "administrator", "root", "support"])
                        : .alias("reserved"), message: v + "reserved")
            ]
            // 2, 3: a password and its confirmation
            var password = field(2, "password", path + "password")
            password.slots += [("tip", .tip)]
            password.rules = [
                Rule(rule: "required", message: v + "required"),
                Rule(rule: "minLength", value: .integer(random.pick([8, 10, 12])), message: v + "minLength"),
                Rule(rule: "maxLength", value: .integer(128), message: v + "maxLength")
            ]
            var confirm = field(3, "password", nil)
            confirm.rules = [
                Rule(rule: "required", message: v + "required"),
                Rule(rule: "match", value: .word(names[2]), message: v + "passwordsMatch")
            ]
            // 4: a birth date
            var birthdate = field(4, "dateselect", path + "birthday")
            birthdate.rules = [
                Rule(rule: "minYears", value: .integer(random.int(in: 13...18)), message: v + "minYears"),
                Rule(rule: "maxYears", value: .integer(120), message: v + "maxYears")
            ]
            // 5: a select, its options shared through an anchor in a third of the groups
            var choice = field(5, "select", path + "choice")
            if group % 3 == 1, !sharedOptions.isEmpty {
                choice.options = .alias("choices")
            } else {
                let values = Self.choiceValues[random.below(Self.choiceValues.count)]
                let prefix = group == 0 ? flowName + ".options.shared." : flowName + ".options." + names[5] + "."
                var options = values.map { Option(value: $0, label: prefix + $0) }
                options.append(Option(value: "", label: prefix + "unset", disabled: true))
                for option in options { flow.flatMessages.append((key: option.label, shape: Shape.text)) }
                if group == 0 {
                    sharedOptions = options
                    choice.options = .anchored("choices", options)
                } else {
                    choice.options = .list(options)
                }
            }
            choice.rules = [Rule(rule: "matchOptions", message: v + "matchOptions")]
            // 6, 7: postal code and city, each needing the other
            var postal = field(6, "text", path + "zip")
            postal.slots += [("placeholder", .text)]
            postal.rules = [
                Rule(rule: "pattern", value: .quoted(Self.patterns[random.below(Self.patterns.count)]), message: v + "postalCode"),
                Rule(rule: "alongWith", value: .word(names[7]), message: v + "addressIncomplete")
            ]
            var city = field(7, "text", path + "city")
            city.rules = [
                Rule(rule: "maxLength", value: .integer(60), message: v + "maxLength"),
                Rule(rule: "alongWith", value: .word(names[6]), message: v + "addressIncomplete")
            ]
            // 8: a formatted text
            var formatted = field(8, "text", path + "code")
            formatted.slots += [("placeholder", .text)]
            let (format, key) = [("phoneInternational", "phone"), ("zipCode", "zip"), ("numeric", "numeric"), ("alphaNumeric", "alphaNumeric")][
                group % 4]
            formatted.rules = [Rule(rule: "format", value: .word(format), message: v + key, clientSide: group % 5 == 2 ? false : nil)]
            // 9: checkbox, radio, textarea or hidden
            var last: Field
            switch group % 4 {
            case 0:
                last = field(9, "checkbox", path + "optIn")
                last.rules = [Rule(rule: "required", value: group % 8 == 0 ? .word("true") : nil, message: v + "checkboxRequired")]
            case 1:
                last = field(9, "radio", path + "plan")
                let values = ["basic", "plus", "pro"]
                let options = values.map { Option(value: $0, label: flowName + ".options." + names[9] + "." + $0) }
                for option in options { flow.flatMessages.append((key: option.label, shape: Shape.text)) }
                last.options = .list(options)
                last.rules = [
                    Rule(rule: "matchOptions", message: v + "matchOptions"),
                    Rule(rule: "whitelist", value: .list(["BASIC", "Plus", "pro"]), message: v + "whitelist")
                ]
            case 2:
                last = field(9, "textarea", path + "about")
                last.slots += [("tip", .tip)]
                last.rules = [Rule(rule: "maxLength", value: .integer(500), message: v + "maxLength")]
            default:
                last = field(9, "hidden", path + "source")
                last.defaultValue = "campaign-\(group)"
            }
            if group % 7 == 3 {
                confirm.slots.append(("required", .selectOnField(fields: [names[2], names[3]])))
                confirm.rules[0].message = confirm.key("required")
            }
            flow.fields += [email, name, password, confirm, birthdate, choice, postal, city, formatted, last]
            var order = names
            if random.chance(30) { order.swapAt(4, 5) }
            flow.forms.append(Form(name: "form" + zeroPad(index + 1, 2) + zeroPad(group + 1, 2), fields: order))
        }
        for (suffix, shape) in Self.validationKeys { flow.flatMessages.append((key: v + suffix, shape: shape)) }
        flow.providers = Self.providerSets[index % Self.providerSets.count]
        return flow
    }

    /// Adds tips to fields (chosen by the seed) until the catalogs hold `spec.keys` keys.
    mutating func pad(_ flows: inout [FlowModel]) throws(CorpusError) {
        var total = flows.reduce(0) { $0 + $1.keyCount }
        guard spec.keys > 0 else { return }
        if total > spec.keys { throw CorpusError("the flows use \(total) keys, more than the \(spec.keys) asked for") }
        var candidates: [(Int, Int)] = []
        for (f, flow) in flows.enumerated() {
            for (i, field) in flow.fields.enumerated() where !field.has("tip") && field.type != "hidden" {
                candidates.append((f, i))
            }
        }
        candidates.shuffle(using: &random)
        guard candidates.count >= spec.keys - total else {
            throw CorpusError("cannot reach \(spec.keys) keys: only \(candidates.count) fields could take a tip")
        }
        for (f, i) in candidates where total < spec.keys {
            // Keep the slots in label, placeholder, tip order for readability.
            flows[f].fields[i].slots.append(("tip", .tip))
            total += 1
        }
    }

    // MARK: writing

    mutating func generate(into directory: String) throws(CorpusError) -> CorpusSummary {
        guard spec.fieldsPerFlow % 10 == 0, spec.fieldsPerFlow > 0 else { throw CorpusError("fields per flow must be a multiple of 10") }
        guard (1...CorpusLocale.all.count).contains(spec.locales) else { throw CorpusError("locales must be 1...\(CorpusLocale.all.count)") }
        try makeDirectory(directory)
        try makeDirectory(directory + "/flows")
        try makeDirectory(directory + "/locales")
        var flows = (0..<spec.flows).map { makeFlow($0) }
        try pad(&flows)
        var summary = CorpusSummary()
        for flow in flows {
            let path = directory + "/flows/" + flow.name + ".yaml"
            let text = flowText(flow)
            try writeFile(text, to: path)
            summary.flowFiles.append(path)
            summary.bytes += text.utf8.count
            summary.forms += flow.forms.count
            summary.fields += flow.fields.count
            summary.rules += flow.fields.reduce(0) { $0 + $1.rules.count }
        }
        summary.keysPerLocale = flows.reduce(0) { $0 + $1.keyCount }
        for (index, locale) in CorpusLocale.all.prefix(spec.locales).enumerated() {
            var localeRandom = SplitMix64(seed: spec.seed &+ UInt64(index + 1) &* 0x1000_0001)
            var plurals = 0
            let text = localeText(locale, flows, &localeRandom, plurals: &plurals)
            let path = directory + "/locales/" + locale.tag + ".yaml"
            try writeFile(text, to: path)
            summary.localeFiles.append(path)
            summary.bytes += text.utf8.count
            summary.pluralMessagesPerLocale = plurals
        }
        return summary
    }

    func flowText(_ flow: FlowModel) -> String {
        var out = "# Generated by jump-bench (seed \(spec.seed)); do not edit.\n"
        out += "flow: \(flow.name)\nversion: \"2025-01-15.\(flow.name.dropFirst(4))\"\ndefaultLocale: en-US\nlocales: ../locales\n\nfields:\n"
        var blockRule = false
        for field in flow.fields {
            out += "  \(field.name):\n    type: \(field.type)\n"
            if let schemaId = field.schemaId { out += "    schemaId: \(schemaId)\n" }
            for (slot, _) in field.slots where ["label", "placeholder", "tip"].contains(slot) {
                out += "    \(slot): \(field.key(slot))\n"
            }
            if let value = field.defaultValue { out += "    default: \(value)\n" }
            switch field.options {
            case .none: break
            case .alias(let name): out += "    options: *\(name)\n"
            case .list(let options): out += "    options:\n" + optionLines(options)
            case .anchored(let name, let options): out += "    options: &\(name)\n" + optionLines(options)
            }
            if !field.rules.isEmpty {
                out += "    validation:\n"
                for rule in field.rules {
                    // Mostly flow style, every third rule in block style.
                    blockRule.toggle()
                    let block = blockRule && rule.rule.count % 3 == 0
                    out += ruleText(rule, block: block)
                }
            }
        }
        out += "\nforms:\n"
        for (index, form) in flow.forms.enumerated() {
            out += "  \(form.name):\n"
            if index % 4 == 3 {
                out += "    fields:\n" + form.fields.map { "      - \($0)\n" }.joined()
            } else {
                out += "    fields: [\(form.fields.joined(separator: ", "))]\n"
            }
        }
        if !flow.providers.isEmpty {
            out += "\nproviders:\n" + flow.providers.map { "  - \($0)\n" }.joined()
        }
        return out
    }

    func optionLines(_ options: [Option]) -> String {
        options.map { option in
            let value = option.value.isEmpty ? "\"\"" : option.value
            return "      - { value: \(value), label: \(option.label)\(option.disabled ? ", disabled: true" : "") }\n"
        }.joined()
    }

    func ruleText(_ rule: Rule, block: Bool) -> String {
        var parts: [(String, String)] = [("rule", rule.rule)]
        if let value = rule.value {
            let text: String
            switch value {
            case .integer(let number): text = String(number)
            case .word(let word): text = word
            case .quoted(let source): text = "\"" + source.replacing("\\", with: "\\\\") + "\""
            case .list(let items): text = "[" + items.joined(separator: ", ") + "]"
            case .anchoredList(let anchor, let items): text = "&\(anchor) [" + items.joined(separator: ", ") + "]"
            case .alias(let name): text = "*" + name
            }
            parts.append(("value", text))
        }
        parts.append(("message", rule.message))
        if let clientSide = rule.clientSide { parts.append(("clientSide", clientSide ? "true" : "false")) }
        if block {
            return "      - " + parts.map { "\($0.0): \($0.1)" }.joined(separator: "\n        ") + "\n"
        }
        // An alias directly before `,` or `}` needs a space (`*a,` would name the anchor `a,`).
        return "      - { " + parts.map { "\($0.0): \($0.1)" }.joined(separator: ", ").replacing("*reserved,", with: "*reserved ,") + " }\n"
    }

    // MARK: locale files

    func localeText(_ locale: CorpusLocale, _ flows: [FlowModel], _ random: inout SplitMix64, plurals: inout Int) -> String {
        var out = "# \(locale.tag): generated by jump-bench (seed \(spec.seed)); do not edit.\nlocale: \(locale.tag)\nmessages:\n"
        for flow in flows {
            // Nested: the fields of most groups under flowNN.fields.fNNNN.
            out += "  \(flow.name):\n    fields:\n"
            for field in flow.fields where !field.flatKeys {
                out += "      \(field.name):\n"
                for (slot, shape) in field.slots {
                    out += "        \(slot): " + scalar(message(shape, locale, &random, plurals: &plurals), shape, indent: 10, &random) + "\n"
                }
            }
            // Flat dotted keys: every fifth group's fields, the options, the validation messages.
            if random.chance(50) { out += "  # \(flow.name): flat keys\n" }
            for field in flow.fields where field.flatKeys {
                for (slot, shape) in field.slots {
                    out += "  \(field.key(slot)): " + scalar(message(shape, locale, &random, plurals: &plurals), shape, indent: 4, &random) + "\n"
                }
            }
            for (key, shape) in flow.flatMessages {
                out += "  \(key): " + scalar(message(shape, locale, &random, plurals: &plurals), shape, indent: 4, &random) + "\n"
            }
        }
        return out
    }

    func word(_ locale: CorpusLocale, _ random: inout SplitMix64) -> String {
        let length = locale.spaced ? random.int(in: 3...9) : random.int(in: 2...4)
        var text = ""
        for _ in 0..<length { text += random.pick(locale.letters) }
        return text
    }

    func words(_ locale: CorpusLocale, _ count: ClosedRange<Int>, _ random: inout SplitMix64) -> String {
        let n = random.int(in: count)
        return (0..<n).map { _ in word(locale, &random) }.joined(separator: locale.spaced ? " " : "")
    }

    /// The ICU text of a message. Words never contain ICU syntax characters.
    func message(_ shape: Shape, _ locale: CorpusLocale, _ random: inout SplitMix64, plurals: inout Int) -> String {
        let stop = locale.spaced ? "." : "。"
        switch shape {
        case .text:
            return words(locale, 2...4, &random)
        case .tip:
            return words(locale, 4...12, &random) + stop
        case .labelOnly:
            return random.chance(50)
                ? "{label} " + words(locale, 2...6, &random) + stop
                : words(locale, 1...3, &random) + " {label} " + words(locale, 1...3, &random) + stop
        case .selectOnField(let fields):
            let branches = fields.map { "\($0) {\(words(locale, 1...3, &random))}" }.joined(separator: " ")
            return "{field, select, \(branches) other {\(words(locale, 1...3, &random))}} {label}" + stop
        case .labelValue:
            return "{label}: " + words(locale, 2...5, &random) + " {value}" + stop
        case .plural:
            plurals += 1
            var branches: [String] = []
            if random.chance(25) { branches.append("=0 {\(words(locale, 1...2, &random))}") }
            for category in locale.categories {
                branches.append("\(category) {# \(words(locale, 1...2, &random))}")
            }
            let sep = locale.spaced ? " " : ""
            return "{label}" + sep + words(locale, 1...3, &random) + " {value, plural, " + branches.joined(separator: " ") + "}" + stop
        }
    }

    /// The YAML scalar for a message: plain, single- or double-quoted (sometimes with a
    /// `\u` escape), or a folded/literal block for tips.
    func scalar(_ text: String, _ shape: Shape, indent: Int, _ random: inout SplitMix64) -> String {
        let needsQuotes = text.contains("{") || text.contains(":")
        let roll = random.below(100)
        if case .tip = shape, roll < 15, let space = text.firstIndex(of: " ") {
            let pad = String(repeating: " ", count: indent)
            let first = text[..<space]
            let rest = text[text.index(after: space)...]
            // Folded: the line break reads as a space; literal: it stays a line break.
            return (roll < 8 ? ">-\n" : "|-\n") + pad + first + "\n" + pad + rest
        }
        if !needsQuotes, roll < 60 { return text }
        if roll < 75 { return "'" + text.replacing("'", with: "''") + "'" }
        var escaped = text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
        if random.chance(30), let special = escaped.unicodeScalars.first(where: { $0.value > 0x7F && $0.value <= 0xFFFF }) {
            let hex = String(special.value, radix: 16, uppercase: true)
            let code = "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            if let range = escaped.unicodeScalars.firstIndex(of: special) {
                var scalars = escaped.unicodeScalars
                scalars.replaceSubrange(range...range, with: code.unicodeScalars)
                escaped = String(scalars)
            }
        }
        return "\"" + escaped + "\""
    }

    // MARK: files

    func makeDirectory(_ path: String) throws(CorpusError) {
        if mkdir(path, 0o755) != 0, errno != EEXIST {
            throw CorpusError("cannot create \(path): \(String(cString: strerror(errno)))")
        }
    }
}

struct CorpusError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Writes a corpus file (both corpus generators' files).
/// Through `AtomicFile`, as every file jump-forms writes, without flushing (a scratch corpus).
func writeFile(_ text: String, to path: String) throws(CorpusError) {
    do {
        try AtomicFile.write(Array(text.utf8), to: path, mode: 0o644, durable: false)
    } catch {
        throw CorpusError("cannot write \(path): \(error.reason)")
    }
}

func zeroPad(_ number: Int, _ width: Int) -> String {
    let text = String(number)
    return String(repeating: "0", count: max(0, width - text.count)) + text
}

extension SplitMix64: RandomNumberGenerator {}

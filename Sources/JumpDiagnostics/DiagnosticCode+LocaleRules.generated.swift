// Generated from the rules of `jump-forms locales check` (Sources/JumpLocaleCheck/Rules/*.swift)
// by RuleExampleTests (RECORD_SNAPSHOTS=1). Do not edit: edit the rule's file.

extension DiagnosticCode {
    /// The codes of the rules of `jump-forms locales check`, by code.
    static let localeRuleCatalog: [String: LocaleEntry] = [
        "JF500": LocaleEntry(
            rule: "missing-locale-file", severity: .error,
            title: "locale has no file",
            explanation: "A locale named on the command line (`--reference`, `--locale`), by `captureLocale` in jump.yaml or by a flow's `defaultLocale` has no `<tag>.yaml` in the locales folder. It is reported, never skipped: a typo in a tag must not turn a check into a silent pass.",
            example: "jump-forms locales check --locale pl-PK"),
        "JF501": LocaleEntry(
            rule: "missing-key", severity: .error,
            title: "message key missing from a locale",
            explanation: "A key that the reference locale has, that a flow uses, or that jump-forms itself uses (`jumpForms.*`) is missing from the locale (and from the more general files of its language, such as `fr.yaml` for `fr-CA`). Its users would see the reference text. jump-forms' own keys count as present where its built-in catalog translates them for the locale (negotiated as the forms do: fr-FR serves fr-CA), so only the locales it lacks need them; and only where the files serve jump-forms (a flow or a jump.yaml in scope, or `--builtin-texts`): an app's own translations need not translate jump-forms' texts.",
            example: "en-US.yaml has fields.email.label, fr-FR.yaml does not"),
        "JF502": LocaleEntry(
            rule: "obsolete-key", severity: .warning,
            title: "message key nobody uses",
            explanation: "The key is neither in the reference locale nor used by a flow or by jump-forms' own catalog (`jumpForms.*`). Usually a key that was renamed: the hint names the closest key in use.",
            example: "fields.emailAdress.label: Adresse e-mail"),
        "JF503": LocaleEntry(
            rule: "empty-value", severity: .error,
            title: "message is empty",
            explanation: "The value is empty or only whitespace, so the form would show nothing. An empty key (`label:`) is YAML's null, not a translation.",
            example: "fields.email.label: \"\""),
        "JF504": LocaleEntry(
            rule: "same-as-source", severity: .warning,
            title: "message is the reference text",
            explanation: "The translation is identical to the reference locale's text and has letters to translate, so it was probably never translated. Arguments (`{n}`, `%@`, `%1$d`), numbers, links, e-mail addresses and unit symbols (`h`, `min`, `km/h`, `MB`) have none: `%@h` and `{n} min` are the same in every language. Names that stay the same (brands, `Canada` in French) go in the locale file's `sameAsSource` list (keys or `*` patterns). Locales of the reference's language (`en-GB` for `en-US`) are not checked.",
            example: "fr-FR.yaml: fields.email.label: Email address"),
        "JF505": LocaleEntry(
            rule: "icu-syntax", severity: .error,
            title: "ICU message syntax error",
            explanation: "The message is not valid ICU MessageFormat; the place points inside the value in the locale file, even in quoted, escaped or multi-line values.",
            example: "\"{count, plural, one {# item}\""),
        "JF506": LocaleEntry(
            rule: "argument-unknown", severity: .error,
            title: "message uses an argument nobody provides",
            explanation: "The message uses an argument its call site does not provide: validation messages get `label`, `field` and `value` (`value` only when the rule has one); labels, placeholders, tips, option labels and provider names get none; jump-forms' own messages get what the built-in en-US text uses. For keys no flow uses, the reference message's arguments are what is provided. The hint names the closest provided argument.",
            example: "validation.required: \"{lable} est obligatoire.\""),
        "JF507": LocaleEntry(
            rule: "argument-dropped", severity: .warning,
            title: "message drops an argument of the reference",
            explanation: "The reference message uses the argument and the translation does not, so a name or number the user needs is missing from the text.",
            example: "en-US: \"{label} is required.\", fr-FR: \"Obligatoire.\""),
        "JF524": LocaleEntry(
            rule: "argument-added", severity: .warning,
            title: "message adds an argument the reference does not use",
            explanation: "The translation uses an argument that its call site provides but the reference message does not use, so the translated text shows something the reference does not (a field name, the rule's value). Usually a copy from another message; when it is on purpose, keep it in the baseline.",
            example: "en-US: \"{label} is required.\", de-DE: \"{label} ({field}) ist erforderlich.\""),
        "JF508": LocaleEntry(
            rule: "plural-missing-category", severity: .error,
            title: "plural lacks a category the locale needs",
            explanation: "CLDR's plural rules for the locale's language use the category, and the `plural` argument has no case for it (nor `=N` cases covering all its numbers), so those numbers show the `other` text. The message names numbers that prove it, from CLDR's samples.",
            example: "pl-PL: \"{n, plural, one {# plik} other {# plików}}\" (no 'few': 2, 3, 4, 22...)"),
        "JF509": LocaleEntry(
            rule: "plural-unused-category", severity: .warning,
            title: "plural case the locale never uses",
            explanation: "The language's CLDR rules never choose the category, so the case is dead text (a `few` copied into English, `one` in Japanese). For exactly zero, use `=0`.",
            example: "en-US: \"{n, plural, zero {none} one {# file} other {# files}}\""),
        "JF510": LocaleEntry(
            rule: "select-without-other", severity: .error,
            title: "select or plural without `other`",
            explanation: "Every `select`, `plural` and `selectordinal` argument needs an `other` case, chosen when no other case matches; without it the message cannot be formatted.",
            example: "\"{gender, select, female {elle} male {il}}\""),
        "JF511": LocaleEntry(
            rule: "markup-mismatch", severity: .error,
            title: "markup tags differ from the reference",
            explanation: "The set of tags (`<b>`, `</b>`, `<a>`, `<br/>`) in the translation differs from the reference's: a tag was dropped, added, renamed or left unclosed.",
            example: "en-US: \"<b>Note</b>: ...\", de-DE: \"<b>Hinweis: ...\""),
        "JF512": LocaleEntry(
            rule: "url-mismatch", severity: .warning,
            title: "URLs differ from the reference",
            explanation: "The translation links to different addresses (`https://...`, `www....`, `mailto:...`) than the reference. Localized pages are fine to keep in the baseline; typos are not.",
            example: "en-US: \"See https://example.com/help\", fr-FR: \"Voir https://exmaple.com/help\""),
        "JF513": LocaleEntry(
            rule: "number-mismatch", severity: .warning,
            title: "numbers differ from the reference",
            explanation: "The translation's text has different numbers than the reference's. Group separators do not count (`1,000` equals `1 000` and `1.000`): a `.`, `,`, space or apostrophe between digits groups them only when exactly three digits follow; otherwise a `.` or `,` is a decimal mark, so `1.5` equals `1,5` and differs from `15`. Digits of any script are read. International phone numbers (`+48 512 345 678`) are localized examples and are not compared; neither are numbers inside arguments and URLs.",
            example: "en-US: \"3 to 40 characters\", es-ES: \"De 3 a 4 caracteres\""),
        "JF514": LocaleEntry(
            rule: "whitespace-edge", severity: .warning,
            title: "leading or trailing whitespace",
            explanation: "The message starts or ends with whitespace (a space, or the newline that a `|` block keeps) where the reference's does not, or lacks it where the reference has it. In the reference itself, any edge whitespace is reported.",
            example: "\"Nom complet \""),
        "JF515": LocaleEntry(
            rule: "double-space", severity: .warning,
            title: "two spaces in a row",
            explanation: "The text has two consecutive spaces where the reference has none (usually a removed word or a bad join).",
            example: "\"Adresse  e-mail\""),
        "JF516": LocaleEntry(
            rule: "newline-mismatch", severity: .warning,
            title: "different number of line breaks",
            explanation: "The translation has more or fewer line breaks than the reference, which changes the layout of tips and multi-line texts.",
            example: "en-US: \"Line one\\nLine two\", de-DE: \"Zeile eins Zeile zwei\""),
        "JF525": LocaleEntry(
            rule: "ending-punctuation", severity: .warning,
            title: "ends with other punctuation than the reference",
            explanation: "The message ends with a full stop, a question mark, an exclamation mark, a colon or an ellipsis and the reference's ends with another of them or with none, or the other way round: a question that is no longer one, a sentence that lost its full stop, a label that lost the colon before its value, a \"Loading…\" without its ellipsis. Each script's own marks count as the same (`.`, `。`, `।`, `۔`; `?`, `？`, `؟` and the Greek `;`; `!` and `！`; `:` and `：`; `…` and `...`); spaces before the mark (the French `Adresse :`) and closing quotes, brackets and direction marks after it are skipped. Thai and Lao end sentences without a mark: their messages may leave out a full stop. The pseudo-locales `locales pseudo` writes (`en-XA`, `ar-XB`) are not compared: their padding ends every text.",
            example: "en-US: \"Forgot your password?\", fr-FR: \"Mot de passe oublié\""),
        "JF517": LocaleEntry(
            rule: "invisible-character", severity: .warning,
            title: "invisible character",
            explanation: "The text holds a character that shows nothing: a zero-width space (allowed in Thai, Lao, Khmer and Burmese, which use it to mark word breaks), word joiner, soft hyphen, byte-order mark, or a control character other than newline and tab. They come from copy and paste and break search and comparison. One written as an escape in double quotes (`\"E-Mail\\u200B-Adresse\"`) is there on purpose and is not reported.",
            example: "E-Mail<U+200B>-Adresse"),
        "JF518": LocaleEntry(
            rule: "bidi-control", severity: .error,
            title: "bidirectional control character",
            explanation: "In a left-to-right locale, any bidi control (marks U+200E, U+200F, U+061C; embeddings and overrides U+202A-U+202E; isolates U+2066-U+2069) reorders or hides text and is refused. In right-to-left locales (Arabic, Hebrew, Persian, Urdu, ...) marks are allowed, but every embedding, override or isolate must be closed (U+202C, U+2069) within the message.",
            example: "fr-FR: \"Mot de passe\\u202E\""),
        "JF519": LocaleEntry(
            rule: "yaml-trap", severity: .error,
            title: "unquoted value other YAML tools retype",
            explanation: "jump-forms reads the value as the text written, but a YAML 1.1 tool (PyYAML, most translation tools) reads an unquoted `no`, `on`, `yes`, `off` as a boolean, `1.0` or `0x1F` as a number, `2024-01-01` as a date, and `~` or `null` as nothing. Keys too: `NO:` (Norway) under `options.country` becomes the key `false`. Quote the value or key; the hint shows how. The message's other checks wait until the value is quoted (the text other tools read is not the one written).",
            example: "jumpForms.prompt.no: no"),
        "JF520": LocaleEntry(
            rule: "duplicate-key", severity: .error,
            title: "message key written twice",
            explanation: "The same key appears twice in a locale file (in one mapping, or once flat and once nested). jump-forms keeps the first; most other tools silently keep the last. Both lines are named.",
            example: "validation.required: a\\nvalidation.required: b"),
        "JF521": LocaleEntry(
            rule: "yaml-alias", severity: .warning,
            title: "anchor or alias in a locale file",
            explanation: "An anchor (`&name`) or alias (`*name`) shares one text between keys. Translation tools flatten them, and a translator editing the anchored text silently changes every alias. Write each text out.",
            example: "cancel: &cancel Annuler\\nclose: *cancel"),
        "JF522": LocaleEntry(
            rule: "render-failure", severity: .error,
            title: "message cannot be rendered",
            explanation: "Formatting the message for its locale failed with the arguments its call site provides, using CLDR's sample numbers for every plural category of the locale and a sample string mixing left-to-right and right-to-left text for text arguments. Typically a `plural` or `number` over an argument that is a string.",
            example: "validation.email: \"{value, plural, one {...} other {...}}\" (value is the format name)"),
        "JF523": LocaleEntry(
            rule: "unknown-language", severity: .error,
            title: "language CLDR does not know",
            explanation: "CLDR has no plural rules for the locale's language, so it is almost always a typo in the tag (`pk-PL` for `pl-PL`), and the file would never be chosen for its users; plural checks fall back to the root rules (only `other`). The hint names the main language of the tag's region and the known languages one letter away.",
            example: "locales/pk-PL.yaml"),
    ]
}

// Generated from the rules of `jump-forms lint` (Sources/JumpForms/Lint/Rules/*.swift) by
// LintRuleTests (RECORD_SNAPSHOTS=1). Do not edit: edit the rule's file.

extension DiagnosticCode {
    /// The codes of the rules of `jump-forms lint`, by code.
    static let lintRuleCatalog: [String: LintEntry] = [
        "JF300": LintEntry(
            severity: .error,
            title: "form names an undefined field",
            explanation: "Every name in a form's `fields` must be defined under the flow's `fields`."),
        "JF301": LintEntry(
            severity: .error,
            title: "field listed twice in a form",
            explanation: "A form prompts for each field once."),
        "JF302": LintEntry(
            severity: .error,
            title: "rule does not fit the field type",
            explanation: "Some rules need a particular field type: `minYears`/`maxYears` need a `dateselect`, `matchOptions` needs `options` (select or radio), length and format rules need a text-like field."),
        "JF303": LintEntry(
            severity: .error,
            title: "rule names an unknown field",
            explanation: "`match` and `alongWith` name another field of the flow."),
        "JF304": LintEntry(
            severity: .error,
            title: "rule names a field the form lacks",
            explanation: "`match` and `alongWith` compare values of one form: the named field must be in every form that uses this field."),
        "JF305": LintEntry(
            severity: .error,
            title: "unknown format",
            explanation: "`format` takes one of the documented formats (see docs/flow-format.md)."),
        "JF306": LintEntry(
            severity: .error,
            title: "pattern does not compile",
            explanation: "The `pattern` rule's regular expression has a syntax error."),
        "JF307": LintEntry(
            severity: .warning,
            title: "pattern prone to catastrophic backtracking",
            explanation: "A repeated group (`*`, `+`, `{n,}`, `{n,m}`) whose repetitions may split the same text in more than one way: matching an input that fails can then take exponential time. Two shapes are reported. A quantifier inside the group, at any depth (`(a+)+`, `(\\w*)*`, `((a+))+`, `((a+)|b)+`): rewrite so that each character is matched once. Alternatives that can match the same text, alone or several in a row (`(a|a)*`, `(\\w|\\d)+` where a digit is also a word character, `(a|aa)+`, `(a|b|ab)*`): make them exclusive (`\\w+`, `a+`, `[ab]*`). The alternative check is exact for alternatives of characters, classes and fixed counts, and skips what it cannot read (`\\p{L}`, optional parts); possessive quantifiers (`a++`) and atomic groups (`(?>...)`) never backtrack and are not reported."),
        "JF308": LintEntry(
            severity: .error,
            title: "message key missing from the default locale",
            explanation: "Every message key the flow uses must exist in the default locale's file; that is where every other locale falls back."),
        "JF309": LintEntry(
            severity: .warning,
            title: "message key missing from a locale",
            explanation: "A locale lacks a key the flow uses; users of that locale see the fallback text."),
        "JF310": LintEntry(
            severity: .error,
            title: "duplicate option value",
            explanation: "Two options of one field have the same `value`."),
        "JF311": LintEntry(
            severity: .error,
            title: "duplicate provider",
            explanation: "A provider id appears twice in `providers`."),
        "JF312": LintEntry(
            severity: .error,
            title: "custom OpenID provider without openidIdentifier",
            explanation: "A provider of `type: openid` needs `openidIdentifier`."),
        "JF313": LintEntry(
            severity: .error,
            title: "custom SAML provider without samlProvider",
            explanation: "A provider of `type: saml` needs `samlProvider`."),
        "JF314": LintEntry(
            severity: .error,
            title: "unknown built-in provider",
            explanation: "A provider written as a bare name must be one of the built-in Engage providers (see docs/flow-format.md); custom ones are written as a mapping with `type`."),
        "JF315": LintEntry(
            severity: .error,
            title: "icon file missing",
            explanation: "The provider's `icon` path (relative to the flow file) does not exist."),
        "JF316": LintEntry(
            severity: .error,
            title: "jump.yaml names a form the flow lacks",
            explanation: "A `...FormName` key of `jump.yaml` names a form that is not in the flow."),
        "JF317": LintEntry(
            severity: .error,
            title: "sign-in form needs one identifier and one password",
            explanation: "The sign-in form must hold exactly one field of type `password` and exactly one identifier field (`email`, or `text` for username sign-in)."),
        "JF318": LintEntry(
            severity: .warning,
            title: "field is never used",
            explanation: "The field is defined but no form lists it."),
        "JF319": LintEntry(
            severity: .warning,
            title: "message key is never used",
            explanation: "The default locale defines a key that neither the flow nor the CLI's own catalog uses."),
        "JF320": LintEntry(
            severity: .error,
            title: "ICU message syntax error",
            explanation: "The message is not valid ICU MessageFormat; the location points inside the locale file."),
        "JF321": LintEntry(
            severity: .error,
            title: "message uses an argument nobody provides",
            explanation: "Validation messages get `label`, `field` and `value`; labels, tips, placeholders and option labels get none."),
        "JF322": LintEntry(
            severity: .error,
            title: "locale file missing",
            explanation: "The flow's default locale (or a locale named in `jump.yaml` or on the command line) has no file in the locales folder."),
        "JF323": LintEntry(
            severity: .error,
            title: "rule value out of range",
            explanation: "Lengths and ages are non-negative, and a minimum is not above the field's maximum."),
        "JF324": LintEntry(
            severity: .error,
            title: "select or radio field without options",
            explanation: "A `select` or `radio` field offers its `options`; it needs at least one enabled option."),
        "JF325": LintEntry(
            severity: .error,
            title: "form has no identifying field",
            explanation: "The forgot-password and resend-verification forms send their first field of type `email` or `text`; the form has none."),
        "JF326": LintEntry(
            severity: .warning,
            title: "options on a field that shows none",
            explanation: "Only `select` and `radio` fields show options."),
        "JF327": LintEntry(
            severity: .warning,
            title: "jump.yaml and the flow disagree",
            explanation: "`captureFlowName` differs from the flow's `flow`, `captureFlowVersion` is neither `HEAD` nor the flow's `version`, or `captureLocale` has no locale file."),
        "JF328": LintEntry(
            severity: .warning,
            title: "rule repeated on a field",
            explanation: "The same rule with the same value appears twice on one field."),
        "JF329": LintEntry(
            severity: .warning,
            title: "rule with an empty list",
            explanation: "`whitelist: []` accepts no value at all, and an empty `blacklist` or `emailDomainBlacklist` refuses nothing: the rule is a mistake either way. List the values, or remove the rule."),
        "JF330": LintEntry(
            severity: .error,
            title: "sharing provider not among the flow's providers",
            explanation: "Every provider of `sharing` must be listed under `providers`: an activity goes to a provider the person signs in with (Engage's `social_providers` are a subset of its sign-in providers). Add it to `providers`, or remove it from `sharing`."),
        "JF331": LintEntry(
            severity: .error,
            title: "no provider could post the activity",
            explanation: "The flow has activities, but `sharing` lists no provider that takes activities (facebook, twitter, linkedin, yahoo): `sharing` is missing or empty, or names only sign-in providers that cannot share. Add a sharing provider to `sharing` (and `providers`)."),
        "JF332": LintEntry(
            severity: .error,
            title: "mistyped message key",
            explanation: "A locale file has a key that nothing uses, one letter or two away from a key the flow (or jump-forms itself) uses that the file lacks and another locale file (or jump-forms' own catalog) has: a typo, so its text is never shown. The hint names the key meant. Where no file has the used key, the typo may be the flow's: JF308 says so at the flow. Other keys nothing uses are JF319 warnings in the default locale (`locales check` reports them in every locale as `obsolete-key`)."),
        "JF333": LintEntry(
            severity: .warning,
            title: "form field the JUMP SDKs cannot send",
            explanation: "The JUMP SDKs fill the registration, social registration and edit-profile forms (`captureTraditionalRegistrationFormName`, `captureSocialRegistrationFormName`, `editProfileFormName`) from the record, field by field, through each field's `schemaId` (iOS JRCaptureUser+Extras.m:132-171, Android CaptureFlowUtils.java:53-105). A field without `schemaId` is never sent: iOS and Android release builds leave it out, so a rule on it (`required`, `match`) fails on the server; Android debuggable builds throw `field defn is missing schemaId` and send nothing. Give the field the `schemaId` of the attribute it writes; a confirmation field takes the `schemaId` of the field it confirms (`newPasswordConfirm` has `schemaId: password`), so the SDKs send the value twice and `match` holds. The forgot-password and resend-verification forms send their first field of type `email` or `text` alone (iOS JRCaptureFlow.m:81-97, Android CaptureFlowUtils.java:212-227): their other fields are never sent either."),
    ]
}

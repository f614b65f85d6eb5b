extension LintRule {
    /// JF333: a field of a form the JUMP SDKs fill that they cannot send.
    public static let fieldNotSent = LintRule(
        .fieldNotSent, severity: .warning,
        title: "form field the JUMP SDKs cannot send",
        explanation:
            """
            The JUMP SDKs fill the registration, social registration and edit-profile forms (`captureTraditionalRegistrationFormName`, \
            `captureSocialRegistrationFormName`, `editProfileFormName`) from the record, field by field, through each field's `schemaId` \
            (iOS JRCaptureUser+Extras.m:132-171, Android CaptureFlowUtils.java:53-105). A field without `schemaId` is never sent: iOS and \
            Android release builds leave it out, so a rule on it (`required`, `match`) fails on the server; Android debuggable builds throw \
            `field defn is missing schemaId` and send nothing. Give the field the `schemaId` of the attribute it writes; a confirmation \
            field takes the `schemaId` of the field it confirms (`newPasswordConfirm` has `schemaId: password`), so the SDKs send the \
            value twice and `match` holds. The forgot-password and resend-verification forms send their first field of type \
            `email` or `text` alone (iOS JRCaptureFlow.m:81-97, Android CaptureFlowUtils.java:212-227): their other fields are \
            never sent either.
            """,
        triggeringExamples: [
            .signInProject(
                fields: """
                    email: { type: email, label: f.email, schemaId: email }
                    password: { type: password, label: f.password }
                    """,
                forms: "registrationForm: { fields: [email, password] }")
        ],
        nonTriggeringExamples: [
            .signInProject(
                fields: """
                    email: { type: email, label: f.email, schemaId: email }
                    password: { type: password, label: f.password, schemaId: password }
                    """,
                forms: "registrationForm: { fields: [email, password] }")
        ],
        check: { linter, findings in linter.checkUnsentFields(&findings) }
    )
}

extension FlowLinter {
    /// The forms the JUMP SDKs fill from the record (registration, social registration, edit
    /// profile) send a field only through its `schemaId` (iOS JRCaptureUser+Extras.m:132-171;
    /// Android CaptureFlowUtils.java:53-105): a field without one never reaches the server,
    /// and Android's debuggable builds throw on it before sending anything.
    func checkUnsentFields(_ findings: inout [Diagnostic]) {
        var names: [String] = []
        for name in [
            config?.captureTraditionalRegistrationFormName.value ?? "registrationForm",
            config?.captureSocialRegistrationFormName.value ?? "socialRegistrationForm",
            config?.editProfileFormName.value ?? "editProfileForm"
        ] where !names.contains(name) {
            names.append(name)
        }
        for name in names {
            guard let form = flow.form(named: name) else { continue }
            for reference in form.fields {
                guard let field = flow.field(named: reference.value), field.schemaId == nil else { continue }
                findings.append(
                    Diagnostic(
                        .fieldNotSent,
                        """
                        field '\(field.name)' of form '\(name)' has no schemaId, so the JUMP SDKs cannot send it: \
                        iOS and Android release builds leave it out, Android debuggable builds throw \
                        'field defn is missing schemaId' and send nothing
                        """,
                        at: reference.location,
                        hint: "give it the schemaId of the attribute it writes (a confirmation: the schemaId of the field it confirms)",
                        related: [.init("the field", at: field.location)]))
            }
        }
        // The forgot-password and resend-verification forms send their first field of type
        // email or text alone (iOS JRCaptureFlow.m:81-97; Android CaptureFlowUtils.java:212-227).
        for name in [
            config?.forgottenPasswordFormName.value ?? "forgotPasswordForm",
            config?.resendEmailVerificationFormName.value ?? "resendVerificationForm"
        ] {
            guard let form = flow.form(named: name),
                let identifying = form.fields.first(where: { flow.field(named: $0.value)?.type.value.canIdentify == true })
            else { continue }
            for reference in form.fields where reference.value != identifying.value && flow.field(named: reference.value) != nil {
                findings.append(
                    Diagnostic(
                        .fieldNotSent,
                        """
                        field '\(reference.value)' of form '\(name)' is never sent: the JUMP SDKs send only the form's first \
                        field of type email or text ('\(identifying.value)')
                        """,
                        at: reference.location, hint: "remove it from the form",
                        related: [.init("the field the SDKs send", at: identifying.location)]))
            }
        }
    }
}

import Foundation
import JumpForms
import JumpFormsLoader
import Testing
import TestSupport

/// The observable form model as a SwiftUI screen drives it: the example project's French
/// registration, all fields at once and one prompt at a time, against what the CLI sends.
@MainActor
@Suite(.timeLimit(.minutes(5))) struct FormEditorTests {
    static let loaded = ProjectLoader(environment: [:]).load(paths: [Repository.path("jump.yaml")]).primaryFlow!
    static let localizer = loaded.localizer()
    static let today = CivilDate(year: 2025, month: 6, day: 15)!

    static func registration() throws -> FormModel {
        try FormInterpreter(flow: loaded.flow, localizer: localizer).model(form: "registrationForm", locale: LocaleTag("fr-FR")!)
    }

    static let ana: FormValues = [
        "emailAddress": "ana@example.com", "displayName": "ana_r", "firstName": "Ana", "lastName": "Ruiz",
        "newPassword": "correct horse battery", "newPasswordConfirm": "correct horse battery", "birthdate": "1990-04-01",
        "optIn": "true"
    ]

    /// Ana's answers typed into every field; the birthdate in the French format.
    func fillIn(_ editor: FormEditor, birthdate: String = "01/04/1990", confirm: String = "correct horse battery") {
        editor[text: "emailAddress"] = "ana@example.com"
        editor[text: "displayName"] = "ana_r"
        editor[text: "firstName"] = "Ana"
        editor[text: "lastName"] = " Ruiz "
        editor[text: "newPassword"] = "correct horse battery"
        editor[text: "newPasswordConfirm"] = confirm
        editor[text: "birthdate"] = birthdate
        editor[isOn: "optIn"] = true
    }

    @Test func aFrenchRegistrationAllAtOnceShowsTheRefusedFieldsMessageUntilItIsFixed() throws {
        let editor = FormEditor(form: try Self.registration(), localizer: Self.localizer, today: Self.today)
        #expect(
            editor.fields.map(\.name) == [
                "emailAddress", "displayName", "firstName", "lastName", "newPassword", "newPasswordConfirm", "birthdate", "optIn"
            ])
        let email = try #require(editor.field(named: "emailAddress"))
        #expect(email.label == "Adresse e-mail" && email.placeholder == "vous@example.com" && email.kind == .email && email.isRequired)
        #expect(email.tip == "Nous enverrons un lien de confirmation à cette adresse.")
        #expect(editor.field(named: "birthdate")?.kind == .date(hint: "AAAA-MM-JJ"))
        #expect(editor.field(named: "optIn")?.kind == .yesNo && editor[isOn: "optIn"] == false)
        #expect(editor.input.datePattern == "dd/MM/y")

        // One wrong answer: a birthdate 10 years ago.
        fillIn(editor, birthdate: "01/04/2015")
        #expect(editor.fields.allSatisfy { $0.messages.isEmpty }, "nothing is refused before it is validated")
        #expect(editor.field(named: "birthdate")?.value == "2015-04-01")
        #expect(editor[date: "birthdate"] == CivilDate(year: 2015, month: 4, day: 1))
        #expect(editor.field(named: "lastName")?.value == "Ruiz")
        #expect(!editor.isValid)
        #expect(editor.submit() == nil)
        #expect(editor.fields.filter { !$0.messages.isEmpty }.map(\.name) == ["birthdate"])
        #expect(editor.field(named: "birthdate")?.messages == ["Vous devez avoir au moins 13 ans."])

        // After a submit, every edit is checked at once.
        editor[text: "birthdate"] = "31/02/1990"
        #expect(editor.field(named: "birthdate")?.value == nil)
        #expect(editor.field(named: "birthdate")?.messages == ["Date de naissance : cette date n’existe pas."], "31 February does not exist")
        editor[date: "birthdate"] = CivilDate(year: 1990, month: 4, day: 1)
        #expect(editor.field(named: "birthdate")?.messages == [], "fixed: its message goes")
        #expect(editor.isValid)
        #expect(editor.submit() == Self.ana)
        #expect(editor.fields.allSatisfy { $0.messages.isEmpty } && editor.formMessages.isEmpty)
    }

    @Test func aFieldIsCheckedWhenLeftAndCrossFieldRulesOnSubmit() throws {
        let editor = FormEditor(form: try Self.registration(), localizer: Self.localizer, today: Self.today)
        editor[text: "emailAddress"] = "ana.example.com"
        editor.validate("emailAddress")
        #expect(editor.field(named: "emailAddress")?.messages == ["Saisissez une adresse e-mail valide, par exemple nom@example.com."])
        #expect(editor.field(named: "displayName")?.messages == [], "a field not yet left shows nothing")
        fillIn(editor, confirm: "correct horse batery")
        #expect(editor.field(named: "emailAddress")?.messages == [], "fixed while shown: its message goes")
        editor.validate("newPasswordConfirm")
        #expect(editor.field(named: "newPasswordConfirm")?.messages == [], "a match waits for the submit")

        #expect(editor.submit() == nil)
        // Either password may be the mistyped one: both show the message, as both are re-asked.
        let mismatch = ["Les mots de passe ne correspondent pas."]
        #expect(editor.field(named: "newPassword")?.messages == mismatch)
        #expect(editor.field(named: "newPasswordConfirm")?.messages == mismatch)
        editor[text: "newPasswordConfirm"] = "correct horse battery"
        #expect(editor.fields.allSatisfy { $0.messages.isEmpty })
        #expect(editor.submit() == Self.ana)

        // The server refuses the email: shown on the field (and re-asked one at a time) until edited.
        let taken = "Cette adresse e-mail est déjà enregistrée. Connectez-vous ou réinitialisez votre mot de passe."
        editor.reject([FieldMessages(field: "emailAddress", messages: [taken])], formMessages: ["Corrigez les champs signalés."])
        #expect(editor.field(named: "emailAddress")?.messages == [taken])
        #expect(editor.formMessages == ["Corrigez les champs signalés."])
        // One at a time, just the refused field is asked again.
        guard case .prompt(let prompt) = editor.step else { Issue.record("\(editor.step)"); return }
        #expect(prompt.field == "emailAddress" && prompt.messages == [taken])
        #expect(editor.answer("ana.ruiz@example.com").isEmpty)
        guard case .review = editor.step else { Issue.record("\(editor.step)"); return }
        editor[text: "emailAddress"] = "ana.ruiz@example.com"
        #expect(editor.field(named: "emailAddress")?.messages == [])
        var values = Self.ana
        values["emailAddress"] = "ana.ruiz@example.com"
        #expect(editor.submit() == values)
        #expect(editor.formMessages.isEmpty)
    }

    @Test func givenValuesShowAsTextsAndARefusedOneShowsWhy() throws {
        let form = try FormInterpreter(flow: Self.loaded.flow, localizer: Self.localizer).model(
            form: "editProfileForm", locale: LocaleTag("fr-FR")!)
        let editor = FormEditor(
            form: form, localizer: Self.localizer, today: Self.today,
            defaults: ["displayName": "ana_r", "firstName": "Ana", "lastName": "Ruiz", "gender": "female", "addressCity": "Lyon", "optIn": "true"])
        #expect(editor[text: "gender"] == "female" && editor[isOn: "optIn"])
        #expect(editor.field(named: "gender")?.options.map(\.label) == ["Femme", "Homme", "Autre"], "the enabled options")
        #expect(editor.field(named: "addressCity")?.messages.isEmpty == true, "alongWith waits for the submit")
        // A picker sets an option's value; a profile's emptied city is sent empty (to clear it).
        editor[text: "gender"] = "male"
        editor[text: "addressCity"] = ""
        let values = try #require(editor.submit())
        #expect(values["gender"] == "male" && values["addressCity"] == "" && values["addressStreet"] == nil && values["optIn"] == "true")

        let refused = FormEditor(form: form, localizer: Self.localizer, today: Self.today, prefilled: ["gender": "unknown"])
        #expect(refused.field(named: "gender")?.messages == ["Choisissez l’une des options proposées pour «\u{00A0}Genre\u{00A0}»."])
    }

    @Test func oneAtATimeSendsWhatTheCLISendsForTheSameAnswers() async throws {
        let answers = [
            "ana.example.com", "ana@example.com", "ana_r", "Ana", "Ruiz", "correct horse battery", "correct horse battery", "01/04/1990",
            "oui", ""
        ]
        let editor = FormEditor(form: try Self.registration(), localizer: Self.localizer, today: Self.today)
        var refusals: [String] = []
        for answer in answers {
            switch editor.step {
            case .prompt(let prompt):
                refusals += editor.answer(answer).map { "\(prompt.field): \($0)" }
            case .review(let review):
                #expect(review.lines.count == 8 && !review.lines.contains { $0.shown.contains("horse") }, "passwords are masked")
                editor.confirm()
            case .complete:
                Issue.record("complete before the answers ran out")
            }
        }
        #expect(refusals == ["emailAddress: Saisissez une adresse e-mail valide, par exemple nom@example.com."])
        guard case .complete(let values) = editor.step else { Issue.record("\(editor.step)"); return }
        #expect(values == Self.ana)
        #expect(editor.field(named: "birthdate")?.text == "1990-04-01", "accepted answers show in the fields")

        // The same answers typed into `jump-forms register` (a dry run prints the request).
        let folder = try TemporaryFolder("jump-forms-editor")
        defer { folder.remove() }
        for item in ["flows", "locales"] {
            try FileManager.default.copyItem(atPath: Repository.path(item), toPath: folder.path + "/" + item)
        }
        try folder.write("jump.yaml", try String(contentsOfFile: Repository.path("jump.yaml"), encoding: .utf8))
        let result = try await Executable.run(
            "jump-forms", ["register", "--dry-run", "--show-secrets", "--locale", "fr-FR", "--today", "2025-06-15"], in: folder.path,
            environment: [
                "HOME": folder.path, "XDG_STATE_HOME": folder.path + "/state", "XDG_CONFIG_HOME": folder.path + "/config",
                "XDG_DATA_HOME": folder.path + "/share", "NO_COLOR": "1"
            ], input: answers.joined(separator: "\n") + "\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Saisissez une adresse e-mail valide"), "the CLI refused the same answer")
        let body = try #require(result.stdout.split(separator: "\n").last.map(String.init))
        var sent: [String: String] = [:]
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            if parts.count == 2 { sent[parts[0]] = parts[1] }
        }
        let protocolKeys: Set = ["client_id", "locale", "flow", "flow_version", "redirect_uri", "response_type", "form", "refresh_secret"]
        var expected = values.values
        let birthdate = try #require(expected.removeValue(forKey: "birthdate").flatMap(CivilDate.init(iso:)))
        expected["birthdate[dateselect_year]"] = String(birthdate.year)
        expected["birthdate[dateselect_month]"] = "04"
        expected["birthdate[dateselect_day]"] = "01"
        #expect(sent.filter { !protocolKeys.contains($0.key) } == expected)
        #expect(sent["locale"] == "fr-FR")
    }
}

import JumpForms
import Testing

/// The observable form model on the session tests' flow: hidden defaults, typed choices,
/// unticked boxes, `alongWith`, and the review in the one-at-a-time mode.
@MainActor
@Suite struct FormEditorModelTests {
    @Test func hiddenDefaultsAreSentChoicesTakeLabelsAndAnUntouchedBoxIsUnticked() throws {
        let editor = FormEditor(session: try FormSessionTests.session())
        #expect(editor.fields.map(\.name) == ["email", "password", "confirm", "gender", "news", "birthday"], "hidden fields are not shown")
        #expect(editor.field(named: "gender")?.options.map(\.label) == ["Female", "Male"], "disabled options are not offered")
        editor[text: "email"] = "ana@example.com"
        editor[text: "password"] = "correct horse"
        editor[text: "confirm"] = "correct horse"
        editor[text: "gender"] = "male"
        editor[text: "birthday"] = "4/1/1990"
        #expect(editor.field(named: "gender")?.value == "m" && editor.field(named: "birthday")?.value == "1990-04-01")
        #expect(editor[isOn: "news"] == false)
        #expect(
            editor.submit() == [
                "email": "ana@example.com", "password": "correct horse", "confirm": "correct horse", "gender": "m", "news": "false",
                "birthday": "1990-04-01", "source": "cli"
            ])
        editor[text: "gender"] = "3"
        #expect(editor.field(named: "gender")?.messages == ["Choose 1 to 2."])
        #expect(editor.submit() == nil)
    }

    @Test func aDateThatDoesNotExistSaysSoNotTheFormat() throws {
        let editor = FormEditor(session: try FormSessionTests.session())
        editor[text: "birthday"] = "2/31/1990"
        editor.validate("birthday")
        #expect(editor.field(named: "birthday")?.messages == ["Birthday: no such day."])
        editor[text: "birthday"] = "2020-02-30"
        #expect(editor.field(named: "birthday")?.messages == ["Birthday: no such day."])
        editor[text: "birthday"] = "31/31/1990"
        #expect(editor.field(named: "birthday")?.messages == ["Birthday: YYYY-MM-DD please."])
        editor[text: "birthday"] = "2/28/1990"
        #expect(editor.field(named: "birthday")?.messages == [] && editor.field(named: "birthday")?.value == "1990-02-28")
    }

    @Test func alongWithShowsOnBothFieldsOnceSubmitted() throws {
        let editor = FormEditor(session: try FormSessionTests.session(form: "profile"))
        editor[text: "city"] = "Lyon"
        editor[text: "size"] = "s"
        editor.validate("city")
        #expect(editor.field(named: "city")?.messages == [], "alongWith waits for the submit")
        #expect(editor.submit() == nil)
        let both = ["Enter both the street and the city."]
        #expect(editor.field(named: "street")?.messages == both && editor.field(named: "city")?.messages == both)
        editor[text: "street"] = "2 rue Neuve"
        #expect(editor.fields.allSatisfy { $0.messages.isEmpty })
        #expect(editor.submit() == ["street": "2 rue Neuve", "city": "Lyon", "size": "s"])
    }

    @Test func theReviewEditsAFieldOneAtATime() throws {
        let editor = FormEditor(
            session: try FormSessionTests.session([
                "email": "ana@example.com", "password": "correct horse", "confirm": "correct horse", "gender": "f", "news": "true",
                "birthday": "1990-04-01"
            ]))
        #expect(editor[text: "email"] == "ana@example.com" && editor[text: "password"] == "", "a password is never shown")
        guard case .review(let review) = editor.step else { Issue.record("\(editor.step)"); return }
        #expect(review.lines.first { $0.field == "gender" }?.shown == "Female")
        editor.edit("gender")
        guard case .prompt(let prompt) = editor.step else { Issue.record("\(editor.step)"); return }
        #expect(prompt.field == "gender" && prompt.current == "f")
        #expect(editor.answer("2").isEmpty)
        #expect(editor[text: "gender"] == "m")
        guard case .review = editor.step else { Issue.record("\(editor.step)"); return }
        editor.confirm()
        guard case .complete(let values) = editor.step else { Issue.record("\(editor.step)"); return }
        #expect(values["gender"] == "m" && values["password"] == "correct horse" && values["source"] == "cli")
        // All at once, the same values: the untouched password keeps its given value.
        #expect(editor.submit() == values)
    }

    /// Setting the text of a field the form lacks (a typo in the app's code) stops the program
    /// with a message naming the form's fields, instead of dropping the text unseen; so does a
    /// hidden field's. The editor's own fields are set as before.
    @Test func settingAFieldTheFormLacksStopsTheProgram() async throws {
        let editor = FormEditor(session: try FormSessionTests.session())
        editor.setText("ana@example.com", for: "email")
        #expect(editor[text: "email"] == "ana@example.com")

        let typo = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            try await MainActor.run {
                let editor = FormEditor(session: try FormSessionTests.session())
                editor[text: "emial"] = "ana@example.com"
            }
        }
        let typoText = String(decoding: typo?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            typoText.contains(
                "FormEditor.setText: the form 'form' has no field 'emial'; its fields: email, password, confirm, gender, news, birthday"))
        let hidden = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            try await MainActor.run {
                let editor = FormEditor(session: try FormSessionTests.session())
                editor.setText("web", for: "source")
            }
        }
        let hiddenText = String(decoding: hidden?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            hiddenText.contains(
                "the form 'form' shows no field 'source' (it is hidden: its value is the flow's default)"))
    }
}

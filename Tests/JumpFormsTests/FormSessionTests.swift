import JumpForms
import Testing

/// The form session driven without a terminal, as an app would.
@Suite struct FormSessionTests {
    static let here = SourceLocation(file: "flow.yaml", line: 1, column: 1)

    static func located(_ text: String) -> Located<String> { Located(text, at: here) }

    static func rule(_ kind: RuleKind, _ value: RuleValue = .none, _ key: String) -> ValidationRule {
        ValidationRule(kind: kind, value: value, message: located(key), location: here)
    }

    static let flow: Flow = {
        let fields = [
            FieldDefinition(
                name: "email", location: here, type: Located(.email, at: here), label: located("l.email"),
                validation: [rule(.required, .none, "v.required"), rule(.format, .text("email"), "v.email")]),
            FieldDefinition(
                name: "password", location: here, type: Located(.password, at: here), label: located("l.password"),
                validation: [rule(.required, .none, "v.required"), rule(.minLength, .integer(8), "v.minLength")]),
            FieldDefinition(
                name: "confirm", location: here, type: Located(.password, at: here), label: located("l.confirm"),
                validation: [rule(.match, .text("password"), "v.match")]),
            FieldDefinition(
                name: "gender", location: here, type: Located(.select, at: here), label: located("l.gender"),
                options: [
                    FieldOption(value: located("f"), label: located("o.f"), location: here),
                    FieldOption(value: located("m"), label: located("o.m"), location: here),
                    FieldOption(value: located("x"), label: located("o.x"), disabled: true, location: here)
                ],
                validation: [rule(.matchOptions, .none, "v.options")]),
            FieldDefinition(name: "news", location: here, type: Located(.checkbox, at: here), label: located("l.news")),
            FieldDefinition(
                name: "birthday", location: here, type: Located(.dateselect, at: here), label: located("l.birthday"),
                validation: [rule(.minYears, .integer(13), "v.minYears")]),
            FieldDefinition(name: "source", location: here, type: Located(.hidden, at: here), defaultValue: located("cli"))
        ]
        let profile = [
            FieldDefinition(
                name: "street", location: here, type: Located(.text, at: here), label: located("l.street"),
                validation: [rule(.alongWith, .text("city"), "v.address")]),
            FieldDefinition(
                name: "city", location: here, type: Located(.text, at: here), label: located("l.city"),
                validation: [rule(.alongWith, .text("street"), "v.address")]),
            FieldDefinition(
                name: "about", location: here, type: Located(.textarea, at: here), label: located("l.about"),
                validation: [rule(.maxLength, .integer(20), "v.maxLength")]),
            FieldDefinition(
                name: "size", location: here, type: Located(.radio, at: here), label: located("l.size"),
                options: [
                    FieldOption(value: located("s"), label: located("o.s"), location: here),
                    FieldOption(value: located("l"), label: located("o.l"), location: here)
                ],
                validation: [rule(.required, .none, "v.required"), rule(.matchOptions, .none, "v.options")])
        ]
        return Flow(
            path: "flow.yaml", name: located("f"), version: located("1"), defaultLocale: Located(LocaleTag("en-US")!, at: here),
            localesDirectory: located("locales"), fields: fields + profile,
            forms: [
                FormDefinition(name: "form", location: here, fields: fields.map { located($0.name) }),
                FormDefinition(name: "profile", location: here, fields: profile.map { located($0.name) }),
                FormDefinition(name: "short", location: here, fields: [located("email"), located("password")])
            ], providers: [])
    }()

    static func catalog(_ tag: String, _ messages: [(String, String)]) -> LocaleCatalog {
        LocaleCatalog(
            path: "\(tag).yaml", tag: Located(LocaleTag(tag)!, at: here),
            messages: messages.map {
                LocaleMessage(key: $0.0, text: $0.1, keyLocation: here, valueLocation: here, offsetMap: .linear(line: 1, column: 1))
            })
    }

    static let localizer = Localizer(
        defaultLocale: LocaleTag("en-US")!,
        catalogs: [
            catalog(
                "en-US",
                [
                    ("l.email", "Email"), ("l.password", "Password"), ("l.confirm", "Confirm"), ("l.gender", "Gender"),
                    ("o.f", "Female"), ("o.m", "Male"), ("o.x", "Hidden"), ("l.news", "News"), ("l.birthday", "Birthday"),
                    ("v.required", "{label} is required."), ("v.email", "Not an email."), ("v.match", "Does not match."),
                    ("v.minLength", "At least {value} characters."), ("v.options", "Pick one."), ("v.minYears", "Too young."),
                    ("l.street", "Street"), ("l.city", "City"), ("l.about", "About"), ("l.size", "Size"), ("o.s", "Small"),
                    ("o.l", "Large"), ("v.address", "Enter both the street and the city."), ("v.maxLength", "At most {value}."),
                    ("jumpForms.prompt.yes", "yes"), ("jumpForms.prompt.no", "no"), ("jumpForms.prompt.hiddenValue", "(hidden)"),
                    ("jumpForms.prompt.review", "Review your answers"), ("jumpForms.prompt.dateHint", "YYYY-MM-DD"),
                    ("jumpForms.prompt.invalidChoice", "Choose 1 to {count}."),
                    ("jumpForms.input.invalidDate", "{label}: YYYY-MM-DD please."),
                    ("jumpForms.input.nonexistentDate", "{label}: no such day.")
                ]),
            catalog(
                "fr-FR",
                [
                    ("jumpForms.prompt.yes", "oui"), ("jumpForms.prompt.no", "non"), ("v.required", "« {label} » est obligatoire."),
                    ("l.email", "E-mail")
                ])
        ])

    static func session(
        _ prefilled: FormValues = FormValues(), defaults: FormValues = FormValues(), form name: String = "form",
        locale: String = "en-US"
    ) throws -> FormSession {
        let form = try FormInterpreter(flow: flow, localizer: localizer).model(form: name, locale: LocaleTag(locale)!)
        return FormSession(
            form: form, localizer: localizer, today: CivilDate(year: 2025, month: 6, day: 15)!, prefilled: prefilled, defaults: defaults)
    }

    func promptField(_ session: inout FormSession) -> Prompt? {
        if case .prompt(let prompt) = session.next() { return prompt }
        return nil
    }

    @Test func promptsFollowTheFormAndSkipHiddenFields() throws {
        var session = try Self.session()
        var asked: [String] = []
        let answers = ["ana@example.com", "correct horse", "correct horse", "1", "yes", "1990-04-01"]
        for answer in answers {
            let prompt = try #require(promptField(&session))
            asked.append(prompt.field)
            #expect(session.answer(answer).isEmpty, "\(prompt.field)")
        }
        #expect(asked == ["email", "password", "confirm", "gender", "news", "birthday"])
        guard case .review(let review) = session.next() else { Issue.record("no review"); return }
        #expect(review.lines.map(\.shown) == ["ana@example.com", "(hidden)", "(hidden)", "Female", "yes", "1990-04-01"])
        session.confirm()
        guard case .complete(let values) = session.next() else { Issue.record("not complete"); return }
        #expect(
            values == [
                "email": "ana@example.com", "password": "correct horse", "confirm": "correct horse", "gender": "f",
                "news": "true", "birthday": "1990-04-01", "source": "cli"
            ])
    }

    @Test func refusedAnswersAreAskedAgainWithTheirMessages() throws {
        var session = try Self.session()
        #expect(session.answer("ana@") == ["Not an email."])
        let again = try #require(promptField(&session))
        #expect(again.field == "email" && again.messages == ["Not an email."])
        #expect(session.answer("") == ["Email is required."])
        #expect(session.answer("ana@example.com").isEmpty)
        #expect(try #require(promptField(&session)).field == "password")
    }

    /// The review names an option by its label only when the menu offered it: a disabled
    /// option's value (a stored record's) shows as it is.
    @Test func theReviewShowsOnlyOfferedOptionsByLabel() throws {
        let offered = try Self.session(["gender": "m"]).review()
        #expect(offered.lines.first { $0.field == "gender" }?.shown == "Male")
        let disabled = try Self.session(defaults: ["gender": "x"]).review()
        #expect(disabled.lines.first { $0.field == "gender" }?.shown == "x")
    }

    @Test func promptKindsCarryWhatAFrontEndNeeds() throws {
        var session = try Self.session(["email": "ana@example.com", "password": "correct horse", "confirm": "correct horse"])
        let gender = try #require(promptField(&session))
        guard case .choice(let options) = gender.kind else { Issue.record("\(gender.kind)"); return }
        #expect(options.map(\.label) == ["Female", "Male"], "disabled options are not offered")
        #expect(session.answer("3") == ["Choose 1 to 2."])
        #expect(session.answer("male").isEmpty, "an option's label works too")
        let news = try #require(promptField(&session))
        #expect(news.kind == .yesNo)
        #expect(session.answer("perhaps") != [])
        #expect(session.answer("n").isEmpty)
        let birthday = try #require(promptField(&session))
        #expect(birthday.kind == .date(hint: "YYYY-MM-DD"))
        #expect(session.answer("15/06/2020") == ["Birthday: YYYY-MM-DD please."])
        // A date in the locale's format that names no day says so.
        #expect(session.answer("2/30/2020") == ["Birthday: no such day."])
        #expect(session.answer("2020-02-30") == ["Birthday: no such day."])
        #expect(session.answer("2020-06-15") == ["Too young."])
    }

    @Test func aMismatchAsksBothFieldsOfTheMatchAgain() throws {
        var session = try Self.session(["gender": "f", "news": "false"])
        session.answer("ana@example.com")
        session.answer("correct horse")
        session.answer("correct hose")
        session.answer("")
        // Either password may be the mistyped one: both are asked, the first one first.
        let password = try #require(promptField(&session))
        #expect(password.field == "password" && password.messages == ["Does not match."])
        #expect(session.answer("correct hose").isEmpty)
        let confirm = try #require(promptField(&session))
        #expect(confirm.field == "confirm" && confirm.messages == ["Does not match."])
        #expect(session.answer("correct hose").isEmpty)
        guard case .review = session.next() else { Issue.record("expected the review"); return }
    }

    @Test func alongWithAsksTheNamedFieldTooAndAnEmptyAnswerClears() throws {
        var session = try Self.session(["size": "s"], form: "profile")
        #expect(try #require(promptField(&session)).field == "street")
        session.answer("")
        #expect(try #require(promptField(&session)).field == "city")
        session.answer("Lyon")
        session.answer("")  // about
        // The city needs a street: the street is asked (the field the rule names), then the city.
        let street = try #require(promptField(&session))
        #expect(street.field == "street" && street.messages == ["Enter both the street and the city."])
        session.answer("")
        let city = try #require(promptField(&session))
        #expect(city.field == "city" && city.current == "Lyon")
        // An empty answer empties the value: the address is no longer half given.
        #expect(session.answer("").isEmpty)
        guard case .review(let review) = session.next() else { Issue.record("expected the review"); return }
        #expect(review.lines.map(\.shown) == ["", "", "", "Small"])
        session.confirm()
        guard case .complete(let values) = session.next() else { Issue.record("expected completion"); return }
        // The emptied city is sent empty (so a server clears it); the street was never given.
        #expect(values == ["city": "", "size": "s"])
    }

    @Test func alongWithIsSatisfiedByAnsweringTheNamedField() throws {
        var session = try Self.session(["city": "Lyon", "size": "l"], form: "profile")
        session.answer("")  // street
        session.answer("")  // about
        #expect(try #require(promptField(&session)).field == "street")
        #expect(session.answer("2 rue Neuve").isEmpty)
        let city = try #require(promptField(&session))
        #expect(city.field == "city" && city.current == "Lyon")
        #expect(session.answer("Lyon").isEmpty)
        guard case .review = session.next() else { Issue.record("expected the review"); return }
        session.confirm()
        guard case .complete(let values) = session.next() else { Issue.record("expected completion"); return }
        #expect(values["street"] == "2 rue Neuve" && values["city"] == "Lyon")
    }

    @Test func textareaKeepsItsLinesAndRadioTakesNumbersOrLabels() throws {
        var session = try Self.session(["street": "2 rue Neuve", "city": "Lyon"], form: "profile")
        let about = try #require(promptField(&session))
        #expect(about.kind == .multiline && !about.isRequired)
        #expect(session.answer("Line one\nLine two, too long") == ["At most 20."])
        #expect(session.answer("Line one\nLine two").isEmpty)
        let size = try #require(promptField(&session))
        guard case .choice(let options) = size.kind else { Issue.record("\(size.kind)"); return }
        #expect(options.map(\.label) == ["Small", "Large"])
        #expect(session.answer("") == ["Size is required."])
        #expect(session.answer("3") == ["Choose 1 to 2."])
        #expect(session.answer("large").isEmpty)
        guard case .review(let review) = session.next() else { Issue.record("expected the review"); return }
        #expect(review.lines.map(\.shown) == ["2 rue Neuve", "Lyon", "Line one\nLine two", "Large"])
        session.confirm()
        guard case .complete(let values) = session.next() else { Issue.record("expected completion"); return }
        #expect(values["about"] == "Line one\nLine two" && values["size"] == "l")
    }

    @Test func editFromTheReviewAsksThatFieldThenReviewsAgain() throws {
        var session = try Self.session([
            "email": "ana@example.com", "password": "correct horse", "confirm": "correct horse",
            "gender": "f", "news": "true", "birthday": "1990-04-01"
        ])
        guard case .review = session.next() else { Issue.record("expected the review"); return }
        session.edit("gender")
        let gender = try #require(promptField(&session))
        #expect(gender.field == "gender" && gender.current == "f")
        session.answer("2")
        guard case .review(let review) = session.next() else { Issue.record("expected the review again"); return }
        #expect(review.lines.first { $0.field == "gender" }?.shown == "Male")
        session.confirm()
        guard case .complete(let values) = session.next() else { Issue.record("expected completion"); return }
        #expect(values["gender"] == "m")
    }

    @Test func defaultsAreAskedWithTheirValueOffered() throws {
        var session = try Self.session(["size": "s"], defaults: ["street": "2 rue Neuve", "city": "Lyon", "size": "l"], form: "profile")
        var asked: [String: String?] = [:]
        while case .prompt(let prompt) = session.next() {
            asked[prompt.field] = prompt.current
            session.answer(prompt.current ?? "")
        }
        // Defaults are walked (each offering its value); prefilled values win and are not asked.
        #expect(asked == ["street": "2 rue Neuve", "city": "Lyon", "about": nil])
        #expect(session.values["size"] == "s")
    }

    @Test func shortFormsSkipTheReview() throws {
        var session = try Self.session(form: "short")
        #expect(!session.reviews)
        session.answer("ana@example.com")
        session.answer("correct horse")
        guard case .complete(let values) = session.next() else { Issue.record("a two-field form completes without a review"); return }
        #expect(values == ["email": "ana@example.com", "password": "correct horse"])
        #expect(try Self.session().reviews)
    }

    @Test func serverRefusalsReaskJustThoseFields() throws {
        var session = try Self.session([
            "email": "ana@example.com", "password": "correct horse", "confirm": "correct horse",
            "gender": "f", "news": "true", "birthday": "1990-04-01"
        ])
        guard case .review = session.next() else { Issue.record("expected the review"); return }
        session.confirm()
        guard case .complete = session.next() else { Issue.record("expected completion"); return }
        session.reject([FieldMessages(field: "email", messages: ["This email address is already registered."])], formMessages: ["Fix the errors."])
        let prompt = try #require(promptField(&session))
        #expect(prompt.field == "email" && prompt.messages == ["This email address is already registered."])
        session.answer("ana.ruiz@example.com")
        guard case .review(let review) = session.next() else { Issue.record("expected the review"); return }
        #expect(review.messages == ["Fix the errors."])
    }

    @Test func invalidPrefilledValuesAreAsked() throws {
        var session = try Self.session([
            "email": "not-an-email", "password": "correct horse", "confirm": "correct horse",
            "gender": "f", "news": "true", "birthday": "1990-04-01"
        ])
        let prompt = try #require(promptField(&session))
        #expect(prompt.field == "email" && prompt.messages == ["Not an email."] && prompt.current == "not-an-email")
    }

    @Test func yesAndNoWordsFollowTheLocale() throws {
        var session = try Self.session(
            ["email": "ana@example.com", "password": "correct horse", "confirm": "correct horse", "gender": "f"], locale: "fr-FR")
        #expect(try #require(promptField(&session)).field == "news")
        #expect(session.answer("oui").isEmpty)
        #expect(session.values["news"] == "true")
    }

    @Test func missingRequiredFieldsAreListed() throws {
        let session = try Self.session(["gender": "f"])
        #expect(session.missingRequiredFields.map(\.name) == ["email", "password"])
    }
}

import JumpForms
import JumpFormsLoader
import Testing
import TestSupport

/// Typed input read in each locale with the built-in catalog's words and the example project's
/// edit-profile form (a choice, a checkbox and a date).
@Suite struct FieldInputTests {
    static let loaded = ProjectLoader(environment: [:]).load(paths: [Repository.path("jump.yaml")]).primaryFlow!
    static let localizer = loaded.localizer()

    struct Case: Sendable, CustomTestStringConvertible {
        var locale: String
        var yes: [String]
        var no: [String]
        /// The label of `male`, as typed (in any case).
        var maleLabel: String
        /// 1 April 1990 in the locale's numeric format.
        var date: String
        /// The message of input that is no date (`31/02/90`).
        var invalidDate: String
        /// 31 February 1990 in the locale's numeric format, and the message that says it does not exist.
        var nonexistent: String
        var nonexistentDate: String
        var invalidCheckbox: String
        var testDescription: String { locale }
    }

    static let cases: [Case] = [
        Case(
            locale: "en-US", yes: ["yes", "Y", " true "], no: ["no", "N", "False"], maleLabel: "MALE", date: "4/1/1990",
            invalidDate: "Date of birth: enter a date as YYYY-MM-DD.", nonexistent: "2/31/1990",
            nonexistentDate: "Date of birth: this date does not exist.", invalidCheckbox: "answer yes or no."),
        Case(
            locale: "fr-FR", yes: ["oui", "O", "yes"], no: ["non", "N", "no"], maleLabel: "homme", date: "01/04/1990",
            invalidDate: "Date de naissance : saisissez une date au format AAAA-MM-JJ.", nonexistent: "31/02/1990",
            nonexistentDate: "Date de naissance : cette date n’existe pas.", invalidCheckbox: "répondez par oui ou par non."),
        Case(
            locale: "de-DE", yes: ["ja", "J", "y"], no: ["nein", "n"], maleLabel: "männlich", date: "1.4.1990",
            invalidDate: "Geburtsdatum: Geben Sie ein Datum im Format JJJJ-MM-TT ein.", nonexistent: "31.02.1990",
            nonexistentDate: "Geburtsdatum: Dieses Datum gibt es nicht.", invalidCheckbox: "Antworten Sie mit Ja oder Nein."),
        Case(
            locale: "ja-JP", yes: ["はい", "は", "yes"], no: ["いいえ", "い", "no"], maleLabel: "男性", date: "1990/4/1",
            invalidDate: "生年月日：日付を YYYY-MM-DD の形式で入力してください。", nonexistent: "1990/2/31",
            nonexistentDate: "生年月日：この日付は存在しません。", invalidCheckbox: "「はい」または「いいえ」で答えてください。"),
        Case(
            locale: "pl-PL", yes: ["tak", "T", "true"], no: ["nie", "n"], maleLabel: "MĘŻCZYZNA", date: "1.04.1990",
            invalidDate: "Data urodzenia: wpisz datę w formacie RRRR-MM-DD.", nonexistent: "31.02.1990",
            nonexistentDate: "Data urodzenia: taka data nie istnieje.", invalidCheckbox: "odpowiedz tak lub nie.")
    ]

    func form(_ locale: String) throws -> FormModel {
        try FormInterpreter(flow: Self.loaded.flow, localizer: Self.localizer).model(form: "editProfileForm", locale: LocaleTag(locale)!)
    }

    @Test(arguments: cases)
    func checkboxesReadTheLocalesYesAndNo(_ test: Case) throws {
        let form = try form(test.locale)
        let input = FieldInput(localizer: Self.localizer, locale: form.locale)
        for word in test.yes { #expect(input.checkbox(word) == true, "\(word)") }
        for word in test.no { #expect(input.checkbox(word) == false, "\(word)") }
        #expect(input.checkbox("maybe") == nil)
        let optIn = try #require(form.field(named: "optIn"))
        #expect(try input.value(test.yes[0], for: optIn).get() == "true")
        #expect(try input.value("", for: optIn).get() == "false", "an empty answer leaves the box unticked")
        guard case .failure(let failure) = input.value("maybe", for: optIn) else { Issue.record("'maybe' was read"); return }
        #expect(failure.message.hasPrefix(optIn.label) && failure.message.hasSuffix(test.invalidCheckbox), "\(failure.message)")
    }

    @Test(arguments: cases)
    func choicesReadNumbersValuesAndLabels(_ test: Case) throws {
        let form = try form(test.locale)
        let input = FieldInput(localizer: Self.localizer, locale: form.locale)
        let gender = try #require(form.field(named: "gender"))
        // The fourth option is disabled: the numbers count the three others.
        #expect(gender.enabledOptions.map(\.value) == ["female", "male", "other"])
        #expect(FieldInput.choice("2", among: gender.enabledOptions)?.value == "male")
        #expect(FieldInput.choice("female", among: gender.enabledOptions)?.value == "female")
        #expect(FieldInput.choice(test.maleLabel, among: gender.enabledOptions)?.value == "male")
        #expect(FieldInput.choice("4", among: gender.enabledOptions) == nil)
        #expect(FieldInput.choice("0", among: []) == nil)
        #expect(try input.value(" \(test.maleLabel) ", for: gender).get() == "male")
        guard case .failure(let failure) = input.value("4", for: gender) else { Issue.record("'4' was read"); return }
        #expect(failure.message == Self.localizer.text(PromptWords.invalidChoice, for: form.locale, ["count": .int(3)]))
        #expect(failure.message.contains("3"))
    }

    @Test(arguments: cases)
    func datesReadTheLocalesFormatAndISO(_ test: Case) throws {
        let form = try form(test.locale)
        let input = FieldInput(localizer: Self.localizer, locale: form.locale)
        let birthdate = try #require(form.field(named: "birthdate"))
        #expect(input.date(test.date)?.description == "1990-04-01")
        #expect(try input.value(test.date, for: birthdate).get() == "1990-04-01")
        #expect(try input.value("1990-04-01", for: birthdate).get() == "1990-04-01")
        #expect(try input.value("", for: birthdate).get() == "")
        guard case .failure(let failure) = input.value("31/02/90", for: birthdate) else { Issue.record("a two-digit year was read"); return }
        #expect(failure.message == test.invalidDate)
    }

    /// A date in the locale's format (or ISO's) that names no day says so, not the format.
    @Test(arguments: cases)
    func aDateThatDoesNotExistSaysSo(_ test: Case) throws {
        let form = try form(test.locale)
        let input = FieldInput(localizer: Self.localizer, locale: form.locale)
        let birthdate = try #require(form.field(named: "birthdate"))
        for text in [test.nonexistent, "2020-02-30"] {
            guard case .failure(let failure) = input.value(text, for: birthdate) else { Issue.record("\(text) was read"); continue }
            #expect(failure.message == test.nonexistentDate, "\(text)")
        }
    }

    @Test func theFormSessionReadsTheLocalesDates() throws {
        let form = try form("fr-FR")
        var session = FormSession(
            form: form, localizer: Self.localizer, today: CivilDate(year: 2025, month: 6, day: 15)!,
            prefilled: ["displayName": "ana_r", "firstName": "Ana", "lastName": "Ruiz", "gender": "female"])
        while case .prompt(let prompt) = session.next(), prompt.field != "birthdate" { session.answer("") }
        #expect(session.answer("01/04/1990").isEmpty)
        #expect(session.values["birthdate"] == "1990-04-01")
    }
}

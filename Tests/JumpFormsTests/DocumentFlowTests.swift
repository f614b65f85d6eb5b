import Foundation
import JumpForms
import Testing
import TestSupport

/// Flows from flow documents in memory, with JumpForms alone (no loader, no libyaml): the
/// documents `jump-forms` writes for flows/standard.yaml, and bad bytes, which get located
/// errors and never a crash.
@Suite struct DocumentFlowTests {
    static let golden = "Tests/JumpFormsLoaderTests/Fixtures/flow-documents/golden/standard/2024-01-15.1"

    static func data(_ locale: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: Repository.path("\(golden)/\(locale).json")))
    }

    @Test func aDocumentMakesTheFlowAndItsFrenchForm() throws {
        let document = try DocumentFlow(document: try Self.data("fr-FR"), path: "fr-FR.json")
        #expect(document.flow.name.value == "standard" && document.flow.version.value == "2024-01-15.1")
        #expect(document.warnings.isEmpty)
        let french = LocaleTag("fr-FR")!
        let localizer = document.localizer()
        let form = try FormInterpreter(flow: document.flow, localizer: localizer).model(form: "registrationForm", locale: french)
        let optIn = try #require(form.fields.first { $0.name == "optIn" })
        #expect(optIn.label == "Je souhaite recevoir des actualités et des offres par e-mail")
        // The session's own words come from the compiled built-in catalog.
        var session = FormSession(form: form, localizer: localizer, today: CivilDate(year: 2025, month: 6, day: 15)!)
        guard case .prompt(let first) = session.next() else { Issue.record("no prompt"); return }
        #expect(first.field == form.fields.first { $0.type != .hidden }?.name)
        #expect(FormSession.checkboxAnswer("oui", localizer: localizer, locale: french) == true)
        #expect(localizer.text(PromptWords.hiddenValue, for: french) == "(masqué)")
    }

    @Test func documentsOfSeveralLocalesMakeOneFlow() throws {
        let locales = ["de-DE", "en-US", "es-ES", "fr-FR", "ja-JP", "pl-PL"]
        let documents = try locales.map { (path: "\($0).json", bytes: [UInt8](try Self.data($0))) }
        let flow = try DocumentFlow(documents: documents)
        #expect(flow.catalogs.map(\.tag.value.identifier).sorted() == locales)
        let localizer = flow.localizer()
        for locale in locales.compactMap(LocaleTag.init) {
            let form = try FormInterpreter(flow: flow.flow, localizer: localizer).model(form: "signInForm", locale: locale)
            #expect(form.fields.map(\.name) == ["signInEmailAddress", "currentPassword"])
        }
    }

    /// A locale file's own version of a built-in word travels in the document, so the form
    /// session read from it asks in that word; words the files keep are not written.
    @Test func theFlowsOwnWordsForTheSessionTravelInTheDocument() throws {
        let french = LocaleTag("fr-FR")!
        let words = FormSessionTests.catalog("fr-FR", [("jumpForms.prompt.yes", "ouais"), ("l.email", "Courriel")])
        let english = FormSessionTests.catalog("en-US", [("l.email", "Email")])
        let localizer = Localizer(defaultLocale: LocaleTag("en-US")!, catalogs: [english, words], fallbackCatalogs: BuiltinCatalog.catalogs)
        let text = try CaptureFlowDocument.text(FormSessionTests.flow, localizer: localizer, locale: french)
        let messages = try #require(JSONValue.parse(text)["jumpForms"]?["messages"]?["fr-FR"]?.objectValue)
        #expect(messages.map(\.key) == ["l.email", "jumpForms.prompt.yes"])
        let read = try DocumentFlow(document: Array(text.utf8), path: "fr-FR.json")
        let again = read.localizer()
        #expect(again.text(PromptWords.yes, for: french) == "ouais")
        #expect(again.text(PromptWords.no, for: french) == "non", "the built-in word, compiled in")
        #expect(FormSession.checkboxAnswer("ouais", localizer: again, locale: french) == true)
    }

    /// Each problem is an error at its line and column, rendered with the quoted line.
    @Test func badBytesAreLocatedErrors() throws {
        let cases: [(bytes: String, place: String)] = [
            ("", "fr-FR.json:1:"),
            ("{\"version\": ", "fr-FR.json:1:"),
            ("[1, 2]", "fr-FR.json:1:"),
            ("{\"version\": \"1\", \"fields\": {\"a\": {\"type\": \"telepathy\"}}}", "fr-FR.json:1:"),
            ("\u{FEFF}{\"version\": 3}", "fr-FR.json:1:")
        ]
        for (text, place) in cases {
            do {
                _ = try DocumentFlow(document: Array(text.utf8), path: "fr-FR.json")
                Issue.record("no error for \(text)")
            } catch {
                #expect(error.diagnostics.containsErrors, "\(text)")
                #expect(error.diagnostics.allSatisfy { $0.location != nil }, "\(text)")
                #expect(error.description.hasPrefix(place), "\(error.description)")
                #expect(error.description.contains("error[JF6"), "\(error.description)")
            }
        }
        #expect(throws: FlowDocumentReadError.self) { try DocumentFlow(documents: []) }
    }

    /// Cut and altered documents (seeded): each makes a flow or located errors, never a crash.
    @Test func damagedDocumentsNeverCrash() throws {
        let original = [UInt8](try Self.data("en-US"))
        var random = SplitMix(seed: 27)
        var truncated = 0
        for _ in 0..<200 {
            var bytes = original
            let cut = random.next(3) == 0
            if cut {
                // Short of the closing brace: never a whole document.
                bytes = Array(bytes.prefix(random.next(bytes.count - 2)))
            } else if random.next(2) == 0 {
                for _ in 0..<(1 + random.next(8)) { bytes[random.next(bytes.count)] = UInt8(random.next(256)) }
            } else {
                let at = random.next(bytes.count)
                bytes.removeSubrange(at..<min(bytes.count, at + 1 + random.next(40)))
            }
            do {
                _ = try DocumentFlow(document: bytes, path: "en-US.json")
                #expect(!cut, "a cut document made a flow")
            } catch {
                if cut { truncated += 1 }
                #expect(error.diagnostics.contains { $0.severity == .error && $0.location?.file == "en-US.json" })
            }
        }
        #expect(truncated > 0)
    }
}

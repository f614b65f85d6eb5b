import Foundation
import JumpForms
import JumpFormsLoader
import Testing
import TestSupport

/// Capture flow documents: the golden documents of flows/standard.yaml, the way back to the
/// same forms (through the documents alone, and through the flow and locale files `flow
/// import` writes), Capture's own documents, and the located diagnostics of bad ones.
@Suite struct FlowDocumentTests {
    static let fixtures = "Tests/JumpFormsLoaderTests/Fixtures/flow-documents"
    static let standard = ProjectLoader(environment: [:]).load(paths: [Repository.path("flows/standard.yaml")])
    static var loaded: LoadedFlow { standard.primaryFlow! }
    /// Every locale of locales/.
    static let locales = loaded.catalogs.map(\.tag.value).sorted()
    static let forms = loaded.flow.forms.map(\.name)

    static func document(_ locale: LocaleTag) throws -> String {
        try CaptureFlowDocument.text(loaded.flow, localizer: loaded.localizer(), locale: locale)
    }

    static func goldenPath(_ locale: LocaleTag) -> String {
        Repository.path("\(fixtures)/golden/standard/\(loaded.flow.version.value)/\(locale.identifier).json")
    }

    /// The forms of a flow as `show --format json` prints them, every form in every locale.
    static func shown(_ flow: LoadedFlow, locales: [LocaleTag] = locales) throws -> [String: String] {
        let localizer = flow.localizer()
        var result: [String: String] = [:]
        for locale in locales {
            for form in forms {
                let model = try FormInterpreter(flow: flow.flow, localizer: localizer).model(form: form, locale: locale)
                result["\(form) \(locale)"] = FormRenderer.json(model, localizer: localizer).serialized(pretty: true)
            }
        }
        return result
    }

    @Test func theStandardFlowHasSixLocales() {
        #expect(Self.locales.map(\.identifier) == ["de-DE", "en-US", "es-ES", "fr-FR", "ja-JP", "pl-PL"])
        #expect(Self.standard.diagnostics.isEmpty)
    }

    @Test(arguments: locales)
    func documentsMatchTheirGoldenFiles(_ locale: LocaleTag) throws {
        Snapshot.check(try Self.document(locale), against: Self.goldenPath(locale))
    }

    /// The SDKs' view: `version` a string, forms and fields in one map, a form's `fields` an
    /// ordered list, each field's `type` and `schemaId`, `schema_info.paths`; the sign-in form
    /// has two fields, one of type password (CaptureFlowUtils.java:107-157).
    @Test func documentsHaveTheShapeTheSDKsRead() throws {
        let document = try JSONValue.parse(try Self.document(LocaleTag("fr-FR")!))
        #expect(document["version"] == "2024-01-15.1")
        let fields = try #require(document["fields"]?.objectValue)
        #expect(fields.map(\.key) == Self.loaded.flow.fields.map(\.name) + Self.forms)
        let signIn = try #require(document["fields"]?["signInForm"]?["fields"]?.arrayValue)
        #expect(signIn == ["signInEmailAddress", "currentPassword"])
        #expect(document["fields"]?["currentPassword"]?["type"] == "password")
        #expect(document["fields"]?["addressCity"]?["schemaId"] == "primaryAddress.city")
        #expect(document["schema_info"]?["paths"]?["addressCity"] == "primaryAddress.city")
        #expect(document["schema_info"]?["paths"]?["currentPassword"] == nil)
        #expect(document["fields"]?["currentPassword"]?["schemaId"] == nil)
        // The SDKs send a form's fields from the record through their schemaId: the
        // confirmation has the password's, so that both SDKs send it (Android's debug builds
        // stop on a field without one: JRCaptureUser+Extras.m:147-150, CaptureFlowUtils.java:75).
        #expect(document["fields"]?["newPasswordConfirm"]?["schemaId"] == "password")
        #expect(document["schema_info"]?["paths"]?["newPasswordConfirm"] == "password")
        let registration = try #require(document["fields"]?["registrationForm"]?["fields"]?.arrayValue)
        for name in registration.compactMap(\.stringValue) {
            #expect(document["fields"]?[name]?["schemaId"] != nil, "\(name) has no schemaId: the SDKs would not send it")
        }
        // Texts rendered for the locale, messages with the field's label and the rule's value.
        #expect(document["fields"]?["emailAddress"]?["label"] == "Adresse e-mail")
        let rules = try #require(document["fields"]?["newPassword"]?["validation"]?.arrayValue)
        #expect(
            rules[1] == [
                "rule": "minLength", "value": 8, "message": "Le champ «\u{A0}Mot de passe\u{A0}» doit comporter au moins 8 caractères.",
                "messageKey": "validation.minLength"
            ])
        let option = try #require(document["fields"]?["gender"]?["options"]?.arrayValue?.last)
        #expect(option == ["value": "", "text": "Je préfère ne pas répondre", "textKey": "options.gender.unset", "disabled": true])
    }

    /// The documents alone, read back, are the same forms in every locale.
    @Test func theDocumentsReadBackAsTheSameForms() throws {
        let folder = try TemporaryFolder("flow-documents")
        defer { folder.remove() }
        var paths: [String] = []
        for locale in Self.locales {
            paths.append(try folder.write("standard/2024-01-15.1/\(locale.identifier).json", try Self.document(locale)))
        }
        let project = ProjectLoader(environment: [:]).load(paths: paths)
        #expect(project.lint().isEmpty, "\(project.lint())")
        let fromDocuments = try #require(project.primaryFlow)
        #expect(project.flows.count == 1)
        #expect(fromDocuments.documentLocales == Self.locales)
        #expect(try Self.shown(fromDocuments) == (try Self.shown(Self.loaded)))
    }

    /// Export, import (the flow and locale files), export again: the same documents, and the
    /// same forms in every locale.
    @Test func importWritesFilesThatMakeTheSameFormsAndDocuments() throws {
        let folder = try TemporaryFolder("flow-import")
        defer { folder.remove() }
        let paths = try Self.locales.map { try folder.write("cdn/standard/2024-01-15.1/\($0.identifier).json", try Self.document($0)) }
        let project = ProjectLoader(environment: [:]).load(paths: paths)
        let imported = try #require(project.primaryFlow)
        try folder.write("out/flows/standard.yaml", FlowFileWriter.yaml(imported.flow))
        for catalog in imported.catalogs {
            try folder.write("out/locales/\(catalog.tag.value.identifier).yaml", LocaleFileWriter.yaml(LocaleFileContent(catalog), nested: true))
        }
        let reloaded = ProjectLoader(environment: [:]).load(paths: [folder.path + "/out/flows/standard.yaml"])
        #expect(reloaded.lint().isEmpty, "\(reloaded.lint())")
        let flow = try #require(reloaded.primaryFlow)
        #expect(try Self.shown(flow) == (try Self.shown(Self.loaded)))
        for locale in Self.locales {
            let again = try CaptureFlowDocument.text(flow.flow, localizer: flow.localizer(), locale: locale)
            #expect(again == (try Self.document(locale)), "\(locale): the document differs after import")
        }
        // The locale files hold the same messages as the originals (the keys of the flow's forms
        // and providers, same texts: activities are not part of a document).
        for original in Self.loaded.catalogs {
            let copy = try #require(flow.catalogs.first { $0.tag.value == original.tag.value })
            for key in Set(Self.loaded.flow.formMessageKeyUses.map(\.value)) where original.contains(key) {
                #expect(copy[key]?.text == original[key]?.text, "\(original.tag.value) \(key)")
            }
        }
    }

    /// One document, on its own, drives the forms of its locale (the client's `--flow FILE.json`).
    @Test func oneDocumentAloneShowsItsLocale() throws {
        let folder = try TemporaryFolder("flow-document")
        defer { folder.remove() }
        let french = LocaleTag("fr-FR")!
        let path = try folder.write("fr-FR.json", try Self.document(french))
        let project = ProjectLoader(environment: [:]).load(paths: [path])
        #expect(project.diagnostics.isEmpty)
        let flow = try #require(project.primaryFlow)
        #expect(flow.documentLocales == [french])
        #expect(try Self.shown(flow, locales: [french]) == (try Self.shown(Self.loaded, locales: [french])))
    }

    // MARK: Capture's own documents

    /// A document as Capture writes it: rendered texts only, no jumpForms object.
    static let capture = """
        {
          "version": "20240601.3",
          "fields": {
            "traditionalSignIn_emailAddress": {
              "type": "email",
              "label": "Email Address",
              "placeholder": "you@{company}.com",
              "validation": [
                {"rule": "required", "value": true, "message": "Email is required"},
                {"rule": "format", "value": "email", "message": "Isn't an email: '{x}'"}
              ]
            },
            "traditionalSignIn_password": {
              "type": "password",
              "label": "Password",
              "validation": [
                {"rule": "required", "value": true, "message": "Password is required"},
                {"rule": "minLength", "value": "6", "message": "Too short"},
                {"rule": "disableClientSide", "value": true}
              ]
            },
            "gender": {
              "type": "select",
              "schemaId": "gender",
              "label": "Gender",
              "options": [
                {"value": "", "text": "Choose", "disabled": true},
                {"value": "f", "text": "Female", "selected": true},
                {"value": "m", "text": "Male"}
              ],
              "validation": [{"rule": "required", "value": false, "message": "unused"}]
            },
            "traditionalSignInForm": {"fields": ["traditionalSignIn_emailAddress", "traditionalSignIn_password"]},
            "editProfileForm": {"fields": ["gender"]}
          },
          "schema_info": {
            "paths": {"traditionalSignIn_emailAddress": "email", "gender": "gender"}
          }
        }

        """

    @Test func capturesOwnDocumentsBecomeAFlowWithMessagesMadeFromTheirTexts() throws {
        let folder = try TemporaryFolder("capture-document")
        defer { folder.remove() }
        let path = try folder.write("native/20240601.3/en-US.json", Self.capture)
        let project = ProjectLoader(environment: [:]).load(paths: [path])
        #expect(project.lint().isEmpty, "\(project.lint())")
        let loaded = try #require(project.primaryFlow)
        let flow = loaded.flow
        // The name from the CDN path, the version, the locale from the file name.
        #expect(flow.name.value == "native")
        #expect(flow.version.value == "20240601.3")
        #expect(flow.defaultLocale.value == LocaleTag("en-US")!)
        let email = try #require(flow.field(named: "traditionalSignIn_emailAddress"))
        // schemaId from schema_info.paths.
        #expect(email.schemaId == .path(Located("email", at: email.schemaId!.paths[0].location)))
        #expect(email.label?.value == "fields.traditionalSignIn_emailAddress.label")
        #expect(
            email.validation.map(\.message.value) == [
                "validation.traditionalSignIn_emailAddress.required",
                "validation.traditionalSignIn_emailAddress.format"
            ])
        let password = try #require(flow.field(named: "traditionalSignIn_password"))
        #expect(password.validation.map(\.value) == [.none, .integer(6)])
        #expect(password.validation.allSatisfy { !$0.clientSide })
        let gender = try #require(flow.field(named: "gender"))
        #expect(gender.validation.isEmpty)
        #expect(gender.defaultValue?.value == "f")
        #expect(gender.options.map(\.label.value) == ["options.gender.option1", "options.gender.f", "options.gender.m"])
        // Texts with ICU's special characters stay what they were.
        let catalog = try #require(loaded.catalogs.first)
        #expect(catalog["fields.traditionalSignIn_emailAddress.placeholder"]?.text == "you@'{company}'.com")
        let model = try FormInterpreter(flow: flow, localizer: loaded.localizer()).model(form: "traditionalSignInForm", locale: LocaleTag("en-US")!)
        #expect(model.fields[0].placeholder == "you@{company}.com")
        #expect(loaded.localizer().text("validation.traditionalSignIn_emailAddress.format", for: LocaleTag("en-US")!) == "Isn't an email: '{x}'")
        // And it is a document of the same forms again.
        let again = try JSONValue.parse(try CaptureFlowDocument.text(flow, localizer: loaded.localizer(), locale: LocaleTag("en-US")!))
        #expect(again["fields"]?["traditionalSignIn_emailAddress"]?["placeholder"] == "you@{company}.com")
        #expect(again["fields"]?["gender"]?["default"] == "f")
    }

    @Test func aFieldAndAFormOfOneNameCannotBeWritten() throws {
        var flow = Self.loaded.flow
        let signIn = try #require(flow.form(named: "signInForm"))
        flow.fields.append(FieldDefinition(name: "signInForm", location: signIn.location, type: Located(.text, at: signIn.location)))
        #expect(throws: CaptureFlowDocument.EncodeError.self) {
            _ = try CaptureFlowDocument.text(flow, localizer: Self.loaded.localizer(), locale: LocaleTag("en-US")!)
        }
        do {
            _ = try CaptureFlowDocument.encode(flow, localizer: Self.loaded.localizer(), locale: LocaleTag("en-US")!)
        } catch {
            #expect(error.diagnostic.code == .fieldAndFormShareName)
            #expect(error.diagnostic.location == signIn.location)
        }
    }

    /// Damaged documents (seeded cuts, copies and replaced bytes of a golden one) never crash
    /// the reader, the lint or the renderer, and every diagnostic is placed inside its file.
    @Test func damagedDocumentsAreReportedNeverCrash() throws {
        let folder = try TemporaryFolder("flow-document-damage")
        defer { folder.remove() }
        let original = Array(try Self.document(LocaleTag("en-US")!).utf8)
        let pieces: [[UInt8]] = [
            Array("{".utf8), Array("}".utf8), Array("\"".utf8), Array(",".utf8), Array("[]".utf8),
            Array("null".utf8), Array("\"type\": 1".utf8), Array("\\u00".utf8), [0xFF], [0xE2, 0x80]
        ]
        var random = SplitMix(seed: 21)
        for round in 0..<150 {
            var bytes = original
            for _ in 0...random.next(3) {
                let start = random.next(bytes.count)
                let length = min(random.next(40), bytes.count - start)
                switch random.next(3) {
                case 0: bytes.removeSubrange(start..<start + length)
                case 1: bytes.insert(contentsOf: bytes[start..<start + length], at: random.next(bytes.count))
                default: bytes.replaceSubrange(start..<start + length, with: pieces[random.next(pieces.count)])
                }
            }
            let path = try folder.write("standard/2024-01-15.1/en-US-\(round).json", Data(bytes))
            let project = ProjectLoader(environment: [:]).load(paths: [path])
            let findings = project.lint()
            _ = DiagnosticRenderer(sources: project.sources).render(findings)
            let lines = bytes.count(where: { $0 == UInt8(ascii: "\n") }) + 1
            for finding in findings {
                if let location = finding.location {
                    #expect(
                        location.file == path && location.line >= 1 && location.line <= lines && location.column >= 1,
                        "round \(round): \(finding)")
                }
            }
            if let flow = project.primaryFlow, project.diagnostics.isEmpty {
                _ = try? CaptureFlowDocument.text(flow.flow, localizer: flow.localizer(), locale: LocaleTag("en-US")!)
            }
        }
    }

    // MARK: bad documents

    static let invalidCases = Repository.folders(in: "\(fixtures)/invalid")

    /// Each folder under Fixtures/flow-documents/invalid holds documents (`*.json`, imported
    /// together as `flow import` does) and `expected.txt`, the rendered diagnostics of loading
    /// and linting them; a folder named after codes must produce them.
    static func render(_ name: String) throws -> (text: String, codes: Set<DiagnosticCode>) {
        let folder = Repository.path("\(fixtures)/invalid/\(name)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }.sorted()
        let project = ProjectLoader(environment: [:]).load(paths: files.map { folder + "/" + $0 })
        let findings = project.lint()
        let text = DiagnosticRenderer(sources: project.sources).render(findings).replacingOccurrences(of: folder + "/", with: "")
        return (text, Set(findings.map(\.code)))
    }

    @Test(arguments: invalidCases)
    func badDocumentsGetLocatedDiagnostics(_ name: String) throws {
        let (text, codes) = try Self.render(name)
        Snapshot.check(text, against: Repository.path("\(Self.fixtures)/invalid/\(name)/expected.txt"))
        #expect(!text.isEmpty)
        for word in name.split(separator: "-") where word.hasPrefix("JF") {
            let code = try #require(DiagnosticCode(rawValue: String(word)))
            #expect(codes.contains(code), "\(name) does not produce \(code.rawValue)")
        }
    }

    @Test func everyFlowDocumentCodeHasAFixture() throws {
        let produced = try Self.invalidCases.reduce(into: Set<DiagnosticCode>()) { $0.formUnion(try Self.render($1).codes) }
        // JF608 is refused when writing a document: aFieldAndAFormOfOneNameCannotBeWritten.
        let missing = DiagnosticCode.allCases.filter { $0.phase == .flowDocument && $0 != .fieldAndFormShareName && !produced.contains($0) }
        #expect(missing.isEmpty, "codes without a fixture: \(missing.map(\.rawValue))")
    }
}

import Foundation
import JumpForms
import CLITestSupport
import Testing
import TestSupport

/// `jump-forms flow export` and `flow import`, and `--flow FILE.json`, run as the built binary.
@Suite struct FlowCommandTests {
    static let locales = ["de-DE", "en-US", "es-ES", "fr-FR", "ja-JP", "pl-PL"]
    static let forms = [
        "signInForm", "registrationForm", "socialRegistrationForm", "forgotPasswordForm", "resendVerificationForm",
        "editProfileForm", "changePasswordForm"
    ]
    static let version = "2024-01-15.1"
    static let golden = Repository.path("Tests/JumpFormsLoaderTests/Fixtures/flow-documents/golden/standard/\(version)")

    func run(_ arguments: [String], in directory: String = Repository.root) async throws -> CommandResult {
        let home = try TemporaryFolder("jump-forms-flow-home")
        defer { home.remove() }
        return try await InProcess.run(
            arguments, in: directory,
            environment: ["HOME": home.path, "XDG_STATE_HOME": home.path + "/state", "XDG_CONFIG_HOME": home.path + "/config"],
            input: nil)
    }

    /// Exports the example project and imports the documents again: the folder with `cdn/` and `out/`.
    func exportAndImport() async throws -> TemporaryFolder {
        let folder = try TemporaryFolder("flow-round-trip")
        let export = try await run(["flow", "export", "--out", folder.path + "/cdn"])
        #expect(export.status == 0, "\(export.stderr)")
        let documents = Self.locales.map { "\(folder.path)/cdn/standard/\(Self.version)/\($0).json" }
        #expect(export.stdout == documents.map { $0 + "\n" }.joined())
        let imported = try await run(["flow", "import"] + documents + ["--out", folder.path + "/out"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.isEmpty, "\(imported.stderr)")
        #expect(
            imported.stdout
                == (["\(folder.path)/out/flows/standard.yaml"] + Self.locales.map { "\(folder.path)/out/locales/\($0).yaml" })
                .map { $0 + "\n" }.joined())
        return folder
    }

    /// Export, import, and every form in every locale shows the same (`show --format json`),
    /// from the imported flow and locale files and from each document on its own.
    @Test func exportThenImportKeepsEveryFormInEveryLocale() async throws {
        let folder = try await exportAndImport()
        defer { folder.remove() }
        for document in Self.locales {
            let written = try String(contentsOfFile: "\(folder.path)/cdn/standard/\(Self.version)/\(document).json", encoding: .utf8)
            #expect(
                written == (try String(contentsOfFile: "\(Self.golden)/\(document).json", encoding: .utf8)),
                "\(document).json differs from its golden file")
        }
        let lint = try await run(["lint", folder.path + "/out/flows/standard.yaml"])
        #expect(lint.status == 0, "\(lint.stdout)\(lint.stderr)")
        #expect(lint.stderr == "0 errors, 0 warnings in 7 files\n")
        for locale in Self.locales {
            for form in Self.forms {
                let original = try await run(["show", form, "--flow", "flows/standard.yaml", "--locale", locale, "--format", "json"])
                #expect(original.status == 0, "\(original.stderr)")
                let imported = try await run([
                    "show", form, "--flow", folder.path + "/out/flows/standard.yaml", "--locale", locale, "--format", "json"
                ])
                #expect(imported.stdout == original.stdout, "\(form) \(locale): the imported flow shows another form")
                let document = try await run([
                    "show", form, "--flow", "\(folder.path)/cdn/standard/\(Self.version)/\(locale).json", "--format", "json"
                ])
                #expect(document.stdout == original.stdout, "\(form) \(locale): the flow document shows another form")
                #expect(document.stderr.isEmpty)
            }
        }
    }

    @Test func exportWritesTheLocalesAskedUnderTheVersionAndHead() async throws {
        let folder = try TemporaryFolder("flow-export")
        defer { folder.remove() }
        let result = try await run([
            "flow", "export", "--config", "jump.yaml", "--locale", "fr-FR", "--locale", "fr-CA", "--head", "--out", folder.path
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let written = ["\(Self.version)/fr-FR", "\(Self.version)/fr-CA", "HEAD/fr-FR", "HEAD/fr-CA"].map { "\(folder.path)/standard/\($0).json" }
        #expect(result.stdout == written.map { $0 + "\n" }.joined())
        // fr-CA has no locale file: fr-FR serves it (CLDR's negotiation), said on standard error.
        #expect(result.stderr.contains("fr-CA") && result.stderr.contains("fr-FR"), "\(result.stderr)")
        let french = try String(contentsOfFile: written[0], encoding: .utf8)
        #expect(french == (try String(contentsOfFile: "\(Self.golden)/fr-FR.json", encoding: .utf8)))
        #expect(try String(contentsOfFile: written[2], encoding: .utf8) == french)
        let canadian = try JSONValue.parse(try String(contentsOfFile: written[1], encoding: .utf8))
        #expect(canadian["jumpForms"]?["locale"] == "fr-CA")
        #expect(canadian["fields"]?["emailAddress"]?["label"] == "Adresse e-mail")
    }

    @Test func exportRefusesAFlowWithErrors() async throws {
        let folder = try TemporaryFolder("flow-export-errors")
        defer { folder.remove() }
        let fixture = Repository.path("Tests/JumpFormsLoaderTests/Fixtures/diagnostics/JF300-undefined-field/flow.yaml")
        let result = try await run(["flow", "export", "--flow", fixture, "--out", folder.path + "/cdn"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("error[JF300]"))
        #expect(result.stderr.contains("nothing written"))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/cdn"))
    }

    @Test func importRefusesBadDocumentsWithLocatedErrorsAndWritesNothing() async throws {
        let folder = try TemporaryFolder("flow-import-errors")
        defer { folder.remove() }
        let fixtures = Repository.path("Tests/JumpFormsLoaderTests/Fixtures/flow-documents/invalid")
        let cases = [
            ("JF600-not-json/en-US.json", "en-US.json:4:49: error[JF600]: not valid JSON"),
            ("JF300-form-names-missing-field/en-US.json", "en-US.json:6:40: error[JF300]: form 'signInForm' names field 'pasword'"),
            ("JF603-unknown-type-and-rule/en-US.json", "en-US.json:13:18: error[JF603]: unknown rule 'minLenght' of field 'password'"),
            ("JF603-unknown-type-and-rule/en-US.json", "en-US.json:5:15: error[JF603]: unknown field type 'emial' of field 'email'")
        ]
        for (file, message) in cases {
            let result = try await run(["flow", "import", "\(fixtures)/\(file)", "--out", folder.path + "/out"])
            #expect(result.status == 1, "\(file)")
            #expect(result.stderr.contains(message), "\(file): \(result.stderr)")
            #expect(result.stderr.hasSuffix("nothing written: the documents have errors\n"))
            #expect(result.stdout.isEmpty)
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/out"))
        // Warnings (what had to be dropped) do not stop the import; they name their place.
        let dropped = try await run(["flow", "import", "\(fixtures)/JF604-dropped-capture-keys/en-US.json", "--out", folder.path + "/out"])
        #expect(dropped.status == 0, "\(dropped.stderr)")
        #expect(dropped.stderr.contains("en-US.json:8:7: warning[JF604]: 'socialProfileData' of field 'email' is dropped"))
        let flow = try String(contentsOfFile: folder.path + "/out/flows/dropped.yaml", encoding: .utf8)
        #expect(flow.contains("    default: f\n"))
        // Files that exist are kept unless --force.
        let again = try await run(["flow", "import", "\(fixtures)/JF604-dropped-capture-keys/en-US.json", "--out", folder.path + "/out"])
        #expect(again.status == 2)
        #expect(again.stderr.contains("exist already (--force replaces them)"))
        let forced = try await run(["flow", "import", "--force", "\(fixtures)/JF604-dropped-capture-keys/en-US.json", "--out", folder.path + "/out"])
        #expect(forced.status == 0, "\(forced.stderr)")
        // Not a flow document at all.
        let yaml = try await run(["flow", "import", "flows/standard.yaml", "--out", folder.path + "/other"])
        #expect(yaml.status == 2)
        #expect(yaml.stderr.contains("Capture's flow documents end in .json"))
    }

    /// A Capture document as its CDN serves it (texts only): import names the flow after its
    /// path, and `--default-locale`/`--name` say what the document cannot.
    @Test func capturesOwnDocumentImportsWithTheNameOfItsPath() async throws {
        let folder = try TemporaryFolder("flow-import-capture")
        defer { folder.remove() }
        let document = """
            {"version": "7", "fields": {
              "signInEmail": {"type": "email", "schemaId": "email", "label": "Adresse e-mail",
                "validation": [{"rule": "required", "value": true, "message": "L'adresse est obligatoire"}]},
              "signInPassword": {"type": "password", "label": "Mot de passe"},
              "signInForm": {"fields": ["signInEmail", "signInPassword"]}
            }}
            """
        let path = try folder.write("cdn/native_fr/7/fr-FR.json", document)
        let result = try await run(["flow", "import", path, "--out", folder.path + "/out"])
        #expect(result.status == 0, "\(result.stderr)")
        let flow = try String(contentsOfFile: folder.path + "/out/flows/native_fr.yaml", encoding: .utf8)
        #expect(flow.contains("flow: native_fr\nversion: \"7\"\ndefaultLocale: fr-FR\n"))
        #expect(flow.contains("- { rule: required, message: validation.signInEmail.required }"))
        let locale = try String(contentsOfFile: folder.path + "/out/locales/fr-FR.yaml", encoding: .utf8)
        #expect(locale.contains("required: L'adresse est obligatoire"))
        let show = try await run(["show", "signInForm", "--flow", folder.path + "/out/flows/native_fr.yaml", "--format", "json"])
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.stdout.contains("\"text\": \"L'adresse est obligatoire\""))
        let renamed = try await run(["flow", "import", path, "--name", "signin", "--out", folder.path + "/renamed"])
        #expect(renamed.status == 0, "\(renamed.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.path + "/renamed/flows/signin.yaml"))
    }

    /// A team with a deployed Capture flow: the document drives `request` (and prompts,
    /// validation) as the YAML flow does.
    @Test func aFlowDocumentDrivesRequestLikeTheFlowFile() async throws {
        let folder = try TemporaryFolder("flow-request")
        defer { folder.remove() }
        let export = try await run(["flow", "export", "--locale", "en-US", "--out", folder.path])
        #expect(export.status == 0, "\(export.stderr)")
        let document = "\(folder.path)/standard/\(Self.version)/en-US.json"
        func values(displayName: String = "ana_r") -> [String] {
            [
                "--set", "emailAddress=ana.ruiz@example.com", "--set", "displayName=\(displayName)", "--set", "firstName=Ana",
                "--set", "lastName=Ruiz", "--set", "newPassword=PASSWORD-S3cret", "--set", "newPasswordConfirm=PASSWORD-S3cret",
                "--set", "birthdate=1990-04-01", "--set", "optIn=true"
            ]
        }
        let common = ["request", "register", "--today", "2025-06-15", "--format", "json", "--config", "jump.yaml"]
        let fromYAML = try await run(common + ["--flow", "flows/standard.yaml"] + values())
        let fromDocument = try await run(common + ["--flow", document] + values())
        #expect(fromYAML.status == 0, "\(fromYAML.stderr)")
        #expect(fromDocument.status == 0, "\(fromDocument.stderr)")
        #expect(fromDocument.stdout == fromYAML.stdout)
        #expect(fromDocument.stdout.contains("flow_version"))
        // The document's rules check the values before anything is built.
        let invalid = try await run(common + ["--flow", document] + values(displayName: "a"))
        #expect(invalid.status == 1)
        #expect(invalid.stderr.contains("displayName: Display name must be at least 3 characters long."), "\(invalid.stderr)")
        // lint reads documents too.
        let lint = try await run(["lint", document])
        #expect(lint.status == 0, "\(lint.stdout)\(lint.stderr)")
    }
}

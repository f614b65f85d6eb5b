import CLITestSupport
import Foundation
@testable import JumpFormsCLI
import Testing
import TestSupport

/// `jump-forms init`: the example project, written where the user asks, ready to lint and use.
@Suite struct InitCommandTests {
    /// The embedded copy is the repository's example, byte for byte
    /// (`scripts/embed-project-template.sh` rewrites it).
    @Test func theTemplateIsTheRepositorysExample() throws {
        for (path, text) in ProjectTemplate.texts {
            let file = try String(contentsOfFile: Repository.path(path), encoding: .utf8)
            #expect(text + "\n" == file, "\(path) changed: run scripts/embed-project-template.sh")
        }
        for (path, base64) in ProjectTemplate.binaries {
            let file = try Data(contentsOf: URL(fileURLWithPath: Repository.path(path)))
            #expect(Data(base64Encoded: base64) == file, "\(path) changed: run scripts/embed-project-template.sh")
        }
        let locales = try FileManager.default.contentsOfDirectory(atPath: Repository.path("locales")).filter { $0.hasSuffix(".yaml") }
        #expect(Set(ProjectTemplate.texts.map(\.path).filter { $0.hasPrefix("locales/") }) == Set(locales.map { "locales/" + $0 }))
    }

    @Test func aNewProjectLintsCleanAndRegistersAtOnce() async throws {
        let home = try TemporaryFolder("jump-forms-init-home")
        defer { home.remove() }
        let project = home.path + "/my app"
        let created = try await InProcess.run(["init", project, "--locale", "fr-FR", "--locale", "it-IT"])
        #expect(created.status == 0, "\(created.stderr)")
        let files = [
            "jump.yaml", "identities.yaml", "flows/standard.yaml", "flows/icons/corp_openid_30x30.png",
            "locales/en-US.yaml", "locales/fr-FR.yaml", "locales/it-IT.yaml", ".gitignore"
        ]
        #expect(created.stdout == files.map { "created \(project)/\($0)\n" }.joined())
        #expect(created.stderr.contains("cd \(project)"))
        let italian = try String(contentsOfFile: project + "/locales/it-IT.yaml", encoding: .utf8)
        #expect(italian.contains("\nlocale: it-IT\n"))
        #expect(italian.hasPrefix("# it-IT: en-US's messages, to translate."))
        let french = try String(contentsOfFile: project + "/locales/fr-FR.yaml", encoding: .utf8)
        #expect(french == (try String(contentsOfFile: Repository.path("locales/fr-FR.yaml"), encoding: .utf8)))

        let environment = ["HOME": home.path, "XDG_CONFIG_HOME": home.path + "/config", "XDG_DATA_HOME": home.path + "/data"]
        let lint = try await InProcess.run(["lint"], in: project, environment: environment)
        #expect(lint.status == 0, "\(lint.stdout)\(lint.stderr)")
        #expect(lint.stderr.hasPrefix("0 errors, 0 warnings in 5 files"), "\(lint.stderr)")
        try "emailAddress: ana.ruiz@example.com\ndisplayName: ana_r\nfirstName: Ana\nlastName: Ruiz\nbirthdate: 1990-04-01\noptIn: true\n"
            .write(toFile: project + "/answers.yaml", atomically: true, encoding: .utf8)
        var registering = environment
        registering["JUMP_FIELD_NEWPASSWORD"] = "correct horse battery"
        registering["JUMP_FIELD_NEWPASSWORDCONFIRM"] = "correct horse battery"
        let register = try await InProcess.run(["register", "--answers", "answers.yaml", "--non-interactive"], in: project, environment: registering)
        #expect(register.status == 0, "\(register.stderr)")
        // The first --locale is jump.yaml's captureLocale: the commands speak French.
        #expect(register.stderr.contains("Votre compte a été créé. Vous êtes connecté en tant que ana.ruiz@example.com."), "\(register.stderr)")
    }

    /// `--locale de-DE` is the project's `captureLocale`; a tag the example has no file for
    /// starts from the translation negotiation picks for it (fr-FR for fr-CA).
    @Test func theFirstLocaleIsTheCaptureLocaleAndANewTagStartsFromItsNearestTranslation() async throws {
        let folder = try TemporaryFolder("jump-forms-init-locale")
        defer { folder.remove() }
        let german = try await InProcess.run(["init", folder.path + "/de", "--locale", "de-DE"])
        #expect(german.status == 0, "\(german.stderr)")
        let config = try String(contentsOfFile: folder.path + "/de/jump.yaml", encoding: .utf8)
        #expect(config.contains("\ncaptureLocale: de-DE\n"), "\(config)")
        #expect(!config.contains("captureLocale: en-US"))
        let shown = try await InProcess.run(["show", "registrationForm", "--config", folder.path + "/de/jump.yaml"])
        #expect(shown.stdout.contains("· de-DE"), "\(shown.stdout)")

        let canadian = try await InProcess.run(["init", folder.path + "/ca", "--locale", "fr-CA"])
        #expect(canadian.status == 0, "\(canadian.stderr)")
        let text = try String(contentsOfFile: folder.path + "/ca/locales/fr-CA.yaml", encoding: .utf8)
        #expect(text.hasPrefix("# fr-CA: fr-FR's messages"), "\(text)")
        #expect(text.contains("\nlocale: fr-CA\n"))
        #expect(text.contains("label: Adresse e-mail\n"), "\(text)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/ca/locales/fr-FR.yaml"))
        let lint = try await InProcess.run(["lint", folder.path + "/ca/jump.yaml"])
        #expect(lint.status == 0, "\(lint.stdout)\(lint.stderr)")
        // A language the example lacks starts from en-US.
        #expect(ProjectTemplate.localeText("sv-SE").hasPrefix("# sv-SE: en-US's messages, to translate."))
    }

    /// Each project gets its own client id, so its local database and session are its own, not
    /// the checkout's or another project's.
    @Test func aNewProjectHasAClientIdOfItsOwn() async throws {
        let folder = try TemporaryFolder("jump-forms-init-client")
        defer { folder.remove() }
        var ids: [String] = []
        for name in ["one", "two"] {
            #expect(try await InProcess.run(["init", folder.path + "/" + name]).status == 0)
            let config = try String(contentsOfFile: folder.path + "/\(name)/jump.yaml", encoding: .utf8)
            let line = try #require(config.split(separator: "\n").first { $0.hasPrefix("captureClientId:") })
            let id = try #require(line.split(separator: "-").last?.dropLast())
            #expect(id.count == 32 && id.hasPrefix("localdev"), "\(line)")
            #expect(line == "captureClientId: ${JUMP_CLIENT_ID:-\(id)}")
            ids.append(String(id))
        }
        #expect(!ids.contains(ProjectTemplate.exampleClientID))
        #expect(ids[0] != ids[1])
        // Seeded, the id is a function of the generator.
        var first = SplitMix(seed: 7)
        var second = SplitMix(seed: 7)
        #expect(ProjectTemplate.newClientID(using: &first) == ProjectTemplate.newClientID(using: &second))
        var other = SplitMix(seed: 8)
        #expect(ProjectTemplate.newClientID(using: &first) != ProjectTemplate.newClientID(using: &other))
    }

    /// One file in the way: init says which, and writes none of the others.
    @Test func initNeverOverwritesAndWritesNothingWhenRefused() async throws {
        let folder = try TemporaryFolder("jump-forms-init")
        defer { folder.remove() }
        try folder.write("locales/en-US.yaml", "locale: en-US\nmessages: {}\n")
        let refused = try await InProcess.run(["init", folder.path])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("not overwriting what is there already"))
        #expect(refused.stderr.contains(folder.path + "/locales/en-US.yaml"))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/jump.yaml"))
        #expect(try String(contentsOfFile: folder.path + "/locales/en-US.yaml", encoding: .utf8) == "locale: en-US\nmessages: {}\n")
        let badTag = try await InProcess.run(["init", folder.path, "--locale", "not a tag"])
        #expect(badTag.status == 2)
        #expect(badTag.stderr.contains("'not a tag' is not a locale tag"))
    }
}

/// `jump-forms reset`: the demo afresh, the database and the stale session both gone.
@Suite struct ResetCommandTests {
    @Test func resetDeletesTheDatabaseAndForgetsTheSession() async throws {
        let home = try TemporaryFolder("jump-forms-reset-home")
        defer { home.remove() }
        let project = home.path + "/demo"
        #expect(try await InProcess.run(["init", project]).status == 0)
        let environment = [
            "HOME": home.path, "XDG_CONFIG_HOME": home.path + "/config", "XDG_DATA_HOME": home.path + "/data",
            "XDG_STATE_HOME": home.path + "/state", "JUMP_FIELD_NEWPASSWORD": "correct horse battery",
            "JUMP_FIELD_NEWPASSWORDCONFIRM": "correct horse battery"
        ]
        try "emailAddress: ana.ruiz@example.com\ndisplayName: ana_r\nfirstName: Ana\nlastName: Ruiz\n"
            .write(toFile: project + "/answers.yaml", atomically: true, encoding: .utf8)
        let register = try await InProcess.run(["register", "--answers", "answers.yaml", "--non-interactive"], in: project, environment: environment)
        #expect(register.status == 0, "\(register.stderr)")
        let config = try String(contentsOfFile: project + "/jump.yaml", encoding: .utf8)
        let clientID = try #require(config.split(separator: "\n").first { $0.hasPrefix("captureClientId:") }?.split(separator: "-").last?.dropLast())
        #expect(clientID != ProjectTemplate.exampleClientID[...])
        let database = home.path + "/data/jump-forms/\(clientID).sqlite"
        #expect(FileManager.default.fileExists(atPath: database))

        // Without a terminal and without --yes, nothing is deleted.
        let refused = try await Executable.run("jump-forms", ["reset"], in: project, environment: environment, input: "")
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("pass --yes"), "\(refused.stderr)")
        #expect(FileManager.default.fileExists(atPath: database))

        let reset = try await InProcess.run(["reset", "--config", project + "/jump.yaml", "--yes"], environment: environment)
        #expect(reset.status == 0, "\(reset.stderr)")
        #expect(reset.stdout.contains("deleted \(database)\n"))
        #expect(reset.stdout.hasSuffix("forgot the stored session\n"))
        #expect(!FileManager.default.fileExists(atPath: database))
        let whoami = try await InProcess.run(["whoami"], in: project, environment: environment)
        #expect(whoami.status != 0)
        #expect(whoami.stderr.contains("You are not signed in"), "\(whoami.stderr)")
        // The same address registers again on the fresh database.
        let again = try await InProcess.run(["register", "--answers", "answers.yaml", "--non-interactive"], in: project, environment: environment)
        #expect(again.status == 0, "\(again.stderr)")
    }
}

import Foundation
import Testing
import TestSupport

/// The account commands in a real terminal (tmux), against the embedded local server, in a
/// throw-away copy of the example project with its own database, state and identities.
@Suite(.serialized, .timeLimit(.minutes(2))) struct PromptTests {
    /// A copy of the example project in a temporary folder.
    struct Project {
        let folder: TemporaryFolder
        var path: String { folder.path }

        init() throws {
            folder = try TemporaryFolder("jump-forms-prompts")
            let fileManager = FileManager.default
            for item in ["flows", "locales"] {
                try fileManager.copyItem(atPath: Repository.path(item), toPath: folder.path + "/" + item)
            }
            let config = try String(contentsOfFile: Repository.path("jump.yaml"), encoding: .utf8)
            try folder.write("jump.yaml", config + "server:\n  bcryptCost: 4\n  identities: identities.yaml\n  database: data/capture.sqlite\n")
            try folder.write("identities.yaml", """
            identities:
              - { provider: google, identifier: "https://www.google.com/profiles/1001", email: ana@example.com, verifiedEmail: true,
                  givenName: Ana, familyName: Ruiz, displayName: ana_google }
              - { provider: twitter, identifier: "twitter:2002", givenName: Bo, familyName: Lind }
              - { provider: facebook, identifier: "facebook:3003", email: cy@example.com, givenName: Cy, familyName: Ng, displayName: cy_fb }
            """)
        }

        var environment: [String: String] {
            ["HOME": path, "XDG_STATE_HOME": path + "/state", "XDG_CONFIG_HOME": path + "/config", "XDG_DATA_HOME": path + "/share",
             "TERM": "xterm-256color", "NO_COLOR": "1", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"]
        }

        var binary: String { Executable.productsFolder + "/jump-forms" }

        func terminal(_ arguments: String) throws -> TmuxSession {
            try TmuxSession("\(binary) \(arguments)", in: path, environment: environment)
        }

        func run(_ arguments: [String], input: String? = nil) throws -> CommandResult {
            try Executable.run("jump-forms", arguments, in: path, environment: environment, input: input)
        }

        func registerAna() throws {
            let answers = try folder.write("ana.yaml", """
            emailAddress: ana@example.com
            displayName: ana_r
            firstName: Ana
            lastName: Ruiz
            newPassword: correct horse battery
            newPasswordConfirm: correct horse battery
            """)
            let result = try run(["register", "--non-interactive", "--answers", answers])
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        }
    }

    @Test func registrationReasksAWrongAnswerAndNeverShowsThePassword() throws {
        let project = try Project()
        defer { project.folder.remove() }
        let terminal = try project.terminal("register")
        defer { terminal.close() }
        try terminal.waitFor("Email address")
        try terminal.type("ana@example")
        try terminal.waitFor("✗ Enter a valid email address, such as name@example.com.")
        try terminal.type("ana@example.com")
        try terminal.waitFor("Display name")
        try terminal.type("ana_r")
        try terminal.waitFor("First name")
        try terminal.type("Ana")
        try terminal.waitFor("Last name")
        try terminal.type("Ruiz")
        try terminal.waitFor("Password (typing is not shown)")
        try terminal.type("correct horse battery")
        try terminal.waitFor("Confirm password (typing is not shown)")
        try terminal.type("correct horse battery")
        try terminal.waitFor("Date of birth (optional) (YYYY-MM-DD)")
        try terminal.type("1990-04-01")
        try terminal.waitFor("[yes/no]")
        try terminal.type("yes")
        try terminal.waitFor("Review your answers")
        let review = try terminal.waitFor("5. Password: (hidden)")
        #expect(review.contains("1. Email address: ana@example.com"))
        try terminal.type("")
        let final = try terminal.waitFor("Your account is created. You are signed in as ana@example.com.")
        #expect(try terminal.exitStatus() == 0)
        #expect(!final.contains("correct horse battery"), "the password appeared on the screen")

        let whoami = try project.run(["whoami", "--format", "json"])
        #expect(whoami.status == 0, "\(whoami.stderr)")
        #expect(whoami.stdout.contains("\"email\": \"ana@example.com\""))
        #expect(!whoami.stdout.contains("password"))
    }

    @Test func frenchPromptsAndMessagesAndCtrlCSendsNothing() throws {
        let project = try Project()
        defer { project.folder.remove() }
        let terminal = try TmuxSession("\(project.binary) register --locale fr-FR; echo EXIT=$?; stty -a | tr ' ;' '\\n\\n' | grep -x -- '-*echo'",
                                       in: project.path, environment: project.environment)
        defer { terminal.close() }
        try terminal.waitFor("Adresse e-mail")
        try terminal.type("ana@")
        try terminal.waitFor("Saisissez une adresse e-mail valide")
        try terminal.type("ana@example.com")
        try terminal.waitFor("Nom d’affichage")
        try terminal.type("ana_r")
        try terminal.waitFor("Prénom")
        try terminal.type("Ana")
        try terminal.waitFor("Nom")
        try terminal.type("Ruiz")
        try terminal.waitFor("Mot de passe")
        try terminal.type("secret in the middle", enter: false)
        try terminal.key("C-c")
        let screen = try terminal.waitFor("EXIT=")
        #expect(try terminal.exitStatus() == 130)
        #expect(screen.contains("Interrompu"), "\(screen)")
        #expect(!screen.contains("secret in the middle"))
        // The terminal's echo is back on after the interrupted password prompt.
        let settings = try terminal.waitFor("echo")
        #expect(settings.split(separator: "\n").contains("echo"), "\(settings)")
        // Nothing was sent: no account, no verification email.
        let outbox = try project.run(["outbox"])
        #expect(outbox.stdout.contains("is empty") || outbox.stderr.contains("no database"), "\(outbox.stdout)\(outbox.stderr)")
    }

    @Test func mergeFlowLinksTheNewProviderAfterSigningInWithThePassword() throws {
        let project = try Project()
        defer { project.folder.remove() }
        try project.registerAna()
        let terminal = try project.terminal("signin --provider google")
        defer { terminal.close() }
        try terminal.waitFor("it signs in with a password")
        try terminal.waitFor("Email address")
        try terminal.type("ana@example.com")
        try terminal.waitFor("Password (typing is not shown)")
        try terminal.type("correct horse battery")
        try terminal.waitFor("Review your answers")
        try terminal.type("")
        try terminal.waitFor("Your Google sign-in is now linked to your account.")
        try terminal.waitFor("You are signed in as ana@example.com.")
        #expect(try terminal.exitStatus() == 0)
        let whoami = try project.run(["whoami", "--format", "json"])
        #expect(whoami.stdout.contains("https://www.google.com/profiles/1001"), "\(whoami.stdout)")
        // The identity is linked: signing in with Google now works without a merge.
        let again = try project.run(["signin", "--provider", "google", "--non-interactive"])
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
        #expect(again.stdout.contains("You are signed in as ana@example.com."))
    }

    @Test func twoStepRegistrationOpensTheSocialFormPrefilled() throws {
        let project = try Project()
        defer { project.folder.remove() }
        let terminal = try project.terminal("signin --provider twitter")
        defer { terminal.close() }
        try terminal.waitFor("Almost done: complete your registration.")
        try terminal.waitFor("Email address")
        try terminal.type("bo@example.com")
        try terminal.waitFor("Display name")
        try terminal.type("bo_lind")
        try terminal.waitFor("[yes/no]")
        try terminal.type("no")
        try terminal.waitFor("Review your answers")
        let review = try terminal.waitFor("3. First name: Bo")
        #expect(review.contains("4. Last name: Lind"), "prefilled from the Twitter profile")
        try terminal.type("")
        try terminal.waitFor("Your account is created. You are signed in as bo@example.com.")
        #expect(try terminal.exitStatus() == 0)
    }

    @Test func thinRegistrationCreatesTheAccountAtOnce() throws {
        let project = try Project()
        defer { project.folder.remove() }
        let result = try project.run(["signin", "--provider", "facebook", "--non-interactive"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("A new account was created from your Facebook profile."))
        #expect(result.stdout.contains("You are signed in as cy@example.com."))
    }

    @Test func nonInteractiveRunsListEveryMissingFieldAndTakeEnvironmentValues() throws {
        let project = try Project()
        defer { project.folder.remove() }
        let missing = try project.run(["register", "--non-interactive", "--set", "emailAddress=dee@example.com"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("Required values are missing: displayName, firstName, lastName, newPassword, newPasswordConfirm."), "\(missing.stderr)")

        var environment = project.environment
        environment["JUMP_FIELD_EMAIL_ADDRESS"] = "dee@example.com"
        environment["JUMP_FIELD_DISPLAYNAME"] = "dee"
        environment["JUMP_FIELD_FIRST_NAME"] = "Dee"
        environment["JUMP_FIELD_LAST_NAME"] = "Park"
        environment["JUMP_FIELD_NEW_PASSWORD"] = "correct horse battery"
        environment["JUMP_FIELD_NEW_PASSWORD_CONFIRM"] = "correct horse battery"
        let fromEnvironment = try Executable.run("jump-forms", ["register", "--non-interactive"], in: project.path, environment: environment)
        #expect(fromEnvironment.status == 0, "\(fromEnvironment.stdout)\(fromEnvironment.stderr)")
        #expect(fromEnvironment.stdout.contains("signed in as dee@example.com"))
        #expect(fromEnvironment.stderr.contains("Local server database: "))

        let dryRun = try project.run(["signin", "--dry-run", "--set", "signInEmailAddress=dee@example.com", "--set", "currentPassword=correct horse battery"])
        #expect(dryRun.status == 0)
        #expect(dryRun.stdout.contains("POST /oauth/auth_native_traditional HTTP/1.1"))
        #expect(dryRun.stdout.contains("currentPassword=********"))
        #expect(!dryRun.stdout.contains("correct"))
    }
}

import CLITestSupport
import Foundation
@testable import JumpCaptureServer
import Testing
import TestSupport

/// The account commands in a real terminal (tmux), against the embedded local server, in a
/// throw-away copy of the example project with its own database, state and identities.
@Suite(.serialized, .timeLimit(.minutes(5))) struct PromptTests {
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
            try folder.write(
                "identities.yaml",
                """
                identities:
                  - { provider: google, identifier: "https://www.google.com/profiles/1001", email: ana@example.com, verifiedEmail: true,
                      givenName: Ana, familyName: Ruiz, displayName: ana_google }
                  - { provider: twitter, identifier: "twitter:2002", givenName: Bo, familyName: Lind }
                  - { provider: facebook, identifier: "facebook:3003", email: cy@example.com, givenName: Cy, familyName: Ng, displayName: cy_fb }
                  - { provider: linkedin, identifier: "linkedin:4004", email: eve@example.com, givenName: Eve, familyName: Moss }
                  - { provider: apple, identifier: "apple:5005", email: eve@example.com, verifiedEmail: true,
                      givenName: Eve, familyName: Moss, displayName: eve_apple }
                """)
        }

        /// Ends every access token's life now, in the local server's database (the clock the
        /// server reads is the system's; the row's expiry is what it compares): the next request
        /// with one is refused as expired, while its refresh secret still signs a refresh.
        func expireAccessTokens() async throws {
            let store = try CaptureStore(path: path + "/data/capture.sqlite")
            let live = try await store.integers("SELECT count(*) FROM access_tokens WHERE expires_at > 0").first ?? nil
            try await store.execute("UPDATE access_tokens SET expires_at = 0")
            #expect((live ?? 0) > 0, "no access token to expire")
        }

        var environment: [String: String] {
            [
                "HOME": path, "XDG_STATE_HOME": path + "/state", "XDG_CONFIG_HOME": path + "/config", "XDG_DATA_HOME": path + "/share",
                "TERM": "xterm-256color", "NO_COLOR": "1", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"
            ]
        }

        var binary: String { Executable.productsFolder + "/jump-forms" }

        func terminal(_ arguments: String, environment extra: [String: String] = [:]) throws -> TmuxSession {
            try TmuxSession("\(binary) \(arguments)", in: path, environment: environment.merging(extra) { _, new in new })
        }

        func run(_ arguments: [String], input: String? = nil) async throws -> CommandResult {
            try await Executable.run("jump-forms", arguments, in: path, environment: environment, input: input)
        }

        func signInAna() async throws {
            let result = try await run([
                "signin", "--non-interactive", "--set", "signInEmailAddress=ana@example.com",
                "--set", "currentPassword=correct horse battery"
            ])
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        }

        func registerAna() async throws {
            let answers = try folder.write("ana.yaml", ExampleAnswers.anaRegistration)
            let result = try await run(["register", "--non-interactive", "--answers", answers])
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        }
    }

    @Test func registrationReasksAWrongAnswerAndNeverShowsThePassword() async throws {
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

        let whoami = try await project.run(["whoami", "--format", "json"])
        #expect(whoami.status == 0, "\(whoami.stderr)")
        #expect(whoami.stdout.contains("\"email\": \"ana@example.com\""))
        #expect(!whoami.stdout.contains("password"))
    }

    @Test func frenchPromptsAndMessagesAndCtrlCSendsNothing() async throws {
        let project = try Project()
        defer { project.folder.remove() }
        let terminal = try TmuxSession(
            "\(project.binary) register --locale fr-FR; echo EXIT=$?; stty -a | tr ' ;' '\\n\\n' | grep -x -- '-*echo'",
            in: project.path, environment: project.environment)
        defer { terminal.close() }
        try terminal.answer("Adresse e-mail (vous@example.com) :", "ana@")
        try terminal.waitFor("Saisissez une adresse e-mail valide")
        try terminal.type("ana@example.com")
        try terminal.waitFor("Nom d’affichage")
        try terminal.type("ana_r")
        try terminal.waitFor("Prénom")
        try terminal.type("Ana")
        // Exactly the last name's prompt: "Nom" alone would match "Nom d’affichage" at once.
        try terminal.answer("Nom :", "Ruiz")
        try terminal.waitForPrompt("Mot de passe (la saisie n’est pas affichée) :")
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
        let outbox = try await project.run(["outbox"])
        #expect(outbox.stdout.contains("is empty") || outbox.stderr.contains("no database"), "\(outbox.stdout)\(outbox.stderr)")
    }

    @Test func mergeFlowLinksTheNewProviderAfterSigningInWithThePassword() async throws {
        let project = try Project()
        defer { project.folder.remove() }
        try await project.registerAna()
        let terminal = try project.terminal("signin --provider google")
        defer { terminal.close() }
        try terminal.waitFor("it signs in with a password")
        // The email the Google identity carries is offered; Enter keeps it.
        try terminal.answer("Email address [ana@example.com]:", "")
        try terminal.answer("Current password (typing is not shown):", "correct horse battery")
        // Two fields: no review step.
        let screen = try terminal.waitFor("Your Google sign-in is now linked to your account.")
        #expect(!screen.contains("Review your answers"))
        try terminal.waitFor("You are signed in as ana@example.com.")
        #expect(try terminal.exitStatus() == 0)
        let whoami = try await project.run(["whoami", "--format", "json"])
        #expect(whoami.stdout.contains("https://www.google.com/profiles/1001"), "\(whoami.stdout)")
        // The identity is linked: signing in with Google now works without a merge.
        let again = try await project.run(["signin", "--provider", "google", "--non-interactive"])
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
        #expect(again.stderr.contains("You are signed in as ana@example.com."))
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

    @Test func thinRegistrationCreatesTheAccountAtOnce() async throws {
        let project = try Project()
        defer { project.folder.remove() }
        let result = try await project.run(["signin", "--provider", "facebook", "--non-interactive"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("A new account was created from your Facebook profile."))
        #expect(result.stderr.contains("You are signed in as cy@example.com."))
        #expect(result.stdout.isEmpty, "standard output carries only data")
    }

    @Test func nonInteractiveRunsListEveryMissingFieldAndTakeEnvironmentValues() async throws {
        let project = try Project()
        defer { project.folder.remove() }
        let missing = try await project.run(["register", "--non-interactive", "--set", "emailAddress=dee@example.com"])
        #expect(missing.status == 1)
        #expect(
            missing.stderr.contains("Required values are missing: displayName, firstName, lastName, newPassword, newPasswordConfirm."),
            "\(missing.stderr)")

        var environment = project.environment
        environment["JUMP_FIELD_EMAIL_ADDRESS"] = "dee@example.com"
        environment["JUMP_FIELD_DISPLAYNAME"] = "dee"
        environment["JUMP_FIELD_FIRST_NAME"] = "Dee"
        environment["JUMP_FIELD_LAST_NAME"] = "Park"
        environment["JUMP_FIELD_NEW_PASSWORD"] = "correct horse battery"
        environment["JUMP_FIELD_NEW_PASSWORD_CONFIRM"] = "correct horse battery"
        let fromEnvironment = try await InProcess.run(["register", "--non-interactive"], in: project.path, environment: environment)
        #expect(fromEnvironment.status == 0, "\(fromEnvironment.stdout)\(fromEnvironment.stderr)")
        #expect(fromEnvironment.stderr.contains("signed in as dee@example.com"))
        #expect(fromEnvironment.stderr.contains("Local server database: "))

        let dryRun = try await project.run([
            "signin", "--dry-run", "--set", "signInEmailAddress=dee@example.com", "--set", "currentPassword=correct horse battery"
        ])
        #expect(dryRun.status == 0)
        #expect(dryRun.stdout.contains("POST /oauth/auth_native_traditional HTTP/1.1"))
        #expect(dryRun.stdout.contains("currentPassword=********"))
        #expect(!dryRun.stdout.contains("correct"))
    }

    // MARK: the form's loops and the server's refusals

    @Test func editProfileWalksTheStoredValuesAndAnAddressHalfGivenCanBeUndone() async throws {
        let project = try Project()
        defer { project.folder.remove() }
        try await project.registerAna()
        let terminal = try project.terminal("edit-profile")
        defer { terminal.close() }
        try terminal.waitFor("Enter keeps the value in brackets; - clears it.")
        try terminal.answer("Display name [ana_r]:", "")
        try terminal.answer("First name [Ana]:", "")
        try terminal.answer("Last name [Ruiz]:", "")
        try terminal.waitFor("Gender (optional) — Choose one")
        try terminal.answer(">", "2")
        try terminal.answer("Date of birth (optional) (YYYY-MM-DD):", "")
        try terminal.answer("Mobile number (optional) (+1 555 123 4567):", "+1 555 123 4567")
        try terminal.answer("Street address (optional):", "")
        try terminal.answer("City (optional):", "Lyon")
        try terminal.answer("Postal code (optional):", "")
        try terminal.waitFor("Country (optional) — Choose one")
        try terminal.answer(">", "")
        try terminal.waitFor("Send me news and offers by email (optional) [yes/no]")
        try terminal.type("")
        try terminal.answer("About me (optional) (several lines; finish with an empty line)", "Hello")
        try terminal.type("World")
        try terminal.type("")
        // A city without a street: the street (the field the rule names) is asked, then the
        // city, whose value the clear word removes. Before, only the city was asked, forever.
        try terminal.waitFor("✗ Enter both the street address and the city.")
        try terminal.answer("Street address (optional):", "")
        try terminal.answer("City (optional) [Lyon]:", "-")
        try terminal.waitFor("Review your answers")
        try terminal.answer("Press Enter to send, or type the number of an answer to change it:", "99")
        try terminal.waitFor("✗ Enter a number from 1 to 12, or press Enter to send.")
        try terminal.answer("Press Enter to send, or type the number of an answer to change it:", "")
        try terminal.waitFor("Your profile is saved.")
        #expect(try terminal.exitStatus() == 0)

        let whoami = try await project.run(["whoami"])
        #expect(whoami.status == 0, "\(whoami.stderr)")
        #expect(whoami.stdout.contains("aboutMe: Hello\n  World\n"), "continuation lines are indented: \(whoami.stdout)")
        #expect(whoami.stdout.contains("  mobile: +1 555 123 4567"), "\(whoami.stdout)")
        #expect(whoami.stdout.contains("gender: male"), "\(whoami.stdout)")
        #expect(!whoami.stdout.contains("Lyon"))

        // The mobile number can be removed: the clear word empties a stored value.
        let again = try project.terminal("edit-profile")
        defer { again.close() }
        for prompt in ["Display name [ana_r]:", "First name [Ana]:", "Last name [Ruiz]:"] {
            try again.waitForPrompt(prompt)
            try again.type("")
        }
        try again.waitFor("Gender (optional) — Choose one [Male]")
        try again.type("")
        try again.answer("Date of birth (optional) (YYYY-MM-DD):", "")
        try again.answer("Mobile number (optional) [+1 555 123 4567]:", "-")
        for prompt in ["Street address (optional):", "City (optional):", "Postal code (optional):"] {
            try again.waitForPrompt(prompt)
            try again.type("")
        }
        try again.waitFor("Country (optional) — Choose one")
        try again.type("")
        // A checkbox with a stored answer shows it in the one pair of brackets, as text fields do.
        try again.waitFor("Send me news and offers by email (optional) [no]: ")
        try again.type("")
        try again.waitFor("About me (optional) (several lines; finish with an empty line) [Hello ⏎ World]")
        try again.type("")
        try again.waitFor("Review your answers")
        try again.type("")
        try again.waitFor("Your profile is saved.")
        #expect(try again.exitStatus() == 0)
        let after = try await project.run(["whoami", "--format", "json"])
        #expect(!after.stdout.contains("555 123 4567"), "\(after.stdout)")
        #expect(after.stdout.contains("Hello\\nWorld"), "kept: \(after.stdout)")
    }

    @Test func theServersInvalidFieldsAreAskedAgain() async throws {
        let project = try Project()
        defer { project.folder.remove() }
        try await project.registerAna()
        let terminal = try project.terminal("register")
        defer { terminal.close() }
        try terminal.answer("Email address (you@example.com):", "ana@example.com")
        try terminal.answer("Display name:", "ana_two")
        try terminal.answer("First name:", "Ana")
        try terminal.answer("Last name:", "Ruiz")
        try terminal.answer("Password (typing is not shown):", "correct horse battery")
        try terminal.answer("Confirm password (typing is not shown):", "correct horse battery")
        try terminal.answer("Date of birth (optional) (YYYY-MM-DD):", "")
        try terminal.answer("Send me news and offers by email (optional) [yes/no]:", "no")
        try terminal.waitFor("Review your answers")
        try terminal.type("")
        // The server refuses the email (390, unique): just that field is asked again.
        try terminal.waitFor("✗ This email address is already registered. Sign in or reset your password.")
        try terminal.answer("Email address [ana@example.com]:", "ana.two@example.com")
        let review = try terminal.waitFor("1. Email address: ana.two@example.com")
        #expect(review.contains("2. Display name: ana_two"))
        try terminal.type("")
        try terminal.waitFor("Your account is created. You are signed in as ana.two@example.com.")
        #expect(try terminal.exitStatus() == 0)
    }

    @Test func aWrongPasswordOffersAPasswordResetEmail() async throws {
        let project = try Project()
        defer { project.folder.remove() }
        try await project.registerAna()
        let terminal = try project.terminal("signin")
        defer { terminal.close() }
        try terminal.answer("Email address (you@example.com):", "ana@example.com")
        try terminal.answer("Current password (typing is not shown):", "wrong horse battery")
        try terminal.waitFor("Incorrect email address or password.")
        try terminal.answer("Forgot your password? Send a password-reset email to ana@example.com? [yes/no]:", "yes")
        try terminal.waitFor("If an account uses ana@example.com, a password-reset email is on its way.")
        #expect(try terminal.exitStatus() == 1)
        let outbox = try await project.run(["outbox"])
        #expect(outbox.stdout.contains("forgot_password to ana@example.com"), "\(outbox.stdout)\(outbox.stderr)")
    }

    // MARK: passwords and the terminal

    @Test(arguments: [("TERM=dumb", ["TERM": "dumb"], ""), ("--plain", [:], " --plain")])
    func passwordsAreNeverEchoedOnATerminal(_ name: String, _ environment: [String: String], _ flag: String) async throws {
        let project = try Project()
        defer { project.folder.remove() }
        try await project.registerAna()
        let terminal = try project.terminal("signin" + flag, environment: environment)
        defer { terminal.close() }
        try terminal.answer("Email address (you@example.com):", "ana@example.com")
        try terminal.answer("Current password (typing is not shown):", "correct horse battery")
        let screen = try terminal.waitFor("You are signed in as ana@example.com.")
        #expect(try terminal.exitStatus() == 0)
        #expect(!screen.contains("correct horse"), "\(name): the password appeared on the screen:\n\(screen)")
        // On a terminal the answer is echoed: no blank line is added after it.
        #expect(screen.contains("Email address (you@example.com): ana@example.com\nCurrent password (typing is not shown):"), "\(name):\n\(screen)")
    }

    @Test func passwordsTypedAheadAreNeitherShownNorLost() async throws {
        let project = try Project()
        defer { project.folder.remove() }
        try await project.registerAna()
        try await project.signInAna()
        let terminal = try project.terminal("change-password")
        defer { terminal.close() }
        try terminal.waitForPrompt("Current password (typing is not shown):")
        // All three answers at once, before the next two prompts are written: echo is off before
        // each prompt shows, and nothing typed ahead is flushed.
        try terminal.typeAhead(["correct horse battery", "a new horse battery", "a new horse battery"])
        try terminal.waitFor("Review your answers")
        try terminal.type("")
        let screen = try terminal.waitFor("Your password is changed.")
        #expect(try terminal.exitStatus() == 0)
        #expect(!screen.contains("horse battery"), "a password appeared on the screen:\n\(screen)")
        // The form's two password fields do not share a label.
        #expect(screen.contains("1. Current password: (hidden)") && screen.contains("2. Password: (hidden)"), "\(screen)")
        let signIn = try await project.run([
            "signin", "--non-interactive", "--set", "signInEmailAddress=ana@example.com",
            "--set", "currentPassword=a new horse battery"
        ])
        #expect(signIn.status == 0, "\(signIn.stderr)")
    }

    @Test func colourOnATerminalUnlessNoColor() throws {
        let project = try Project()
        defer { project.folder.remove() }
        var plain = project.environment
        plain["NO_COLOR"] = ""  // empty is unset (no-color.org); tmux may hand down the runner's own
        let coloured = try TmuxSession("\(project.binary) signin", in: project.path, environment: plain)
        defer { coloured.close() }
        try coloured.waitForPrompt("Email address (you@example.com):")
        #expect(try coloured.screen(escapes: true).contains("\u{1B}[1m"), "the label is bold on a terminal")
        let quiet = try project.terminal("signin")
        defer { quiet.close() }
        try quiet.waitForPrompt("Email address (you@example.com):")
        #expect(!(try quiet.screen(escapes: true).contains("\u{1B}[")), "NO_COLOR: no escape sequences")
    }

    @Test func withoutATerminalPromptsGoToStandardErrorAndDataToStandardOutput() async throws {
        let project = try Project()
        defer { project.folder.remove() }
        let lines = "dee@example.com\ndee_p\nDee\nPark\ncorrect horse battery\ncorrect horse battery\n\nno\n\n"
        let register = try await project.run(["register"], input: lines)
        #expect(register.status == 0, "\(register.stdout)\(register.stderr)")
        #expect(register.stdout.isEmpty, "\(register.stdout)")
        // Plain lines: each prompt on its own line, since nothing echoed the answer.
        #expect(register.stderr.contains("Email address (you@example.com): \n"), "\(register.stderr)")
        #expect(register.stderr.contains("Your account is created. You are signed in as dee@example.com."))

        let dryRun = try await project.run(["signin", "--dry-run"], input: "dee@example.com\ncorrect horse battery\n")
        #expect(dryRun.status == 0, "\(dryRun.stderr)")
        #expect(dryRun.stdout.hasPrefix("POST /oauth/auth_native_traditional HTTP/1.1"), "only the request: \(dryRun.stdout)")
        #expect(dryRun.stderr.contains("Email address (you@example.com):"))
        #expect(!dryRun.stdout.contains("correct horse"))

        _ = try await project.run(["signout"])
        let whoami = try await project.run(["whoami", "--format", "json"])
        #expect(whoami.status == 1)
        #expect(whoami.stdout.isEmpty, "\(whoami.stdout)")
        #expect(whoami.stderr.contains("You are not signed in."))
    }

    // MARK: sessions

    @Test func anExpiredAccessTokenIsRefreshedAndTheFormSentAgainOnce() async throws {
        let project = try Project()
        defer { project.folder.remove() }
        try await project.registerAna()
        try await project.expireAccessTokens()
        let edit = try await project.run(["edit-profile", "--non-interactive", "--set", "aboutMe=Fresh token"])
        #expect(edit.status == 0, "\(edit.stdout)\(edit.stderr)")
        #expect(edit.stderr.contains("Your profile is saved."))

        try await project.signInAna()
        try await project.expireAccessTokens()
        let change = try await project.run([
            "change-password", "--non-interactive", "--set", "currentPassword=correct horse battery",
            "--set", "newPassword=a new horse battery", "--set", "newPasswordConfirm=a new horse battery"
        ])
        #expect(change.status == 0, "\(change.stdout)\(change.stderr)")
        #expect(change.stderr.contains("Your password is changed."))
    }

    @Test func refreshLinkUnlinkSignoutAndTheEmailCommands() async throws {
        let project = try Project()
        defer { project.folder.remove() }
        try await project.registerAna()
        let refresh = try await project.run(["refresh", "--non-interactive"])
        #expect(refresh.status == 0 && refresh.stderr.contains("Your session is renewed."), "\(refresh.stderr)")

        let link = try await project.run(["link", "--provider", "google", "--non-interactive"])
        #expect(link.status == 0, "\(link.stderr)")
        #expect(link.stderr.contains("Google is now linked to your account."))
        await #expect(try project.run(["whoami", "--format", "json"]).stdout.contains("https://www.google.com/profiles/1001"))

        let unnamed = try await project.run(["unlink", "--non-interactive"])
        #expect(unnamed.status == 2)
        #expect(unnamed.stderr.contains("jump-forms unlink <identifier>"), "\(unnamed.stderr)")
        #expect(unnamed.stderr.contains("https://www.google.com/profiles/1001"))
        #expect(!unnamed.stderr.contains("Usage: jump-forms <subcommand>"), "\(unnamed.stderr)")
        // The last linked sign-in: asked first, and "no" keeps it.
        let kept = try await project.run(["unlink", "https://www.google.com/profiles/1001"], input: "no\n")
        #expect(kept.status == 1, "\(kept.stderr)")
        #expect(kept.stderr.contains("https://www.google.com/profiles/1001 is the last sign-in linked to your account. Remove it? [yes/no]"))
        #expect(kept.stderr.contains("https://www.google.com/profiles/1001 stays linked to your account."), "\(kept.stderr)")
        await #expect(try project.run(["whoami", "--format", "json"]).stdout.contains("https://www.google.com/profiles/1001"))
        let unlink = try await project.run(["unlink", "https://www.google.com/profiles/1001", "--non-interactive"])
        #expect(unlink.status == 0, "\(unlink.stderr)")
        #expect(unlink.stderr.contains("https://www.google.com/profiles/1001 is no longer linked to your account."))
        await #expect(!(try project.run(["whoami", "--format", "json"]).stdout.contains("profiles/1001")))

        let forgot = try await project.run(["forgot-password", "--non-interactive", "--set", "signInEmailAddress=ana@example.com"])
        #expect(forgot.status == 0 && forgot.stderr.contains("a password-reset email is on its way"), "\(forgot.stderr)")
        let resend = try await project.run(["resend-verification", "--non-interactive", "--set", "signInEmailAddress=ana@example.com"])
        #expect(resend.status == 0 && resend.stderr.contains("a new verification email is on its way"), "\(resend.stderr)")
        let outbox = try await project.run(["outbox"])
        #expect(outbox.stdout.contains("forgot_password to ana@example.com"), "\(outbox.stdout)")
        #expect(outbox.stdout.components(separatedBy: "verify_email to ana@example.com").count == 3, "registration and resend: \(outbox.stdout)")

        // signout takes the options of every account command.
        let signout = try await project.run(["signout", "--non-interactive"])
        #expect(signout.status == 0, "\(signout.stderr)")
        #expect(signout.stderr.contains("You are signed out."))
        await #expect(try project.run(["whoami"]).status == 1)
    }

    @Test func aMergeWithASocialAccountSignsInWithThatProvider() async throws {
        let project = try Project()
        defer { project.folder.remove() }
        let apple = try await project.run(["signin", "--provider", "apple", "--non-interactive"])
        #expect(apple.status == 0, "\(apple.stderr)")
        #expect(apple.stderr.contains("A new account was created from your Apple profile."))
        _ = try await project.run(["signout"])
        let linkedIn = try await project.run(["signin", "--provider", "linkedin", "--non-interactive"])
        #expect(linkedIn.status == 0, "\(linkedIn.stdout)\(linkedIn.stderr)")
        #expect(linkedIn.stderr.contains("it signs in with Apple. Sign in with Apple to link your LinkedIn sign-in to it."), "\(linkedIn.stderr)")
        #expect(linkedIn.stderr.contains("Your LinkedIn sign-in is now linked to your account."))
        #expect(linkedIn.stderr.contains("You are signed in as eve@example.com."))
        let record = try await project.run(["whoami", "--format", "json"]).stdout
        #expect(record.contains("apple:5005") && record.contains("linkedin:4004"), "\(record)")
    }

    // MARK: runs without prompts

    @Test func nonInteractiveRunsThatMissValuesStartNoServer() async throws {
        let project = try Project()
        defer { project.folder.remove() }
        let missing = try await project.run(["register", "--non-interactive"])
        #expect(missing.status == 1)
        #expect(!missing.stderr.contains("Local server database"), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: project.path + "/data/capture.sqlite"), "no database was created")
    }

    @Test func anUnknownLocaleSaysItFallsBack() async throws {
        let project = try Project()
        defer { project.folder.remove() }
        let result = try await project.run(["register", "--non-interactive", "--locale", "xx-YY"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("There are no texts for xx-YY; using en-US.\n"), "\(result.stderr)")
        // fr-CA -> fr -> fr-FR (CLDR's parent, then the language's own region): French.
        let canadian = try await project.run(["register", "--non-interactive", "--locale", "fr-CA"])
        #expect(
            canadian.stderr.hasPrefix("Aucun texte pour fr-CA ; utilisation de fr-FR.\nDes valeurs obligatoires sont manquantes"),
            "\(canadian.stderr)")
        let french = try await project.run(["register", "--non-interactive", "--locale", "fr-FR"])
        #expect(french.stderr.hasPrefix("Des valeurs obligatoires sont manquantes"), "\(french.stderr)")
    }

    @Test func theREADMEsAnswersFileRunWorksAsWritten() async throws {
        let project = try Project()
        defer { project.folder.remove() }
        let readme = try String(contentsOfFile: Repository.path("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "```sh\ncat > answers.yaml"))
        let end = try #require(readme.range(of: "```", range: start.upperBound..<readme.endIndex))
        let commands = String(readme[readme.index(start.lowerBound, offsetBy: 6)..<end.lowerBound])
        // `swift run jump-forms` is the built binary here: the README's lines run as written.
        let script =
            "swift() { if [ \"$1 $2\" = \"run jump-forms\" ]; then shift 2; \(project.binary) \"$@\"; else return 127; fi; }\n"
            + commands + "swift run jump-forms whoami\n"
        let child = try ChildProcess("/bin/bash", ["--noprofile", "--norc", "-e", "-c", script], in: project.path, environment: project.environment)
        let ended = try await child.finish(timeout: 60)
        #expect(ended.code == 0, "\(child.stdout)\(child.stderr)")
        #expect(child.stderr.contains("Your account is created. You are signed in as ana.ruiz@example.com."), "\(child.stderr)")
        #expect(child.stdout.contains("email: ana.ruiz@example.com"), "\(child.stdout)")
        #expect(child.stdout.contains("birthday: 1990-04-01"), "\(child.stdout)")
    }
}

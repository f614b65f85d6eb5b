import Foundation
import JumpCapture
import JumpCaptureServer
import JumpForms
import JumpFormsLoader

/// What an app does with jump-forms, start to finish, against a Capture-compatible server on
/// 127.0.0.1: a French registration through `FormSession` (one answer refused by the flow's
/// rules and answered again), sign-out and sign-in, a token refresh, the edit-profile form
/// prefilled from the record, and one attribute of the record updated, all through
/// `CaptureClient`. The "user" is a script of answers, so the program runs unattended (CI runs
/// it); an app shows each `Prompt` and reads the answer instead.
@main
struct RegistrationApp {
    static func main() async {
        do {
            try await run(projectFolder: CommandLine.arguments.dropFirst().first ?? ".")
        } catch {
            print("registration-app failed: \(error)")
            exit(1)
        }
    }

    static func run(projectFolder: String) async throws {
        // The project: jump.yaml and the flow it names (the repository's example).
        let project = ProjectLoader().load(paths: [projectFolder + "/jump.yaml"])
        let problems = project.lint().filter { $0.severity == .error }
        guard let config = project.config, let loaded = project.primaryFlow, problems.isEmpty else {
            throw AppError("the project does not load: \(problems.map(\.message))")
        }
        let flow = loaded.flow
        let localizer = loaded.localizer()

        // The server the app talks to: jump-forms' local Capture server, its database in a
        // folder of its own.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("registration-app-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try await EmbeddedCaptureServer.start(
            CaptureServerSetup(config: config, flow: flow, localizer: localizer, databasePath: folder + "/capture.sqlite"))
        print("Capture server at \(server.url)")
        do {
            try await session(config: config, flow: flow, localizer: localizer, server: server)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// Everything the app does with the server at `server.url`.
    static func session(config: ClientConfig, flow: Flow, localizer: Localizer, server: EmbeddedCaptureServer) async throws {
        let french = LocaleTag("fr-FR")!

        // The client: URLSession by default, the session kept in memory here (an app keeps it in
        // the Keychain: `KeychainSessionStore`).
        let client = try CaptureClient(
            config: config, flow: flow, localizer: localizer, locale: french, capture: ServerURL(server.url),
            sessionStore: MemorySessionStore())
        let states = Task {
            var seen: [String] = []
            for await state in await client.signInStates() {
                switch state {
                case .signedOut: seen.append("signed out")
                case .signedIn(let user): seen.append("signed in (\(user.email ?? "?"))")
                case .sessionExpired: seen.append("session expired")
                }
                if seen.count == 4 { break }
            }
            return seen
        }

        // 1. Registration in French, one prompt at a time. The first birth date makes Léa ten
        //    years old: the flow's minYears rule refuses it and the prompt comes back.
        let registration = try FormInterpreter(flow: flow, localizer: localizer).model(form: "registrationForm", locale: french)
        let values = try fill(
            registration, localizer: localizer,
            answers: [
                "emailAddress": ["lea.martin@example.com"], "displayName": ["lea_m"], "firstName": ["Léa"],
                "lastName": ["Martin"], "newPassword": ["cheval agrafe pile"], "newPasswordConfirm": ["cheval agrafe pile"],
                "birthdate": ["2016-03-01", "1991-05-17"], "optIn": ["oui"]
            ])
        let registered = try await client.register(values)
        print("Registered: \(registered.record["email"]?.stringValue ?? "?") (new: \(registered.isNew))")

        // 2. Sign out, then sign in with the sign-in form's fields.
        try await client.signOut()
        let signedIn = try await client.signIn(["signInEmailAddress": "lea.martin@example.com", "currentPassword": "cheval agrafe pile"])
        print("Signed in as \(signedIn.record["displayName"]?.stringValue ?? "?")")

        // 3. A new access token, signed with the session's refresh secret.
        let renewed = try await client.refresh()
        print("Token renewed: expires in \(Int(renewed.expiresAt?.timeIntervalSinceNow.rounded() ?? 0)) s")

        // 4. The edit-profile form, prefilled from the record: the display name changes, every
        //    other answer keeps its current value.
        let record = try await client.readRecord()
        let profile = try FormInterpreter(flow: flow, localizer: localizer).model(form: "editProfileForm", locale: french)
        let edited = try fill(
            profile, localizer: localizer, defaults: FormValues(record: record, form: profile),
            answers: ["displayName": ["lea_martin"]])
        try await client.updateProfile(edited)

        // 5. One attribute of the record, written directly.
        try await client.updateAttribute(nil, to: .object([("aboutMe", .string("J'aime la montagne."))]))
        let updated = try await client.readRecord()
        print("Profile: \(updated["displayName"]?.stringValue ?? "?"), about me: \(updated["aboutMe"]?.stringValue ?? "?")")

        try await client.signOut()
        print("Sign-in states: \(await states.value.joined(separator: " -> "))")
    }

    /// Drives a form as an app's screen does: shows each prompt, gives the next scripted answer
    /// (or, with none left, the prompt's current value), shows what the rules refuse, confirms
    /// the review. Fails if a prompt comes back more often than the script has answers.
    static func fill(
        _ form: FormModel, localizer: Localizer, defaults: FormValues = FormValues(), answers: [String: [String]]
    ) throws -> FormValues {
        var session = FormSession(form: form, localizer: localizer, today: .today, defaults: defaults)
        let script = answers
        var answers = answers
        var asked: [String: Int] = [:]
        while true {
            switch session.next() {
            case .prompt(let prompt):
                asked[prompt.field, default: 0] += 1
                guard asked[prompt.field]! <= max(1, script[prompt.field]?.count ?? 0) else {
                    throw AppError("\(prompt.field) was asked again: \(prompt.messages)")
                }
                let answer = answers[prompt.field]?.isEmpty == false ? answers[prompt.field]!.removeFirst() : (prompt.current ?? "")
                print("  \(prompt.label): \(prompt.kind == .password ? "********" : answer)")
                for message in session.answer(answer) { print("    ! \(message)") }
            case .review:
                session.confirm()
            case .complete(let values):
                return values
            }
        }
    }
}

struct AppError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

import Foundation
import JumpCapture
import JumpForms
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An app on `JumpForms` and `JumpCapture` alone, as an iOS app is built: no `jump.yaml`, no
/// YAML flow, no SwiftNIO (the package's products for it link neither). Its configuration is
/// plain values, `ClientConfig(captureDomain:captureClientId:captureLocale:...)` with the SDKs'
/// defaults for the rest; its flow is the flow document Capture serves, downloaded as the
/// SDKs download it and read by `DocumentFlow`; its forms are `FormEditor`s, filled field by
/// field as a screen fills them; its session is kept by the library's `MemorySessionStore`
/// (on Apple platforms an app passes `KeychainSessionStore(service:)`).
///
/// The Capture it talks to is the project's local server, `jump-forms serve` on 127.0.0.1,
/// started as a process of its own: the app reaches it over HTTP only, as it reaches Capture.
/// Run from the repository root after building `jump-forms` (CI has; `JUMP_FORMS=path` names
/// another binary):
///
/// ```sh
/// swift build --product jump-forms
/// swift run --package-path Examples --scratch-path .build app-without-yaml .
/// ```
@main
@MainActor
struct AppWithoutYAML {
    static func main() async {
        do {
            try await run(projectFolder: CommandLine.arguments.dropFirst().first ?? ".")
        } catch {
            print("app-without-yaml failed: \(error)")
            exit(1)
        }
    }

    static func run(projectFolder: String) async throws {
        let server = try await LocalCapture.start(projectFolder: projectFolder)
        print("Capture server at \(server.url)")
        do {
            try await session(capture: server.url)
        } catch {
            server.stop()
            throw error
        }
        server.stop()
    }

    /// Everything the app does with the Capture server at `capture`.
    static func session(capture: String) async throws {
        let french = LocaleTag("fr-FR")!
        // 1. The configuration, in code: the three values the SDKs require, the app id (the
        //    flow document's URL needs it) and the flow's name; the rest are the SDKs' defaults.
        //    Against a server of its own the flow document comes from the server itself
        //    (`captureFlowDomain` nil: the SDKs' CDN, or a loopback Capture).
        let config = ClientConfig(
            captureDomain: capture, captureClientId: "localdev0123456789abcdefghijklmn", captureLocale: french,
            captureAppId: "localapp", captureFlowName: "standard")

        // 2. The flow: the French flow document, whose `version` requests send as flow_version.
        guard let source = FlowDocumentSource(config: config), let url = URL(string: source.url) else {
            throw AppError("no flow document URL for \(capture)")
        }
        let (data, response) = try await URLSession.shared.data(from: url)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw AppError("\(source.url) did not answer the flow document") }
        let document = try DocumentFlow(document: [UInt8](data), path: source.url)
        let localizer = document.localizer()
        print("Flow \(document.flow.name.value), version \(document.flow.version.value), from \(source.url)")

        // 3. The client: URLSessionTransport (the default), the session in memory.
        let client = try CaptureClient(config: config, flow: document.flow, localizer: localizer, sessionStore: MemorySessionStore())
        let forms = FormInterpreter(flow: document.flow, localizer: localizer)

        // 4. Registration, every field at once as a screen shows them. The first birth date
        //    (typed the French way) makes Léa ten: the flow's minYears rule refuses it.
        let today = CivilDate.today
        let registration = FormEditor(
            form: try forms.model(form: config.captureTraditionalRegistrationFormName.value, locale: french), localizer: localizer,
            today: today)
        let answers = [
            "emailAddress": "lea.martin@example.com", "displayName": "lea_m", "firstName": "Léa", "lastName": "Martin",
            "newPassword": "cheval agrafe pile", "newPasswordConfirm": "cheval agrafe pile", "birthdate": "01/01/\(today.year - 10)"
        ]
        for (field, text) in answers { registration[text: field] = text }
        registration[isOn: "optIn"] = true
        guard registration.submit() == nil else { throw AppError("a ten-year-old was accepted") }
        for field in registration.fields where !field.messages.isEmpty { print("  ! \(field.label): \(field.messages.joined(separator: " "))") }
        registration[text: "birthdate"] = "17/05/1991"
        guard let values = registration.submit() else { throw AppError("the registration is refused: \(registration.fields.map(\.messages))") }
        let registered = try await client.register(values)
        print("Registered: \(registered.record["email"]?.stringValue ?? "?") (new: \(registered.isNew))")

        // 5. Sign out, then sign in through the sign-in form.
        try await client.signOut()
        let signIn = FormEditor(
            form: try forms.model(form: config.captureSignInFormName.value, locale: french), localizer: localizer, today: today)
        signIn[text: "signInEmailAddress"] = "lea.martin@example.com"
        signIn[text: "currentPassword"] = "cheval agrafe pile"
        guard let credentials = signIn.submit() else { throw AppError("the sign-in form is refused") }
        let signedIn = try await client.signIn(credentials)
        print("Signed in as \(signedIn.record["displayName"]?.stringValue ?? "?")")

        // 6. A new access token; the session says when it expires, as a Date.
        let renewed = try await client.refresh()
        guard let expiresAt = renewed.expiresAt else { throw AppError("the renewed token has no expiry") }
        print("Token renewed: expires in \(Int(expiresAt.timeIntervalSinceNow.rounded())) s")

        // 7. The record, read and written by the same paths.
        try await client.updateAttribute("/primaryAddress", to: ["address1": "5 rue Vaubecour", "city": "Lyon", "country": "FR"])
        let city = try await client.readRecord(attribute: "/primaryAddress/city")
        guard city == "Lyon" else { throw AppError("/primaryAddress/city is \(city), not Lyon") }
        print("City: \(city.stringValue ?? "?")")

        // 8. Sign out: the server revokes the token.
        let outcome = try await client.signOut()
        guard outcome == .revoked else { throw AppError("the sign-out was not revoked: \(outcome)") }
        print("Signed out")
    }
}

/// `jump-forms serve` in a folder of its own (database, home), on a free port of 127.0.0.1.
final class LocalCapture {
    let url: String
    private let process: Process
    private let output: Pipe
    private let folder: String

    private init(url: String, process: Process, output: Pipe, folder: String) {
        self.url = url
        self.process = process
        self.output = output
        self.folder = folder
    }

    /// What the server printed so far.
    private final class Output: Sendable {
        let text = Mutex("")
    }

    /// Starts the server for the project in `projectFolder` and waits (at most 60 s) for the
    /// URL it prints.
    static func start(projectFolder: String) async throws -> LocalCapture {
        let environment = ProcessInfo.processInfo.environment
        let binary = environment["JUMP_FORMS"] ?? projectFolder + "/.build/debug/jump-forms"
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw AppError("no jump-forms binary at \(binary): build it first (swift build --product jump-forms) or set JUMP_FORMS")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("app-without-yaml-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["serve", "--port", "0", "--db", folder + "/capture.sqlite"]
        process.currentDirectoryURL = URL(fileURLWithPath: projectFolder)
        // The server's files under the folder, and the example project's client id (no
        // JUMP_CLIENT_ID from the caller's environment).
        process.environment = [
            "PATH": environment["PATH"] ?? "/usr/bin:/bin", "HOME": folder, "XDG_DATA_HOME": folder + "/share",
            "XDG_STATE_HOME": folder + "/state", "XDG_CONFIG_HOME": folder + "/config", "NO_COLOR": "1"
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        let output = Output()
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            output.text.withLock { $0 += String(decoding: data, as: UTF8.self) }
        }
        try process.run()
        let server = LocalCapture(url: "", process: process, output: pipe, folder: folder)
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, process.isRunning {
            let text = output.text.withLock { $0 }
            if let start = text.range(of: " at http://"), let end = text[start.upperBound...].firstIndex(of: "\n") {
                return LocalCapture(url: "http://" + text[start.upperBound..<end], process: process, output: pipe, folder: folder)
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        server.stop()
        throw AppError("jump-forms serve printed no URL: \(output.text.withLock { $0 })")
    }

    /// Stops the server (SIGTERM), waits for it, and removes its folder.
    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        output.fileHandleForReading.readabilityHandler = nil
        try? FileManager.default.removeItem(atPath: folder)
    }
}

struct AppError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

import ArgumentParser
import AsyncHTTPClient
import CLITestSupport
import Foundation
import JumpCaptureServer
import JumpForms
import Logging
import Testing
import TestSupport

@testable import JumpFormsCLI

/// `jump-forms preview`'s server (`PreviewServer`) on 127.0.0.1, read with a real HTTP client:
/// the gallery, the reload on a change (driven by the test's own ticks), and the located
/// problems of a broken flow above the last good forms.
@Suite(.timeLimit(.minutes(3))) struct PreviewTests {
    /// The repository's example project, copied so that the test may edit it.
    struct Project {
        let folder: TemporaryFolder
        var flowPath: String { folder.path + "/flows/standard.yaml" }

        init() throws {
            folder = try TemporaryFolder("jump-forms-preview-test")
            for item in ["flows", "locales", "jump.yaml", "identities.yaml"] {
                try FileManager.default.copyItem(atPath: Repository.path(item), toPath: folder.path + "/" + item)
            }
        }

        /// Starts the preview on a port below Linux's ephemeral range (32768-60999): a reload
        /// restarts the server on its port, and a port of that range could meanwhile be given to
        /// a server another test starts on port 0, or to a client's connection, for longer than
        /// the reload tries again. The first free port of a few, from one that depends on the
        /// process, so that concurrent runs rarely meet.
        func start(locales: [String] = []) async throws -> PreviewServer {
            var options = PreviewServer.Options(project: ["--config", folder.path + "/jump.yaml"], locales: locales.compactMap(LocaleTag.init))
            let first = 20_000 + Int(getpid() % 600) * 20
            for port in first..<first + 20 {
                options.port = port
                // What it says on standard error (reloads, problems) is captured, not printed.
                let capture = ConsoleCapture()
                do {
                    return try await Console.$capture.withValue(capture) {
                        try await PreviewServer.start(
                            options, environment: ["HOME": folder.path], logger: Logger(label: "preview-test"),
                            console: Console(colorOut: false, colorErr: false))
                    }
                } catch is ExitCode where capture.err.contains("cannot listen on") {
                    continue  // the port is taken
                } catch is ExitCode {
                    throw PreviewTestError("the preview did not start: \(capture.err)")
                }
            }
            throw PreviewTestError("no free port in \(first)..<\(first + 20)")
        }

        func edit(_ change: (String) -> String) throws {
            let text = try String(contentsOfFile: flowPath, encoding: .utf8)
            let changed = change(text)
            #expect(changed != text, "the edit changed nothing")
            try changed.write(toFile: flowPath, atomically: false, encoding: .utf8)
        }
    }

    static func get(_ url: String) async throws -> (status: UInt, body: String) {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 4 << 20)
        return (response.status.code, String(buffer: body))
    }

    /// The `src` of every iframe of a gallery page.
    static func frames(_ page: String) -> [String] {
        page.components(separatedBy: "<iframe ").dropFirst().compactMap { frame in
            frame.components(separatedBy: "src=\"").dropFirst().first?.components(separatedBy: "\"").first
        }
    }

    /// Runs the watcher for one tick: the files are compared (and the project reloaded) once.
    static func tick(_ server: PreviewServer) async throws {
        let (ticks, continuation) = AsyncStream<Void>.makeStream()
        continuation.yield()
        continuation.finish()
        let capture = ConsoleCapture()
        do {
            try await Console.$capture.withValue(capture) { try await server.watch(ticks) }
        } catch {
            Issue.record("the reload failed: \(capture.err)")
            throw error
        }
    }

    /// Usage errors, and a project that does not load (reported as `serve` reports it), end
    /// the command with status 2 before it serves anything.
    @Test func usageErrorsAndAProjectThatDoesNotLoadExitWith2() async throws {
        let port = try await InProcess.run(["preview", "--port", "70000", "--no-open"])
        #expect(port.status == 2 && port.stderr.contains("--port must be 0...65535"), "\(port.stderr)")
        let locale = try await InProcess.run(["preview", "--locale", "not a tag", "--no-open"])
        #expect(locale.status == 2 && locale.stderr.contains("is not a BCP 47 locale tag"), "\(locale.stderr)")
        let project = try Project()
        defer { project.folder.remove() }
        try project.edit { $0.replacingOccurrences(of: "{ rule: minLength, value: 3,", with: "{ rule: minLenght, value: 3,") }
        let broken = try await InProcess.run(["preview", "--config", project.folder.path + "/jump.yaml", "--no-open"])
        #expect(broken.status == 2)
        #expect(broken.stderr.contains("\(project.flowPath):") && broken.stderr.contains("error[JF206]"), "\(broken.stderr)")
        #expect(broken.stdout.isEmpty, "\(broken.stdout)")
    }

    @Test func theGalleryShowsEveryFormInEveryLocalePseudoLocalesIncluded() async throws {
        let project = try Project()
        defer { project.folder.remove() }
        let server = try await project.start()
        let url = await server.url
        let page = try await Self.get(url)
        await server.stop()
        #expect(page.status == 200)
        let forms = [
            "signInForm", "registrationForm", "socialRegistrationForm", "forgotPasswordForm", "resendVerificationForm", "editProfileForm",
            "changePasswordForm"
        ]
        let locales = ["de-DE", "en-US", "es-ES", "fr-FR", "ja-JP", "pl-PL", "en-XA", "ar-XB"]
        let expected = forms.flatMap { form in locales.map { "/forms/\(form)?locale=\($0)&amp;preview=1" } }
        #expect(Self.frames(page.body) == expected)
        #expect(page.body.contains(#"<meta name="viewport" content="width=device-width, initial-scale=1">"#))
        #expect(!page.body.contains("id=\"problems\""))
        // The long poll starts after the load event: a request in flight before it would hold
        // the event, and a headless browser would never finish loading the page.
        let script = try #require(page.body.components(separatedBy: "<script>").last?.components(separatedBy: "</script>").first)
        #expect(script.contains(#"window.addEventListener("load""#), "\(script)")
        #expect(!script.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces) == "poll();" }, "\(script)")
        // At phone width, a frame is as wide as the screen at most, its border included.
        #expect(page.body.contains("box-sizing: border-box") && page.body.contains("max-width: calc(100vw - 2rem)"))
    }

    @Test func theLocaleOptionNarrowsTheGalleryAndThePseudoLocalesHaveTexts() async throws {
        let project = try Project()
        defer { project.folder.remove() }
        let server = try await project.start(locales: ["ar-XB", "fr-FR"])
        let page = try await Self.get(await server.url)
        await server.stop()
        #expect(Self.frames(page.body).count == 7 * 2)
        #expect(Self.frames(page.body).prefix(2) == ["/forms/signInForm?locale=ar-XB&amp;preview=1", "/forms/signInForm?locale=fr-FR&amp;preview=1"])
        // The server's localizer answers the pseudo-locales: made from en-US as `locales pseudo` makes them.
        let loaded = try PreviewServer.load(
            .init(project: ["--config", project.folder.path + "/jump.yaml"]), databasePath: project.folder.path + "/x.sqlite",
            environment: [:], console: Console(colorOut: false, colorErr: false))
        let accented = loaded.setup.localizer.text("fields.emailAddress.label", for: LocaleTag("en-XA")!)
        #expect(accented.hasPrefix("[") && accented.hasSuffix("]") && accented != "Email address", "\(accented)")
        let bidi = loaded.setup.localizer.text("fields.emailAddress.label", for: LocaleTag("ar-XB")!)
        #expect(bidi.unicodeScalars.contains("\u{202E}"), "\(bidi)")
        // They speak only when asked for by name: en-US's pages keep jump-forms' English words.
        #expect(loaded.setup.localizer.text("jumpForms.page.registerTitle", for: LocaleTag("en-US")!) == "Create your account")
        #expect(loaded.setup.localizer.text("fields.emailAddress.label", for: LocaleTag("en-GB")!) == "Email address")
        // The gallery is served in preview mode only.
        var setup = loaded.setup
        setup.preview = nil
        #expect(!setup.isPreview)
        let plain = try await EmbeddedCaptureServer.start(setup)
        let answer = try await Self.get(plain.url + "/preview")
        await plain.stop()
        #expect(answer.status == 404)
    }

    @Test func aFlowEditReloadsOnTheSamePortAndTheNewFormAppears() async throws {
        let project = try Project()
        defer { project.folder.remove() }
        let server = try await project.start(locales: ["en-US"])
        let url = await server.url
        // Nothing changed: a tick reloads nothing.
        try await Self.tick(server)
        #expect(try await Self.get(url.replacingOccurrences(of: "/preview", with: "/preview/generation?after=0")).body == "1\n")
        try project.edit {
            $0.replacingOccurrences(
                of: "  forgotPasswordForm:\n", with: "  newsletterForm:\n    fields: [emailAddress, optIn]\n  forgotPasswordForm:\n")
        }
        try await Self.tick(server)
        #expect(await server.url == url, "the server moved to another port")
        let generation = try await Self.get(url.replacingOccurrences(of: "/preview", with: "/preview/generation?after=0"))
        #expect(generation.body == "2\n")
        let page = try await Self.get(url)
        await server.stop()
        #expect(Self.frames(page.body).contains("/forms/newsletterForm?locale=en-US&amp;preview=1"), "\(page.body)")
        #expect(page.body.contains("data-generation=\"2\""))
    }

    @Test func aBrokenFlowShowsItsLocatedErrorAboveTheLastGoodForms() async throws {
        let project = try Project()
        defer { project.folder.remove() }
        let server = try await project.start(locales: ["en-US"])
        let url = await server.url
        let before = Self.frames(try await Self.get(url).body)
        // A request waiting for the next generation is answered by the reload.
        let waiting = Task { try await Self.get(url.replacingOccurrences(of: "/preview", with: "/preview/generation?after=1")) }
        try project.edit { $0.replacingOccurrences(of: "{ rule: minLength, value: 3,", with: "{ rule: minLenght, value: 3,") }
        try await Self.tick(server)
        #expect(try await waiting.value.body == "2\n")
        let page = try await Self.get(url).body
        let line = try String(contentsOfFile: project.flowPath, encoding: .utf8).components(separatedBy: "\n")
            .firstIndex { $0.contains("minLenght") }.map { $0 + 1 }
        let place = "\(project.flowPath):\(try #require(line)):"
        #expect(page.contains("id=\"problems\""))
        #expect(page.contains(place), "\(page)")
        #expect(page.contains("error[JF"), "\(page)")
        // The diagnostic's text is escaped: its quotes are entities, as a `<` would be.
        #expect(page.contains("unknown rule &#39;minLenght&#39;"), "\(page)")
        #expect(Self.frames(page) == before, "the last good forms are no longer shown")
        // Fixed: the problems go, the forms are served again.
        try project.edit { $0.replacingOccurrences(of: "minLenght", with: "minLength") }
        try await Self.tick(server)
        let fixed = try await Self.get(url).body
        await server.stop()
        #expect(!fixed.contains("id=\"problems\""))
        #expect(fixed.contains("data-generation=\"3\""))
    }
}

struct PreviewTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

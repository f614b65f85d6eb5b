import Foundation
import JumpForms
import JumpFormsLoader
import Testing
import TestSupport

/// The `server:` keys of docs/local-server.md's "Security" section: defaults, and the values
/// jump.yaml gives (out-of-range values: Fixtures/diagnostics/JF217-guessing-settings-out-of-range).
@Suite struct GuessingSettingsTests {
    @Test func defaultsAndWrittenValues() throws {
        let defaults = ServerSettings()
        #expect(defaults.signInFailureLimit == 5 && defaults.clientFailureLimit == 20)
        #expect(defaults.signInWait == 1 && defaults.signInMaximumWait == 900)
        #expect(defaults.signInFailureReset == 43_200 && defaults.clientFailureReset == 900)
        #expect(defaults.emailsPerAddress == 3 && defaults.emailWindow == 3600)
        #expect(defaults.maximumConnections == 512 && defaults.passwordHashQueue == 16)
        #expect(defaults.databaseConnections == nil)

        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let fixture = "Tests/JumpFormsLoaderTests/Fixtures/diagnostics/valid-minimal"
        try folder.write("flow.yaml", try String(contentsOfFile: Repository.path(fixture + "/flow.yaml"), encoding: .utf8))
        try folder.write("locales/en-US.yaml", try String(contentsOfFile: Repository.path(fixture + "/locales/en-US.yaml"), encoding: .utf8))
        let config = try folder.write(
            "jump.yaml",
            """
            captureDomain: embedded
            captureClientId: abc123
            captureLocale: en-US
            flow: flow.yaml
            server:
              signInFailureLimit: 0
              clientFailureLimit: 50
              signInWait: 30
              signInMaximumWait: 3600
              signInFailureReset: 86400
              clientFailureReset: 60
              emailsPerAddress: 10
              emailWindow: 600
              maximumConnections: 64
              passwordHashQueue: 0
              databaseConnections: 12
            """)
        let project = ProjectLoader(environment: [:]).load(paths: [config])
        #expect(project.diagnostics.isEmpty, "\(project.diagnostics)")
        let server = try #require(project.config?.server)
        #expect(server.signInFailureLimit == 0 && server.clientFailureLimit == 50)
        #expect(server.signInWait == 30 && server.signInMaximumWait == 3600)
        #expect(server.signInFailureReset == 86400 && server.clientFailureReset == 60)
        #expect(server.emailsPerAddress == 10 && server.emailWindow == 600)
        #expect(server.maximumConnections == 64 && server.passwordHashQueue == 0)
        #expect(server.databaseConnections == 12)
    }

    /// `server.publicURL`: the URL clients reach the server by (its host passes the Host
    /// check); an absolute http(s) URL, else JF's invalid-URL error at its line.
    @Test func publicURLIsAnAbsoluteHTTPURL() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let fixture = "Tests/JumpFormsLoaderTests/Fixtures/diagnostics/valid-minimal"
        try folder.write("flow.yaml", try String(contentsOfFile: Repository.path(fixture + "/flow.yaml"), encoding: .utf8))
        try folder.write("locales/en-US.yaml", try String(contentsOfFile: Repository.path(fixture + "/locales/en-US.yaml"), encoding: .utf8))
        func load(_ value: String) throws -> LoadedProject {
            let config = try folder.write(
                "jump.yaml",
                "captureDomain: embedded\ncaptureClientId: abc123\ncaptureLocale: en-US\nflow: flow.yaml\nserver:\n  publicURL: \(value)\n")
            return ProjectLoader(environment: [:]).load(paths: [config])
        }
        #expect(ServerSettings().publicURL == nil)
        let good = try load("https://capture.example.com")
        #expect(good.diagnostics.isEmpty, "\(good.diagnostics)")
        #expect(good.config?.server.publicURL?.value == "https://capture.example.com")
        let bad = try load("capture.example.com")
        let diagnostic = try #require(bad.diagnostics.first)
        #expect(diagnostic.message == "'publicURL' must be an absolute http(s) URL, found 'capture.example.com'", "\(diagnostic.message)")
        #expect(diagnostic.location?.line == 6)
        let typo = try load("https://x.example\n  publicUrl: https://x.example")
        let unknown = try #require(typo.diagnostics.first)
        #expect(unknown.message == "unknown key 'publicUrl' in 'server'")
        #expect(unknown.hint?.contains("publicURL") == true, "\(unknown.hint ?? "")")
    }
}

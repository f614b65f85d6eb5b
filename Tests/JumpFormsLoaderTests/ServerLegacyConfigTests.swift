import Foundation
import JumpForms
import JumpFormsLoader
import Testing
import TestSupport

/// `server.legacy`: the Capture users move from as they sign in, with an owner client whose
/// secret comes from the environment; mistakes are diagnosed where they are written.
@Suite struct ServerLegacyConfigTests {
    @Test func legacyIsRead() throws {
        let (project, folder) = try ServerEnvironmentTests.project(
            """
            server:
              legacy:
                captureDomain: https://example.us-dev.janraincapture.com
                clientId: migration-owner
                clientSecret: ${LEGACY_SECRET}

            """, environment: ["LEGACY_SECRET": "from-the-environment"])
        defer { folder.remove() }
        #expect(project.diagnostics.isEmpty, "\(project.diagnostics)")
        let legacy = try #require(project.config?.server.legacy)
        #expect(legacy.captureDomain.value == "https://example.us-dev.janraincapture.com")
        #expect(legacy.clientId.value == "migration-owner")
        #expect(legacy.clientSecret.value == "from-the-environment")
    }

    @Test func mistakesAreDiagnosed() throws {
        let (project, folder) = try ServerEnvironmentTests.project(
            """
            server:
              legacy:
                captureDomain: not a url
                clientID: migration-owner
                clientSecret: ${LEGACY_SECRET}

            """, environment: ["LEGACY_SECRET": "hidden-value"])
        defer { folder.remove() }
        let messages = project.diagnostics.map(\.message)
        #expect(messages.contains { $0.contains("unknown key 'clientID'") }, "\(messages)")
        #expect(messages.contains { $0.contains("has no 'clientId'") }, "\(messages)")
        #expect(messages.contains { $0.contains("'captureDomain'") }, "\(messages)")
        let hints = project.diagnostics.compactMap(\.hint).joined(separator: "\n")
        #expect(hints.contains("'clientId'"), "\(hints)")
        #expect(!messages.joined().contains("hidden-value"), "\(messages)")
        #expect(project.config?.server.legacy == nil)
    }
}

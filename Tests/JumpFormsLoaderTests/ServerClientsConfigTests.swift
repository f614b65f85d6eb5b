import Foundation
import JumpForms
import JumpFormsLoader
import Testing
import TestSupport

/// `server.clients`: the server API's clients, each an id, a secret (from the environment with
/// `${NAME}`) and Capture's features; mistakes are diagnosed where they are written.
@Suite struct ServerClientsConfigTests {
    @Test func clientsAreRead() throws {
        let (project, folder) = try ServerEnvironmentTests.project(
            """
            server:
              clients:
                - id: crm-sync
                  secret: ${CRM_SECRET}
                  features: [direct_access]
                - id: admin
                  secret: admin-secret
                  features: [owner, access_issuer]

            """, environment: ["CRM_SECRET": "from-the-environment"])
        defer { folder.remove() }
        #expect(project.diagnostics.isEmpty, "\(project.diagnostics)")
        let clients = try #require(project.config?.server.clients)
        #expect(clients.map(\.id.value) == ["crm-sync", "admin"])
        #expect(clients[0].secret.value == "from-the-environment")
        #expect(clients[0].features == [.directAccess])
        #expect(clients[1].features == [.owner, .accessIssuer])
        #expect(clients[1].allows(.loginClient) && !clients[0].allows(.loginClient))
    }

    @Test func mistakesAreDiagnosed() throws {
        let (project, folder) = try ServerEnvironmentTests.project(
            """
            server:
              clients:
                - id: crm-sync
                  secret: s1
                  features: [direct_acess]
                - id: crm-sync
                  secret: s2
                - id: no-secret
                - id: typo
                  secrets: s3
                  secret: s4

            """, environment: [:])
        defer { folder.remove() }
        let messages = project.diagnostics.map(\.message)
        #expect(messages.contains { $0.contains("unknown client feature 'direct_acess'") }, "\(messages)")
        #expect(messages.contains { $0.contains("'crm-sync' again") }, "\(messages)")
        #expect(messages.contains { $0.contains("has no 'secret'") }, "\(messages)")
        #expect(messages.contains { $0.contains("unknown key 'secrets'") }, "\(messages)")
        // "Did you mean", for the feature and the key.
        let hints = project.diagnostics.compactMap(\.hint).joined(separator: "\n")
        #expect(hints.contains("direct_access") && hints.contains("'secret'"), "\(hints)")
        #expect(!messages.joined().contains("s4") && !messages.joined().contains("s2"), "\(messages)")
    }
}

import Foundation
import JumpForms
import JumpFormsLoader
import Testing
import TestSupport

/// Every `server:` key also comes from an environment variable (`JUMP_` and the key in upper
/// snake case), which wins over jump.yaml; `metricsAllow` lists CIDR ranges.
@Suite struct ServerEnvironmentTests {
    static func project(_ server: String, environment: [String: String]) throws -> (LoadedProject, TemporaryFolder) {
        let folder = try TemporaryFolder()
        let fixture = "Tests/JumpFormsLoaderTests/Fixtures/diagnostics/valid-minimal"
        try folder.write("flow.yaml", try String(contentsOfFile: Repository.path(fixture + "/flow.yaml"), encoding: .utf8))
        try folder.write("locales/en-US.yaml", try String(contentsOfFile: Repository.path(fixture + "/locales/en-US.yaml"), encoding: .utf8))
        let config = try folder.write(
            "jump.yaml", "captureDomain: embedded\ncaptureClientId: abc123\ncaptureLocale: en-US\nflow: flow.yaml\n" + server)
        return (ProjectLoader(environment: environment).load(paths: [config]), folder)
    }

    @Test func environmentWinsOverTheFileAndWorksWithoutServer() throws {
        let (project, folder) = try Self.project(
            "server:\n  bcryptCost: 4\n  database: file.sqlite\n  metricsAllow: [127.0.0.1]\n",
            environment: [
                "JUMP_BCRYPT_COST": "6", "JUMP_DATABASE": "/data/env.sqlite", "JUMP_METRICS_ALLOW": "10.0.0.0/8, fd00::/8",
                "JUMP_PASSWORD_HASH_QUEUE": "3", "JUMP_PUBLIC_URL": "https://capture.example.com"
            ])
        defer { folder.remove() }
        #expect(project.diagnostics.isEmpty, "\(project.diagnostics)")
        let server = try #require(project.config?.server)
        #expect(server.bcryptCost == 6)
        #expect(server.database?.value == "/data/env.sqlite")
        #expect(server.passwordHashQueue == 3)
        #expect(server.publicURL?.value == "https://capture.example.com")
        #expect(server.metricsAllow.map(\.description) == ["10.0.0.0/8", "fd00:0:0:0:0:0:0:0/8"])

        let (bare, other) = try Self.project("", environment: ["JUMP_MAXIMUM_CONNECTIONS": "64"])
        defer { other.remove() }
        #expect(bare.diagnostics.isEmpty, "\(bare.diagnostics)")
        #expect(bare.config?.server.maximumConnections == 64)
        #expect(bare.config?.server.bcryptCost == 10)
    }

    @Test func badEnvironmentValuesAreDiagnosed() throws {
        let (project, folder) = try Self.project(
            "server:\n  bcryptCost: 4\n", environment: ["JUMP_BCRYPT_COST": "99", "JUMP_METRICS_ALLOW": "10.0.0.0/33,not-an-address"])
        defer { folder.remove() }
        let messages = project.diagnostics.map(\.message)
        #expect(messages.contains { $0.contains("'bcryptCost' is out of range: 99") }, "\(messages)")
        #expect(messages.contains { $0.contains("an item of 'metricsAllow' must be an IP address or CIDR range") && $0.contains("'10.0.0.0/33'") })
        #expect(messages.contains { $0.contains("'not-an-address'") })
        // The error points at the key the variable overrides.
        #expect(project.diagnostics.first { $0.message.contains("bcryptCost") }?.location?.line == 6)
    }

    @Test func addressRanges() throws {
        let ten = try #require(AddressRange("10.0.0.0/8"))
        #expect(ten.contains("10.200.3.4") && !ten.contains("11.0.0.1") && !ten.contains("::1"))
        #expect(ten.contains("::ffff:10.1.2.3"), "an IPv4-mapped IPv6 address is its IPv4 address")
        let one = try #require(AddressRange("127.0.0.1"))
        #expect(one.prefixLength == 32 && one.contains("127.0.0.1") && !one.contains("127.0.0.2"))
        let loopback6 = try #require(AddressRange("::1"))
        #expect(loopback6.contains("::1") && loopback6.contains("0:0:0:0:0:0:0:1") && !loopback6.contains("127.0.0.1"))
        let ula = try #require(AddressRange("fd00::/8"))
        #expect(ula.contains("fd12:3456::1") && !ula.contains("fe80::1"))
        #expect(AddressRange("0.0.0.0/0")?.contains("8.8.8.8") == true)
        #expect(AddressRange("10.1.2.3/8")?.description == "10.0.0.0/8")
        for bad in ["", "10.0.0.0/33", "10.0.0/8", "256.0.0.1", "1.2.3.4/", "1.2.3.4/a", "::1::", "fd00::/129", "12345::", "a.b.c.d"] {
            #expect(AddressRange(bad) == nil, "\(bad)")
        }
    }
}

import Foundation
import JumpCapture
import Testing
import TestSupport

/// The refresh signature against vectors computed by Python's hmac module
/// (scripts/refresh-signature-vectors.py).
@Suite struct SignatureTests {
    struct Vector: Decodable, Sendable {
        var refreshSecret: String
        var date: String
        var accessToken: String
        var signature: String
    }

    struct File: Decodable { var vectors: [Vector] }

    static let vectors: [Vector] = {
        let data = FileManager.default.contents(atPath: Repository.path("Tests/JumpCaptureTests/Fixtures/refresh-signature-vectors.json"))!
        return try! JSONDecoder().decode(File.self, from: data).vectors
    }()

    @Test(arguments: vectors)
    func signatureMatchesPython(_ vector: Vector) throws {
        let secret = try #require(RefreshSecret(vector.refreshSecret))
        #expect(RefreshSignature.sign(accessToken: vector.accessToken, date: vector.date, secret: secret) == vector.signature)
        #expect(RefreshSignature.verify(vector.signature, accessToken: vector.accessToken, date: vector.date, secret: secret))
        #expect(!RefreshSignature.verify(vector.signature, accessToken: vector.accessToken + "x", date: vector.date, secret: secret))
    }

    @Test func verifyRefusesNearMisses() throws {
        let vector = try #require(Self.vectors.first)
        let secret = try #require(RefreshSecret(vector.refreshSecret))
        var changed = Array(vector.signature.utf8)
        changed[changed.count - 2] = changed[changed.count - 2] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        for signature in [String(decoding: changed, as: UTF8.self), vector.signature + "=", String(vector.signature.dropLast()), ""] {
            #expect(!RefreshSignature.verify(signature, accessToken: vector.accessToken, date: vector.date, secret: secret), "\(signature)")
        }
    }

    @Test func datesAreUTCAndRoundTrip() {
        #expect(RefreshSignature.dateString(epochSeconds: 0) == "1970-01-01 00:00:00")
        #expect(RefreshSignature.dateString(epochSeconds: 951_825_600) == "2000-02-29 12:00:00")
        #expect(RefreshSignature.epochSeconds(of: "2000-02-29 12:00:00") == 951_825_600)
        #expect(RefreshSignature.epochSeconds(of: "2001-02-29 12:00:00") == nil)
        #expect(RefreshSignature.epochSeconds(of: "2000-02-29T12:00:00") == nil)
    }

    @Test func refreshRequestCarriesDateAndSignature() throws {
        let request = CaptureFixtures.builder().refreshAccessToken(
            accessToken: "access-1", refreshSecret: CaptureFixtures.secret, epochSeconds: CaptureFixtures.epoch)
        let date = try #require(request.parameter("date"))
        #expect(date == "2025-06-15 10:30:00")
        #expect(
            RefreshSignature.verify(try #require(request.parameter("signature")), accessToken: "access-1", date: date, secret: CaptureFixtures.secret)
        )
    }
}

extension SignatureTests.Vector: CustomTestStringConvertible {
    var testDescription: String { "\(date) \(accessToken.prefix(12))" }
}

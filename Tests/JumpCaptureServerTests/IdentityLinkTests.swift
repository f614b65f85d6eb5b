import Foundation
import JumpCapture
@testable import JumpCaptureServer
import JumpForms
import Testing
import TestSupport

/// Linking and unlinking social identities: the last identity of a password-less account stays,
/// and a merge token links only the account of its own 380.
@Suite(.timeLimit(.minutes(5))) struct IdentityLinkTests {
    /// Concurrent unlinks of the identities of a password-less account: one identity always
    /// stays. The check (last identity?) and the delete used to be two steps, so unlinks that
    /// all read "three identities" removed all three.
    @Test func concurrentUnlinksLeaveTheLastIdentity() async throws {
        try await withServer(.socket) { server in
            // (provider, identity to choose, identifier)
            let identities = [
                ("google", "marta.keller@example.com", "https://www.google.com/profiles/1001"),
                ("facebook", "facebook:3003", "facebook:3003"),
                ("corp_openid", "https://id.example.com/openid/u/lea.martin", "https://id.example.com/openid/u/lea.martin")
            ]
            let session = try #require(
                try await server.socialSignIn(try await server.engageToken("google", identity: "marta.keller@example.com")).signedIn)
            for round in 0..<6 {
                let linked = Set(
                    try await server.record(session.accessToken)["profiles"]?.arrayValue?.compactMap { $0["identifier"]?.stringValue } ?? [])
                for (provider, choice, identifier) in identities where !linked.contains(identifier) {
                    let link = server.builder().linkAccount(
                        accessToken: session.accessToken, token: try await server.engageToken(provider, identity: choice))
                    #expect(try await server.send(link).isOK, "round \(round): link \(provider)")
                }
                // Every identity unlinked twice, all at once.
                let results = await withTaskGroup(of: Result<CaptureSuccess, CaptureError>?.self) { group in
                    for (_, _, identifier) in identities + identities {
                        let request = server.builder().unlinkAccount(accessToken: session.accessToken, identifier: identifier)
                        group.addTask { try? await server.send(request) }
                    }
                    var all: [Result<CaptureSuccess, CaptureError>?] = []
                    for await result in group { all.append(result) }
                    return all
                }
                #expect(results.allSatisfy { $0 != nil })
                #expect(results.filter { $0?.isOK == true }.count == identities.count - 1, "round \(round): \(results)")
                let left = try await server.record(session.accessToken)["profiles"]?.arrayValue ?? []
                #expect(left.count == 1, "round \(round): \(left.count) identities left")
                // The refused ones say why: the last identity, or one already gone.
                for case .failure(let error)? in results {
                    #expect(error.serverError?.code == 200)
                }
            }
        }
    }

    /// A merge token links only to the account its 380 named: Ana's Google token could be
    /// spent by Bob, and any unused Engage token worked as a merge token.
    @Test func aMergeTokenLinksOnlyToTheAccountOfIts380() async throws {
        try await withServer(.socket) { server in
            let (ana, _) = try await server.register()
            try await server.register(ServerFixtures.registration(email: "bob@example.com", displayName: "bob_r"))
            let google = try await server.engageToken("google", identity: "ana.ruiz@example.com")
            guard case .failure(.mergeRequired(let merge)) = try await server.socialSignIn(google) else { Issue.record("no 380"); return }
            let intoBob = try await server.signIn("bob@example.com", mergeToken: merge.mergeToken)
            #expect(intoBob.code == 200, "\(intoBob)")
            #expect(intoBob.error?.serverError?.description.contains("another account") == true, "\(intoBob)")
            // A token no 380 answered: refused too.
            let facebook = try await server.engageToken("facebook")
            let noMerge = try await server.signIn("bob@example.com", mergeToken: facebook)
            #expect(noMerge.code == 200, "\(noMerge)")
            #expect(noMerge.error?.serverError?.description.contains("380") == true, "\(noMerge)")
            let bob = try #require(try await server.signIn("bob@example.com").signedIn)
            #expect(bob.record["profiles"]?.arrayValue == [])
            // The account the 380 named still merges.
            let merged = try #require(try await server.signIn("ana.ruiz@example.com", mergeToken: merge.mergeToken).signedIn)
            #expect(merged.record["uuid"] == ana.record["uuid"])
            #expect(merged.record["profiles"]?.arrayValue?.first?["identifier"] == "https://www.google.com/profiles/1002")
        }
    }

    /// A refused merge leaves both tokens usable: a social sign-in whose `merge_token` was
    /// refused used to use up its own `token`, so the client could not retry without it.
    @Test func aRefusedMergeUsesUpNoToken() async throws {
        try await withServer(.socket) { server in
            try await server.register()
            // Tomasz's account, made by a thin registration with Facebook.
            let tomasz = try #require(try await server.socialSignIn(try await server.engageToken("facebook")).signedIn)
            let google = try await server.engageToken("google", identity: "ana.ruiz@example.com")
            guard case .failure(.mergeRequired(let merge)) = try await server.socialSignIn(google) else { Issue.record("no 380"); return }
            // Ana's merge token into Tomasz's account, and a token no 380 answered: refused.
            let facebook = try await server.engageToken("facebook")
            let intoTomasz = try await server.socialSignIn(facebook, mergeToken: merge.mergeToken)
            #expect(intoTomasz.error?.serverError?.description.contains("another account") == true, "\(intoTomasz)")
            let unanswered = try await server.engageToken("corp_openid")
            let noMerge = try await server.socialSignIn(facebook, mergeToken: unanswered)
            #expect(noMerge.error?.serverError?.description.contains("380") == true, "\(noMerge)")
            // Every token is still usable: Tomasz signs in with his, Ana merges with hers.
            let again = try #require(try await server.socialSignIn(facebook).signedIn)
            #expect(again.record["uuid"] == tomasz.record["uuid"])
            #expect(again.record["profiles"]?.arrayValue?.count == 1)
            let merged = try #require(try await server.signIn("ana.ruiz@example.com", mergeToken: merge.mergeToken).signedIn)
            #expect(merged.record["profiles"]?.arrayValue?.first?["identifier"] == "https://www.google.com/profiles/1002")
            // Léa's token was not used up either (a sign-in or a 310, not 200 "not valid").
            let lea = try await server.socialSignIn(unanswered)
            #expect(lea.code != 200, "\(lea)")
            // The merge that went through used its token up.
            #expect(try await server.socialSignIn(try #require(merge.mergeToken)).code == 200)
        }
    }
}

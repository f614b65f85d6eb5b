import Foundation
import JumpCapture
@testable import JumpCaptureServer
import JumpForms
import Testing
import TestSupport

/// What the server says is in the person's locale: many locales served, the emails, the reset and
/// confirmation pages.
@Suite(.timeLimit(.minutes(5))) struct LocalizedAnswerTests {
    /// Unknown locales are served (with the default texts) without growing the form cache
    /// without bound.
    @Test func manyLocalesAreServed() async throws {
        // 300 wrong passwords: the sign-in throttle off.
        try await withServer(configure: {
            $0.server.signInFailureLimit = 0; $0.server.clientFailureLimit = 0
        }) { server in
            for index in 0..<300 {
                let tag = try #require(LocaleTag("en-US-v\(10000 + index)"))
                let request = try server.builder(tag).signIn(
                    ["signInEmailAddress": "nobody@example.com", "currentPassword": "whatever"],
                    refreshSecret: .generate(), today: server.today)
                #expect(try await server.send(request).code == 210)
            }
            #expect(server.server.service.cachedFormCount <= 256)
        }
    }

    /// The outbox's emails speak the request's language; a thin registration confirms the
    /// address by mail like a traditional one.
    @Test func emailsAreLocalizedAndThinRegistrationSendsTheVerification() async throws {
        try await withServer(.socket) { server in
            try await server.register(locale: ServerFixtures.french)
            let request = try server.builder(LocaleTag("de-DE")!).forgotPassword(["signInEmailAddress": "ana.ruiz@example.com"], today: server.today)
            #expect(try await server.send(request).isOK)
            let token = try await server.engageToken("google", identity: "marta.keller@example.com")
            #expect(try await server.socialSignIn(token, locale: LocaleTag("ja-JP")!).signedIn != nil)
            let outbox = try await server.server.outbox()
            #expect(outbox.map(\.kind) == ["verify_email", "forgot_password", "verify_email"])
            try #require(outbox.map(\.recipient) == ["ana.ruiz@example.com", "ana.ruiz@example.com", "marta.keller@example.com"])
            let localizer = ServerFixtures.localizer
            for (message, key, locale) in [
                (outbox[0], "verifyEmail", "fr-FR"), (outbox[1], "resetPassword", "de-DE"), (outbox[2], "verifyEmail", "ja-JP")
            ] {
                let tag = LocaleTag(locale)!
                #expect(message.subject == localizer.text("jumpForms.server.\(key)Subject", for: tag), "\(locale)")
                #expect(message.subject != localizer.text("jumpForms.server.\(key)Subject", for: ServerFixtures.english), "\(locale)")
                let link = try #require(message.body.firstMatch(of: /http:\/\/\S+?code=[0-9a-f]{64}/)).output
                #expect(message.body == localizer.text("jumpForms.server.\(key)Body", for: tag, ["flow": "standard", "link": .string(String(link))]))
            }
        }
    }

    /// The password-reset page speaks the locale its email was sent in.
    @Test func theResetPageIsLocalized() async throws {
        try await withServer { server in
            try await server.register()
            let german = try #require(LocaleTag("de-DE"))
            let request = try server.builder(german).forgotPassword(["signInEmailAddress": "ana.ruiz@example.com"], today: server.today)
            #expect(try await server.send(request).isOK)
            let message = try #require(try await server.server.outbox().first { $0.kind == "forgot_password" })
            #expect(message.subject == "Passwort zurücksetzen")
            let link = try #require(OperationTests.link(in: message.body, path: "/password/reset"))
            let code = try #require(TestServer.query(link)["code"])
            let page = try await server.raw(.GET, "/password/reset?code=" + code)
            #expect(page.status == 200)
            #expect(page.body.contains(#"<html lang="de-DE" dir="ltr">"#))
            #expect(page.body.contains("Neues Passwort wählen") && page.body.contains("Speichern"), "\(page.body)")
            #expect(!page.body.contains("Choose a new password"))
            let short = try await server.raw(.POST, "/password/reset", form: "code=\(code)&password=short")
            #expect(short.status == 400)
            #expect(short.body.contains("mindestens 8 Zeichen"), "\(short.body)")
            let changed = try await server.raw(
                .POST, "/password/reset",
                form: "code=\(code)&password=" + FormEncoding.encode("neues Passwort 1") + "&passwordConfirm="
                    + FormEncoding.encode("neues Passwort 1"))
            #expect(changed.body.contains("Passwort geändert"), "\(changed.body)")
            // A link that is not valid: the server's locale.
            let gone = try await server.raw(.GET, "/password/reset?code=" + code)
            #expect(gone.status == 404)
            #expect(gone.body.contains("Link not valid"))
        }
    }

    /// The email-confirmation page speaks the locale its email was sent in, as the reset page does.
    @Test func theConfirmationPageIsLocalized() async throws {
        try await withServer { server in
            let (session, _) = try await server.register()
            let polish = try #require(LocaleTag("pl-PL"))
            let request = try server.builder(polish).resendVerification(["signInEmailAddress": "ana.ruiz@example.com"], today: server.today)
            #expect(try await server.send(request).isOK)
            let message = try #require(try await server.server.outbox().last { $0.kind == "verify_email" })
            let link = try #require(OperationTests.link(in: message.body, path: "/email/verify"))
            let code = try #require(TestServer.query(link)["code"])
            let page = try await server.raw(.GET, "/email/verify?code=" + code)
            #expect(page.status == 200)
            #expect(page.body.contains(#"<html lang="pl-PL" dir="ltr">"#))
            #expect(page.body.contains("Adres e-mail potwierdzony") && !page.body.contains("Email confirmed"), "\(page.body)")
            #expect(try await server.record(session.accessToken)["emailVerified"] != nil)
            // Used up: the server's locale, and nothing confirmed twice.
            let gone = try await server.raw(.GET, "/email/verify?code=" + code)
            #expect(gone.status == 404)
            #expect(gone.body.contains("This confirmation link is not valid or has expired."), "\(gone.body)")
        }
    }
}

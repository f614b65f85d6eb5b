import AsyncHTTPClient
import Foundation
import JumpCapture
import JumpCaptureNIO
@testable import JumpCaptureServer
import JumpForms
import JumpWebPages
import NIOCore
import NIOHTTP1
import Testing
import TestSupport

/// A browser for the hosted pages: a cookie jar, form posts, no redirects followed.
final class PageBrowser: @unchecked Sendable {
    let server: TestServer
    private(set) var cookies: [String: String] = [:]
    /// The browser's `Accept-Language`, if any.
    var acceptLanguage: String?

    init(_ server: TestServer) { self.server = server }

    struct Page {
        var status: Int
        var headers: HTTPHeaders
        var body: String
        var location: String? { headers.first(name: "Location") }
        var setCookies: [String] { headers["Set-Cookie"] }

        /// The value of the hidden CSRF field.
        var csrf: String? { Self.capture(#"name="csrf_token" value="([0-9a-f]+)""#, in: body) }

        /// The start tag of the element with `id`.
        func tag(id: String) -> String? { Self.capture(#"(<[a-z]+ [^>]*id="\#(id)"[^>]*>)"#, in: body) }

        /// The text inside the element with `id`, up to the first closing tag.
        func content(id: String) -> String? { Self.capture(#"id="\#(id)"[^>]*>(.*?)</"#, in: body) }

        static func capture(_ pattern: String, in text: String) -> String? {
            guard let regex = try? Regex(pattern).dotMatchesNewlines(), let match = try? regex.firstMatch(in: text),
                match.output.count > 1, let range = match.output[1].range
            else { return nil }
            return String(text[range])
        }
    }

    func get(_ target: String) async throws -> Page { try await send(.GET, target, body: nil) }

    /// Sets a cookie as another site (a sibling subdomain, a network attacker over plain HTTP)
    /// could plant it.
    func plant(_ name: String, _ value: String) { cookies[name] = value }

    /// Posts `fields` (form-encoded), with the CSRF token of `page` unless `csrf` says otherwise.
    func post(_ target: String, _ fields: [(String, String)], csrf: String?) async throws -> Page {
        var pairs = fields.map { (name: $0.0, value: $0.1) }
        if let csrf { pairs.append((name: "csrf_token", value: csrf)) }
        return try await send(.POST, target, body: FormEncoding.encode(pairs))
    }

    func send(_ method: HTTPMethod, _ target: String, body: String?) async throws -> Page {
        var request = HTTPClientRequest(url: server.url.description + target)
        request.method = method
        if !cookies.isEmpty { request.headers.add(name: "Cookie", value: cookies.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: "; ")) }
        if let acceptLanguage { request.headers.add(name: "Accept-Language", value: acceptLanguage) }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: body))
        }
        let response = try await ServerFixtures.client.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 1 << 22)
        for header in response.headers["Set-Cookie"] {
            let pair = header.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
            if pair.count == 2 { cookies[String(pair[0])] = String(pair[1]) }
        }
        return Page(status: Int(response.status.code), headers: response.headers, body: String(buffer: bytes))
    }
}

@Suite("Hosted pages") struct HostedFormTests {
    static let password = ServerFixtures.password

    static func registration(email: String = "ana.ruiz@example.com", displayName: String = "ana_r", password: String = password)
        -> [(String, String)]
    {
        [
            ("emailAddress", email), ("displayName", displayName), ("firstName", "Ana"), ("lastName", "Ruiz"),
            ("newPassword", password), ("newPasswordConfirm", password), ("birthdate[dateselect_year]", "1990"),
            ("birthdate[dateselect_month]", "4"), ("birthdate[dateselect_day]", "1"), ("optIn", "true")
        ]
    }

    /// The page with the CSRF token's value replaced (golden files).
    static func stable(_ body: String) -> String {
        body.replacing(try! Regex(#"name="csrf_token" value="[0-9a-f]+""#), with: #"name="csrf_token" value="CSRF""#)
    }

    @Test func theSignInFormFollowsTheDOMContract() async throws {
        try await withServer(.socket) { server in
            let browser = PageBrowser(server)
            let page = try await browser.get("/forms/signInForm?locale=en-US")
            #expect(page.status == 200)
            #expect(page.headers.first(name: "Content-Type") == "text/html; charset=utf-8")
            #expect(page.body.contains(#"<html lang="en-US" dir="ltr">"#))
            #expect(page.body.contains(#"<meta name="viewport" content="width=device-width, initial-scale=1">"#))
            #expect(page.body.contains(#"<link rel="stylesheet" href="/assets/jump-forms.css">"#))
            #expect(page.body.contains(#"<form id="form-signInForm" method="post">"#))
            #expect(page.body.contains(#"<label for="field-signInEmailAddress">Email address"#), "\(page.body)")
            let email = try #require(page.tag(id: "field-signInEmailAddress"))
            #expect(email.contains(#"type="email""#) && email.contains(#"name="signInEmailAddress""#) && email.contains(" required"))
            #expect(email.contains(#"placeholder="you@example.com""#) && email.contains(#"autocomplete="email""#))
            let password = try #require(page.tag(id: "field-currentPassword"))
            #expect(password.contains(#"type="password""#) && password.contains(#"autocomplete="current-password""#))
            #expect(page.body.contains(#"<button type="submit" id="submit">Sign in</button>"#))
            // No messages yet: no form-level box, no aria-invalid.
            #expect(!page.body.contains("form-errors") && !page.body.contains("aria-invalid"))
            // The CSRF token: a hidden field and the same value in an HttpOnly, SameSite=Strict cookie.
            let csrf = try #require(page.csrf)
            let cookie = try #require(page.setCookies.first { $0.hasPrefix("jf_csrf=") })
            #expect(cookie == "jf_csrf=\(csrf); Path=/; HttpOnly; SameSite=Strict")
            // Links to the other forms keep the locale.
            #expect(page.body.contains(#"href="/forms/registrationForm?locale=en-US""#))
            // The stylesheet is served, offline, by the server itself.
            let css = try await browser.get("/assets/jump-forms.css")
            #expect(css.status == 200 && css.headers.first(name: "Content-Type") == "text/css; charset=utf-8")
            #expect(css.body.contains("margin-inline") && !css.body.contains("http"))
        }
    }

    @Test func everyRuleTheBrowserCanCheckIsAnAttribute() async throws {
        try await withServer(.socket) { server in
            let page = try await PageBrowser(server).get("/forms/registrationForm?locale=en-US")
            #expect(page.status == 200)
            let email = try #require(page.tag(id: "field-emailAddress"))
            #expect(email.contains(#"type="email""#) && email.contains(" required") && email.contains(#"maxlength="254""#))
            // The tip describes the field.
            #expect(email.contains(#"aria-describedby="field-emailAddress-tip""#))
            #expect(page.body.contains(#"<p class="tip" id="field-emailAddress-tip">"#))
            let name = try #require(page.tag(id: "field-displayName"))
            #expect(name.contains(#"minlength="3""#) && name.contains(#"maxlength="40""#) && name.contains(#"type="text""#))
            // alphaNumericExtended is Unicode-aware: no pattern would say the same in a browser.
            #expect(!name.contains("pattern="))
            let newPassword = try #require(page.tag(id: "field-newPassword"))
            #expect(newPassword.contains(#"minlength="8""#) && newPassword.contains(#"autocomplete="new-password""#))
            // A dateselect: year, month and day under the names the JSON API takes.
            let year = try #require(page.tag(id: "field-birthdate-year"))
            #expect(year.contains(#"name="birthdate[dateselect_year]""#) && year.contains(#"autocomplete="bday-year""#))
            #expect(page.tag(id: "field-birthdate-month")?.contains(#"name="birthdate[dateselect_month]""#) == true)
            #expect(page.tag(id: "field-birthdate-day")?.contains(#"name="birthdate[dateselect_day]""#) == true)
            let optIn = try #require(page.tag(id: "field-optIn"))
            #expect(optIn.contains(#"type="checkbox""#) && optIn.contains(#"value="true""#) && !optIn.contains("required"))
            #expect(page.body.contains(#"<span class="required" aria-hidden="true">*</span>"#))
            #expect(page.body.contains("Fields marked * are required."))
        }
    }

    @Test func rightToLeftLocalesSetDir() async throws {
        try await withServer(.socket) { server in
            let browser = PageBrowser(server)
            for tag in ["ar", "he-IL", "fa", "ur", "ar-XB"] {
                let page = try await browser.get("/forms/signInForm?locale=\(tag)")
                #expect(page.body.contains(#"<html lang="\#(tag)" dir="rtl">"#), "\(tag)")
            }
            let french = try await browser.get("/forms/signInForm?locale=fr-FR")
            #expect(french.body.contains(#"<html lang="fr-FR" dir="ltr">"#))
            #expect(french.body.contains("Se connecter"))
        }
    }

    @Test func registrationRedirectsWithACodeTheAppRedeems() async throws {
        try await withServer(.socket, configure: { $0.server.clientSecret = Located("s3cret", at: ServerFixtures.here) }) { server in
            let browser = PageBrowser(server)
            let target =
                "/forms/registrationForm?locale=en-US&redirect_uri=" + FormEncoding.encodeComponent("https://example.com/cb")
                + "&state=xyz"
            let form = try await browser.get(target)
            let done = try await browser.post(target, Self.registration(), csrf: form.csrf)
            #expect(done.status == 303, "\(done.body)")
            let location = try #require(done.location)
            #expect(location.hasPrefix("https://example.com/cb?code="))
            let query = TestServer.query(location)
            #expect(query["state"] == "xyz")
            let code = try #require(query["code"])
            // The page session: HttpOnly, SameSite=Lax, never the access token.
            let session = try #require(done.setCookies.first { $0.hasPrefix("jf_session=") })
            #expect(session.contains("; HttpOnly") && session.contains("SameSite=Lax"))
            #expect(try await server.server.accountCount() == 1)
            // The code is the one `/oauth/token` redeems, bound to that redirect URI.
            let redeemed = try await server.raw(
                .POST, "/oauth/token",
                form: FormEncoding.encode([
                    (name: "grant_type", value: "authorization_code"), (name: "code", value: code),
                    (name: "redirect_uri", value: "https://example.com/cb"), (name: "client_id", value: server.config.captureClientId.value),
                    (name: "client_secret", value: "s3cret")
                ]))
            #expect(redeemed.status == 200 && redeemed.body.contains("access_token"), "\(redeemed.body)")
            // response_type=token: the access token in the fragment, to the registered redirect URI only.
            let tokenTarget =
                "/forms/signInForm?locale=en-US&response_type=token&redirect_uri=" + FormEncoding.encodeComponent("https://example.com/cb")
            let signIn = try await browser.get(tokenTarget)
            let signedIn = try await browser.post(
                tokenTarget, [("signInEmailAddress", "ana.ruiz@example.com"), ("currentPassword", Self.password)], csrf: signIn.csrf)
            #expect(signedIn.status == 303)
            #expect(signedIn.location?.hasPrefix("https://example.com/cb#access_token=") == true, "\(signedIn.location ?? "")")
        }
    }

    @Test func aRedirectURIMustBeAllowed() async throws {
        try await withServer(.socket) { server in
            let page = try await PageBrowser(server).get(
                "/forms/signInForm?locale=en-US&redirect_uri=" + FormEncoding.encodeComponent("https://evil.example.net/cb"))
            #expect(page.status == 400)
            #expect(page.body.contains("This app may not send you to https://evil.example.net/cb."))
            #expect(!page.body.contains("<form"))
            let type = try await PageBrowser(server).get("/forms/signInForm?response_type=id_token")
            #expect(type.status == 400)
            #expect(try await PageBrowser(server).get("/forms/noSuchForm").status == 404)
        }
    }

    @Test func aBadValueIsRefusedNextToItsFieldWithTheValuesKept() async throws {
        try await withServer(.socket) { server in
            let browser = PageBrowser(server)
            let target = "/forms/registrationForm?locale=fr-FR"
            let form = try await browser.get(target)
            let secret = "un mot de passe secret"
            let refused = try await browser.post(
                target, Self.registration(email: "ana@example.com", displayName: "admin", password: secret), csrf: form.csrf)
            #expect(refused.status == 400)
            // The flow's localized message, next to the field, tied to the control.
            #expect(refused.content(id: "field-displayName-error") == "<span>Ce nom d’affichage est réservé.", "\(refused.body)")
            let control = try #require(refused.tag(id: "field-displayName"))
            #expect(control.contains(#"aria-invalid="true""#) && control.contains("field-displayName-error") && control.contains(" autofocus"))
            #expect(refused.body.contains(#"<div class="form-errors" role="alert" id="form-errors">"#))
            // The other fields keep their values and are not marked.
            #expect(refused.tag(id: "field-emailAddress")?.contains(#"value="ana@example.com""#) == true)
            #expect(refused.tag(id: "field-displayName")?.contains(#"value="admin""#) == true)
            #expect(refused.tag(id: "field-birthdate-year")?.contains(#"value="1990""#) == true)
            #expect(refused.tag(id: "field-emailAddress")?.contains("aria-invalid") == false)
            #expect(refused.tag(id: "field-optIn")?.contains("checked") == true)
            // Never a password.
            #expect(!refused.body.contains(secret) && !refused.body.contains("un+mot"))
            #expect(try await server.server.accountCount() == 0)
        }
    }

    @Test func aPostWithoutTheCSRFTokenIsRefused() async throws {
        try await withServer(.socket) { server in
            let browser = PageBrowser(server)
            let form = try await browser.get("/forms/registrationForm?locale=en-US")
            // Another site's post: the browser sends the cookie, the site cannot know the token.
            let forged = try await browser.post("/forms/registrationForm?locale=en-US", Self.registration(), csrf: nil)
            #expect(forged.status == 403)
            #expect(forged.content(id: "form-errors")?.contains("This form has expired or was sent from another site.") == true)
            let wrong = try await browser.post("/forms/registrationForm?locale=en-US", Self.registration(), csrf: String(repeating: "0", count: 64))
            #expect(wrong.status == 403)
            // Without the cookie (a fresh browser), the form's own token is no use either.
            let other = PageBrowser(server)
            #expect(try await other.post("/forms/registrationForm?locale=en-US", Self.registration(), csrf: form.csrf).status == 403)
            #expect(try await server.server.accountCount() == 0)
            // With both, it goes through.
            let done = try await browser.post("/forms/registrationForm?locale=en-US", Self.registration(), csrf: form.csrf)
            #expect(done.status == 200, "\(done.body)")
            #expect(done.body.contains("Your account is created. You are signed in as ana.ruiz@example.com."))
        }
    }

    @Test func signInThenEditTheProfileThenChangeThePassword() async throws {
        try await withServer(.socket) { server in
            let (session, _) = try await server.register()
            let browser = PageBrowser(server)
            // Without a session the profile pages send to the sign-in page.
            let closed = try await browser.get("/forms/editProfileForm?locale=en-US")
            #expect(closed.status == 403)
            #expect(closed.body.contains(#"href="/forms/signInForm?locale=en-US""#))
            let signIn = try await browser.get("/forms/signInForm?locale=en-US")
            let wrong = try await browser.post(
                "/forms/signInForm?locale=en-US", [("signInEmailAddress", "ana.ruiz@example.com"), ("currentPassword", "not it at all")],
                csrf: signIn.csrf)
            #expect(wrong.status == 400)
            #expect(wrong.content(id: "form-errors")?.contains("Incorrect email address or password.") == true)
            #expect(wrong.tag(id: "field-signInEmailAddress")?.contains(#"value="ana.ruiz@example.com""#) == true)
            let signedIn = try await browser.post(
                "/forms/signInForm?locale=en-US", [("signInEmailAddress", "ana.ruiz@example.com"), ("currentPassword", Self.password)],
                csrf: signIn.csrf)
            #expect(signedIn.status == 200)
            #expect(signedIn.body.contains("You are signed in as ana.ruiz@example.com."))
            let cookie = try #require(browser.cookies["jf_session"])
            #expect(cookie.count == 64 && !signedIn.body.contains(session.accessToken))
            // The profile, filled from the record.
            let profile = try await browser.get("/forms/editProfileForm?locale=en-US")
            #expect(profile.status == 200)
            #expect(profile.tag(id: "field-firstName")?.contains(#"value="Ana""#) == true)
            #expect(profile.tag(id: "field-birthdate-year")?.contains(#"value="1990""#) == true)
            // The postal code's pattern, rewritten for the browser's `v` flag.
            #expect(profile.tag(id: "field-addressPostalCode")?.contains(#"pattern="[A-Za-z0-9][A-Za-z0-9 \-]{1,8}[A-Za-z0-9]""#) == true)
            var fields: [(String, String)] = [
                ("displayName", "ana_r"), ("firstName", "Anita"), ("lastName", "Ruiz"), ("gender", "female"), ("mobileNumber", ""),
                ("addressStreet", ""), ("addressCity", ""), ("addressPostalCode", ""), ("addressCountry", "ES"), ("aboutMe", "")
            ]
            let saved = try await browser.post("/forms/editProfileForm?locale=en-US", fields, csrf: profile.csrf)
            #expect(saved.status == 200, "\(saved.body)")
            #expect(saved.body.contains(#"<p class="notice" role="status">Your profile is saved.</p>"#))
            let record = try await server.record(session.accessToken)
            #expect(record["givenName"] == "Anita" && record["primaryAddress"]?["country"] == "ES")
            // The unchecked checkbox is false.
            #expect(record["optIn"]?["status"] == false)
            // A value the rules refuse: the message next to the field.
            fields[4] = ("mobileNumber", "12")
            let refused = try await browser.post("/forms/editProfileForm?locale=en-US", fields, csrf: profile.csrf)
            #expect(refused.status == 400)
            #expect(refused.content(id: "field-mobileNumber-error")?.contains("Enter the number with its country code") == true)
            // The password.
            let change = try await browser.get("/forms/changePasswordForm?locale=en-US")
            let newPassword = "a brand new password"
            let changed = try await browser.post(
                "/forms/changePasswordForm?locale=en-US",
                [("currentPassword", Self.password), ("newPassword", newPassword), ("newPasswordConfirm", newPassword)], csrf: change.csrf)
            #expect(changed.status == 200, "\(changed.body)")
            #expect(changed.body.contains("Your password is changed."))
            #expect(!changed.body.contains(newPassword))
            #expect(try await server.signIn("ana.ruiz@example.com", newPassword).signedIn != nil)
        }
    }

    @Test func theResetPageShowsTheRulesAndRefusesAMismatch() async throws {
        try await withServer(.socket) { server in
            try await server.register()
            #expect(
                try await server.send(try server.builder().forgotPassword(["signInEmailAddress": "ana.ruiz@example.com"], today: server.today)).isOK)
            let message = try #require(try await server.server.outbox().first { $0.kind == "forgot_password" })
            let link = try #require(OperationTests.link(in: message.body, path: "/password/reset"))
            let code = try #require(TestServer.query(link)["code"])
            let browser = PageBrowser(server)
            let page = try await browser.get("/password/reset?code=" + code)
            #expect(page.status == 200)
            // The rules up front, tied to the field.
            #expect(page.body.contains("<li>New password must be at least 8 characters long.</li>"), "\(page.body)")
            #expect(page.tag(id: "field-password")?.contains("form-passwordReset-rules") == true)
            #expect(page.tag(id: "field-passwordConfirm")?.contains(#"type="password""#) == true)
            let mismatch = try await browser.post(
                "/password/reset", [("code", code), ("password", "long enough 1"), ("passwordConfirm", "long enough 2")], csrf: nil)
            #expect(mismatch.status == 400)
            #expect(mismatch.content(id: "field-passwordConfirm-error") == "<span>The passwords do not match.")
            #expect(!mismatch.body.contains("long enough"))
            let short = try await browser.post("/password/reset", [("code", code), ("password", "short"), ("passwordConfirm", "short")], csrf: nil)
            #expect(short.content(id: "field-password-error")?.contains("at least 8 characters") == true)
            let done = try await browser.post(
                "/password/reset", [("code", code), ("password", "long enough 1"), ("passwordConfirm", "long enough 1")], csrf: nil)
            #expect(done.status == 200 && done.body.contains("Password changed"))
        }
    }

    @Test func theIdentityChooserShowsNamesAndEmails() async throws {
        try await withServer(.socket) { server in
            let page = try await PageBrowser(server).get("/google/start?token_url=" + FormEncoding.encodeComponent("https://example.com/token"))
            #expect(page.status == 200)
            #expect(page.body.contains(#"<meta name="viewport""#))
            #expect(page.body.contains("<h1>Choose your Google account</h1>"), "\(page.body)")
            #expect(page.body.contains(#"<span class="name">marta_k</span><span class="detail">marta.keller@example.com</span>"#))
            #expect(page.body.contains(#"<span class="name">ana_google</span><span class="detail">ana.ruiz@example.com</span>"#))
            let complete = try await PageBrowser(server).get("/signin/complete?token=abc")
            #expect(complete.body.contains("<h1>Signed in</h1>") && complete.body.contains(#"dir="ltr""#))
        }
    }

    /// The Engage dialog speaks `locale=`, else the browser's `Accept-Language`, else `captureLocale`.
    @Test func theEngageDialogIsLocalized() async throws {
        try await withServer(.socket) { server in
            let german = try await PageBrowser(server).get("/google/start?locale=de-DE")
            #expect(german.body.contains(#"<html lang="de-DE" dir="ltr">"#))
            #expect(german.body.contains("<h1>Konto für Google wählen</h1>"), "\(german.body)")
            let browser = PageBrowser(server)
            browser.acceptLanguage = "xx-YY, ja;q=0.4, fr-CH;q=0.8, *;q=0.1"
            let french = try await browser.get("/google/start")
            #expect(french.body.contains(#"<html lang="fr-CH" dir="ltr">"#), "\(french.body)")
            #expect(french.body.contains("<h1>Choisissez votre compte Google</h1>"))
            // locale= wins over Accept-Language.
            #expect(try await browser.get("/google/start?locale=pl-PL").body.contains("<h1>Wybierz konto Google</h1>"))
            let done = try await browser.get("/signin/complete?token=abc")
            #expect(done.body.contains("<h1>Connecté</h1>"))
            // The dialog's errors too.
            let unknown = try await browser.get("/nosuchprovider/start?locale=es-ES")
            #expect(unknown.status == 404)
            #expect(unknown.body.contains("<h1>Proveedor desconocido</h1>") && unknown.body.contains("/nosuchprovider/start"), "\(unknown.body)")
            let identity = try await browser.get("/google/start?locale=de-DE&identity=nobody")
            #expect(identity.status == 404 && identity.body.contains("<h1>Keine Testidentität</h1>"), "\(identity.body)")
            // A dialog that completes at once ends on a page in its locale.
            let chosen = try await browser.get("/google/start?locale=de-DE&identity=marta.keller%40example.com")
            let location = try #require(chosen.location)
            #expect(location.contains("/signin/complete?locale=de-DE&token="), "\(location)")
            // Without either, captureLocale (en-US).
            let english = try await PageBrowser(server).get("/google/start")
            #expect(english.body.contains(#"<html lang="en-US""#) && english.body.contains("<h1>Choose your Google account</h1>"))
        }
    }

    @Test func acceptLanguageIsReadByWeightThenOrder() {
        let tags = CaptureService.acceptedLanguages(["de;q=0.5, fr-CH , *;q=0.9", "ja;q=0, en-GB;q=0.5, pl;q=1.5"])
        #expect(tags.map(\.identifier) == ["fr-CH", "de", "en-GB"])
        #expect(CaptureService.acceptedLanguages([]).isEmpty && CaptureService.acceptedLanguages(["*"]).isEmpty)
    }

    /// A German date field: day, month (CLDR's month names), year, each with a visible label.
    @Test func aGermanDateFieldIsDayMonthNameYear() async throws {
        try await withServer(.socket) { server in
            let page = try await PageBrowser(server).get("/forms/registrationForm?locale=de-DE")
            #expect(page.status == 200)
            let body = page.body
            let day = try #require(body.range(of: #"id="field-birthdate-day""#))
            let month = try #require(body.range(of: #"id="field-birthdate-month""#))
            let year = try #require(body.range(of: #"id="field-birthdate-year""#))
            #expect(day.lowerBound < month.lowerBound && month.lowerBound < year.lowerBound, "day, month, year")
            #expect(body.contains(#"<option value="1">Januar</option>"#) && body.contains(#"<option value="3">März</option>"#))
            #expect(body.contains(#"<label for="field-birthdate-day">Tag</label>"#))
            #expect(body.contains(#"<label for="field-birthdate-month">Monat</label>"#))
            #expect(body.contains(#"<label for="field-birthdate-year">Jahr</label>"#))
            #expect(!body.contains(" hidden>"), "the parts' labels are visible")
            // en-US: month, day, year; ja-JP: year, month, day.
            let english = try await PageBrowser(server).get("/forms/registrationForm?locale=en-US").body
            let order = ["month", "day", "year"].map { english.range(of: #"id="field-birthdate-\#($0)""#)?.lowerBound }
            #expect(order.compactMap { $0 } == order.compactMap { $0 }.sorted() && order.allSatisfy { $0 != nil })
            #expect(english.contains(#"<option value="12">December</option>"#))
        }
    }

    /// 31 February: the message says the date does not exist, and every part is marked.
    @Test func aDateThatDoesNotExistIsRefusedOnEveryPart() async throws {
        try await withServer(.socket) { server in
            let browser = PageBrowser(server)
            let target = "/forms/registrationForm?locale=de-DE"
            let form = try await browser.get(target)
            var fields = Self.registration()
            fields = fields.map { name, value in
                switch name {
                case "birthdate[dateselect_month]": (name, "2")
                case "birthdate[dateselect_day]": (name, "31")
                default: (name, value)
                }
            }
            let refused = try await browser.post(target, fields, csrf: form.csrf)
            #expect(refused.status == 400)
            let message = try #require(refused.content(id: "field-birthdate-error"))
            #expect(message.contains("Dieses Datum gibt es nicht."), "\(refused.body)")
            #expect(!message.contains("JJJJ-MM-TT"))
            for part in ["day", "month", "year"] {
                let tag = try #require(refused.tag(id: "field-birthdate-\(part)"))
                #expect(tag.contains(#"aria-invalid="true""#) && tag.contains("field-birthdate-error"), "\(part): \(tag)")
            }
            // The first part in the locale's order is focused; the values typed stay.
            #expect(refused.tag(id: "field-birthdate-day")?.contains(" autofocus") == true)
            #expect(refused.body.contains(#"<option value="31" selected>31</option>"#))
            #expect(refused.body.contains(#"<option value="2" selected>Februar</option>"#))
            // Marked where it shows: `input[type=number]`'s own border must not win over the mark.
            let css = try await browser.get("/assets/jump-forms.css").body
            #expect(css.contains("input[aria-invalid=true], select[aria-invalid=true]"))
            #expect(try await server.server.accountCount() == 0)
        }
    }

    @Test func previewModeRendersWithoutASessionAndOnlyValidates() async throws {
        var (setup, folder, clock, config) = try TestServer.setup(configure: { _ in }, identities: [], schema: nil)
        setup.preview = PreviewGallery(.init(flowName: setup.flow.name.value, forms: [], locales: []))
        let embedded = try await EmbeddedCaptureServer.start(setup, logger: ServerFixtures.quietLogger)
        let server = TestServer(
            server: embedded.server, embedded: embedded, router: nil, folder: folder, clock: clock, config: config,
            url: ServerURL(embedded.url)!, transport: AsyncHTTPTransport(timeoutSeconds: 30, client: ServerFixtures.client),
            decoder: ResponseDecoder(flow: ServerFixtures.flow, config: config))
        let browser = PageBrowser(server)
        let profile = try await browser.get("/forms/editProfileForm?locale=en-US&preview=1")
        #expect(profile.status == 200 && profile.body.contains(#"<form id="form-editProfileForm" method="post">"#))
        #expect(try await browser.get("/forms/editProfileForm?locale=en-US").status == 403)
        let target = "/forms/registrationForm?locale=en-US&preview=1"
        let form = try await browser.get(target)
        let refused = try await browser.post(target, Self.registration(displayName: "admin"), csrf: form.csrf)
        #expect(refused.status == 400)
        #expect(refused.content(id: "field-displayName-error")?.contains("This display name is reserved.") == true)
        let valid = try await browser.post(target, Self.registration(), csrf: form.csrf)
        #expect(valid.status == 200)
        #expect(valid.body.contains("The values pass the flow’s rules. (Preview: nothing was sent.)"))
        #expect(try await server.server.accountCount() == 0)
        await server.stop()
        // `serve` ignores preview=1.
        try await withServer(.socket) { server in
            let page = try await PageBrowser(server).get("/forms/editProfileForm?locale=en-US&preview=1")
            #expect(page.status == 403)
        }
    }

    @Test(arguments: [("signInForm", "en-US"), ("registrationForm", "fr-FR"), ("forgotPasswordForm", "ar-XB")])
    func goldenPages(form: String, locale: String) async throws {
        try await withServer(.socket) { server in
            let page = try await PageBrowser(server).get("/forms/\(form)?locale=\(locale)")
            #expect(page.status == 200)
            Snapshot.check(Self.stable(page.body), against: Repository.path("Tests/JumpCaptureServerTests/Golden/HostedPages/\(form).\(locale).html"))
        }
    }
}

@Suite("Browser patterns") struct BrowserPatternTests {
    /// Patterns carried over (and how the `v` flag wants them written), and patterns left out.
    static let carried: [(String, String)] = [
        ("[A-Za-z0-9][A-Za-z0-9 -]{1,8}[A-Za-z0-9]", #"[A-Za-z0-9][A-Za-z0-9 \-]{1,8}[A-Za-z0-9]"#),
        ("[0-9]{5}(-[0-9]{4})?", "[0-9]{5}(-[0-9]{4})?"),
        ("(?:ab|cd)+x*?", "(?:ab|cd)+x*?"),
        (#"[A-Z]{2}\.[0-9]+"#, #"[A-Z]{2}\.[0-9]+"#),
        ("a/b", #"a\/b"#),
        ("[a-z_.@]+", #"[a-z_\.\@]+"#)
    ]
    static let refused = [
        #"\d{5}"#, #"\w+"#, "a.b", "^abc$", "[^a-z]+", #"\p{L}+"#, "é+", "[a-z&&[^x]]", "a++", "(?i)abc", "[[:alpha:]]", "[z-a]", "",
        #"(?<name>a)"#, "a{2,1}"
    ]

    @Test(arguments: carried) func carriedOver(source: String, expected: String) throws {
        #expect(BrowserPattern.attribute(for: source) == expected)
        // The rewritten pattern means the same to Swift's Regex.
        let original = try Regex(source)
        let rewritten = try Regex(expected)
        for sample in ["AB12", "A-1 2B", "90210", "90210-1234", "abcdx", "AB.12", "a/b", "x@y.z", "a", "", "ab cd", "-A1"] {
            #expect((try original.wholeMatch(in: sample) != nil) == (try rewritten.wholeMatch(in: sample) != nil), "\(source) on \(sample)")
        }
    }

    @Test(arguments: refused) func leftToTheServer(source: String) {
        #expect(BrowserPattern.attribute(for: source) == nil)
    }
}

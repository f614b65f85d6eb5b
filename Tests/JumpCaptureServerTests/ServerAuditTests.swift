import Foundation
import JumpCapture
@testable import JumpCaptureServer
import JumpForms
import Testing
import TestSupport

/// The gaps an audit of the server found, one test per fix: races, writes that skipped the
/// flow's rules, HTTP limits, tokens that lived for ever, and the small ones.
@Suite(.timeLimit(.minutes(5))) struct ServerAuditTests {
    // MARK: unlink

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

    // MARK: entity writes follow the flow

    /// `/entity.update` runs the flow's rules on what it writes: a value of the wrong JSON type
    /// is 200, a value the field's rules refuse is 390 keyed by the field's name, in the
    /// request's locale, with the same messages the client's rule engine gives.
    @Test func entityUpdateRunsTheFieldsRules() async throws {
        try await withServer { server in
            let (session, _) = try await server.register()
            let token = session.accessToken
            func update(_ value: JSONValue, attribute: String? = nil, locale: LocaleTag = ServerFixtures.english) async throws -> Result<
                CaptureSuccess, CaptureError
            > {
                var request = server.builder(locale).updateObject(accessToken: token, attribute: attribute, value: value)
                request.parameters.removeAll { $0.name == "locale" }
                request.parameters.append(RequestParameter("locale", locale.identifier))
                return try await server.send(request)
            }
            // The audit's example: a number for a string field.
            let typed = try await update(["displayName": "!", "givenName": 123])
            #expect(typed.code == 200, "\(typed)")
            #expect(typed.error?.serverError?.body["error_description"]?.stringValue?.contains("/givenName") == true)
            // The display name's rules, in French, as the client's engine words them.
            let refused = try await update(["displayName": "!"], locale: ServerFixtures.french)
            #expect(refused.code == 390, "\(refused)")
            let fields = refused.error?.serverError?.body["invalid_fields"]
            let edit = try FormInterpreter(flow: ServerFixtures.flow, localizer: ServerFixtures.localizer)
                .model(form: "editProfileForm", locale: ServerFixtures.french)
            let report = RuleEngine(form: edit, today: server.today, side: .server).validate(["displayName": "!"])
            let expected = ServerFixtures.localizer.messages(for: report.violations.filter { $0.field == "displayName" }, in: edit)
            #expect(!expected.isEmpty)
            #expect(fields == .object([("displayName", .array(expected[0].messages.map(JSONValue.string)))]))
            // A locale without a file is negotiated as the forms do (issue 26): fr-CA and fr get
            // fr-FR's French, not the default locale's English.
            for tag in ["fr-CA", "fr"] {
                let negotiated = try await update(["displayName": "!"], locale: LocaleTag(tag)!)
                #expect(negotiated.error?.serverError?.body["invalid_fields"] == fields, "\(tag): \(negotiated)")
            }
            // Nested values: a postal code the pattern refuses, a street without a city.
            #expect(
                try await update(["zip": "!!"], attribute: "/primaryAddress").error?.serverError?.body.at("invalid_fields.addressPostalCode") != nil)
            #expect(
                try await update(["primaryAddress": ["address1": "5 rue Vaubecour"]]).error?.serverError?.body.at("invalid_fields.addressStreet")
                    != nil)
            // A checkbox takes a boolean; an object that holds fields takes no list.
            #expect(try await update(["optIn": ["status": "yes"]]).code == 200)
            #expect(try await update(["primaryAddress": [["city": "Lyon"]]]).code == 200)
            #expect(try await update(["primaryAddress": "Lyon"]).code == 200)
            // Nothing of that was written.
            let record = try await server.record(token)
            #expect(record["displayName"] == "ana_r")
            #expect(record["givenName"] == "Ana")
            #expect(record["primaryAddress"] == nil)
            #expect(record.at("optIn.status") == .bool(true))
            // Values the rules accept go through.
            #expect(try await update(["displayName": "ana_ruiz", "givenName": "Anna", "optIn": ["status": false]]).isOK)
            #expect(try await update(["primaryAddress": ["address1": "5 rue Vaubecour", "city": "Lyon", "zip": "69002"]]).isOK)
            let after = try await server.record(token)
            #expect(after["displayName"] == "ana_ruiz")
            #expect(after["givenName"] == "Anna")
            #expect(after.at("optIn.status") == .bool(false))
            #expect(after.at("primaryAddress.zip") == "69002")
            // A required field cannot be cleared.
            #expect(try await update(["givenName": nil]).code == 390)
        }
    }

    /// `/entity.replace` replaces plurals only; `/entity.update` takes no list for an object.
    @Test func entityReplaceTakesPluralsOnly() async throws {
        let writable = ["/photos", "/aboutMe", "/primaryAddress", "/givenName"].map { Located($0, at: ServerFixtures.here) }
        try await withServer(configure: { $0.server.writeWithToken = writable }) { server in
            let (session, _) = try await server.register()
            let list: JSONValue = [["value": "x"]]
            for attribute in ["/aboutMe", "/primaryAddress", "/givenName", "/primaryAddress/city"] {
                let request = server.builder().replacePlural(accessToken: session.accessToken, attribute: attribute, value: list)
                let result = try await server.send(request)
                #expect(result.code == 200, "\(attribute): \(result)")
                #expect(result.error?.serverError?.description.contains("entity.replace") == true, "\(attribute)")
            }
            #expect(try await server.record(session.accessToken)["aboutMe"] == nil)
            // A plural (not set yet, or set as a list) is replaced.
            let photos = server.builder().replacePlural(accessToken: session.accessToken, attribute: "/photos", value: list)
            #expect(try await server.send(photos).isOK)
            #expect(try await server.send(photos).isOK)
            // An object the record holds takes no list through entity.update either.
            let object = server.builder().updateObject(
                accessToken: session.accessToken, attribute: nil,
                value: ["primaryAddress": ["address1": "1 Main St", "city": "Oslo"]])
            #expect(try await server.send(object).isOK)
            let asList = server.builder().updateObject(accessToken: session.accessToken, attribute: nil, value: ["primaryAddress": list])
            #expect(try await server.send(asList).code == 200)
            #expect(try await server.record(session.accessToken).at("primaryAddress.city") == "Oslo")
        }
    }

    // MARK: HTTP limits

    /// The query string counts against `maximumRequestSize`, alone and with the body.
    @Test func theQueryStringCountsAgainstTheRequestLimit() async throws {
        try await withServer { server in
            let limit = server.config.server.maximumRequestSize
            let long = try await server.raw(.GET, "/entity?access_token=t&attribute_name=" + String(repeating: "a", count: limit))
            #expect(long.status == 413, "\(long.body)")
            let json = try JSONValue.parse(Array(long.body.utf8))
            #expect(json["stat"] == "error")
            #expect(json["code"] == .integer(413))
            #expect(json["error_description"]?.stringValue?.contains("query string") == true)
            // Under the limit: read, and refused for what it says.
            let short = try await server.raw(.GET, "/entity?access_token=t&attribute_name=" + String(repeating: "a", count: limit / 2))
            #expect(short.status == 200)
        }
        try await withServer(configure: { $0.server.maximumRequestSize = 1024 }) { server in
            let half = String(repeating: "b", count: 600)
            let both = try await server.raw(.POST, "/entity?attribute_name=" + half, form: "client_id=x&value=" + half)
            #expect(both.status == 413, "\(both.body)")
            #expect(try JSONValue.parse(Array(both.body.utf8))["code"] == .integer(413))
            let fits = String(repeating: "b", count: 300)
            let small = try await server.raw(.POST, "/entity?attribute_name=" + fits, form: "client_id=x&value=" + fits)
            #expect(small.status == 200)
            #expect(small.body.contains("\"stat\":\"error\""))
        }
    }

    /// What the HTTP parser refuses before any route runs gets Capture JSON too, not a bare 400.
    @Test func requestsTheParserRefusesGetCaptureJSON() async throws {
        try await withServer(.socket) { server in
            let port = try #require(server.url.port)
            let cases: [(name: String, request: String, status: Int)] = [
                ("garbage request line", "HELLO\u{1}THERE\r\n\r\n", 400),
                ("bad Content-Length", "POST /entity HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: abc\r\n\r\n", 400),
                ("two Content-Lengths", "POST /entity HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabc", 400),
                ("huge header", "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + String(repeating: "h", count: 82 * 1024) + "\r\n\r\n", 431),
                ("huge URL", "GET /health?" + String(repeating: "q", count: 82 * 1024) + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 431)
            ]
            for (name, request, status) in cases {
                let answer = try await RawHTTP.exchange(port: port, Array(request.utf8))
                #expect(answer.status == status, "\(name): \(answer.head)")
                #expect(answer.head.lowercased().contains("content-type: application/json"), "\(name): \(answer.head)")
                let json = try? JSONValue.parse(Array(answer.body.utf8))
                #expect(json?["stat"] == "error", "\(name): \(answer.body)")
                #expect(json?["code"] == .integer(status), "\(name): \(answer.body)")
                #expect(json?["error_description"]?.stringValue != nil, "\(name)")
            }
            // The server keeps serving.
            #expect(try await server.raw(.GET, "/health").status == 200)
        }
    }

    // MARK: small ones

    @Test func methodNotAllowedNamesTheMethodsAndHEADWorks() async throws {
        try await withServer { server in
            for (method, path, allowed) in [
                (HTTPMethodName.POST, "/health", "GET, HEAD"), (.GET, "/oauth/auth_native_traditional", "POST"),
                (.PUT, "/entity", "POST, GET, HEAD"), (.DELETE, "/password/reset", "GET, POST, HEAD")
            ] {
                let answer = try await server.raw(method.nio, path)
                #expect(answer.status == 405, "\(method) \(path)")
                #expect(answer.headers.first(name: "allow") == allowed, "\(method) \(path)")
            }
            let head = try await server.raw(.HEAD, "/health")
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.headers.first(name: "content-type")?.hasPrefix("application/json") == true)
        }
    }

    /// An attribute the record could hold but does not is null, not 223 (Capture answers a
    /// schema attribute that is not set with null).
    @Test func readingAnUnsetAttributeGivesNull() async throws {
        try await withServer { server in
            let (session, _) = try await server.register()
            #expect(try await server.readRecord(session.accessToken, attribute: "/primaryAddress") == .success(.record(.null)))
            #expect(try await server.readRecord(session.accessToken, attribute: "/primaryAddress/city") == .success(.record(.null)))
            #expect(try await server.readRecord(session.accessToken, attribute: "/aboutMe") == .success(.record(.null)))
            // Not attributes: unknown names, and parts of a value.
            #expect(try await server.readRecord(session.accessToken, attribute: "/noSuchThing").code == 223)
            #expect(try await server.readRecord(session.accessToken, attribute: "/givenName/first").code == 223)
            #expect(try await server.readRecord(session.accessToken, attribute: "/optIn/status/x").code == 223)
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

    /// auth_info takes the configured API key (Engage's codes: 0 missing, 3 wrong), and an
    /// Engage token works once.
    @Test func authInfoNeedsTheAPIKeyAndEngageTokensWorkOnce() async throws {
        try await withServer(.socket) { server in
            let token = try await server.engageToken("corp_openid")
            let off = try await server.raw(.POST, "/api/v2/auth_info", form: "apiKey=anything&token=" + token)
            #expect(try JSONValue.parse(Array(off.body.utf8)).at("err.code") == .integer(3))
        }
        let key = Located("app-secret-0123", at: ServerFixtures.here)
        try await withServer(.socket, configure: { $0.server.apiKey = key }) { server in
            let token = try await server.engageToken("corp_openid")
            for (form, code) in [("token=" + token, 0), ("apiKey=wrong&token=" + token, 3), ("apiKey=app-secret-012&token=" + token, 3)] {
                let answer = try await server.raw(.POST, "/api/v2/auth_info", form: form)
                #expect(try JSONValue.parse(Array(answer.body.utf8)).at("err.code") == .integer(code), "\(form)")
            }
            let ok = try await server.raw(.POST, "/api/v2/auth_info", form: "apiKey=app-secret-0123&token=" + token)
            #expect(try JSONValue.parse(Array(ok.body.utf8))["stat"] == "ok", "\(ok.body)")
            let again = try await server.raw(.POST, "/api/v2/auth_info", form: "apiKey=app-secret-0123&token=" + token)
            #expect(try JSONValue.parse(Array(again.body.utf8)).at("err.code") == .integer(2))
            // A social sign-in uses its token up too; a failed one (310) leaves it for the registration.
            let google = try await server.engageToken("google", identity: "marta.keller@example.com")
            #expect(try await server.socialSignIn(google).signedIn != nil)
            #expect(try await server.socialSignIn(google).code == 200)
            let twitter = try await server.engageToken("twitter")
            guard case .failure(.registrationNeeded(let twoStep)) = try await server.socialSignIn(twitter) else { Issue.record("no 310"); return }
            var values = twoStep.prefill
            values["emailAddress"] = "jun.sato@example.org"
            values["optIn"] = "false"
            let register = try server.builder().socialRegister(values, token: twitter, refreshSecret: .generate(), today: server.today)
            #expect(try await server.send(register).signedIn != nil)
            #expect(try await server.send(register.setting("emailAddress", "jun2@example.org")).code == 200)
            #expect(try await server.server.accountCount() == 2)
        }
    }

    // MARK: purge

    /// Rows that can no longer be used are deleted: access tokens past the refresh window,
    /// expired Engage tokens and email codes (at most once a minute, in a write that issues
    /// a new token or code).
    @Test func expiredTokensAndCodesAreDeleted() async throws {
        try await withServer(.socket) { server in
            let store = server.server.service.store
            func count(_ table: String) async throws -> Int {
                try await store.pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0 }
            }
            let (old, secret) = try await server.register()
            _ = try await server.engageToken("facebook")
            #expect(try await count("access_tokens") == 1)
            #expect(try await count("engage_tokens") == 1)
            #expect(try await count("codes") == 1)
            // Two hours on: the token has expired but can still be refreshed; the Engage token
            // (ten minutes) is gone once a sign-in purges.
            server.clock.advance(2 * 3600)
            #expect(try await server.signIn("ana.ruiz@example.com").signedIn != nil)
            #expect(try await count("engage_tokens") == 0)
            #expect(try await count("access_tokens") == 2)
            let refresh = server.builder().refreshAccessToken(accessToken: old.accessToken, refreshSecret: secret, epochSeconds: server.clock.now)
            guard case .success(.refreshed(let refreshed, _)) = try await server.send(refresh) else {
                Issue.record("refresh of an expired token"); return
            }
            // Past the refresh window (30 days) and the codes' day, everything old goes.
            server.clock.advance(CaptureStore.refreshWindow + 3600)
            let late = server.builder().refreshAccessToken(accessToken: refreshed, refreshSecret: secret, epochSeconds: server.clock.now)
            #expect(try await server.send(late).code == 200)
            #expect(try await server.signIn("ana.ruiz@example.com").signedIn != nil)
            #expect(try await count("access_tokens") == 1)
            #expect(try await count("codes") == 0)
            #expect(try await server.readRecord(refreshed).code == 200)
        }
    }
}

/// One request written byte for byte on a fresh connection, and what came back until the
/// server closed it (bounded: 10 seconds).
enum RawHTTP {
    struct Answer {
        var status: Int
        var head: String
        var body: String
    }

    static func exchange(port: Int, _ bytes: [UInt8]) async throws -> Answer {
        let raw = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[UInt8], any Error>) in
            Thread.detachNewThread { continuation.resume(with: Result { try blockingExchange(port: port, bytes) }) }
        }
        return answer(raw)
    }

    /// A raw answer split into status, head and body.
    static func answer(_ raw: [UInt8]) -> Answer {
        let text = String(decoding: raw, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { return Answer(status: 0, head: text, body: "") }
        let head = String(text[..<split.lowerBound])
        let status = head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return Answer(status: status, head: head, body: String(text[split.upperBound...]))
    }

    /// Sends `parts` on a fresh connection, `interval` apart, and returns what came back until
    /// the server closed the connection. With `stopWhenAnswered`, it sends no more once the
    /// server answers (or closes) in between.
    static func paced(port: Int, _ parts: [[UInt8]], interval: Duration, stopWhenAnswered: Bool = true) async throws -> Answer {
        let milliseconds = Int32(interval.components.seconds * 1000 + interval.components.attoseconds / 1_000_000_000_000_000)
        let raw = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[UInt8], any Error>) in
            Thread.detachNewThread {
                continuation.resume(
                    with: Result {
                        let fd = try connect(port: port)
                        defer { close(fd) }
                        for (index, part) in parts.enumerated() {
                            send(fd, part)
                            if index == parts.count - 1 { break }
                            if stopWhenAnswered {
                                var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                                if poll(&waiting, 1, milliseconds) > 0 { break }
                            } else {
                                usleep(UInt32(milliseconds) * 1000)
                            }
                        }
                        return receiveAll(fd)
                    })
            }
        }
        return answer(raw)
    }

    static func blockingExchange(port: Int, _ bytes: [UInt8]) throws -> [UInt8] {
        let fd = try connect(port: port)
        defer { close(fd) }
        send(fd, bytes)
        return receiveAll(fd)
    }

    /// A connection to 127.0.0.1:`port` whose reads and writes give up after 10 seconds.
    static func connect(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError.unexpected("socket: \(errno)") }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw HarnessError.unexpected("connect: \(errno)")
        }
        return fd
    }

    static func send(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { break }  // the server may answer and close before reading it all
            offset += sent
        }
    }

    /// What comes until the server closes the connection (or 10 seconds of silence).
    static func receiveAll(_ fd: Int32) -> [UInt8] {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received += chunk[0..<count]
        }
        return received
    }
}

import Foundation
import JumpCapture
import JumpCaptureServer
import JumpForms
import Synchronization
import Testing
import TestSupport

/// A session store an app could write: the session's `Codable` form in memory (as a Keychain
/// store keeps it), counting saves.
final class CodableSessionStore: SessionStore {
    private let data = Mutex<Data?>(nil)
    private let saveCount = Mutex(0)

    var saves: Int { saveCount.withLock { $0 } }

    /// The stored JSON, as text.
    var storedText: String? { data.withLock { $0 }.map { String(decoding: $0, as: UTF8.self) } }

    func put(_ bytes: Data?) { data.withLock { $0 = bytes } }

    func load() throws(SessionStoreError) -> Session? {
        guard let bytes = data.withLock({ $0 }) else { return nil }
        do { return try JSONDecoder().decode(Session.self, from: bytes) } catch {
            throw .unreadable(path: "memory", reason: "it does not hold a session")
        }
    }

    func save(_ session: Session) throws(SessionStoreError) {
        let encoded: Data
        do { encoded = try JSONEncoder().encode(session) } catch { throw .io(path: "memory", reason: "\(error)") }
        data.withLock { $0 = encoded }
        saveCount.withLock { $0 += 1 }
    }

    func clear() throws(SessionStoreError) { data.withLock { $0 = nil } }
}

/// The real transport, recording which calls went through it.
final class RecordingTransport: HTTPTransport {
    let inner: any HTTPTransport
    private let sent = Mutex<[CaptureOperation]>([])

    init(_ inner: any HTTPTransport) { self.inner = inner }

    var operations: [CaptureOperation] { sent.withLock { $0 } }

    func send(_ request: CaptureRequest) async throws(TransportError) -> HTTPAnswer {
        sent.withLock { $0.append(request.operation) }
        return try await inner.send(request)
    }
}

/// The real transport, recording the `attribute_name` each request sent (nil: none).
final class RecordingSends: HTTPTransport {
    let inner: any HTTPTransport
    private let sent = Mutex<[String?]>([])

    init(_ inner: any HTTPTransport) { self.inner = inner }

    var attributeNames: [String?] { sent.withLock { $0 } }

    func send(_ request: CaptureRequest) async throws(TransportError) -> HTTPAnswer {
        sent.withLock { $0.append(request.parameters.first { $0.name == "attribute_name" }?.value) }
        return try await inner.send(request)
    }
}

extension TestServer {
    /// A client of this server whose clock is the server's, with `store` and through `transport`
    /// (by default the harness's AsyncHTTPTransport).
    func client(
        store: any SessionStore = CodableSessionStore(), transport: (any HTTPTransport)? = nil,
        locale: LocaleTag = ServerFixtures.english
    ) throws -> CaptureClient {
        let setup = try CaptureSetup(
            config: config, flow: ServerFixtures.flow, localizer: ServerFixtures.localizer, locale: locale, capture: url, engage: url)
        let clock = self.clock
        return CaptureClient(
            setup: setup, transport: transport ?? self.transport, sessionStore: store,
            clock: ClientClock(now: { clock.now }, today: { ServerFixtures.today }), logger: ServerFixtures.quietLogger)
    }
}

/// `CaptureClient` against the embedded server over real HTTP (socket wire): every call, the
/// session it keeps, automatic refresh with the server's injected clock, the 390, 380 and 310
/// paths, and the sign-in state stream.
@Suite(.timeLimit(.minutes(5))) struct CaptureClientTests {
    static let writable = ["/aboutMe", "/primaryAddress", "/photos"].map { Located($0, at: ServerFixtures.here) }
    static let ana: FormValues = ["signInEmailAddress": "ana.ruiz@example.com", "currentPassword": ServerFixtures.password]
    static let profile: FormValues = [
        "displayName": "ana_ruiz", "firstName": "Ana María", "lastName": "Ruiz", "gender": "female", "birthdate": "1990-04-02",
        "mobileNumber": "+34 612 345 678", "addressStreet": "Calle Mayor 1", "addressCity": "Madrid", "addressPostalCode": "28013",
        "addressCountry": "ES", "optIn": "false", "aboutMe": "Hola"
    ]

    @Test func everyCallOfAnAccountsLife() async throws {
        try await withServer(.socket, configure: { $0.server.writeWithToken = Self.writable }) { server in
            let store = CodableSessionStore()
            let recorder = RecordingTransport(server.transport)
            let client = try server.client(store: store, transport: recorder)
            #expect(try await client.session() == nil)
            await #expect(throws: CaptureClientError.notSignedIn) { try await client.readRecord() }

            // Registration signs in: the session is made and stored (through its Codable form).
            let registered = try await client.register(ServerFixtures.registration())
            #expect(registered.record["email"] == "ana.ruiz@example.com")
            let session = try #require(try await client.session())
            #expect(session.accessToken == registered.accessToken)
            #expect(session.expiresAt == Date(timeIntervalSince1970: Double(ServerFixtures.start + 3600)))
            #expect(session.captureDomain == "embedded")
            #expect(session.clientId == server.config.captureClientId.value)
            #expect(try store.load() == session)
            #expect(store.storedText?.contains("\"refreshSecret\":\"\(session.refreshSecret.value)\"") == true)

            // The record's attributes.
            try await client.updateAttribute(nil, to: ["aboutMe": "Je lis."])
            try await client.updateAttribute("/primaryAddress", to: ["address1": "5 rue Vaubecour", "city": "Lyon", "country": "FR"])
            try await client.replacePlural("/photos", with: [["type": "small", "value": "a"], ["type": "large", "value": "b"]])
            let photos = try await client.readRecord(attribute: "/photos")
            let ids = photos.arrayValue?.compactMap { $0["id"]?.intValue } ?? []
            try #require(ids.count == 2)
            try await client.deleteAttribute("/photos#\(ids[0])")
            let record = try await client.readRecord()
            #expect(record["aboutMe"] == "Je lis.")
            #expect(record.at("primaryAddress.city") == "Lyon")
            #expect(record["photos"]?.arrayValue?.compactMap { $0["id"]?.intValue } == [ids[1]])
            // The whole record read is kept in the session; one attribute is not.
            #expect(try await client.session()?.record == record)
            #expect(try store.load()?.record == record)

            try await client.updateProfile(Self.profile)
            #expect(try await client.readRecord()["givenName"] == "Ana María")

            try await client.changePassword([
                "currentPassword": ServerFixtures.password, "newPassword": "new battery staple", "newPasswordConfirm": "new battery staple"
            ])
            try await client.forgotPassword(["signInEmailAddress": "ana.ruiz@example.com"])
            try await client.resendVerification(["signInEmailAddress": "ana.ruiz@example.com"])
            let kinds = try await server.server.outbox().map(\.kind)
            #expect(kinds.filter { $0 == "forgot_password" }.count == 1)
            #expect(kinds.filter { $0 == "verify_email" }.count == 2, "registration and resend: \(kinds)")

            // Signing out revokes the token at the server and forgets the session.
            #expect(try await client.signOut() == .revoked)
            #expect(try await client.session() == nil)
            #expect(try store.load() == nil)
            #expect(try await server.readRecord(session.accessToken).code == 200, "the revoked token is refused")
            #expect(try await client.signOut() == .noSession)

            let again = try await client.signIn(["signInEmailAddress": "ana.ruiz@example.com", "currentPassword": "new battery staple"])
            #expect(again.record["uuid"] == registered.record["uuid"])
            #expect(try await client.session()?.accessToken == again.accessToken)
            #expect(
                recorder.operations == [
                    .register, .updateObject, .updateObject, .replacePlural, .readRecord, .deleteAttribute, .readRecord, .updateProfile,
                    .readRecord, .changePassword, .forgotPassword, .resendVerification, .revokeToken, .signIn
                ])
        }
    }

    /// The record calls take one path form: `/primaryAddress/city` and `primaryAddress/city`
    /// name the same attribute when read and when written, and `/` (like nil) is the whole
    /// record, kept in the session.
    @Test func readAndUpdateTakeTheSamePathForm() async throws {
        try await withServer(.socket, configure: { $0.server.writeWithToken = Self.writable }) { server in
            let recorder = RecordingSends(server.transport)
            let client = try server.client(transport: recorder)
            _ = try await client.register(ServerFixtures.registration())
            try await client.updateAttribute("primaryAddress", to: ["address1": "5 rue Neuve", "city": "Lyon", "country": "FR"])
            try await client.updateAttribute("/primaryAddress", to: ["address1": "5 rue Vaubecour"])
            #expect(try await client.readRecord(attribute: "/primaryAddress/city") == "Lyon")
            #expect(try await client.readRecord(attribute: "primaryAddress/city") == "Lyon")
            #expect(try await client.readRecord(attribute: "primaryAddress")["address1"] == "5 rue Vaubecour")
            try await client.updateAttribute("/", to: ["aboutMe": "Je lis."])
            let record = try await client.readRecord(attribute: "/")
            #expect(record["aboutMe"] == "Je lis." && record.at("primaryAddress.city") == "Lyon")
            #expect(try await client.session()?.record == record, "the whole record, read through /, is kept")
            #expect(
                recorder.attributeNames == [
                    nil, "/primaryAddress", "/primaryAddress", "/primaryAddress/city", "/primaryAddress/city", "/primaryAddress", nil, nil
                ])
        }
    }

    /// An expired access token is renewed with the refresh signature (dated by the injected
    /// clock) and the call sent again, once; the server's clock is moved, nothing sleeps.
    @Test func anExpiredTokenIsRenewedAndTheCallSentAgain() async throws {
        try await withServer(.socket) { server in
            let store = CodableSessionStore()
            let recorder = RecordingTransport(server.transport)
            let client = try server.client(store: store, transport: recorder)
            let registered = try await client.register(ServerFixtures.registration())
            server.clock.advance(3600 * 5)
            let record = try await client.readRecord()
            #expect(record["email"] == "ana.ruiz@example.com")
            #expect(recorder.operations == [.register, .readRecord, .refreshAccessToken, .readRecord])
            let renewed = try #require(try await client.session())
            #expect(renewed.accessToken != registered.accessToken)
            #expect(renewed.expiresAt == Date(timeIntervalSince1970: Double(server.clock.now + 3600)))
            #expect(try store.load()?.accessToken == renewed.accessToken)
            #expect(await client.signInState == .signedIn(SignedInUser(record: registered.record)))

            // A refresh asked for: a new token again.
            server.clock.advance(60)
            let refreshed = try await client.refresh()
            #expect(refreshed.accessToken != renewed.accessToken)
            #expect(try await server.record(refreshed.accessToken)["email"] == "ana.ruiz@example.com")
        }
    }

    /// A session the server no longer renews (older than `refreshLifetime`) is expired: the
    /// call fails with the server's refusal, once renewed, and the state says so.
    @Test func aSessionTheServerWillNotRenewIsExpired() async throws {
        try await withServer(.socket, configure: { $0.server.refreshLifetime = 7200 }) { server in
            let recorder = RecordingTransport(server.transport)
            let client = try server.client(transport: recorder)
            let states = await client.signInStates()
            var next = states.makeAsyncIterator()
            #expect(await next.next() == .signedOut)
            let registered = try await client.register(ServerFixtures.registration())
            let user = SignedInUser(record: registered.record)
            #expect(user.email == "ana.ruiz@example.com" && user.uuid != nil && user.displayName == "ana_r")
            #expect(await next.next() == .signedIn(user))
            server.clock.advance(7200)
            do {
                _ = try await client.readRecord()
                Issue.record("an expired session read the record")
            } catch let error as CaptureClientError {
                #expect(error.captureError?.serverError?.description.contains("sign in again") == true, "\(error)")
            }
            #expect(recorder.operations == [.register, .readRecord, .refreshAccessToken])
            #expect(await next.next() == .sessionExpired(user))
            // Signing in again starts over.
            _ = try await client.signIn(Self.ana)
            #expect(await next.next() == .signedIn(user))
        }
    }

    /// 390: values the server refuses (the address is taken), with the form's localized
    /// messages; values the form's rules refuse are never sent.
    @Test func refusedFieldsCarryTheFormsMessages() async throws {
        try await withServer(.socket) { server in
            let recorder = RecordingTransport(server.transport)
            let client = try server.client(transport: recorder, locale: ServerFixtures.french)
            _ = try await client.register(ServerFixtures.registration())
            do {
                _ = try await client.register(ServerFixtures.registration(email: "Ana.Ruiz@Example.com", displayName: "ana_2"))
                Issue.record("a taken address registered")
            } catch let error as CaptureClientError {
                guard case .refused(.invalidFields(let invalid)) = error else { Issue.record("\(error)"); return }
                #expect(invalid.server.code == 390)
                #expect(
                    error.fieldMessages == [
                        FieldMessages(
                            field: "emailAddress",
                            messages: ["Cette adresse e-mail est déjà enregistrée. Connectez-vous ou réinitialisez votre mot de passe."])
                    ])
            }
            // The form's own rules: nothing sent, the messages in the client's locale.
            var bad = ServerFixtures.registration(email: "eve@example.com", displayName: "eve_r")
            bad["newPasswordConfirm"] = "other"
            do {
                _ = try await client.register(bad)
                Issue.record("values the rules refuse were sent")
            } catch let error as CaptureClientError {
                guard case .request(.invalidValues(let failure)) = error else { Issue.record("\(error)"); return }
                #expect(failure.form == "registrationForm")
                #expect(error.fieldMessages.map(\.field) == ["newPasswordConfirm"])
                #expect(error.fieldMessages.first?.messages.isEmpty == false)
            }
            #expect(recorder.operations == [.register, .register])
            // The session is still the first registration's.
            #expect(try await client.session()?.record["email"] == "ana.ruiz@example.com")
        }
    }

    /// 380: a provider's email belongs to a password account: sign in there with the merge
    /// token, and the provider is linked.
    @Test func aMergeLinksTheProviderToThePasswordAccount() async throws {
        try await withServer(.socket) { server in
            let client = try server.client()
            let account = try await client.register(ServerFixtures.registration())
            _ = try await client.signOut()
            let google = try await server.engageToken("google", identity: "ana.ruiz@example.com")
            do {
                _ = try await client.signIn(engageToken: google)
                Issue.record("no 380")
            } catch let error as CaptureClientError {
                guard case .refused(.mergeRequired(let merge)) = error else { Issue.record("\(error)"); return }
                #expect(merge.existingProvider == "capture")
                #expect(merge.mergeToken == google)
                #expect(try await client.session() == nil, "a refusal signs no one in")
                let merged = try await client.signIn(Self.ana, mergeToken: merge.mergeToken)
                #expect(merged.record["uuid"] == account.record["uuid"])
                #expect(merged.record["profiles"]?.arrayValue?.first?["identifier"] == "https://www.google.com/profiles/1002")
            }
            // Google now signs in to Ana's account.
            let viaGoogle = try await client.signIn(engageToken: try await server.engageToken("google", identity: "ana.ruiz@example.com"))
            #expect(viaGoogle.record["uuid"] == account.record["uuid"])
            #expect(!viaGoogle.isNew)
        }
    }

    /// Thin registration (a new account at the first social sign-in) and 310, two-step
    /// registration (Twitter gives no email), then link and unlink.
    @Test func socialRegistrationLinkAndUnlink() async throws {
        try await withServer(.socket) { server in
            let client = try server.client()
            let thin = try await client.signIn(engageToken: try await server.engageToken("google", identity: "marta.keller@example.com"))
            #expect(thin.isNew)
            #expect(try await client.session()?.record["email"] == "marta.keller@example.com")
            _ = try await client.signOut()

            let twitter = try await server.engageToken("twitter")
            do {
                _ = try await client.signIn(engageToken: twitter)
                Issue.record("no 310")
            } catch let error as CaptureClientError {
                guard case .refused(.registrationNeeded(let twoStep)) = error else { Issue.record("\(error)"); return }
                #expect(twoStep.prefill == ["displayName": "jun_sato", "firstName": "Jun", "lastName": "Sato"])
                var values = twoStep.prefill
                values["emailAddress"] = "jun.sato@example.org"
                values["optIn"] = "false"
                let registered = try await client.register(values, socialToken: try #require(twoStep.token))
                #expect(registered.isNew)
                #expect(registered.record["profiles"]?.arrayValue?.first?["identifier"] == "twitter:4004")
            }

            try await client.link(engageToken: try await server.engageToken("facebook"))
            var identifiers = try await client.readRecord()["profiles"]?.arrayValue?.compactMap { $0["identifier"]?.stringValue }
            #expect(identifiers == ["twitter:4004", "facebook:3003"])
            try await client.unlink(identifier: "facebook:3003")
            identifiers = try await client.readRecord()["profiles"]?.arrayValue?.compactMap { $0["identifier"]?.stringValue }
            #expect(identifiers == ["twitter:4004"])
        }
    }

    /// The state stream: the stored session at the start, then each change, to every listener.
    @Test func theSignInStateStream() async throws {
        try await withServer(.socket) { server in
            let store = CodableSessionStore()
            let first = try server.client(store: store)
            let registered = try await first.register(ServerFixtures.registration())
            let user = SignedInUser(record: registered.record)

            // A second client with the same store starts signed in, and hears its own changes.
            let client = try server.client(store: store)
            var states = await client.signInStates().makeAsyncIterator()
            var other = await client.signInStates().makeAsyncIterator()
            #expect(await states.next() == .signedIn(user))
            #expect(await other.next() == .signedIn(user))
            _ = try await client.signOut()
            #expect(await states.next() == .signedOut)
            _ = try await client.signIn(Self.ana)
            #expect(await states.next() == .signedIn(user))
            // A new display name is a new identity.
            try await client.updateAttribute(nil, to: ["displayName": "ana_new"])
            _ = try await client.readRecord()
            var renamed = user
            renamed.displayName = "ana_new"
            #expect(await states.next() == .signedIn(renamed))
            #expect(await other.next() == .signedOut)
            #expect(await other.next() == .signedIn(user))
            #expect(await other.next() == .signedIn(renamed))
        }
    }

    /// No answer is a transport error: the session stays, and so does the state.
    @Test func noAnswerLeavesTheSession() async throws {
        try await withServer(.socket) { server in
            let store = CodableSessionStore()
            let registered = try await server.client(store: store).register(ServerFixtures.registration())
            // Nothing listens on the discard port.
            let setup = try CaptureSetup(
                config: server.config, flow: ServerFixtures.flow, localizer: ServerFixtures.localizer, capture: ServerURL("http://127.0.0.1:9")!)
            let clock = server.clock
            let away = CaptureClient(
                setup: setup, transport: server.transport, sessionStore: store, clock: ClientClock(now: { clock.now }),
                logger: ServerFixtures.quietLogger)
            do {
                _ = try await away.readRecord()
                Issue.record("a record came from nowhere")
            } catch let error as CaptureClientError {
                guard case .transport(.connectionFailed(let url, _)) = error else { Issue.record("\(error)"); return }
                #expect(url.hasPrefix("http://127.0.0.1:9/entity"), "\(url)")
            }
            #expect(try await away.session()?.accessToken == registered.accessToken)
            #expect(await away.signInState == .signedIn(SignedInUser(record: registered.record)))
        }
    }

    /// A custom store: a session another server made is not this client's; one that cannot
    /// be read is a typed error, and signing out forgets it.
    @Test func aCustomStoresSessionsAndFailures() async throws {
        try await withServer(.socket) { server in
            let store = CodableSessionStore()
            let elsewhere = Session(
                captureDomain: "https://other.example.com", clientId: "c", accessToken: "secret-token",
                refreshSecret: RefreshSecret.generate(), record: ["email": "x@example.com"])
            try store.save(elsewhere)
            let client = try server.client(store: store)
            #expect(try await client.session() == nil)
            #expect(try await client.signOut() == .forgottenLocally(.otherServer("https://other.example.com")))
            #expect(try store.load() == nil)

            store.put(Data("not a session".utf8))
            let unreadable = try server.client(store: store)
            await #expect(throws: CaptureClientError.sessionStore(.unreadable(path: "memory", reason: "it does not hold a session"))) {
                try await unreadable.session()
            }
            #expect(await unreadable.signInState == .signedOut)
            let outcome = try await unreadable.signOut()
            #expect(outcome == .forgottenLocally(.unreadableSession(.unreadable(path: "memory", reason: "it does not hold a session"))))
            #expect(store.storedText == nil)
        }
    }
}

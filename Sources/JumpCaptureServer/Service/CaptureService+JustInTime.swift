import JumpCapture
import JumpCaptureNIO
import JumpForms

/// What asking the legacy Capture (`server.legacy`) about a sign-in came to.
enum LegacyMove {
    /// The record moved, by this sign-in or by another at the same time: the store holds it.
    case moved
    /// The legacy holds no such person, or the password does not match: nothing moved.
    case notMoved
    /// The legacy could not be asked (unreachable, an HTTP 5xx, a refusal): nothing moved,
    /// the next sign-in asks again. Capture's error answer.
    case unavailable(ServerReply)
}

/// The legacy Capture could not be asked: its answer.
struct LegacyUnavailable: Error {
    var reply: ServerReply
}

/// Just-in-time migration. A sign-in for an identifier the store does not hold is looked up
/// on the legacy Capture with its Entity API (`EntityAPIClient`, an owner client, signed
/// requests): `/entity.find` by the sign-in's email or username (a social sign-in: by
/// `profiles.identifier`), under the sign-in throttle as a local check is. A traditional sign-in's password is checked here against the
/// legacy's password object with the server's hash schemes; on success the record moves as
/// `users import` writes one (`UserImport.move`: ids, uuid, plural element ids, profiles,
/// timestamps) with the password hashed fresh in the server's own scheme, in one
/// transaction. Two sign-ins at once move it once (the second finds the uuid taken and
/// skips). Every move is logged (never a password or hash) and counted
/// (`jump_legacy_moves_total`).
extension CaptureService {
    /// The legacy's Entity API, when `server.legacy` is set; its requests dated `offset`
    /// seconds after now.
    func legacyClient(offset: Int = 0) -> EntityAPIClient? {
        guard let legacy = setup.settings.legacy, let server = ServerURL(legacy.captureDomain.value) else { return nil }
        return EntityAPIClient(
            server: server, clientID: legacy.clientId.value, clientSecret: legacy.clientSecret.value,
            transport: AsyncHTTPTransport(timeoutSeconds: 10, maximumAnswerSize: 16 << 20), clock: { RefreshSignature.now + offset })
    }

    /// A traditional sign-in: the legacy's record whose `attribute` (`email`, or the flow's
    /// username path) is `identifier`, moved when `password` matches its password.
    func moveFromLegacy(attribute: String, identifier: String, password: String) async throws -> LegacyMove {
        guard setup.settings.legacy != nil else { return .notMoved }
        var filter = "\(attribute) = \(Self.filterText(identifier))"
        if identifier.lowercased() != identifier { filter += " or \(attribute) = \(Self.filterText(identifier.lowercased()))" }
        let records: [JSONValue]
        switch await legacyFind(filter: filter) {
        case .failure(let unavailable): return .unavailable(unavailable.reply)
        case .success(let found): records = found
        }
        for record in records {
            guard let object = record["password"], let hash = ImportedPasswordHash(captureAttribute: object),
                try await verifyLegacy(password, hash)
            else { continue }
            return try await move(record, replacingPassword: try await hashPassword(password), at: "a sign-in")
        }
        // No one there: as long as a check, so that the answer does not tell.
        if records.isEmpty { _ = try await verify(password, hash: timingHash) }
        return .notMoved
    }

    /// A social sign-in: the legacy's record with a profile of `identifier`, moved with the
    /// password object it has (checked at its first traditional sign-in, then replaced).
    func moveFromLegacy(profileIdentifier identifier: String) async throws -> LegacyMove {
        guard setup.settings.legacy != nil else { return .notMoved }
        switch await legacyFind(filter: "profiles.identifier = \(Self.filterText(identifier))") {
        case .failure(let unavailable): return .unavailable(unavailable.reply)
        case .success(let records):
            guard let record = records.first else { return .notMoved }
            return try await move(record, replacingPassword: nil, at: "a social sign-in")
        }
    }

    /// A quoted text of Capture's filter grammar (a quote or backslash escaped).
    static func filterText(_ text: String) -> String {
        var quoted = "'"
        for character in text {
            if character == "'" || character == "\\" { quoted.append("\\") }
            quoted.append(character)
        }
        return quoted + "'"
    }

    /// The legacy's records matching `filter` (at most 2), or why it could not be asked. A
    /// signed request is accepted once: the same look-up in the same second (two sign-ins at
    /// once) is refused with 402 and asked again, dated a second later.
    private func legacyFind(filter: String) async -> Result<[JSONValue], LegacyUnavailable> {
        var failure: EntityAPIError?
        for offset in 0..<3 {
            guard let client = legacyClient(offset: offset) else { break }
            do {
                return .success(try await client.find(typeName: "user", filter: filter, maxResults: 2).records)
            } catch {
                failure = error
                guard case .refused(_, 402, _, _) = error else { break }
            }
        }
        setup.metrics.legacyUnavailable.increment()
        let server = setup.settings.legacy?.captureDomain.value ?? ""
        logger.warning("just-in-time migration: the legacy Capture at \(server) could not be asked: \(failure.map { "\($0)" } ?? "no URL")")
        var reply = ServerReply.error(
            503, "legacy_unavailable", "the server cannot reach the Capture it takes accounts from: try again in a moment",
            extra: [("retry_after", .integer(5))], status: .serviceUnavailable)
        reply.headers[.retryAfter] = "5"
        return .failure(LegacyUnavailable(reply: reply))
    }

    /// Whether `password` matches a legacy password object. Another jump-forms server shows
    /// its own hashes as `password-bcrypt` with the value in its own format.
    private func verifyLegacy(_ password: String, _ hash: ImportedPasswordHash) async throws -> Bool {
        if hash.type == "password-bcrypt", hash.value.hasPrefix(PasswordHash.prefix) { return try await verify(password, hash: hash.value) }
        return try await verify(password, hash: hash.storedText)
    }

    private func move(_ record: JSONValue, replacingPassword: String?, at occasion: String) async throws -> LegacyMove {
        let outcome = try await UserImport(store: store, model: recordModel, now: now).move(record, replacingPassword: replacingPassword)
        let name = "record \(outcome.id.map(String.init) ?? "without id") (uuid \(outcome.uuid ?? "none"))"
        switch outcome.kind {
        case .imported:
            setup.metrics.legacyMoves.increment()
            logger.notice("just-in-time migration: \(name) moved from the legacy Capture at \(occasion)")
            return .moved
        case .skipped, .updated:
            return .moved
        case .refused, .stopped:
            let reason = outcome.refusal.map { "\($0.attribute): \($0.reason)" } ?? "refused"
            logger.error("just-in-time migration: the legacy's \(name) cannot move: \(reason)")
            return .notMoved
        }
    }
}

import JumpCapture
import JumpForms

/// A user row: the record (never with the password) and what is kept beside it.
struct StoredUser: Sendable {
    var id: Int64
    var uuid: String
    /// The record's JSON text as stored (written by `JSONValue.serialized()`): kept as text, so
    /// an answer that sends the record whole need not parse and write it again.
    var recordText: String
    var passwordHash: String?
    var emailNormalized: String?

    /// The record as a value, parsed from `recordText` on every use (bind it once).
    var record: JSONValue { CaptureStore.record(fromText: recordText) }
}

/// A linked identity.
struct StoredIdentity: Sendable, Hashable {
    var provider: String
    var identifier: String
    var verifiedEmail: String?
}

/// An access token's session.
struct StoredToken: Sendable {
    var tokenHash: String
    var userID: Int64
    var expiresAt: Int
    var refreshSecret: RefreshSecret?
    /// When the session's user signed in (seconds since 1970): refreshes keep it, and the
    /// session cannot be refreshed past `refreshLifetime` after it.
    var signedInAt: Int
    /// The `/oauth/token` grant the token belongs to (its refresh tokens carry the same), or nil
    /// for a Capture session, whose one row is its whole refresh chain.
    var chain: String? = nil
}

/// A message of the outbox (password resets, verification emails).
public struct OutboxMessage: Sendable, Hashable {
    public var id: Int64
    public var kind: String
    public var recipient: String
    public var subject: String
    public var body: String
    public var createdAt: Int
}

/// What the Engage double received to share: an activity (`/api/v2/activity`) or a status
/// (`/api/v2/set_status`), with the identity its device token stands for.
public struct FeedEntry: Sendable, Hashable {
    public var id: Int64
    /// `activity` or `status`.
    public var kind: String
    public var provider: String
    /// The identity's identifier (`profile.identifier` of its sign-in).
    public var identifier: String
    /// What was posted: the `activity` parameter's JSON text as received, or the status.
    public var posted: String
    /// The text the provider shows (a tweet: the person's words or the action, and the URL).
    public var text: String
    /// The short URL of the activity's URL (`url_shortening=true`).
    public var shortURL: String?
    public var device: String?
    public var appName: String?
    /// Seconds since 1970.
    public var createdAt: Int
}

/// What the Engage double knows about a device token it issued.
struct DeviceTokenGrant: Sendable {
    var provider: String
    var identifier: String
    var expiresAt: Int
}

/// What the Engage double knows about a token it issued.
struct EngageGrant: Sendable {
    var provider: String
    var identifier: String
    var profile: JSONValue
    var expiresAt: Int
    /// The account a 380 (email address in use) named for this token: the only one a sign-in
    /// with it as `merge_token` may link the identity to. Nil until a 380 names one.
    var mergeUserID: Int64? = nil
}

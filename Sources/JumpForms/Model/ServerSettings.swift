/// The local server's settings: `server:` in `jump.yaml` (an addition to the JRCaptureConfig
/// keys; every key is optional).
public struct ServerSettings: Sendable, Hashable {
    /// Seconds an access token lasts (`accessTokenLifetime`, default 3600).
    public var accessTokenLifetime: Int
    /// bcrypt cost of password hashes (`bcryptCost`, default 10; 4...31).
    public var bcryptCost: Int
    /// The test identities of the Engage double (`identities`, relative to jump.yaml; default
    /// `identities.yaml` when it exists).
    public var identities: Located<String>?
    /// The database (`database`): a SQLite file relative to jump.yaml (default under the XDG data
    /// directory), or a `postgres://` URL.
    public var database: Located<String>?
    /// Record attributes `entity.update`/`entity.replace` may write with an access token
    /// (`writeWithToken`: paths such as `/displayName`, `/primaryAddress`); others get 223.
    /// Default: the attributes the edit-profile form writes.
    public var writeWithToken: [Located<String>]?
    /// Largest request accepted, query string and body together, in bytes
    /// (`maximumRequestSize`, default 65536).
    public var maximumRequestSize: Int
    /// The secret API key token-URL servers send to the Engage double's `auth_info`
    /// (`apiKey`; usually `${NAME}` from the environment). Without it `auth_info` is refused.
    public var apiKey: Located<String>?
    /// The client's secret, which the app's server sends to `/oauth/token` with the client id
    /// (`clientSecret`; usually `${NAME}` from the environment). Without it `/oauth/token`
    /// refuses every client (402).
    public var clientSecret: Located<String>?
    /// The Capture entity-type schema records follow (`schema`, relative to jump.yaml; either
    /// form `generate model` reads). Without one, the flow's fields describe records.
    public var schema: Located<String>?
    /// The largest record a write may leave, in bytes of its stored JSON text
    /// (`maximumRecordSize`, default 1 MiB; 1024...3145728).
    public var maximumRecordSize: Int = 1 << 20
    /// Seconds a session can be refreshed for, counted from its sign-in (`refreshLifetime`,
    /// default 2592000: 30 days). Refreshing does not extend it; then the user signs in again.
    public var refreshLifetime: Int = 2_592_000
    /// Seconds after a sign-in during which its session may set a password on an account that
    /// has none (a social-only account), as Ory Kratos' `privileged_session_max_age`
    /// (`privilegedSessionMaxAge`, default 300). Later the server answers 403 and the user
    /// signs in again first.
    public var privilegedSessionMaxAge: Int = 300

    /// The URL clients reach the server by when it is not the address it listens on (a name
    /// in DNS, a reverse proxy: `publicURL`, such as `https://capture.example.com`). Its host is
    /// one the server answers to besides the bound address, IP addresses and `localhost` (the
    /// `Host` check against DNS rebinding), and its origin may post forms (the `Origin` check).
    public var publicURL: Located<String>?

    // Guessing and flooding (docs/local-server.md, "Security").

    /// Consecutive failed password checks of one account before each further one locks it
    /// (`signInFailureLimit`, default 5; 0: off). A successful sign-in starts the count over.
    public var signInFailureLimit = 5
    /// Failed password checks from one client address before each further one locks the
    /// address (`clientFailureLimit`, default 20; 0: off). Successes do not start it over.
    public var clientFailureLimit = 20
    /// Seconds of the first lock (`signInWait`, default 1); each further failure doubles it.
    public var signInWait = 1
    /// The longest lock, in seconds (`signInMaximumWait`, default 900).
    public var signInMaximumWait = 900
    /// Seconds without a failure after which an account's count starts over
    /// (`signInFailureReset`, default 43200: Keycloak's 12 hours).
    public var signInFailureReset = 43_200
    /// Seconds without a failure after which a client address's count starts over
    /// (`clientFailureReset`, default 900).
    public var clientFailureReset = 900
    /// Password-reset and verification emails one address gets per `emailWindow` at most
    /// (`emailsPerAddress`, default 3); further requests still answer `ok` and send nothing.
    public var emailsPerAddress = 3
    /// The window of `emailsPerAddress`, in seconds (`emailWindow`, default 3600).
    public var emailWindow = 3600
    /// Connections open at once at most (`maximumConnections`, default 512); beyond it the
    /// longest-idle connection is closed for the new one, or the new one when none is idle.
    public var maximumConnections = 512
    /// Password hashes (bcrypt) that may wait for a thread besides those running
    /// (`passwordHashQueue`, default 16); beyond it a request answers 510 at once.
    public var passwordHashQueue = 16
    /// The database connections this process's pool may open at most (`databaseConnections`);
    /// nil (the default): 4 per core. On PostgreSQL every instance's pool counts against the
    /// server's `max_connections`.
    public var databaseConnections: Int?
    /// The client addresses `GET /metrics` answers (`metricsAllow`: CIDR ranges such as
    /// `10.0.0.0/8` or `::1`); others get 403. Empty (the default): every address.
    public var metricsAllow: [AddressRange] = []
    /// The clients of the server API (`clients`: a list of `{id, secret, features}`), which
    /// authenticate with their id and secret (parameters, HTTP Basic, or Janrain's signed
    /// requests). Empty (the default): none.
    public var clients: [APIClient] = []
    /// The Capture users move from as they sign in (`legacy`: `{captureDomain, clientId,
    /// clientSecret}`; just-in-time migration). Nil (the default): none.
    public var legacy: LegacyCapture?

    public init(
        accessTokenLifetime: Int = 3600, bcryptCost: Int = 10, identities: Located<String>? = nil,
        database: Located<String>? = nil, writeWithToken: [Located<String>]? = nil, maximumRequestSize: Int = 65536,
        apiKey: Located<String>? = nil
    ) {
        self.accessTokenLifetime = accessTokenLifetime
        self.bcryptCost = bcryptCost
        self.identities = identities
        self.database = database
        self.writeWithToken = writeWithToken
        self.maximumRequestSize = maximumRequestSize
        self.apiKey = apiKey
    }
}

/// A person the Engage double can sign in as (`identities.yaml`).
public struct TestIdentity: Sendable, Hashable {
    /// The provider id (`google`, `corp_openid`...).
    public var provider: String
    /// The provider's identifier (an OpenID URL, a subject id).
    public var identifier: String
    public var email: String?
    public var verifiedEmail: Bool
    public var givenName: String?
    public var familyName: String?
    public var displayName: String?
    /// A native SDK token the double accepts at `/signin/oauth_token` for this identity.
    public var nativeToken: String?
    public var location: SourceLocation

    public init(
        provider: String, identifier: String, email: String? = nil, verifiedEmail: Bool = false, givenName: String? = nil,
        familyName: String? = nil, displayName: String? = nil, nativeToken: String? = nil, location: SourceLocation
    ) {
        self.provider = provider
        self.identifier = identifier
        self.email = email
        self.verifiedEmail = verifiedEmail
        self.givenName = givenName
        self.familyName = familyName
        self.displayName = displayName
        self.nativeToken = nativeToken
        self.location = location
    }

    /// The profile as Engage's `auth_info` gives it, and as the social sign-in sees it: schema
    /// path -> value.
    public var profile: [(path: String, value: String)] {
        var result: [(path: String, value: String)] = []
        if let email { result.append(("email", email)) }
        if let givenName { result.append(("givenName", givenName)); result.append(("name.givenName", givenName)) }
        if let familyName { result.append(("familyName", familyName)); result.append(("name.familyName", familyName)) }
        if let displayName { result.append(("displayName", displayName)) }
        return result
    }
}

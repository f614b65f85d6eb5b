/// The Capture a server takes users from as they sign in (`server.legacy` in jump.yaml:
/// just-in-time migration): a traditional or social sign-in for someone the store does not
/// hold is looked up there with an owner client of its Entity API, and on success the record
/// moves to this server.
public struct LegacyCapture: Sendable, Hashable {
    /// The legacy Capture's URL (`captureDomain`, e.g. `https://example.us-dev.janraincapture.com`).
    public var captureDomain: Located<String>
    /// An API client of the legacy Capture with the `owner` feature (`clientId`).
    public var clientId: Located<String>
    /// Its secret (`clientSecret`; written `${NAME}` to take it from the environment).
    public var clientSecret: Located<String>

    public init(captureDomain: Located<String>, clientId: Located<String>, clientSecret: Located<String>) {
        self.captureDomain = captureDomain
        self.clientId = clientId
        self.clientSecret = clientSecret
    }
}

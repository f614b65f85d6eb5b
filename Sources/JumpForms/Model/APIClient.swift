/// A client of the server API (`server.clients` in jump.yaml): what a back end (a CRM sync, a
/// support tool, Janrain's data library) authenticates as, with the features Capture gives its
/// API clients. The app's `captureClientId` stays the login client the SDKs use.
public struct APIClient: Sendable, Hashable {
    /// What a client may do, with Capture's names.
    public enum Feature: String, Sendable, Hashable, CaseIterable {
        /// Every call on every record, the clients' and settings' calls too.
        case owner
        /// Access tokens for any record (`/access/getAccessToken`).
        case accessIssuer = "access_issuer"
        /// The entity calls with the client's credentials (read and write records).
        case directAccess = "direct_access"
        /// Signs people in (the `/oauth/*` calls).
        case loginClient = "login_client"
    }

    /// The client id (`id`).
    public var id: Located<String>
    /// The client secret (`secret`; usually `${NAME}` from the environment).
    public var secret: Located<String>
    public var features: Set<Feature>

    public init(id: Located<String>, secret: Located<String>, features: Set<Feature>) {
        self.id = id
        self.secret = secret
        self.features = features
    }

    /// Whether the client may make a call that needs `feature`: it has it, or it is an owner.
    public func allows(_ feature: Feature) -> Bool { features.contains(feature) || features.contains(.owner) }
}

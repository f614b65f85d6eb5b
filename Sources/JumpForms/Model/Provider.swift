/// A sign-in provider of the flow's `providers` list.
public struct ProviderDefinition: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// A provider Engage knows by name (`facebook`, `google`, ...).
        case builtIn
        /// A custom OpenID provider.
        case openID(identifier: Located<String>?, opxBlob: Located<String>?)
        /// A custom SAML provider.
        case saml(provider: Located<String>?)
    }

    /// The Engage provider name or the custom provider's id.
    public var id: Located<String>
    public var kind: Kind
    /// Message key of the friendly name (custom providers).
    public var name: Located<String>?
    /// Icon path relative to the flow file.
    public var icon: Located<String>?
    public var location: SourceLocation

    public init(id: Located<String>, kind: Kind, name: Located<String>? = nil, icon: Located<String>? = nil, location: SourceLocation) {
        self.id = id
        self.kind = kind
        self.name = name
        self.icon = icon
        self.location = location
    }

    /// The built-in provider, when `kind` is `.builtIn` and the name is known.
    public var builtIn: BuiltInProvider? {
        guard case .builtIn = kind else { return nil }
        return BuiltInProvider(rawValue: id.value)
    }
}

/// The providers Engage knows by name, with their friendly names.
public enum BuiltInProvider: String, Sendable, Hashable, CaseIterable, Codable {
    case amazon, aol, apple, blogger, disqus, facebook, flickr, foursquare, github, google
    case instagram, line, linkedin, liveID = "live_id", mixi, odnoklassniki, openid, paypal, reddit
    case salesforce, soundcloud, tumblr, twitter, vkontakte, weibo, wordpress, xing, yahoo, yammer

    /// The name Engage shows ("Google", "Windows Live").
    public var friendlyName: String {
        switch self {
        case .amazon: "Amazon"
        case .aol: "AOL"
        case .apple: "Apple"
        case .blogger: "Blogger"
        case .disqus: "Disqus"
        case .facebook: "Facebook"
        case .flickr: "Flickr"
        case .foursquare: "Foursquare"
        case .github: "GitHub"
        case .google: "Google"
        case .instagram: "Instagram"
        case .line: "LINE"
        case .linkedin: "LinkedIn"
        case .liveID: "Windows Live"
        case .mixi: "mixi"
        case .odnoklassniki: "Odnoklassniki"
        case .openid: "OpenID"
        case .paypal: "PayPal"
        case .reddit: "Reddit"
        case .salesforce: "Salesforce"
        case .soundcloud: "SoundCloud"
        case .tumblr: "Tumblr"
        case .twitter: "Twitter"
        case .vkontakte: "VKontakte"
        case .weibo: "Sina Weibo"
        case .wordpress: "WordPress"
        case .xing: "XING"
        case .yahoo: "Yahoo!"
        case .yammer: "Yammer"
        }
    }

    /// Providers whose start page needs the user's input (an OpenID URL or a blog name).
    public var inputPrompt: String? {
        switch self {
        case .openid: "Enter your OpenID URL"
        case .blogger: "Enter your blog URL"
        case .wordpress: "Enter your blog URL"
        default: nil
        }
    }

    /// Providers whose native SDK token can be exchanged at `/signin/oauth_token`.
    public var hasNativeToken: Bool {
        switch self {
        case .facebook, .google, .twitter, .apple: true
        default: false
        }
    }
}

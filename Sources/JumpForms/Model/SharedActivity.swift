/// An activity as it is posted to Engage: the texts already rendered in one locale, the URLs
/// and media as the flow gives them. Its JSON (`json`) is JRActivityObject's dictionary
/// (JRActivityObject.m `dictionaryForObject` in github:janrain/jump.ios): the `activity`
/// parameter of `POST <engage>/api/v2/activity`.
public struct SharedActivity: Sendable, Hashable {
    /// A link shown under the activity (JRActionLink: `text`, `href`).
    public struct ActionLink: Sendable, Hashable {
        public var text: String
        public var href: String

        public init(text: String, href: String) {
            self.text = text
            self.href = href
        }
    }

    /// A media item (JRImageMediaObject, JRFlashMediaObject, JRMp3MediaObject), in the order
    /// and with the keys the SDK writes them.
    public enum Media: Sendable, Hashable {
        /// `{"type": "image", "src", "href"}`.
        case image(src: String, href: String)
        /// `{"type": "flash", "swfsrc", "imgsrc"}` plus `width`, `height`, `expandedWidth`,
        /// `expandedHeight` as decimal strings when set (the SDK writes them only when non-zero).
        case flash(swfsrc: String, imgsrc: String, width: Int?, height: Int?, expandedWidth: Int?, expandedHeight: Int?)
        /// `{"type": "mp3", "src"}` plus `title`, `artist`, `album` when set.
        case mp3(src: String, title: String?, artist: String?, album: String?)

        /// The SDK's `type` value.
        public var type: String {
            switch self {
            case .image: "image"
            case .flash: "flash"
            case .mp3: "mp3"
            }
        }

        /// The media item's dictionary.
        public var json: JSONValue {
            switch self {
            case .image(let src, let href):
                return .object([("type", .string("image")), ("src", .string(src)), ("href", .string(href))])
            case .flash(let swfsrc, let imgsrc, let width, let height, let expandedWidth, let expandedHeight):
                var entries: [(key: String, value: JSONValue)] = [
                    ("type", .string("flash")), ("swfsrc", .string(swfsrc)), ("imgsrc", .string(imgsrc))
                ]
                let sizes: [(String, Int?)] = [
                    ("width", width), ("height", height), ("expandedWidth", expandedWidth), ("expandedHeight", expandedHeight)
                ]
                for (key, value) in sizes {
                    if let value, value != 0 { entries.append((key, .string(String(value)))) }
                }
                return .object(entries)
            case .mp3(let src, let title, let artist, let album):
                var entries: [(key: String, value: JSONValue)] = [("type", .string("mp3")), ("src", .string(src))]
                for (key, value) in [("title", title), ("artist", artist), ("album", album)] {
                    if let value { entries.append((key, .string(value))) }
                }
                return .object(entries)
            }
        }
    }

    /// What the person did ("joined Example"), rendered.
    public var action: String
    /// The resource's URL; the SDK sends `""` when there is none.
    public var url: String
    /// The person's own words (`user_generated_content`), when the activity asks for them.
    public var userGeneratedContent: String?
    public var title: String?
    public var description: String?
    public var actionLinks: [ActionLink]
    public var media: [Media]
    /// Extra key/value pairs some providers show (`properties`).
    public var properties: JSONValue?

    public init(
        action: String, url: String = "", userGeneratedContent: String? = nil, title: String? = nil, description: String? = nil,
        actionLinks: [ActionLink] = [], media: [Media] = [], properties: JSONValue? = nil
    ) {
        self.action = action
        self.url = url
        self.userGeneratedContent = userGeneratedContent
        self.title = title
        self.description = description
        self.actionLinks = actionLinks
        self.media = media
        self.properties = properties
    }

    /// JRActivityObject's dictionary: `action`, `url` (always, `""` without one), then
    /// `user_generated_content`, `title`, `description`, `action_links`, `media`, `properties`
    /// when present (lists only when not empty).
    public var json: JSONValue {
        var entries: [(key: String, value: JSONValue)] = [("action", .string(action)), ("url", .string(url))]
        if let userGeneratedContent { entries.append(("user_generated_content", .string(userGeneratedContent))) }
        if let title { entries.append(("title", .string(title))) }
        if let description { entries.append(("description", .string(description))) }
        if !actionLinks.isEmpty {
            entries.append(
                ("action_links", .array(actionLinks.map { .object([("text", .string($0.text)), ("href", .string($0.href))]) })))
        }
        if !media.isEmpty { entries.append(("media", .array(media.map(\.json)))) }
        if let properties { entries.append(("properties", properties)) }
        return .object(entries)
    }
}

/// An activity under the flow's `activities`: what an app shares on the person's behalf
/// (JRActivityObject), with message keys in place of its texts. `ActivityRenderer` makes the
/// `SharedActivity` of one locale from it.
public struct ActivityDefinition: Sendable, Hashable {
    /// The activity's name (the key under `activities`).
    public var name: String
    /// Where the name is written.
    public var location: SourceLocation
    /// Message key of what the person did ("joined Example").
    public var action: Located<String>
    /// The resource's URL (absolute http(s)).
    public var url: Located<String>?
    /// Message key of the title.
    public var title: Located<String>?
    /// Message key of the description.
    public var description: Located<String>?
    /// Whether the person adds their own words (`user_generated_content`).
    public var userContent: Bool
    public var actionLinks: [ActivityActionLink]
    public var media: [ActivityMedia]
    /// `properties`: name -> text, as written (not localized).
    public var properties: [ActivityProperty]
    /// The ICU arguments the activity's messages may use; their values come from the caller
    /// (`--set name=value`).
    public var arguments: [Located<String>]

    public init(
        name: String, location: SourceLocation, action: Located<String>, url: Located<String>? = nil,
        title: Located<String>? = nil, description: Located<String>? = nil, userContent: Bool = false,
        actionLinks: [ActivityActionLink] = [], media: [ActivityMedia] = [], properties: [ActivityProperty] = [],
        arguments: [Located<String>] = []
    ) {
        self.name = name
        self.location = location
        self.action = action
        self.url = url
        self.title = title
        self.description = description
        self.userContent = userContent
        self.actionLinks = actionLinks
        self.media = media
        self.properties = properties
        self.arguments = arguments
    }

    /// Every message key of the activity, in file order.
    public var messageKeys: [Located<String>] {
        [action] + [title, description].compactMap { $0 } + actionLinks.map(\.text)
    }

    /// Every URL the activity names (its own, its links', its media's), for checks.
    public var urls: [Located<String>] {
        [url].compactMap { $0 } + actionLinks.map(\.href) + media.flatMap(\.urls)
    }
}

/// A link of an activity (`actionLinks`): a message key and an absolute URL.
public struct ActivityActionLink: Sendable, Hashable {
    /// Message key of the link's text.
    public var text: Located<String>
    public var href: Located<String>

    public init(text: Located<String>, href: Located<String>) {
        self.text = text
        self.href = href
    }
}

/// A property of an activity: a name and its text.
public struct ActivityProperty: Sendable, Hashable {
    public var name: String
    public var value: Located<String>

    public init(name: String, value: Located<String>) {
        self.name = name
        self.value = value
    }
}

/// A media item of an activity, with the keys its type takes.
public struct ActivityMedia: Sendable, Hashable {
    public var type: Located<ActivityMediaType>
    /// The keys written, by name (`src`, `href`, `width`, ...).
    public var values: [String: Located<String>]
    public var location: SourceLocation

    public init(type: Located<ActivityMediaType>, values: [String: Located<String>], location: SourceLocation) {
        self.type = type
        self.values = values
        self.location = location
    }

    /// The values that are URLs.
    public var urls: [Located<String>] {
        type.value.urlKeys.compactMap { values[$0] }
    }

    /// The item as posted.
    public var shared: SharedActivity.Media {
        func text(_ key: String) -> String { values[key]?.value ?? "" }
        func number(_ key: String) -> Int? { values[key].flatMap { Int($0.value) } }
        switch type.value {
        case .image:
            return .image(src: text("src"), href: text("href"))
        case .flash:
            return .flash(
                swfsrc: text("swfsrc"), imgsrc: text("imgsrc"), width: number("width"), height: number("height"),
                expandedWidth: number("expandedWidth"), expandedHeight: number("expandedHeight"))
        case .mp3:
            return .mp3(src: text("src"), title: values["title"]?.value, artist: values["artist"]?.value, album: values["album"]?.value)
        }
    }
}

/// The media types an activity may carry (JRImageMediaObject, JRFlashMediaObject,
/// JRMp3MediaObject), with the keys each takes: one registry the decoder, the schema and the
/// docs read.
public enum ActivityMediaType: String, Sendable, Hashable, CaseIterable {
    case image, flash, mp3

    /// Keys that must be written.
    public var requiredKeys: [String] {
        switch self {
        case .image: ["src", "href"]
        case .flash: ["swfsrc", "imgsrc"]
        case .mp3: ["src"]
        }
    }

    /// Keys that may be written.
    public var optionalKeys: [String] {
        switch self {
        case .image: []
        case .flash: ["width", "height", "expandedWidth", "expandedHeight"]
        case .mp3: ["title", "artist", "album"]
        }
    }

    /// Keys holding absolute http(s) URLs.
    public var urlKeys: [String] {
        switch self {
        case .image: ["src", "href"]
        case .flash: ["swfsrc", "imgsrc"]
        case .mp3: ["src"]
        }
    }

    /// Keys holding non-negative integers (pixels).
    public var integerKeys: [String] {
        self == .flash ? ["width", "height", "expandedWidth", "expandedHeight"] : []
    }

    /// What the SDK shows.
    public var summary: String {
        switch self {
        case .image: "an image (`src`) linking to `href`"
        case .flash: "a Flash movie (`swfsrc`) with its preview image (`imgsrc`); sizes in pixels optional"
        case .mp3: "an MP3 file (`src`); `title`, `artist`, `album` optional"
        }
    }
}

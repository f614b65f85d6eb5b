/// The providers an activity can be posted to, with what each takes (Engage's
/// `social_sharing_properties`, which JRPublishActivityController.m reads: `max_characters`,
/// `content_replaces_action`, `url_reduces_max_chars`, `uses_set_status_if_no_url`). One
/// registry: lint, the renderer's limit checks and the docs read it.
public enum SharingProvider: String, Sendable, Hashable, CaseIterable {
    case facebook, twitter, linkedin, yahoo

    /// The longest text the provider takes, and how it counts; nil: no limit jump-forms checks.
    public var limit: ShareLimit? {
        switch self {
        case .twitter: ShareLimit(maximum: 280, counting: .twitter)
        case .linkedin: ShareLimit(maximum: 700, counting: .characters)
        case .facebook, .yahoo: nil
        }
    }

    /// The person's own words take the place of the action in the post (Twitter, LinkedIn).
    public var contentReplacesAction: Bool { self == .twitter || self == .linkedin }

    /// The activity's URL is part of the posted text, and counts towards the limit (Twitter).
    public var urlIsPartOfText: Bool { self == .twitter }

    /// Without a URL the provider takes a status update (`set_status`) instead of an activity
    /// (LinkedIn, Yahoo!).
    public var usesStatusWithoutURL: Bool { self == .linkedin || self == .yahoo }

    /// Whether this activity goes out as a status update (`/api/v2/set_status`).
    public func postsStatus(_ activity: SharedActivity) -> Bool {
        usesStatusWithoutURL && activity.url.isEmpty
    }

    /// The text the provider shows, as its limit counts it: the person's words (or the action
    /// when the words replace it and there are none), then the URL when it is part of the text.
    public func postedText(of activity: SharedActivity) -> String {
        let words = activity.userGeneratedContent ?? ""
        var text = contentReplacesAction ? (words.isEmpty ? activity.action : words) : words
        if urlIsPartOfText, !activity.url.isEmpty { text += text.isEmpty ? activity.url : " " + activity.url }
        return text
    }

    /// The text's length as the provider counts it, when it exceeds the limit.
    public func excess(of activity: SharedActivity) -> (count: Int, limit: ShareLimit)? {
        guard let limit else { return nil }
        let count = limit.count(postedText(of: activity))
        return count > limit.maximum ? (count, limit) : nil
    }
}

/// A provider's text limit: a maximum and the way characters are counted.
public struct ShareLimit: Sendable, Hashable {
    public enum Counting: Sendable, Hashable {
        /// User-perceived characters (grapheme clusters).
        case characters
        /// twitter-text's weighted length (configuration v3): code points in U+0000-U+10FF,
        /// U+2000-U+200D, U+2010-U+201F and U+2032-U+2037 count 1, every other code point 2, an
        /// emoji (with its modifiers and joiners) 2, a URL 23 whatever its length.
        case twitter
    }

    public var maximum: Int
    public var counting: Counting

    public init(maximum: Int, counting: Counting) {
        self.maximum = maximum
        self.counting = counting
    }

    /// The length of `text` as this limit counts it.
    public func count(_ text: String) -> Int {
        switch counting {
        case .characters: text.count
        case .twitter: TwitterTextLength.weightedLength(of: text)
        }
    }
}

/// twitter-text's weighted length (github:twitter/twitter-text, config/v3.json).
enum TwitterTextLength {
    /// What a URL counts (`transformedURLLength`).
    static let urlLength = 23

    static func weightedLength(of text: String) -> Int {
        var total = 0
        var word = ""
        func flush() {
            guard !word.isEmpty else { return }
            total += isURL(word) ? urlLength : weight(of: word)
            word = ""
        }
        for character in text {
            if character.isWhitespace {
                flush()
                total += weight(of: String(character))
            } else {
                word.append(character)
            }
        }
        flush()
        return total
    }

    /// A word starting `http://` or `https://` with a host: twitter-text counts the whole link.
    static func isURL(_ word: String) -> Bool {
        let lowered = word.lowercased()
        for scheme in ["https://", "http://"] where lowered.hasPrefix(scheme) {
            return lowered.count > scheme.count
        }
        return false
    }

    static func weight(of text: String) -> Int {
        var total = 0
        for character in text {
            let scalars = character.unicodeScalars
            if let first = scalars.first,
                first.properties.isEmojiPresentation
                    || (first.properties.isEmoji && scalars.count > 1 && first.value > 0xFF)
            {
                total += 2
                continue
            }
            for scalar in scalars { total += isLight(scalar) ? 1 : 2 }
        }
        return total
    }

    static func isLight(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0...0x10FF, 0x2000...0x200D, 0x2010...0x201F, 0x2032...0x2037: true
        default: false
        }
    }
}

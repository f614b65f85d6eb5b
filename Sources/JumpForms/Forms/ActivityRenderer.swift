/// Renders a flow's activity in one locale: its messages with the caller's arguments, the
/// person's own words, its URLs and media as written. The result is what is posted to Engage.
///
/// ```swift
/// let renderer = ActivityRenderer(flow: flow, localizer: localizer)
/// let shared = try renderer.render("joined", locale: LocaleTag("fr-FR")!, arguments: ["name": "Ana"])
/// try renderer.check(shared, for: "twitter", locale: LocaleTag("fr-FR")!)
/// ```
public struct ActivityRenderer: Sendable {
    public var flow: Flow
    /// The flow's catalogs with jump-forms' built-in words (the limit messages).
    public var localizer: Localizer

    public init(flow: Flow, localizer: Localizer) {
        self.flow = flow
        self.localizer = localizer
    }

    /// The activity named `name`, rendered for `locale`. `arguments` are the values of the
    /// activity's `arguments` (an integer text is formatted as a number); `userContent` is the
    /// person's own words, kept only when the activity asks for them.
    public func render(
        _ name: String, locale: LocaleTag, arguments: [String: String] = [:], userContent: String? = nil
    ) throws(ActivityRenderError) -> SharedActivity {
        guard let activity = flow.activity(named: name) else {
            throw .unknownActivity(name, known: flow.activities.map(\.name))
        }
        return try render(activity, locale: locale, arguments: arguments, userContent: userContent)
    }

    /// `activity`, rendered for `locale` (see `render(_:locale:arguments:userContent:)`).
    public func render(
        _ activity: ActivityDefinition, locale: LocaleTag, arguments: [String: String] = [:], userContent: String? = nil
    ) throws(ActivityRenderError) -> SharedActivity {
        let declared = activity.arguments.map(\.value)
        for name in arguments.keys.sorted() where !declared.contains(name) {
            throw .undeclaredArgument(name, activity: activity.name, declared: declared)
        }
        let missing = declared.filter { arguments[$0] == nil }
        if !missing.isEmpty { throw .missingArguments(missing, activity: activity.name) }
        let values = arguments.mapValues(Self.argument)
        func text(_ key: Located<String>) throws(ActivityRenderError) -> String {
            do {
                return try localizer.format(key.value, for: locale, values)
            } catch {
                throw .message(error)
            }
        }
        var links: [SharedActivity.ActionLink] = []
        for link in activity.actionLinks { links.append(.init(text: try text(link.text), href: link.href.value)) }
        let properties: JSONValue? =
            activity.properties.isEmpty ? nil : .object(activity.properties.map { (key: $0.name, value: .string($0.value.value)) })
        return SharedActivity(
            action: try text(activity.action), url: activity.url?.value ?? "",
            userGeneratedContent: activity.userContent ? (userContent ?? "") : nil,
            title: try activity.title.map { key throws(ActivityRenderError) in try text(key) },
            description: try activity.description.map { key throws(ActivityRenderError) in try text(key) },
            actionLinks: links, media: activity.media.map(\.shared), properties: properties)
    }

    /// Refuses an activity whose text does not fit the provider's limit, before anything is
    /// sent, with jump-forms' localized message (`jumpForms.share.tooLong`).
    public func check(_ activity: SharedActivity, for provider: String, locale: LocaleTag) throws(ActivityRenderError) {
        guard let sharing = SharingProvider(rawValue: provider), let (count, limit) = sharing.excess(of: activity) else { return }
        let name = BuiltInProvider(rawValue: provider)?.friendlyName ?? provider
        let message = localizer.text(
            "jumpForms.share.tooLong", for: locale, ["provider": .string(name), "count": .int(count), "limit": .int(limit.maximum)])
        throw .tooLong(provider: provider, count: count, limit: limit.maximum, message: message)
    }

    /// A `--set` value as a message argument: an integer is a number, anything else text.
    static func argument(_ text: String) -> MessageArgument {
        if let number = Int(text), String(number) == text { return .int(number) }
        return .string(text)
    }
}

/// Why an activity could not be rendered or sent.
public enum ActivityRenderError: Error, Sendable, Hashable, CustomStringConvertible {
    case unknownActivity(String, known: [String])
    case undeclaredArgument(String, activity: String, declared: [String])
    case missingArguments([String], activity: String)
    case message(LocalizationError)
    /// The provider's limit refuses the text; `message` is localized.
    case tooLong(provider: String, count: Int, limit: Int, message: String)

    public var description: String {
        switch self {
        case .unknownActivity(let name, let known):
            let hint = Suggestion.hint(for: name, among: known).map { " (\($0))" } ?? ""
            return "the flow has no activity '\(name)'\(hint); activities: \(known.isEmpty ? "none" : known.joined(separator: ", "))"
        case .undeclaredArgument(let name, let activity, let declared):
            return
                "activity '\(activity)' takes no argument '\(name)'; its arguments: \(declared.isEmpty ? "none" : declared.joined(separator: ", "))"
        case .missingArguments(let names, let activity):
            return "activity '\(activity)' needs \(names.map { "--set \($0)=..." }.joined(separator: ", "))"
        case .message(let error):
            return "\(error)"
        case .tooLong(_, _, _, let message):
            return message
        }
    }
}

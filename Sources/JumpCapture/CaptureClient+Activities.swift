import JumpForms

extension CaptureClient {
    /// Shares the flow's activity `name` with `provider`: renders it with the flow's texts in
    /// `locale` (default: the client's) and `arguments` (the activity's declared arguments),
    /// with the person's own words when the activity asks for them, refuses a text longer than
    /// the provider takes (`ActivityRenderError.tooLong`, its message localized) before
    /// anything is sent, then posts it with the session's device token for the provider
    /// (`share(_:provider:)`).
    ///
    /// ```swift
    /// try await client.share(activityNamed: "joined", arguments: ["name": "Ana"], userContent: "Hello!", provider: "twitter")
    /// ```
    ///
    /// Throws `ActivityRenderError` (nothing sent) or `CaptureClientError`.
    @discardableResult
    public func share(
        activityNamed name: String, arguments: [String: String] = [:], userContent: String? = nil, provider: String,
        locale: LocaleTag? = nil
    ) async throws -> EngagePost {
        let locale = locale ?? setup.locale
        let renderer = ActivityRenderer(flow: setup.flow, localizer: setup.localizer)
        let activity = try renderer.render(name, locale: locale, arguments: arguments, userContent: userContent)
        try renderer.check(activity, for: provider, locale: locale)
        return try await share(activity, provider: provider)
    }
}

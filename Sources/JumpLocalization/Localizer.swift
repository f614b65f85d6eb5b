import JumpDiagnostics

/// Why a message could not be produced.
public enum LocalizationError: Error, Sendable, Hashable, CustomStringConvertible {
    case missingKey(String, locale: LocaleTag)
    case syntax(key: String, locale: LocaleTag, MessageSyntaxError)
    case format(key: String, locale: LocaleTag, MessageFormatError)

    public var description: String {
        switch self {
        case let .missingKey(key, locale): "message '\(key)' is missing for \(locale) and every locale it falls back to"
        case let .syntax(key, locale, error): "message '\(key)' (\(locale)) is not valid ICU MessageFormat: \(error.message)"
        case let .format(key, locale, error): "message '\(key)' (\(locale)) cannot be formatted: \(error.message)"
        }
    }
}

/// Looks messages up along the locale fallback chain and formats them.
///
/// The locales that serve a requested one are found by `LocaleMatcher` (CLDR's aliases, likely
/// subtags and parent locales): lookup for `fr-CA` tries the user's `fr-CA`, then `fr`, then
/// any other French file (`fr-FR`, the language's own region first), then the fallback
/// catalogs' (the CLI's built-in words) French in the same order, then the user's default
/// locale and last the fallback catalogs' en-US. A user's locale file can override any
/// built-in word for its language; an override in the default locale's file does not hide the
/// built-in words of other languages.
public struct Localizer: Sendable {
    public let defaultLocale: LocaleTag
    private let catalogs: [LocaleTag: LocaleCatalog]
    private let fallbackCatalogs: [LocaleTag: LocaleCatalog]
    private let fallbackDefault: LocaleTag?
    private let matcher: LocaleMatcher
    private let fallbackMatcher: LocaleMatcher

    /// A message found for a locale, and the locale whose file holds it.
    public struct Resolved: Sendable {
        public var message: LocaleMessage
        public var locale: LocaleTag
    }

    public init(defaultLocale: LocaleTag, catalogs: [LocaleCatalog], fallbackCatalogs: [LocaleCatalog] = []) {
        self.defaultLocale = defaultLocale
        self.catalogs = Dictionary(catalogs.map { ($0.tag.value, $0) }, uniquingKeysWith: { first, _ in first })
        self.fallbackCatalogs = Dictionary(fallbackCatalogs.map { ($0.tag.value, $0) }, uniquingKeysWith: { first, _ in first })
        self.fallbackDefault = fallbackCatalogs.first?.tag.value
        matcher = LocaleMatcher(available: self.catalogs.keys.sorted())
        fallbackMatcher = LocaleMatcher(available: self.fallbackCatalogs.keys.sorted())
    }

    /// The locales with a catalog, sorted.
    public var locales: [LocaleTag] { matcher.available }

    public func catalog(for locale: LocaleTag) -> LocaleCatalog? { catalogs[locale] }

    /// The locale whose catalog serves `locale`: the best match among the catalogs (see
    /// `LocaleMatcher`), else the default locale's, else nil when there is no catalog for either.
    public func negotiatedLocale(for locale: LocaleTag) -> LocaleTag? {
        matcher.bestMatch(for: locale) ?? matcher.bestMatch(for: defaultLocale)
    }

    /// Whether some catalog (or fallback catalog) speaks `locale`'s language, so that its texts
    /// do not all come from the default locale: how a server picks among `Accept-Language`'s.
    public func speaks(_ locale: LocaleTag) -> Bool {
        !matcher.ranked(locale).isEmpty || !fallbackMatcher.ranked(locale).isEmpty
    }

    /// The catalog that serves `locale` best (see `negotiatedLocale(for:)`).
    public func bestCatalog(for locale: LocaleTag) -> LocaleCatalog? {
        negotiatedLocale(for: locale).flatMap { catalogs[$0] }
    }

    /// The other catalogs a catalog's missing keys come from, nearest first, before the default
    /// locale's: for `fr-CA`, `fr` and the other French files. Lint and the locale checks use it.
    public func fallbackLocales(of locale: LocaleTag) -> [LocaleTag] {
        matcher.ranked(locale).filter { $0 != locale }
    }

    /// The message for `key` in `locale`, following the fallback chain.
    public func resolve(_ key: String, for locale: LocaleTag) -> Resolved? {
        let own = matcher.ranked(locale)
        // The locale's language first, the user's files before the fallback catalogs ...
        for tag in own {
            if let message = catalogs[tag]?[key] { return Resolved(message: message, locale: tag) }
        }
        let fallbackOwn = fallbackMatcher.ranked(locale)
        for tag in fallbackOwn {
            if let message = fallbackCatalogs[tag]?[key] { return Resolved(message: message, locale: tag) }
        }
        // ... then the default locales.
        for tag in matcher.ranked(defaultLocale) where !own.contains(tag) {
            if let message = catalogs[tag]?[key] { return Resolved(message: message, locale: tag) }
        }
        for tag in fallbackMatcher.ranked(fallbackDefault ?? defaultLocale) where !fallbackOwn.contains(tag) {
            if let message = fallbackCatalogs[tag]?[key] { return Resolved(message: message, locale: tag) }
        }
        return nil
    }

    /// Formats `key` for `locale`. Plural rules and number symbols are those of the locale
    /// whose file holds the message.
    public func format(_ key: String, for locale: LocaleTag, _ arguments: [String: MessageArgument] = [:]) throws(LocalizationError) -> String {
        guard let resolved = resolve(key, for: locale) else { throw .missingKey(key, locale: locale) }
        let pattern: MessagePattern
        switch resolved.message.pattern {
        case .success(let parsed): pattern = parsed
        case .failure(let error): throw .syntax(key: key, locale: resolved.locale, error)
        }
        do {
            return try MessageFormatter(localeTag: resolved.locale.identifier).format(pattern, arguments)
        } catch {
            throw .format(key: key, locale: resolved.locale, error)
        }
    }

    /// Formats `key`, or returns the key itself in brackets when that fails (lint reports
    /// such failures; at run time a missing text must never crash a form).
    public func text(_ key: String, for locale: LocaleTag, _ arguments: [String: MessageArgument] = [:]) -> String {
        (try? format(key, for: locale, arguments)) ?? "[\(key)]"
    }
}

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
/// Lookup for `fr-CA` tries the user's `fr-CA` and `fr`, then the fallback catalogs' (the
/// CLI's built-in words) `fr-CA` and `fr`, then the user's default locale and last the fallback
/// catalogs' en-US. A user's locale file can override any built-in word for its language; an
/// override in the default locale's file does not hide the built-in words of other languages.
public struct Localizer: Sendable {
    public let defaultLocale: LocaleTag
    private let catalogs: [LocaleTag: LocaleCatalog]
    private let fallbackCatalogs: [LocaleTag: LocaleCatalog]
    private let fallbackDefault: LocaleTag?

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
    }

    /// The locales with a catalog, sorted.
    public var locales: [LocaleTag] { catalogs.keys.sorted() }

    public func catalog(for locale: LocaleTag) -> LocaleCatalog? { catalogs[locale] }

    /// The catalog that serves `locale` best (the first of its fallback chain that exists).
    public func bestCatalog(for locale: LocaleTag) -> LocaleCatalog? {
        locale.fallbackChain(defaultLocale: defaultLocale).lazy.compactMap { catalogs[$0] }.first
    }

    /// The message for `key` in `locale`, following the fallback chain.
    public func resolve(_ key: String, for locale: LocaleTag) -> Resolved? {
        let own = locale.truncations
        // The locale's language first, the user's files before the fallback catalogs ...
        for tag in own {
            if let message = catalogs[tag]?[key] { return Resolved(message: message, locale: tag) }
        }
        for tag in own {
            if let message = fallbackCatalogs[tag]?[key] { return Resolved(message: message, locale: tag) }
        }
        // ... then the default locales.
        for tag in defaultLocale.truncations where !own.contains(tag) {
            if let message = catalogs[tag]?[key] { return Resolved(message: message, locale: tag) }
        }
        for tag in (fallbackDefault ?? defaultLocale).truncations where !own.contains(tag) {
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

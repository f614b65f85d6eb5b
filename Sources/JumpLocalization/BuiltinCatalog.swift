import JumpDiagnostics

/// jump-forms' own words (the form session's prompts, the input checks, the server's
/// messages), compiled in: no YAML is read to have them. Their source is the locale files in
/// `Sources/JumpFormsLoader/Catalog`, in the same format as the user's;
/// `scripts/embed-builtin-catalog.sh` writes them as the table in
/// `BuiltinCatalog+Table.generated.swift`, with every place the loader gives them, and a test
/// checks that the table is what the loader decodes from those files. A user's locale file can
/// override any key; a `Localizer` consults these after the user's catalogs when given them as
/// its `fallbackCatalogs`.
public enum BuiltinCatalog {
    /// The path shown for the catalog's files in diagnostics.
    public static let directory = "<builtin>"

    /// The catalogs, en-US first (the fallback of the others).
    public static let catalogs: [LocaleCatalog] = ordered(table.compactMap(\.catalog))

    /// Every key the built-in catalog defines.
    public static var keys: Set<String> {
        Set(catalogs.flatMap(\.keys))
    }

    /// `catalogs` in the catalog's order: en-US first, then by tag.
    public static func ordered(_ catalogs: [LocaleCatalog]) -> [LocaleCatalog] {
        catalogs.sorted {
            ($0.tag.value.identifier == "en-US" ? 0 : 1, $0.tag.value) < ($1.tag.value.identifier == "en-US" ? 0 : 1, $1.tag.value)
        }
    }

    /// A place in a catalog file: line, column and length, as the loader gives them.
    struct Place: Sendable {
        var line: Int
        var column: Int
        var length: Int

        init(_ line: Int, _ column: Int, _ length: Int) {
            (self.line, self.column, self.length) = (line, column, length)
        }

        func location(in file: String) -> SourceLocation {
            SourceLocation(file: file, line: line, column: column, length: length)
        }
    }

    /// One message of the table.
    struct Message: Sendable {
        var key: String
        var text: String
        var keyPlace: Place
        var valuePlace: Place
        var offsets: LocaleMessageList.Offsets
        var trap: ScalarTrap?

        /// A value written on one line without escapes, its first character at `start`.
        init(_ key: String, _ text: String, key keyPlace: Place, value valuePlace: Place, start: (line: Int, column: Int), trap: ScalarTrap? = nil) {
            self.init(key, text, key: keyPlace, value: valuePlace, offsets: .linear(line: start.line, column: start.column), trap: trap)
        }

        /// A value with escapes or on several lines: where each run of its characters is.
        init(
            _ key: String, _ text: String, key keyPlace: Place, value valuePlace: Place, breakpoints: [MessageOffsetMap.Breakpoint],
            trap: ScalarTrap? = nil
        ) {
            self.init(key, text, key: keyPlace, value: valuePlace, offsets: .map(MessageOffsetMap(breakpoints: breakpoints)), trap: trap)
        }

        private init(
            _ key: String, _ text: String, key keyPlace: Place, value valuePlace: Place, offsets: LocaleMessageList.Offsets, trap: ScalarTrap?
        ) {
            (self.key, self.text, self.keyPlace, self.valuePlace, self.offsets, self.trap) = (key, text, keyPlace, valuePlace, offsets, trap)
        }
    }

    /// One file of the table.
    struct File: Sendable {
        var name: String
        var locale: String
        var localePlace: Place
        var messagesPlace: Place?
        var sameAsSource: [(key: String, place: Place)]
        var notes: [String: String]
        var messages: [Message]

        init(
            name: String, locale: String, localePlace: Place, messagesPlace: Place?, sameAsSource: [(key: String, place: Place)] = [],
            notes: [String: String] = [:], messages: [Message]
        ) {
            self.name = name
            self.locale = locale
            self.localePlace = localePlace
            self.messagesPlace = messagesPlace
            self.sameAsSource = sameAsSource
            self.notes = notes
            self.messages = messages
        }

        /// The catalog the file's decode gives (nil if its tag were not one: the table is
        /// generated from files the loader decodes, so it is).
        var catalog: LocaleCatalog? {
            let path = "\(BuiltinCatalog.directory)/\(name)"
            var list = LocaleMessageList(file: path)
            list.reserveCapacity(messages: messages.count)
            for message in messages {
                list.append(
                    keyPrefix: UnsafeBufferPointer(start: nil, count: 0), keyPart: message.key, text: message.text,
                    keyLocation: (message.keyPlace.line, message.keyPlace.column, message.keyPlace.length),
                    valueLocation: (message.valuePlace.line, message.valuePlace.column, message.valuePlace.length),
                    offsets: message.offsets, trap: message.trap)
            }
            guard let tag = LocaleTag(locale) else { return nil }
            var catalog = LocaleCatalog(path: path, tag: Located(tag, at: localePlace.location(in: path)), messageList: list)
            catalog.messagesLocation = messagesPlace?.location(in: path)
            catalog.sameAsSource = sameAsSource.map { Located($0.key, at: $0.place.location(in: path)) }
            catalog.notes = notes
            return catalog
        }
    }
}

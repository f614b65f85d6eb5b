import JumpDiagnostics

/// jump-forms' own words (the form session's prompts, the input checks, the server's
/// messages), compiled in: no YAML is read to have them. Their source is the locale files in
/// `Sources/JumpFormsLoader/Catalog`, in the same format as the user's;
/// `scripts/embed-builtin-catalog.sh` writes them as the text table in
/// `BuiltinCatalog+Table.generated.swift` (one line per message, read on first use like the
/// CLDR tables: a Swift literal of the same table took the compiler past 12 GB), with every
/// place the loader gives them, and a test checks that the table is what the loader decodes
/// from those files. A user's locale file can
/// override any key; a `Localizer` consults these after the user's catalogs when given them as
/// its `fallbackCatalogs`.
public enum BuiltinCatalog {
    /// The path shown for the catalog's files in diagnostics.
    public static let directory = "<builtin>"

    /// The catalogs, en-US first (the fallback of the others).
    public static let catalogs: [LocaleCatalog] = ordered(files(tableText).compactMap(\.catalog))

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

    /// The files of a text table, one record a line, fields separated by tabs:
    ///
    ///     file NAME LOCALE LOCALE-PLACE MESSAGES-PLACE|-
    ///     same KEY PLACE                                (a `sameAsSource` entry)
    ///     note KEY TEXT
    ///     msg KEY TEXT KEY-PLACE VALUE-PLACE START|BREAKPOINTS TRAP|-
    ///
    /// A place is `line:column:length`; START `line:column` (a value on one line without
    /// escapes); BREAKPOINTS `offset,line,column[,e]` joined by `;` (`e`: an escape); texts
    /// with `\\`, `\t`, `\n`, `\r` and `\u{HEX}` escapes. The table is generated from files the
    /// loader decodes, so a line it cannot read is a bug of the generator: it traps.
    ///
    /// Lines and fields are split on UTF-8 bytes (a line break and a tab are each a character
    /// of their own, so this is where `Character`s would split too, at a fraction of the cost:
    /// every process that loads a project reads the table).
    static func files(_ table: String) -> [File] {
        var files: [File] = []
        for line in table.utf8.split(separator: UInt8(ascii: "\n")).map(Substring.init) {
            let fields = line.utf8.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false).map(Substring.init)
            switch fields[0] {
            case "file":
                files.append(
                    File(
                        name: String(fields[1]), locale: String(fields[2]), localePlace: Place(fields[3]),
                        messagesPlace: fields[4] == "-" ? nil : Place(fields[4]), messages: []))
            case "same":
                files[files.count - 1].sameAsSource.append((unescaped(fields[1]), Place(fields[2])))
            case "note":
                files[files.count - 1].notes[unescaped(fields[1])] = unescaped(fields[2])
            case "msg":
                let key = unescaped(fields[1])
                let text = unescaped(fields[2])
                let trap = fields[6] == "-" ? nil : ScalarTrap(rawValue: String(fields[6]))!
                let numbers = fields[5].utf8.split(separator: UInt8(ascii: ";")).map {
                    $0.split(separator: UInt8(ascii: ",")).map(Substring.init)
                }
                let message =
                    if numbers.count == 1, numbers[0].count == 1 {
                        Message(key, text, key: Place(fields[3]), value: Place(fields[4]), start: Place.start(fields[5]), trap: trap)
                    } else {
                        Message(
                            key, text, key: Place(fields[3]), value: Place(fields[4]),
                            breakpoints: numbers.map {
                                MessageOffsetMap.Breakpoint(offset: Int($0[0])!, line: Int($0[1])!, column: Int($0[2])!, isEscape: $0.count > 3)
                            }, trap: trap)
                    }
                files[files.count - 1].messages.append(message)
            default:
                preconditionFailure("BuiltinCatalog: unreadable table line '\(line)'")
            }
        }
        return files
    }

    /// `text` with the table's escapes (`\\`, `\t`, `\n`, `\r`, `\u{HEX}`) replaced.
    static func unescaped(_ text: Substring) -> String {
        guard text.utf8.contains(UInt8(ascii: "\\")) else { return String(text) }
        var out = ""
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "\\", let escaped = scalars.next() else {
                out.unicodeScalars.append(scalar)
                continue
            }
            switch escaped {
            case "t": out += "\t"
            case "n": out += "\n"
            case "r": out += "\r"
            case "u":
                _ = scalars.next()  // {
                var hex = ""
                while let digit = scalars.next(), digit != "}" { hex.unicodeScalars.append(digit) }
                out.unicodeScalars.append(Unicode.Scalar(UInt32(hex, radix: 16)!)!)
            default: out.unicodeScalars.append(escaped)
            }
        }
        return out
    }

    /// A place in a catalog file: line, column and length, as the loader gives them.
    struct Place: Sendable {
        var line: Int
        var column: Int
        var length: Int

        init(_ line: Int, _ column: Int, _ length: Int) {
            (self.line, self.column, self.length) = (line, column, length)
        }

        /// A place written `line:column:length`.
        init(_ text: Substring) {
            let numbers = text.utf8.split(separator: UInt8(ascii: ":")).map { Int(Substring($0))! }
            self.init(numbers[0], numbers[1], numbers[2])
        }

        /// A start written `line:column`.
        static func start(_ text: Substring) -> (line: Int, column: Int) {
            let numbers = text.utf8.split(separator: UInt8(ascii: ":")).map { Int(Substring($0))! }
            return (numbers[0], numbers[1])
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

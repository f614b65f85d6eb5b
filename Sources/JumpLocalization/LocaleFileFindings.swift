import JumpDiagnostics

/// What a YAML 1.1 loader (PyYAML, most CI tools) would have typed an unquoted value as.
/// jump-forms reads it as the string written, but other tools would not: the locale checks
/// flag it and suggest quoting.
public enum ScalarTrap: String, Sendable, Hashable, CaseIterable {
    case boolean, number, date, null
}

/// A message key written twice in a locale file (in one mapping, or flat and nested).
public struct LocaleDuplicateKey: Sendable, Hashable {
    /// The dotted key.
    public var key: String
    /// The second place, whose value was dropped.
    public var location: SourceLocation
    /// The first place, whose value is kept.
    public var firstLocation: SourceLocation

    public init(key: String, location: SourceLocation, firstLocation: SourceLocation) {
        self.key = key
        self.location = location
        self.firstLocation = firstLocation
    }
}

/// An anchor (`&name`) or alias (`*name`) written in a locale file.
public struct LocaleYAMLReference: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable { case anchor, alias }

    public var name: String
    public var kind: Kind
    public var location: SourceLocation
    /// The message key written on the same line, if any.
    public var key: String?

    public init(name: String, kind: Kind, location: SourceLocation, key: String? = nil) {
        self.name = name
        self.kind = kind
        self.location = location
        self.key = key
    }
}

/// A key of `messages` written unquoted that a YAML 1.1 loader would not read as a string
/// (`NO:` is the boolean false, `1.5:` a number, `~:` null): other tools see another key.
public struct LocaleKeyTrap: Sendable, Hashable {
    /// The dotted key up to and including the trapped part (`options.country.NO`).
    public var key: String
    /// The part as written (`NO`).
    public var written: String
    public var trap: ScalarTrap
    public var location: SourceLocation

    public init(key: String, written: String, trap: ScalarTrap, location: SourceLocation) {
        self.key = key
        self.written = written
        self.trap = trap
        self.location = location
    }
}

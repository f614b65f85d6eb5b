/// A position in a source file: 1-based line and column, columns counted in Unicode scalars.
///
/// Every model element decoded from a file keeps the location it came from, so that the lint
/// pass and the rule engine can point back at the exact place in the user's YAML.
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The path of the file as the user named it (relative paths stay relative).
    public var file: String
    /// 1-based line number.
    public var line: Int
    /// 1-based column, in Unicode scalars.
    public var column: Int
    /// How many scalars the caret excerpt underlines (at least 1).
    public var length: Int

    public init(file: String, line: Int, column: Int, length: Int = 1) {
        self.file = file
        self.line = line
        self.column = column
        self.length = max(1, length)
    }

    /// The start of a file, for findings about the file as a whole.
    public static func startOfFile(_ file: String) -> SourceLocation {
        SourceLocation(file: file, line: 1, column: 1)
    }

    /// `path:line:col`
    public var description: String { "\(file):\(line):\(column)" }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }

    /// The same place `offset` scalars further along the line.
    public func advanced(by offset: Int, length: Int = 1) -> SourceLocation {
        SourceLocation(file: file, line: line, column: column + offset, length: length)
    }
}

/// A value together with the place it was written.
public struct Located<Value: Sendable>: Sendable {
    public var value: Value
    public var location: SourceLocation

    public init(_ value: Value, at location: SourceLocation) {
        self.value = value
        self.location = location
    }
}

extension Located: Equatable where Value: Equatable {}
extension Located: Hashable where Value: Hashable {}

/// One finding about the user's files: where it is, how bad it is, what to do about it.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    public enum Severity: String, Sendable, Hashable, Comparable, CaseIterable {
        case note, warning, error

        private var rank: Int {
            switch self {
            case .note: 0
            case .warning: 1
            case .error: 2
            }
        }

        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    /// A second place that belongs to the finding ("first defined here").
    public struct Related: Sendable, Hashable {
        public var message: String
        public var location: SourceLocation

        public init(_ message: String, at location: SourceLocation) {
            self.message = message
            self.location = location
        }
    }

    public var severity: Severity
    public var code: DiagnosticCode
    public var message: String
    public var location: SourceLocation?
    /// The file or folder a diagnostic without a place is about (one that cannot be read):
    /// `location?.file` when there is a place.
    public var file: String?
    /// A short actionable suggestion ("did you mean 'label'?").
    public var hint: String?
    public var related: [Related]

    public init(
        _ code: DiagnosticCode,
        _ message: String,
        at location: SourceLocation?,
        severity: Severity? = nil,
        hint: String? = nil,
        related: [Related] = [],
        file: String? = nil
    ) {
        self.code = code
        self.message = message
        self.location = location
        self.file = location?.file ?? file
        self.severity = severity ?? code.defaultSeverity
        self.hint = hint
        self.related = related
    }

    /// `path:line:col: error[JF123]: message` (no excerpt; see `DiagnosticRenderer`).
    public var description: String {
        let place = location.map { "\($0): " } ?? ""
        return "\(place)\(severity.rawValue)[\(code.displayName)]: \(message)"
    }
}

extension Array where Element == Diagnostic {
    /// True when at least one diagnostic is an error.
    public var containsErrors: Bool { contains { $0.severity == .error } }

    /// Sorted by file, line, column, then code; diagnostics without a place come first.
    public func sortedByLocation() -> [Diagnostic] {
        enumerated().sorted { lhs, rhs in
            switch (lhs.element.location, rhs.element.location) {
            case (nil, nil): return lhs.offset < rhs.offset
            case (nil, _): return true
            case (_, nil): return false
            case let (l?, r?):
                if l != r { return l < r }
                if lhs.element.code != rhs.element.code {
                    return lhs.element.code.rawValue < rhs.element.code.rawValue
                }
                return lhs.offset < rhs.offset
            }
        }.map(\.element)
    }
}

/// An error that carries every diagnostic a phase collected.
public protocol DiagnosticsError: Error, Sendable {
    var diagnostics: [Diagnostic] { get }
}

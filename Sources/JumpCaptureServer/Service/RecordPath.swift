import JumpForms

/// A record attribute as the entity calls name it in `attribute_name`: `/primaryAddress/city`,
/// a plural element `/photos#3`, an attribute inside one `/photos#3/value`; `""` or `/` for the
/// whole record. Each segment is an attribute name, with an element id (`#<id>`) when it picks
/// one element of a plural.
struct RecordPath: Sendable, Hashable, CustomStringConvertible {
    struct Step: Sendable, Hashable {
        var name: String
        /// The plural element's id (`photos#3`), when the step picks one.
        var element: Int?
    }

    var steps: [Step]

    static let root = RecordPath(steps: [])

    var isRoot: Bool { steps.isEmpty }

    /// The attribute names, element ids left out: what a schema, the flow and the write list
    /// know (`/photos#3/value` -> `photos`, `value`).
    var names: [String] { steps.map(\.name) }

    /// `/a/b#3/c`.
    var description: String {
        steps.isEmpty ? "/" : steps.map { "/" + $0.name + ($0.element.map { "#\($0)" } ?? "") }.joined()
    }

    /// `/a/b/c`, element ids left out.
    var attribute: String { Self.attribute(names) }

    static func attribute(_ names: [String]) -> String {
        names.isEmpty ? "/" : "/" + names.joined(separator: "/")
    }

    /// The path one attribute further down.
    func appending(_ name: String, element: Int? = nil) -> RecordPath {
        RecordPath(steps: steps + [Step(name: name, element: element)])
    }

    /// The path with its last attribute's element `id` picked (`/photos` -> `/photos#3`).
    func element(_ id: Int) -> RecordPath {
        guard let last = steps.last else { return self }
        return RecordPath(steps: Array(steps.dropLast()) + [Step(name: last.name, element: id)])
    }

    /// Why `attribute_name` names no attribute. (A name without its leading `/` is parsed as
    /// if it had one: the caller refuses it first.)
    enum ParseProblem: Error, Sendable, Hashable {
        /// A segment that cannot name an attribute (empty, `.`/`..`, holding `.`), or an element
        /// id that is not a positive whole number: the reason, for a 200.
        case malformed(String)
    }

    static func parse(_ text: String) -> Result<RecordPath, ParseProblem> {
        if text.isEmpty || text == "/" { return .success(.root) }
        let body = text.hasPrefix("/") ? text.dropFirst() : Substring(text)
        var steps: [Step] = []
        for segment in body.split(separator: "/", omittingEmptySubsequences: false) {
            var name = segment
            var element: Int?
            if let mark = segment.firstIndex(of: "#") {
                name = segment[..<mark]
                let digits = segment[segment.index(after: mark)...]
                guard let id = Int(digits), id > 0, digits.allSatisfy(\.isASCII) else {
                    return .failure(
                        .malformed("\(text): '\(segment)' picks no element (a plural element is named <plural>#<id>, the id a whole number)"))
                }
                element = id
            }
            if let problem = RecordWriteShape.keyProblem(String(name)) { return .failure(.malformed("\(text): \(problem)")) }
            steps.append(Step(name: String(name), element: element))
        }
        return .success(RecordPath(steps: steps))
    }
}

extension JSONValue {
    /// The element of a plural (a list of objects) whose `id` is `id`.
    func element(id: Int) -> JSONValue? {
        arrayValue?.first { $0["id"]?.intValue == id }
    }

    /// The value a record path names, or nil when it holds nothing there (an element id that
    /// is not in its plural included).
    func value(at path: RecordPath) -> JSONValue? {
        var current: JSONValue? = self
        for step in path.steps {
            current = current?[step.name]
            if let id = step.element { current = current?.element(id: id) }
        }
        return current
    }

    /// How deep the value nests, as a JSON reader counts it: 0 for a scalar, 1 for a flat
    /// object or list.
    var nestingDepth: Int {
        switch self {
        case .array(let items): 1 + (items.map(\.nestingDepth).max() ?? 0)
        case .object(let entries): 1 + (entries.map(\.value.nestingDepth).max() ?? 0)
        default: 0
        }
    }
}

/// The element ids a write gives out: whole numbers, never one the record used before (the
/// store keeps the next one with the record), from `first` on.
struct ElementIDs: Sendable {
    /// The first id given: 2^31. JUMP Android 7.3.0 reads an element's id as a `Long`
    /// (`(Long) element.opt("id")`, CaptureJsonUtils.java:201), and Android's org.json makes
    /// an `Integer` of a number that fits in 32 bits, so a smaller id makes every
    /// `CaptureRecord.synchronize` of the record throw before it sends anything. Ids stay far
    /// below 2^53, which JavaScript reads exactly.
    static let first = 1 << 31

    private(set) var next: Int

    init(next: Int) { self.next = max(next, Self.first) }

    mutating func take() -> Int {
        defer { next += 1 }
        return next
    }
}

import JumpForms

/// Every record of an entity type, read the way Janrain's data library pages: `/entity.find`
/// with `sort_on ["id"]` and `filter "id > <last id>"` (after the caller's filter), a page at
/// a time, each record handed on whole as one line of JSON (plurals with their element ids,
/// `profiles`, the password object an owner client sees, `created` and `lastUpdated`). A call
/// refused with 510 (Capture's rate limit), an HTTP 5xx or no answer is tried again after a
/// wait that doubles (`RetryPolicy`); the `sleep` is injected (tests do not wait).
public struct UserExport: Sendable {
    public struct Options: Sendable {
        public var typeName: String
        public var filter: String?
        /// Only these attributes (`id` is added: paging needs it); nil: all.
        public var attributes: [String]?
        public var pageSize: Int

        public init(typeName: String = "user", filter: String? = nil, attributes: [String]? = nil, pageSize: Int = 1000) {
            self.typeName = typeName
            self.filter = filter
            self.attributes = attributes
            self.pageSize = pageSize
        }
    }

    /// How failed calls are tried again: after `first`, then twice as long each time up to
    /// `longest`, at most `attempts` tries in all.
    public struct RetryPolicy: Sendable {
        public var attempts: Int
        public var first: Duration
        public var longest: Duration

        public init(attempts: Int = 8, first: Duration = .seconds(1), longest: Duration = .seconds(60)) {
            self.attempts = attempts
            self.first = first
            self.longest = longest
        }

        /// The wait before try `attempt + 1` (attempt counts from 1).
        public func delay(after attempt: Int) -> Duration {
            var delay = first
            for _ in 1..<max(attempt, 1) where delay < longest { delay = delay * 2 }
            return min(delay, longest)
        }
    }

    /// Where an export stands.
    public struct Progress: Sendable, Hashable {
        /// Records written by this run.
        public var written: Int
        /// How many records the filter matches (all of them, those of an earlier run too).
        public var total: Int?
        public var lastID: Int?
        /// A call is being tried again: which try comes next, and why.
        public var retrying: (attempt: Int, reason: String)? {
            get { retryAttempt.map { ($0, retryReason ?? "") } }
            set {
                retryAttempt = newValue?.attempt
                retryReason = newValue?.reason
            }
        }
        private var retryAttempt: Int?
        private var retryReason: String?

        public init(written: Int, total: Int?, lastID: Int?) {
            self.written = written
            self.total = total
            self.lastID = lastID
        }
    }

    public let client: EntityAPIClient
    public let options: Options
    public let retry: RetryPolicy
    public let sleep: @Sendable (Duration) async throws -> Void

    public init(
        client: EntityAPIClient, options: Options, retry: RetryPolicy = RetryPolicy(),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.client = client
        self.options = options
        self.retry = retry
        self.sleep = sleep
    }

    /// The filter of the page after `lastID`: the caller's filter, in parentheses, and `id > N`.
    public static func pageFilter(_ filter: String?, after lastID: Int?) -> String? {
        let trimmed = filter.flatMap { $0.allSatisfy { $0 == " " } ? nil : $0 }
        guard let lastID else { return trimmed }
        guard let trimmed else { return "id > \(lastID)" }
        return "(\(trimmed)) and id > \(lastID)"
    }

    /// Reads every record after `lastID` (nil: from the first), handing each page's lines (one
    /// record each, `\n` ended) to `write` before the next page is asked for, and reporting
    /// `progress` after each page and before each retry. Returns the progress at the end.
    public func run(
        after lastID: Int?, write: ([UInt8]) async throws -> Void, progress: (Progress) -> Void = { _ in }
    ) async throws -> Progress {
        var state = Progress(written: 0, total: nil, lastID: lastID)
        var attributes = options.attributes
        if let list = attributes, !list.contains("id") { attributes = ["id"] + list }
        // A fresh export asks for the total with its first page; a resumed one would get the
        // records left, not the total (`total()` gives that).
        var wantsTotal = lastID == nil
        while true {
            let filter = Self.pageFilter(options.filter, after: state.lastID)
            let askTotal = wantsTotal
            let page = try await withRetries(progress: progress, state: state) { () async throws(EntityAPIError) -> EntityPage in
                try await client.find(
                    typeName: options.typeName, filter: filter, maxResults: options.pageSize, attributes: attributes,
                    showTotalCount: askTotal)
            }
            if wantsTotal { state.total = page.totalCount }
            wantsTotal = false
            if page.records.isEmpty { break }
            var lines: [UInt8] = []
            for record in page.records {
                guard let id = record["id"].flatMap({ Int($0.description) }) else {
                    throw UserExportError.recordWithoutID(after: state.lastID)
                }
                if let last = state.lastID, id <= last { throw UserExportError.idsNotAscending(id: id, after: last) }
                lines += Array(record.serialized().utf8)
                lines.append(UInt8(ascii: "\n"))
                state.lastID = id
            }
            try await write(lines)
            state.written += page.records.count
            progress(state)
            if page.records.count < options.pageSize { break }
        }
        return state
    }

    /// The total of the filter alone, for a resumed export's progress.
    public func total() async throws -> Int {
        let filter = options.filter
        let answer = try await withRetries(progress: { _ in }, state: Progress(written: 0, total: nil, lastID: nil)) {
            () async throws(EntityAPIError) -> JSONValue in
            var parameters: [(name: String, value: String)] = [("type_name", options.typeName)]
            if let filter { parameters.append(("filter", filter)) }
            return try await client.call("/entity.count", parameters)
        }
        return answer["total_count"].flatMap { Int($0.description) } ?? 0
    }

    private func withRetries<T: Sendable>(
        progress: (Progress) -> Void, state: Progress, _ body: () async throws(EntityAPIError) -> T
    ) async throws -> T {
        var attempt = 1
        while true {
            do {
                return try await body()
            } catch {
                guard error.isRetryable, attempt < retry.attempts else { throw error }
                var waiting = state
                waiting.retrying = (attempt + 1, error.description)
                progress(waiting)
                try await sleep(retry.delay(after: attempt))
                attempt += 1
            }
        }
    }

    /// Where an export file stands, from its last bytes: how many bytes of it to keep (a last
    /// line cut short, without its `\n`, is dropped) and the id of its last record. `tail` is
    /// the file's end, starting at `offset`; nil when the tail holds no whole line and starts
    /// after the file's beginning (read a longer tail).
    public static func resumePoint(tail: [UInt8], offset: Int) throws -> (keep: Int, lastID: Int?)? {
        let newline = UInt8(ascii: "\n")
        guard let lastNewline = tail.lastIndex(of: newline) else {
            // No whole line: an empty file, or one cut short in its first line.
            return offset == 0 ? (0, nil) : nil
        }
        let keep = offset + lastNewline + 1
        let start = tail[..<lastNewline].lastIndex(of: newline).map { $0 + 1 }
        if start == nil && offset > 0 { return nil }
        let line = Array(tail[(start ?? 0)..<lastNewline])
        guard let record = try? JSONValue.parse(String(decoding: line, as: UTF8.self)),
            let id = record["id"].flatMap({ Int($0.description) })
        else { throw UserExportError.lastLineNotARecord }
        return (keep, id)
    }
}

/// Why an export stopped (besides a failed call).
public enum UserExportError: Error, Sendable, CustomStringConvertible, Equatable {
    case recordWithoutID(after: Int?)
    case idsNotAscending(id: Int, after: Int)
    case lastLineNotARecord

    public var description: String {
        switch self {
        case .recordWithoutID(let after):
            "the server answered a record without an id\(after.map { " (after id \($0))" } ?? ""): paging by id needs it"
        case let .idsNotAscending(id, after):
            "the server answered id \(id) after id \(after): it does not sort on id as asked, so paging by id would lose records"
        case .lastLineNotARecord:
            "the last whole line of the file is not a record with an id: it cannot be resumed (is it an export?)"
        }
    }
}

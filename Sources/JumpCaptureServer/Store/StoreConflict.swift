import JumpCapture
import JumpForms

/// Why a write was refused.
enum StoreConflict: Error, Sendable, Hashable {
    /// Values that must be unique already belong to another record: field names.
    case notUnique([String])
    case identityTaken
    /// The Engage token was used already (or has expired): each one completes one operation.
    case engageTokenUsed
    /// The record a write would leave is larger than the server stores (`RecordLimits`): its
    /// size and the limit, in bytes of JSON text.
    case recordTooLarge(size: Int, limit: Int)
    /// The record a write would leave nests deeper than the server stores.
    case recordTooDeep(depth: Int, limit: Int)
    /// The stored record is not JSON the server can read (written by an older version): it is
    /// left as it is, and no write replaces it. The reader's reason.
    case undecodableRecord(String)
}

/// What every write leaves a record within, so that the server (and a client with the same
/// JSON reader) can read it back: at most `maximumSize` bytes of JSON text (the
/// `maximumRecordSize` setting) and at most `maximumDepth` levels of nesting.
struct RecordLimits: Sendable, Hashable {
    /// Well inside the JSON reader's 512 levels, with room for the answers that wrap a record.
    static let maximumDepth = 100

    var maximumSize: Int

    /// The refusal of a record text (and its value) a write would leave; nil when it fits. A
    /// record already over the size limit may still shrink: only a write that makes it larger
    /// than `previousSize` is refused.
    func problem(text: String, record: JSONValue, previousSize: Int = 0) -> StoreConflict? {
        let size = text.utf8.count
        if size > maximumSize, size > previousSize { return .recordTooLarge(size: size, limit: maximumSize) }
        let depth = record.nestingDepth
        if depth > Self.maximumDepth { return .recordTooDeep(depth: depth, limit: Self.maximumDepth) }
        return nil
    }
}

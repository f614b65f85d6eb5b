/// What kind of attribute a record path holds, when a schema says so: how a change to it is
/// sent (`RecordChanges`). Lives with the model so that a schema reader and the protocol layer
/// can share it without depending on each other.
public enum AttributeKind: Sendable, Hashable {
    /// A value replaced whole by an `entity.update` of its parent (strings, numbers, dates,
    /// and `json` attributes, whatever JSON they hold).
    case primitive
    /// An object: updated (`entity.update`) with the keys that changed.
    case object
    /// A plural: replaced whole (`entity.replace`).
    case plural
    /// Set by the server (the record's `id`, `uuid`, `created`, `lastUpdated`; any attribute
    /// of type `id`, such as a plural element's `id`): never sent.
    case readOnly
}

import JumpForms

/// The shape rule of record keys that holds whatever the flow or the schema says: a key names
/// one attribute, so that paths (`/primaryAddress/city`, `/photos#3`; dotted `primaryAddress.city`
/// for the flow's schema ids and SQLite's JSON paths) name one thing. `RecordEditor` has the
/// rules of plurals and objects.
enum RecordWriteShape {
    /// Why a key cannot name an attribute: empty, or holding `.`, `/` or `#`; `.` and `..`
    /// included. The answer is the reason a write is refused (a 200 `invalid_argument`), or nil.
    static func keyProblem(_ key: String) -> String? {
        if key.isEmpty { return "an empty attribute name" }
        if key.contains(".") || key.contains("/") {
            return "the attribute name '\(key)' holds '.' or '/' (a path separator)"
        }
        if key.contains("#") {
            return "the attribute name '\(key)' holds '#' (which picks a plural element)"
        }
        return nil
    }
}

import JumpForms

/// Known findings that a team has accepted for now: `--baseline FILE` hides them, so CI fails
/// only on new ones. Each finding is kept as a `Fingerprint` (rule, file, key and a hash of the
/// message), never a line number, so edits elsewhere in a file do not revive it; a finding
/// whose text changes (a different category missing, a different number) is new.
///
/// ```json
/// {
///   "version": 1,
///   "findings": [
///     { "rule": "same-as-source", "file": "locales/fr-FR.yaml", "key": "options.country.CA", "hash": "6f1c…" }
///   ]
/// }
/// ```
public struct Baseline: Sendable, Hashable {
    public static let version = 1

    /// The accepted findings; one entry per finding (the same fingerprint may appear twice).
    public var fingerprints: [Fingerprint]

    public init(fingerprints: [Fingerprint]) {
        self.fingerprints = fingerprints.sorted()
    }

    public init(findings: [LocaleFinding]) {
        self.init(fingerprints: findings.map(\.fingerprint))
    }

    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    public init(json bytes: [UInt8]) throws(ParseError) {
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes)
        } catch {
            throw ParseError(message: "not valid JSON: \(error)")
        }
        guard value["version"]?.intValue == Self.version else {
            throw ParseError(message: "not a jump-forms locale baseline (version \(Self.version))")
        }
        guard let items = value["findings"]?.arrayValue else { throw ParseError(message: "no 'findings' list") }
        var fingerprints: [Fingerprint] = []
        for (index, item) in items.enumerated() {
            guard let rule = item["rule"]?.stringValue, let file = item["file"]?.stringValue,
                  let key = item["key"]?.stringValue, let hash = item["hash"]?.stringValue else {
                throw ParseError(message: "finding \(index + 1) needs 'rule', 'file', 'key' and 'hash'")
            }
            fingerprints.append(Fingerprint(rule: rule, file: file, key: key, messageHash: hash))
        }
        self.init(fingerprints: fingerprints)
    }

    /// The file's text: sorted, one finding per line, so it diffs well.
    public var json: String {
        var out = "{\n  \"version\": \(Self.version),\n  \"findings\": ["
        for (index, fingerprint) in fingerprints.enumerated() {
            let item: JSONValue = [
                "rule": .string(fingerprint.rule), "file": .string(fingerprint.file),
                "key": .string(fingerprint.key), "hash": .string(fingerprint.messageHash),
            ]
            out += (index == 0 ? "\n    " : ",\n    ") + item.serialized()
        }
        out += fingerprints.isEmpty ? "]\n}\n" : "\n  ]\n}\n"
        return out
    }

    /// The findings the baseline does not hold (each entry hides one finding), and how many
    /// were hidden.
    public func filter(_ findings: [LocaleFinding]) -> (new: [LocaleFinding], known: Int) {
        var remaining: [Fingerprint: Int] = [:]
        for fingerprint in fingerprints { remaining[fingerprint, default: 0] += 1 }
        var kept: [LocaleFinding] = []
        var known = 0
        for finding in findings {
            let fingerprint = finding.fingerprint
            if let count = remaining[fingerprint], count > 0 {
                remaining[fingerprint] = count - 1
                known += 1
            } else {
                kept.append(finding)
            }
        }
        return (kept, known)
    }
}

import JumpForms

/// Known findings that a team has accepted for now: `--baseline FILE` hides them, so CI fails
/// only on new ones. Each finding is kept as a `Fingerprint` (rule, file, key and a hash of the
/// message), never a line number, so edits elsewhere in a file do not revive it; a finding
/// whose text changes (a different category missing, a different number) is new. Files are
/// written relative to the baseline's folder (`path(_:relativeTo:)`).
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

    /// `file`: how a finding's file is written in the baseline (see `path(_:relativeTo:)`).
    public init(findings: [LocaleFinding], file: (String) -> String = { $0 }) {
        self.init(fingerprints: findings.map { Self.mapped($0.fingerprint, file: file) })
    }

    static func mapped(_ fingerprint: Fingerprint, file: (String) -> String) -> Fingerprint {
        var fingerprint = fingerprint
        if !fingerprint.file.isEmpty { fingerprint.file = file(fingerprint.file) }
        return fingerprint
    }

    /// `path` written relative to `folder` (both absolute and normalized, without `.` or `..`
    /// parts): `/p/locales/fr-FR.yaml` from `/p/ci` is `../locales/fr-FR.yaml`. Baselines store
    /// files relative to their own folder, so the same baseline matches whichever folder the
    /// check runs in and however `--locales` is written.
    public static func path(_ path: String, relativeTo folder: String) -> String {
        let target = path.split(separator: "/")
        let base = folder.split(separator: "/")
        var common = 0
        while common < target.count, common < base.count, target[common] == base[common] { common += 1 }
        let parts = Array(repeating: Substring(".."), count: base.count - common) + target[common...]
        return parts.isEmpty ? "." : parts.joined(separator: "/")
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
                let key = item["key"]?.stringValue, let hash = item["hash"]?.stringValue
            else {
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
                "key": .string(fingerprint.key), "hash": .string(fingerprint.messageHash)
            ]
            out += (index == 0 ? "\n    " : ",\n    ") + item.serialized()
        }
        out += fingerprints.isEmpty ? "]\n}\n" : "\n  ]\n}\n"
        return out
    }

    /// The findings the baseline does not hold (each entry hides one finding), and how many
    /// were hidden. `file` maps a finding's file as `init(findings:file:)` wrote it; an entry
    /// with the file as the check names it (baselines written before files were relative to
    /// the baseline's folder) matches too.
    public func filter(_ findings: [LocaleFinding], file: (String) -> String = { $0 }) -> (new: [LocaleFinding], known: Int) {
        var remaining: [Fingerprint: Int] = [:]
        for fingerprint in fingerprints { remaining[fingerprint, default: 0] += 1 }
        var kept: [LocaleFinding] = []
        var known = 0
        for finding in findings {
            let written = finding.fingerprint
            let mapped = Self.mapped(written, file: file)
            if let count = remaining[mapped], count > 0 {
                remaining[mapped] = count - 1
                known += 1
            } else if mapped != written, let count = remaining[written], count > 0 {
                remaining[written] = count - 1
                known += 1
            } else {
                kept.append(finding)
            }
        }
        return (kept, known)
    }
}

import JumpCapture
import JumpForms
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Lower-cased, trimmed: the form emails are compared in.
func normalizeEmail(_ email: String) -> String {
    email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
}

enum UUIDText {
    static func random() -> String {
        UUID().uuidString.lowercased()
    }
}

enum Timestamps {
    /// Capture's record timestamps: `yyyy-MM-dd HH:mm:ss.SSSSSS +0000`.
    static func capture(_ epochSeconds: Int) -> String {
        RefreshSignature.dateString(epochSeconds: epochSeconds) + ".000000 +0000"
    }
}

extension JSONValue {
    /// The value at a dot path (`primaryAddress.city`).
    func value(atPath path: String) -> JSONValue? {
        var current: JSONValue? = self
        for part in path.split(separator: ".") {
            current = current?[String(part)]
        }
        return current
    }

    /// Sets the value at a dot path, creating objects on the way.
    func setting(path: String, _ value: JSONValue) -> JSONValue {
        let parts = path.split(separator: ".").map(String.init)
        guard let first = parts.first else { return self }
        if parts.count == 1 { return setting(first, value) }
        let child = self[first] ?? [:]
        let rest = parts.dropFirst().joined(separator: ".")
        return setting(first, (child.objectValue != nil ? child : [:]).setting(path: rest, value))
    }
}

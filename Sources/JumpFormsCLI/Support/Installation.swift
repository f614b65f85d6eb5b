import JumpCapture
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Per-installation facts kept under the XDG state directory.
enum Installation {
    /// The state folder: `$XDG_STATE_HOME/jump-forms` or `~/.local/state/jump-forms`.
    static func stateDirectory(_ environment: [String: String]) -> String {
        let home = environment["HOME"] ?? "/tmp"
        let state = environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.local/state"
        return state + "/jump-forms"
    }

    /// A random UUID made once and kept (Engage's `installation_id`).
    static func identifier(_ environment: [String: String]) -> String {
        let path = stateDirectory(environment) + "/installation-id"
        if let file = fopen(path, "r") {
            defer { fclose(file) }
            var buffer = [CChar](repeating: 0, count: 64)
            if fgets(&buffer, 64, file) != nil {
                let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                    .filter { !$0.isNewline }
                if text.count == 36 { return text }
            }
        }
        let identifier = randomUUID()
        mkdirs(stateDirectory(environment))
        if let file = fopen(path, "w") {
            fputs(identifier + "\n", file)
            fclose(file)
        }
        return identifier
    }

    static func randomUUID() -> String {
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { byte in String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16) }
        return [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]].map { $0.joined() }.joined(separator: "-")
    }

    static func mkdirs(_ path: String) {
        var current = ""
        for part in path.split(separator: "/") {
            current += "/" + part
            mkdir(current, 0o700)
        }
    }
}

import ArgumentParser
import JumpFiles
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Per-installation facts kept under the XDG state directory.
enum Installation {
    /// The state folder: `$XDG_STATE_HOME/jump-forms` or `~/.local/state/jump-forms` (the home
    /// folder from HOME, else from the password database); nil when there is no home folder.
    static func stateDirectory(_ environment: [String: String]) -> String? {
        HomeFolder.xdg("XDG_STATE_HOME", default: ".local/state", environment).map { $0 + "/jump-forms" }
    }

    /// A random UUID made once and kept (Engage's `installation_id`) in `installation-id`.
    /// The state folder is made with mode 0700 and refused when others can write in it (see
    /// `PrivateAccess`); the file is written through `AtomicFile`.
    static func identifier(_ environment: [String: String]) throws -> String {
        guard let folder = stateDirectory(environment) else {
            throw ValidationError("cannot keep the installation id: \(HomeFolder.unknownReason)")
        }
        let path = folder + "/installation-id"
        do {
            try PrivateAccess.makeFolder(folder)
            if let text = try read(path), text.count == 36 { return text }
            let identifier = randomUUID()
            try AtomicFile.write(Array((identifier + "\n").utf8), to: path, mode: 0o644)
            return identifier
        } catch {
            throw ValidationError("cannot keep the installation id: \(error)")
        }
    }

    /// The first line of the file (no link followed), or nil when there is none.
    private static func read(_ path: String) throws(FileFailure) -> String? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw FileFailure(path: path, reason: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        let bytes = try PrivateAccess.readAll(descriptor, path: path, limit: 4096)
        return String(decoding: bytes.prefix { $0 != 0x0A }, as: UTF8.self)
    }

    static func randomUUID() -> String {
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { byte in String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16) }
        return [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]].map { $0.joined() }.joined(separator: "-")
    }
}

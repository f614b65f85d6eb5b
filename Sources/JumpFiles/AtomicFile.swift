#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file written whole or not at all: the bytes go to a temporary file next to it
/// (`path.tmp-PID`), which is then renamed over `path`, so a reader never sees half a file and
/// a failed write leaves the old one. Shared by the libraries that write files (the session
/// store, the model generator, the locale commands).
package enum AtomicFile {
    /// Why a file was not written: the path that failed (the temporary file, or `path` when
    /// the rename failed) and the system's reason.
    package struct Failure: Error {
        package var path: String
        package var reason: String
    }

    /// Writes `bytes` to `path`, creating the file with `mode` less the process's umask;
    /// `ignoringUmask` sets exactly `mode` once the bytes are written, and `sync` flushes the
    /// file to disk before the rename and its folder after it. The folder must exist.
    package static func write(_ bytes: [UInt8], to path: String, mode: mode_t, ignoringUmask: Bool = false,
                              sync: Bool = false) throws(Failure) {
        let temporary = path + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw failure(temporary) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                let error = failure(temporary)
                close(descriptor)
                unlink(temporary)
                throw error
            }
            offset += written
        }
        // A failed mode change, flush or close (a full disk or quota can first show there)
        // leaves the old file in place: the temporary one is removed, nothing is renamed.
        if (ignoringUmask && fchmod(descriptor, mode) != 0) || (sync && fsync(descriptor) != 0) {
            let error = failure(temporary)
            close(descriptor)
            unlink(temporary)
            throw error
        }
        guard close(descriptor) == 0 else {
            let error = failure(temporary)
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let error = failure(path)
            unlink(temporary)
            throw error
        }
        // The rename itself is durable once the folder is flushed too.
        if sync { syncFolder(of: path) }
    }

    /// Flushes the folder holding `path` (best effort: some file systems refuse to open or
    /// flush a folder, and the file's own bytes are already on disk).
    private static func syncFolder(of path: String) {
        let folder = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    static func failure(_ path: String) -> Failure {
        Failure(path: path, reason: String(cString: strerror(errno)))
    }
}

private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}

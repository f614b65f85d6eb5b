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
    /// file to disk before the rename. The folder must exist.
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
        if ignoringUmask { fchmod(descriptor, mode) }
        if sync { fsync(descriptor) }
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let error = failure(path)
            unlink(temporary)
            throw error
        }
    }

    static func failure(_ path: String) -> Failure {
        Failure(path: path, reason: String(cString: strerror(errno)))
    }
}

private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}

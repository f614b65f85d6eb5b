#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import NIOCore

/// Why a connection failed, in plain words: SwiftNIO reports a refused connection as
/// `connection reset (error set): Connection refused (errno: 111)`; this says `connection refused`.
enum ConnectionFailure {
    static func reason(_ error: any Error) -> String {
        if let error = error as? IOError {
            return String(cString: strerror(error.errnoCode)).lowercased()
        }
        return "\(error)"
    }
}

import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 with an ephemeral port, for transport tests: it answers
/// each request with what `respond` returns (or never answers, to test timeouts). It stops when
/// `stop()` is called.
public final class LoopbackServer: @unchecked Sendable {
    public struct Received: Sendable {
        public var method: String
        public var target: String
        public var headers: [String: String]
        public var body: String
    }

    public struct Reply: Sendable {
        public var status: Int
        public var contentType: String
        public var body: String
        /// False: never answer; the connection stays open, unanswered, until `stop()`.
        public var answers: Bool
        /// More header fields (`Location` of a redirect).
        public var headers: [(name: String, value: String)]
        /// Bytes sent instead of `body` (a gzip body).
        public var bodyBytes: [UInt8]?

        public init(
            status: Int = 200, contentType: String = "application/json", body: String, answers: Bool = true,
            headers: [(name: String, value: String)] = []
        ) {
            self.status = status
            self.contentType = contentType
            self.body = body
            self.answers = answers
            self.headers = headers
        }
    }

    public let port: Int
    private let socket: Int32
    private let respond: @Sendable (Received) -> Reply
    private let lock = NSCondition()
    private var received: [Received] = []
    private var stopped = false

    public init(respond: @escaping @Sendable (Received) -> Reply) throws {
        self.respond = respond
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0, listen(fd, 16) == 0 else { close(fd); throw POSIXError(.EADDRINUSE) }
        withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(fd, $0, &length) } }
        self.port = Int(UInt16(bigEndian: address.sin_port))
        self.socket = fd
        let thread = Thread { [self] in self.acceptLoop() }
        thread.start()
    }

    public var url: String { "http://127.0.0.1:\(port)" }

    public var requests: [Received] {
        lock.lock(); defer { lock.unlock() }
        return received
    }

    public func stop() {
        lock.lock()
        stopped = true
        lock.broadcast()
        lock.unlock()
        shutdown(socket, Int32(SHUT_RDWR))
        close(socket)
    }

    private var isStopped: Bool {
        lock.lock(); defer { lock.unlock() }
        return stopped
    }

    private func acceptLoop() {
        while !isStopped {
            let client = accept(socket, nil, nil)
            if client < 0 { return }
            Thread { [self] in self.serve(client) }.start()
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        var headerEnd: Int?
        var contentLength = 0
        while true {
            let count = recv(client, &buffer, buffer.count, 0)
            if count <= 0 { return }
            data += buffer[0..<count]
            if headerEnd == nil, let range = data.firstRange(of: Array("\r\n\r\n".utf8)) {
                headerEnd = range.upperBound
                let head = String(decoding: data[..<range.lowerBound], as: UTF8.self)
                for line in head.split(separator: "\r\n").dropFirst() {
                    let parts = line.split(separator: ":", maxSplits: 1)
                    if parts.count == 2, parts[0].lowercased() == "content-length" {
                        contentLength = Int(parts[1].trimmingCharacters(in: .whitespaces)) ?? 0
                    }
                }
            }
            if let headerEnd, data.count >= headerEnd + contentLength { break }
        }
        let headerEndIndex = headerEnd ?? data.count
        let head = String(decoding: data[..<max(0, headerEndIndex - 4)], as: UTF8.self)
        let lines = head.split(separator: "\r\n")
        let requestLine = lines.first?.split(separator: " ") ?? []
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2 { headers[parts[0].lowercased()] = parts[1].trimmingCharacters(in: .whitespaces) }
        }
        let request = Received(
            method: requestLine.first.map(String.init) ?? "", target: requestLine.count > 1 ? String(requestLine[1]) : "",
            headers: headers, body: String(decoding: data[headerEndIndex...], as: UTF8.self))
        lock.lock()
        received.append(request)
        lock.unlock()
        let reply = respond(request)
        if !reply.answers {
            lock.lock()
            while !stopped { lock.wait() }
            lock.unlock()
            return
        }
        let body = reply.bodyBytes ?? Array(reply.body.utf8)
        let extra = reply.headers.map { "\($0.name): \($0.value)\r\n" }.joined()
        let response =
            """
            HTTP/1.1 \(reply.status) Status\r\nContent-Type: \(reply.contentType)\r\nContent-Length: \(body.count)\r\n\(extra)Connection: close\r\n\
            \r\n
            """
        let bytes = Array(response.utf8) + body
        _ = bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
}

import Foundation
import Testing

/// One request written byte for byte on a fresh connection, and what came back until the
/// server closed it (bounded: 10 seconds).
enum RawHTTP {
    struct Answer {
        var status: Int
        var head: String
        var body: String
    }

    static func exchange(port: Int, _ bytes: [UInt8]) async throws -> Answer {
        let raw = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[UInt8], any Error>) in
            Thread.detachNewThread { continuation.resume(with: Result { try blockingExchange(port: port, bytes) }) }
        }
        return answer(raw)
    }

    /// A raw answer split into status, head and body.
    static func answer(_ raw: [UInt8]) -> Answer {
        let text = String(decoding: raw, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { return Answer(status: 0, head: text, body: "") }
        let head = String(text[..<split.lowerBound])
        let status = head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return Answer(status: status, head: head, body: String(text[split.upperBound...]))
    }

    /// Sends `parts` on a fresh connection, `interval` apart, and returns what came back until
    /// the server closed the connection. With `stopWhenAnswered`, it sends no more once the
    /// server answers (or closes) in between.
    static func paced(port: Int, _ parts: [[UInt8]], interval: Duration, stopWhenAnswered: Bool = true) async throws -> Answer {
        let milliseconds = Int32(interval.components.seconds * 1000 + interval.components.attoseconds / 1_000_000_000_000_000)
        let raw = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[UInt8], any Error>) in
            Thread.detachNewThread {
                continuation.resume(
                    with: Result {
                        let fd = try connect(port: port)
                        defer { close(fd) }
                        for (index, part) in parts.enumerated() {
                            send(fd, part)
                            if index == parts.count - 1 { break }
                            if stopWhenAnswered {
                                var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                                if poll(&waiting, 1, milliseconds) > 0 { break }
                            } else {
                                usleep(UInt32(milliseconds) * 1000)
                            }
                        }
                        return receiveAll(fd)
                    })
            }
        }
        return answer(raw)
    }

    static func blockingExchange(port: Int, _ bytes: [UInt8]) throws -> [UInt8] {
        let fd = try connect(port: port)
        defer { close(fd) }
        send(fd, bytes)
        return receiveAll(fd)
    }

    /// A connection to 127.0.0.1:`port` whose reads and writes give up after 10 seconds.
    static func connect(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError.unexpected("socket: \(errno)") }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw HarnessError.unexpected("connect: \(errno)")
        }
        return fd
    }

    static func send(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { break }  // the server may answer and close before reading it all
            offset += sent
        }
    }

    /// What comes until the server closes the connection (or 10 seconds of silence).
    static func receiveAll(_ fd: Int32) -> [UInt8] {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received += chunk[0..<count]
        }
        return received
    }
}

/// Waits for something a test can observe (a count the server keeps, a metric, a refused
/// connection), checking every 10 ms, for at most `timeout`: instead of a fixed sleep, which
/// is too short on a loaded machine and too long on a quiet one. Returns whether it happened.
func waitFor(_ what: String, timeout: Duration = .seconds(30), _ happened: () async throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await happened() { return true }
        try await Task.sleep(for: .milliseconds(10))
    }
    Issue.record("gave up waiting for \(what) after \(timeout)")
    return false
}

extension RawHTTP {
    /// `jump_http_requests_in_flight` of the server on `port` (its own scrape included), or
    /// nil when it could not be read.
    static func requestsInFlight(port: Int) async throws -> Double? {
        let scrape = try await exchange(port: port, Array("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
        let line = scrape.body.split(separator: "\n").first { $0.hasPrefix("jump_http_requests_in_flight ") }
        return line.flatMap { Double($0.split(separator: " ").last ?? "") }
    }
}

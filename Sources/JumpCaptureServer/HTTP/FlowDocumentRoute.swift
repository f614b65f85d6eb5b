import CZlib
import Crypto
import HTTPTypes
import JumpForms

/// The flow document route: `GET /widget_data/flows/<captureAppId>/<flow>/<version|HEAD>/<locale>.json`,
/// what the JUMP SDKs download at start-up (with `Accept-Encoding: gzip`) and whose `version`
/// they send as `flow_version`.
///
/// The document is the served flow written for the locale asked (`CaptureFlowDocument`); a
/// locale without a file of its own falls back as the forms do. Another app id, flow or
/// version answers 404. The answer is gzipped when `Accept-Encoding` allows it, carries an
/// `ETag` (one per coding) and `Vary: Accept-Encoding`, and `If-None-Match` with a current tag
/// answers 304. `Cache-Control: no-cache`: a client may keep it, and asks again each time.
enum FlowDocumentRoute {
    static let prefix = "/widget_data/flows/"

    /// Whether `path` is under the route's prefix (the rest is checked by `answer`).
    static func matches(_ path: String) -> Bool {
        path.hasPrefix(prefix)
    }

    /// The parts of a document path: app id, flow, version and locale (still to be checked).
    static func parts(of path: String) -> (app: String, flow: String, version: String, locale: String)? {
        let segments = path.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard segments.count == 4, segments[3].hasSuffix(".json"),
            let app = percentDecoded(segments[0]), let flow = percentDecoded(segments[1]),
            let version = percentDecoded(segments[2]), let locale = percentDecoded(String(segments[3].dropLast(5)))
        else { return nil }
        return (app, flow, version, locale)
    }

    static func answer(path: String, headers: HTTPFields, setup: CaptureServerSetup) -> ServerReply {
        guard let parts = parts(of: path) else {
            return notFound("a flow document is at \(prefix)<app id>/<flow>/<version or HEAD>/<locale>.json")
        }
        if let app = setup.config.captureAppId?.value, parts.app != app {
            return notFound("this server serves the flows of app '\(app)', not '\(parts.app)'")
        }
        guard parts.flow == setup.flow.name.value else { return notFound("no flow '\(parts.flow)' (this server serves '\(setup.flow.name.value)')") }
        guard parts.version == "HEAD" || parts.version == setup.flow.version.value else {
            return notFound(
                "flow '\(parts.flow)' has no version '\(parts.version)' (the current one is '\(setup.flow.version.value)', or ask for HEAD)")
        }
        guard let locale = LocaleTag(parts.locale) else { return notFound("'\(parts.locale)' is not a locale tag") }
        let text: String
        do {
            text = try CaptureFlowDocument.text(setup.flow, localizer: setup.localizer, locale: locale)
        } catch {
            return .error(
                500, "internal_error", "the flow cannot be written as a Capture flow document: \(error.description)",
                status: .internalServerError)
        }
        let plain = Array(text.utf8)
        let digest = SHA256.hash(data: plain).prefix(16).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
        let gzipped = acceptsGzip(headers[values: .acceptEncoding]) ? gzip(plain) : nil
        let tag = gzipped == nil ? "\"\(digest)\"" : "\"\(digest)-gzip\""
        var fields: HTTPFields = [:]
        fields[.eTag] = tag
        fields[.vary] = "Accept-Encoding"
        fields[.cacheControl] = "no-cache"
        if matches(headers[values: .ifNoneMatch], digest: digest) {
            return ServerReply(status: .notModified, contentType: ServerReply.jsonContentType, body: "", headers: fields)
        }
        var reply = ServerReply(status: .ok, contentType: ServerReply.jsonContentType, body: "", headers: fields)
        if let gzipped {
            reply.headers[.contentEncoding] = "gzip"
            reply.bytes = gzipped
        } else {
            reply.bytes = plain
        }
        return reply
    }

    static func notFound(_ description: String) -> ServerReply {
        .error(404, "not_found", description, status: .notFound)
    }

    /// Whether `If-None-Match` names the document's current tag (either coding's) or is `*`.
    /// Weak comparison, as RFC 9110 asks for `If-None-Match`.
    static func matches(_ values: [String], digest: String) -> Bool {
        let current: Set<Substring> = ["\"\(digest)\"", "\"\(digest)-gzip\""]
        for value in values {
            for item in value.split(separator: ",") {
                var tag = item.drop { $0 == " " || $0 == "\t" }
                while tag.last == " " || tag.last == "\t" { tag = tag.dropLast() }
                if tag == "*" { return true }
                if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
                if current.contains(tag) { return true }
            }
        }
        return false
    }

    /// Whether `Accept-Encoding` lets the answer be gzipped: `gzip` (or `x-gzip`, or `*`) with
    /// a weight above zero, unless `gzip` itself is given weight zero.
    static func acceptsGzip(_ values: [String]) -> Bool {
        var gzipWeight: Double?
        var anyWeight: Double?
        for value in values {
            for item in value.split(separator: ",") {
                let pieces = item.split(separator: ";").map { $0.trimmingBlanks().lowercased() }
                guard let coding = pieces.first, !coding.isEmpty else { continue }
                var weight = 1.0
                for parameter in pieces.dropFirst() where parameter.hasPrefix("q=") {
                    weight = Double(parameter.dropFirst(2)) ?? 0
                }
                switch coding {
                case "gzip", "x-gzip": gzipWeight = max(gzipWeight ?? 0, weight)
                case "*": anyWeight = weight
                default: break
                }
            }
        }
        if let gzipWeight { return gzipWeight > 0 }
        return (anyWeight ?? 0) > 0
    }

    /// `bytes` as one gzip member (RFC 1952), by the system zlib.
    static func gzip(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        // windowBits 15 + 16: a gzip header and trailer around the deflate data.
        guard
            deflateInit2_(
                &stream, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
                ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { return nil }
        defer { deflateEnd(&stream) }
        var input = bytes
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 32)
        let produced: Int? = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                guard deflate(&stream, Z_FINISH) == Z_STREAM_END else { return nil }
                return target.count - Int(stream.avail_out)
            }
        }
        guard let produced else { return nil }
        output.removeSubrange(produced...)
        return output
    }

    /// A path segment with its `%XX` escapes decoded (nil when they do not make UTF-8).
    static func percentDecoded(_ segment: String) -> String? {
        guard segment.utf8.contains(UInt8(ascii: "%")) else { return segment }
        var bytes: [UInt8] = []
        var utf8 = segment.utf8.makeIterator()
        while let byte = utf8.next() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard let high = utf8.next().flatMap(hexValue), let low = utf8.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

private extension Substring {
    /// Without the spaces and tabs around it.
    func trimmingBlanks() -> String {
        let drop: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !drop($0) }), let last = lastIndex(where: { !drop($0) }) else { return "" }
        return String(self[first...last])
    }
}

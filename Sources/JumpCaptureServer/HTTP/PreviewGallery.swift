import Crypto
import JumpForms
import JumpWebPages
import Synchronization
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The gallery `jump-forms preview` serves at `/preview`: every form of the flow in every
/// locale, grouped by form, each locale an `<iframe>` of its hosted form
/// (`/forms/<name>?locale=<tag>&preview=1`) at phone width; above them, the located problems
/// of the last reload when it did not lint clean (the forms stay the last good ones).
///
/// The page reloads itself when the generation moves on: a few lines of JavaScript long-poll
/// `/preview/generation?after=<generation>`, which answers when the generation differs from
/// `after`, when the server is about to restart (`release()`), or after `pollTimeout`. The
/// poll starts after the page's `load` event (a request in flight before it would hold the
/// event, and a headless browser waiting for the page would never finish). The page fits a
/// phone's width: each frame is at most as wide as the screen, borders included.
/// A server whose setup has a gallery is in preview mode (`CaptureServerSetup.isPreview`).
public final class PreviewGallery: Sendable {
    /// What the gallery shows: the flow's forms and the locales they are shown in.
    public struct Content: Sendable, Equatable {
        public var flowName: String
        public var forms: [String]
        public var locales: [LocaleTag]

        public init(flowName: String, forms: [String], locales: [LocaleTag]) {
            self.flowName = flowName
            self.forms = forms
            self.locales = locales
        }
    }

    private struct State {
        var generation = 1
        var content: Content
        /// The last reload's problems, rendered as the CLI renders them (nil: it linted clean).
        var problems: String?
        var waiters: [Int: CheckedContinuation<Int, Never>] = [:]
        var nextWaiter = 0
        /// False while the server restarts: generation requests answer at once.
        var holding = true
    }

    private let state: Mutex<State>
    /// How long a generation request waits for a change before it answers the same generation.
    let pollTimeout: Duration

    public init(_ content: Content, pollTimeout: Duration = .seconds(20)) {
        state = Mutex(State(content: content))
        self.pollTimeout = pollTimeout
    }

    /// Starts at 1; each `publish` and `show(problems:)` adds one.
    public var generation: Int { state.withLock { $0.generation } }
    /// The forms and locales shown (the last good ones).
    public var content: Content { state.withLock { $0.content } }
    /// The problems shown above the forms, or nil.
    public var problems: String? { state.withLock { $0.problems } }

    /// Shows `content` (a reload that linted clean): the problems go, the generation moves on,
    /// and waiting generation requests are answered.
    public func publish(_ content: Content) {
        advance {
            $0.content = content
            $0.problems = nil
        }
    }

    /// Shows a reload's problems (`path:line:col: error[CODE]: message` and the excerpt) above
    /// the last good forms; the generation moves on.
    public func show(problems: String) {
        advance { $0.problems = problems }
    }

    /// Answers the waiting generation requests with the current generation and answers the
    /// next ones at once, until the next `publish` or `show(problems:)`: the server can then
    /// stop without waiting for them.
    public func release() {
        let waiting = state.withLock { state in
            state.holding = false
            defer { state.waiters = [:] }
            return (state.waiters.values, state.generation)
        }
        for waiter in waiting.0 { waiter.resume(returning: waiting.1) }
    }

    private func advance(_ change: (inout State) -> Void) {
        let waiting = state.withLock { state in
            change(&state)
            state.generation += 1
            state.holding = true
            defer { state.waiters = [:] }
            return (state.waiters.values, state.generation)
        }
        for waiter in waiting.0 { waiter.resume(returning: waiting.1) }
    }

    /// The generation once it differs from `seen`, or the same one after `pollTimeout`, on
    /// `release()` or when the request is cancelled.
    func generation(after seen: Int) async -> Int {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        let timeout = pollTimeout
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            self?.answer(id)
        }
        defer { timer.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
                let now = state.withLock { state -> Int? in
                    if state.generation != seen || !state.holding { return state.generation }
                    state.waiters[id] = continuation
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            answer(id)
        }
    }

    /// Answers one waiting request with the current generation (its timeout, its cancellation).
    private func answer(_ id: Int) {
        let found = state.withLock { state in (state.waiters.removeValue(forKey: id), state.generation) }
        found.0?.resume(returning: found.1)
    }

    /// The gallery page; `only` (the page's `locale` parameters) narrows the locales shown.
    func page(only: [String] = []) -> String {
        let (content, problems, generation) = state.withLock { ($0.content, $0.problems, $0.generation) }
        let locales = only.isEmpty ? content.locales : content.locales.filter { only.contains($0.identifier) }
        let forms = content.forms.map { form in
            GalleryPage.Form(
                name: form,
                frames: locales.map { locale in
                    GalleryPage.Frame(
                        locale: locale.identifier,
                        source: "/forms/\(Self.percentEncoded(form))?locale=\(Self.percentEncoded(locale.identifier))&preview=1")
                })
        }
        return PageRenderer.gallery(
            GalleryPage(flowName: content.flowName, generation: generation, locales: locales.map(\.identifier), forms: forms, problems: problems))
    }

    /// The gallery's `Content-Security-Policy`: `'self'` as every page, its own inline style
    /// and script allowed by their SHA-256 hashes (they are the template's, never a value), and
    /// framed by nothing.
    static let contentSecurityPolicy: String = {
        // An empty rendering: the style and script are constant text of the template.
        let page = PageRenderer.gallery(GalleryPage(flowName: "", generation: 0, locales: [], forms: []))
        func hash(_ tag: String) -> String {
            guard let open = page.firstRange(of: "<\(tag)>"), let close = page[open.upperBound...].firstRange(of: "</\(tag)>") else {
                return ""
            }
            let digest = SHA256.hash(data: Array(page[open.upperBound..<close.lowerBound].utf8))
            return " 'sha256-\(Data(digest).base64EncodedString())'"
        }
        return "default-src 'self'; style-src 'self'\(hash("style")); script-src 'self'\(hash("script")); frame-ancestors 'none'"
    }()

    /// A path segment or query value with everything but unreserved characters percent-encoded.
    static func percentEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                out += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 15)])
            }
        }
        return out
    }
}

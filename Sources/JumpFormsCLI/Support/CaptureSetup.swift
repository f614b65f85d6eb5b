import ArgumentParser
import JumpCapture
import JumpForms

/// The protocol side of a workspace: where Capture and Engage are, the request builders, the
/// response decoder and the session store.
struct CaptureSetup {
    let workspace: Workspace
    let config: ClientConfig
    let capture: ServerURL
    let builder: RequestBuilder
    let engageBuilder: EngageRequestBuilder
    let decoder: ResponseDecoder
    let sessionStore: FileSessionStore

    /// - Parameter captureURL: overrides `captureDomain` (e.g. the embedded server's URL).
    init(workspace: Workspace, environment: [String: String], captureURL: String?, console: Console) throws {
        guard let config = workspace.project.config else {
            throw ValidationError("this command needs jump.yaml (the client configuration): pass --config FILE")
        }
        self.workspace = workspace
        self.config = config
        let captureText: String
        if let captureURL {
            captureText = captureURL
        } else {
            switch config.captureDomain.value {
            case .url(let url): captureText = url
            case .embedded: captureText = "http://127.0.0.1"
            }
        }
        guard let capture = ServerURL(captureText) else { throw ValidationError("not a server URL: \(captureText)") }
        guard let engage = ServerURL(config.engageDomain.value) else { throw ValidationError("not a URL: \(config.engageDomain.value)") }
        self.capture = capture
        self.builder = RequestBuilder(config: config, flow: workspace.flow, localizer: workspace.localizer, locale: workspace.locale, capture: capture)
        self.engageBuilder = EngageRequestBuilder(config: config, engage: engage)
        self.decoder = ResponseDecoder(flow: workspace.flow, config: config)
        self.sessionStore = FileSessionStore(name: config.captureClientId.value, environment: environment)
    }
}

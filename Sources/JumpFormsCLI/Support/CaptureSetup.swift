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
        let capture: ServerURL
        switch (captureURL, config.captureDomain.value) {
        case (let text?, _), (nil, .url(let text)):
            guard let url = ServerURL(text) else { throw ValidationError("not a server URL: \(text)") }
            capture = url
        case (nil, .embedded):
            // Replaced by the running server's URL when one starts; printed as a placeholder.
            capture = .embeddedPlaceholder
        }
        guard let engage = ServerURL(config.engageDomain.value) else { throw ValidationError("not a URL: \(config.engageDomain.value)") }
        self.capture = capture
        self.builder = RequestBuilder(config: config, flow: workspace.flow, localizer: workspace.localizer, locale: workspace.locale, capture: capture)
        self.engageBuilder = EngageRequestBuilder(config: config, engage: engage)
        self.decoder = ResponseDecoder(flow: workspace.flow, config: config)
        self.sessionStore = FileSessionStore(name: config.captureClientId.value, environment: environment)
    }
}

extension Workspace {
    /// A request that cannot be built, as the CLI reports it (exit 2): a located diagnostic
    /// when the error has a place in the files (`JF316`: jump.yaml names a form the flow
    /// lacks), else a usage error with its description.
    func refusal(_ error: RequestError, console: Console) -> any Error {
        guard let diagnostic = error.diagnostic else { return ValidationError(error.description) }
        console.err(DiagnosticRenderer(sources: project.sources, useColor: console.colorErr).render([project.withheld.apply(to: diagnostic)]))
        return ExitCode(2)
    }
}

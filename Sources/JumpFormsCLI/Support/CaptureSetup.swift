import ArgumentParser
import JumpCapture
import JumpCaptureNIO
import JumpForms

/// The protocol side of a workspace: where Capture and Engage are, the request builders, the
/// response decoder and the session store.
struct CaptureSetup {
    let workspace: Workspace
    let config: ClientConfig
    private(set) var capture: ServerURL
    /// Whether Capture is a server of its own (`captureDomain` a URL, or `--capture-url`) rather
    /// than the embedded one: its requests send the downloaded flow document's `version`.
    let isRemote: Bool
    private(set) var builder: RequestBuilder
    let engageBuilder: EngageRequestBuilder
    let decoder: ResponseDecoder
    let sessionStore: FileSessionStore

    /// - Parameter captureURL: overrides `captureDomain`.
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
            isRemote = true
        case (nil, .embedded):
            // Replaced by the running server's URL when one starts; printed as a placeholder.
            capture = .embeddedPlaceholder
            isRemote = false
        }
        guard let engage = ServerURL(config.engageDomain.value) else { throw ValidationError("not a URL: \(config.engageDomain.value)") }
        self.capture = capture
        self.builder = RequestBuilder(
            config: config, flow: workspace.flow, localizer: workspace.localizer, locale: workspace.locale, capture: capture)
        self.engageBuilder = EngageRequestBuilder(config: config, engage: engage)
        self.decoder = ResponseDecoder(flow: workspace.flow, config: config)
        self.sessionStore = FileSessionStore(name: config.captureClientId.value, environment: environment)
    }

    /// The same setup with its builder pointed at another Capture URL (the embedded server
    /// once it runs) and sending `flowVersion` (by default the one it sends now).
    func with(capture newCapture: ServerURL? = nil, flowVersion: String? = nil) -> CaptureSetup {
        var copy = self
        copy.capture = newCapture ?? capture
        copy.builder = RequestBuilder(
            config: config, flow: workspace.flow, localizer: workspace.localizer, locale: workspace.locale,
            capture: copy.capture, flowVersion: flowVersion ?? builder.flowVersion)
        return copy
    }

    /// Where the flow document is, for a remote Capture; a usage error (exit 2) naming the key
    /// when the configuration cannot say.
    func flowDocumentSource() throws -> FlowDocumentSource {
        guard let appId = config.captureAppId?.value, !appId.isEmpty else {
            throw ValidationError(
                "\(config.path): captureAppId is not set: against a remote Capture (\(capture)) requests send the "
                    + "downloaded flow document's version as flow_version, as the SDKs do, and the document's URL needs captureAppId")
        }
        guard let source = FlowDocumentSource(config: config, capture: capture, flowName: builder.flowName, locale: builder.locale) else {
            throw ValidationError("\(config.path): captureFlowDomain is not a server URL: \(config.captureFlowDomain?.value ?? "")")
        }
        return source
    }

    /// Against a remote Capture, downloads the flow document's `version` (what the SDKs send
    /// as `flow_version`) and returns the setup whose builder sends it; warns on standard error
    /// when the local flow's `version` differs, naming both and the place of the local one. A
    /// download that fails exits 1 naming the URL: the SDKs cannot sign in without the flow
    /// document either. `hint` ends that message.
    func withDownloadedFlowVersion(
        console: Console, hint: String = "",
        downloader: FlowVersionDownloader = FlowVersionDownloader()
    ) async throws -> CaptureSetup {
        guard isRemote else { return self }
        let source = try flowDocumentSource()
        let version: String
        do {
            version = try await downloader.version(of: source)
        } catch {
            console.err(
                "error: \(TerminalText.escaped(String(describing: error)))\nrequests send the flow document's version as flow_version, as the SDKs do: check captureFlowDomain, "
                    + "captureAppId, captureFlowName, captureFlowVersion and captureLocale in \(config.path)\(hint)\n")
            throw ExitCode(1)
        }
        let local = workspace.flow.version
        if local.value != version {
            console.err(
                "\(local.location): warning: the flow's version '\(local.value)' differs from the flow document's "
                    + "'\(TerminalText.escaped(version))' (\(source.url)); requests send flow_version '\(TerminalText.escaped(version))', as the SDKs do\n"
            )
        }
        return with(flowVersion: version)
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

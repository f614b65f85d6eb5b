import ArgumentParser
import JumpCapture
import JumpCaptureNIO
import JumpForms

extension CaptureSetup {
    /// The setup of a workspace's jump.yaml and flow, as the CLI reports its errors (usage
    /// errors).
    /// - Parameter captureURL: overrides `captureDomain`.
    init(workspace: Workspace, captureURL: String?) throws {
        guard let config = workspace.project.config else {
            throw ValidationError("this command needs jump.yaml (the client configuration): pass --config FILE")
        }
        var capture: ServerURL?
        if let captureURL {
            guard let url = ServerURL(captureURL) else { throw ValidationError("not a server URL: \(captureURL)") }
            capture = url
        }
        do {
            try self.init(config: config, flow: workspace.flow, localizer: workspace.localizer, locale: workspace.locale, capture: capture)
        } catch {
            throw ValidationError(error.description)
        }
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
        let source: FlowDocumentSource
        do { source = try flowDocumentSource() } catch { throw ValidationError(error.description) }
        let version: String
        do {
            version = try await downloader.version(of: source)
        } catch {
            console.err(
                "error: \(TerminalText.escaped(String(describing: error)))\nrequests send the flow document's version as flow_version, as the SDKs do: check captureFlowDomain, "
                    + "captureAppId, captureFlowName, captureFlowVersion and captureLocale in \(config.path)\(hint)\n")
            throw ExitCode(1)
        }
        let local = flow.version
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

/// A flow made from Capture flow documents (JSON) held in memory: what an app that ships or
/// downloads its flow as JSON uses instead of the YAML loader (no libyaml, no file access).
/// `jump-forms flow export` writes such documents and `jump-forms serve` serves them at
/// `/widget_data/flows/<app>/<flow>/<version>/<locale>.json`; Capture's own documents are
/// read too (see `CaptureFlowDocumentReader` for what they cannot carry).
///
/// ```swift
/// let data = try Data(contentsOf: Bundle.main.url(forResource: "fr-FR", withExtension: "json")!)
/// let flow = try DocumentFlow(document: data, path: "fr-FR.json")
/// let model = try FormInterpreter(flow: flow.flow, localizer: flow.localizer())
///     .model(form: "registrationForm", locale: LocaleTag("fr-FR")!)
/// ```
public struct DocumentFlow: Sendable {
    /// The flow the documents make.
    public var flow: Flow
    /// One catalog per locale: the messages the documents carry (or make of their texts).
    public var catalogs: [LocaleCatalog]
    /// What the documents hold that the flow has no place for (dropped), each with its place.
    public var warnings: [Diagnostic]
    /// The documents' bytes, by path, for rendering the warnings with their lines.
    public var sources: SourceFiles

    /// The flow of one document. `path` names it in diagnostics; a Capture document that does
    /// not say its locale takes it from the path's file name (`fr-FR.json`), and its flow's
    /// name from a CDN path (`standard/HEAD/fr-FR.json`).
    public init<Bytes: Collection<UInt8>>(document bytes: Bytes, path: String = "flow.json") throws(FlowDocumentReadError) {
        try self.init(documents: [(path: path, bytes: Array(bytes))])
    }

    /// The flow of several documents of one flow, one per locale. `name` and `defaultLocale`
    /// win over what the documents say.
    public init(documents: [(path: String, bytes: [UInt8])], name: String? = nil, defaultLocale: LocaleTag? = nil) throws(FlowDocumentReadError) {
        var sources = SourceFiles()
        var read: [CaptureFlowDocumentReader.Document] = []
        for document in documents {
            sources.add(path: document.path, bytes: document.bytes)
            read.append(CaptureFlowDocumentReader.read(document.bytes, file: document.path))
        }
        let result = CaptureFlowDocumentReader.combine(
            read, name: name, defaultLocale: defaultLocale, fallbackCatalogs: BuiltinCatalog.catalogs)
        guard let flow = result.flow, !result.diagnostics.containsErrors else {
            var diagnostics = result.diagnostics
            if !diagnostics.containsErrors {
                // No document was given.
                diagnostics.append(Diagnostic(.flowDocumentMissingKey, "no flow document was given", at: nil, severity: .error))
            }
            throw FlowDocumentReadError(diagnostics: diagnostics, sources: sources)
        }
        self.flow = flow
        self.catalogs = result.catalogs
        self.warnings = result.diagnostics
        self.sources = sources
    }

    /// A localizer over the documents' messages, with `fallbackCatalogs` (jump-forms' own
    /// words, compiled in) last.
    public func localizer(fallbackCatalogs: [LocaleCatalog] = BuiltinCatalog.catalogs) -> Localizer {
        Localizer(defaultLocale: flow.defaultLocale.value, catalogs: catalogs, fallbackCatalogs: fallbackCatalogs)
    }
}

/// Why documents make no flow: every problem, each at its line and column.
public struct FlowDocumentReadError: Error, Sendable, CustomStringConvertible {
    /// The errors (and any warnings) of the documents.
    public var diagnostics: [Diagnostic]
    /// The documents' bytes, by path.
    public var sources: SourceFiles

    public init(diagnostics: [Diagnostic], sources: SourceFiles) {
        self.diagnostics = diagnostics
        self.sources = sources
    }

    /// `path:line:col: error[CODE]: message` with the quoted line and a caret, per diagnostic.
    public var description: String { DiagnosticRenderer(sources: sources).render(diagnostics) }
}

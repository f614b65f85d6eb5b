import JumpFiles
import JumpForms

/// Capture flow documents (JSON) as flows: a path ending in `.json` given to the loader (on
/// the command line, as `--flow`, or as jump.yaml's `flow:`) is read as Capture's flow
/// document for one locale. The documents of one flow (one per locale) make one flow whose
/// catalogs are the messages the documents carry, or the texts they hold (see
/// `CaptureFlowDocumentReader`).
extension ProjectLoader {
    /// Whether `path` names a flow document rather than a YAML file.
    public static func isFlowDocument(_ path: String) -> Bool {
        path.hasSuffix(".json")
    }

    /// Reads the documents at `paths` and makes a flow of each set of documents of one flow
    /// (documents naming no flow go together). The bytes of the files go to `project.sources`
    /// and every diagnostic to `project.diagnostics`. `config` names the flow of documents
    /// that do not say theirs (its `captureFlowName`), unless `flowDocumentName` is set.
    public func loadFlowDocuments(_ paths: [String], config: ClientConfig?, into project: inout LoadedProject) -> [LoadedFlow] {
        var documents: [CaptureFlowDocumentReader.Document] = []
        for path in paths {
            project.files.insert(PathText.normalize(path))
            switch FileAccess.read(path, limit: limits.maximumFileSize, from: directory) {
            case .failure(let error):
                project.diagnostics.append(error.diagnostic)
            case .success(let bytes):
                project.sources.add(path: path, bytes: bytes)
                documents.append(CaptureFlowDocumentReader.read(bytes, file: path))
            }
        }
        var groups: [(name: String, documents: [CaptureFlowDocumentReader.Document])] = []
        for document in documents {
            let name = document.flowName?.value ?? document.flowNameFromPath ?? ""
            if let index = groups.firstIndex(where: { $0.name == name }) {
                groups[index].documents.append(document)
            } else {
                groups.append((name, [document]))
            }
        }
        var flows: [LoadedFlow] = []
        for group in groups {
            let name = flowDocumentName ?? (group.name.isEmpty ? config?.captureFlowName?.value : nil)
            let result = CaptureFlowDocumentReader.combine(
                group.documents, name: name, defaultLocale: flowDocumentDefaultLocale,
                fallbackCatalogs: BuiltinCatalog.catalogs)
            project.diagnostics += result.diagnostics
            guard let flow = result.flow else { continue }
            var loaded = LoadedFlow(
                flow: flow, localesDirectory: PathText.normalize(flow.path), catalogs: result.catalogs,
                isComplete: !result.diagnostics.containsErrors)
            loaded.documentLocales = group.documents.compactMap(\.locale?.value)
            flows.append(loaded)
        }
        return flows
    }
}

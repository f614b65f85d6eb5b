import JumpForms

/// jump-forms' own words, in the same locale-file format as the user's (see
/// `Sources/JumpFormsLoader/Catalog`). A user's locale file can override any key; the
/// localizer consults these after the user's catalogs.
public enum BuiltinCatalog {
    /// The path shown for the catalog's files in diagnostics.
    public static let directory = "<builtin>"

    /// The catalogs, en-US first (the fallback of the others).
    public static let catalogs: [LocaleCatalog] = {
        var project = LoadedProject()
        var result: [LocaleCatalog] = []
        for (name, text) in texts {
            let path = "\(directory)/\(name)"
            let bytes = Array((text + "\n").utf8)
            project.sources.add(path: path, text: text)
            let read = LocaleDecoder.read(bytes, path: path, limits: .default)
            guard let document = read.result.document else { continue }
            var decoder = LocaleDecoder(path: path, bytes: bytes, streamed: read.messages)
            if let catalog = decoder.decode(document, expectedTag: nil) { result.append(catalog) }
        }
        return result.sorted {
            ($0.tag.value.identifier == "en-US" ? 0 : 1, $0.tag.value) < ($1.tag.value.identifier == "en-US" ? 0 : 1, $1.tag.value)
        }
    }()

    /// Every key the built-in catalog defines.
    public static var keys: Set<String> {
        Set(catalogs.flatMap(\.keys))
    }

    /// The catalogs' YAML texts, for diagnostics that quote them.
    public static var sources: SourceFiles {
        var files = SourceFiles()
        for (name, text) in texts { files.add(path: "\(directory)/\(name)", text: text) }
        return files
    }
}

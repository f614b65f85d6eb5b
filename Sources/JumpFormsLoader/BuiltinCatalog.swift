import JumpForms

/// The built-in catalog's YAML files (`Sources/JumpFormsLoader/Catalog`), embedded as text:
/// diagnostics quote them, and `decodedFromYAML` is what the compiled table
/// (`BuiltinCatalog.catalogs`, in JumpLocalization) must equal.
extension BuiltinCatalog {
    /// The catalogs as the loader decodes them from the embedded YAML texts, en-US first.
    public static var decodedFromYAML: [LocaleCatalog] {
        var result: [LocaleCatalog] = []
        for (name, text) in texts {
            let path = "\(directory)/\(name)"
            let bytes = Array((text + "\n").utf8)
            let read = LocaleDecoder.read(bytes, path: path, limits: .default)
            guard let document = read.result.document else { continue }
            var decoder = LocaleDecoder(path: path, bytes: bytes, streamed: read.messages)
            if let catalog = decoder.decode(document, expectedTag: nil) { result.append(catalog) }
        }
        return ordered(result)
    }

    /// The catalogs' YAML texts, for diagnostics that quote them.
    public static var sources: SourceFiles {
        var files = SourceFiles()
        for (name, text) in texts { files.add(path: "\(directory)/\(name)", text: text) }
        return files
    }
}

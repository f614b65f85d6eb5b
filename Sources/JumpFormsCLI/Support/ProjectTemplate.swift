#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation
import JumpFiles
import JumpForms

/// The example project `jump-forms init` writes: the repository's jump.yaml, identities.yaml,
/// flows/standard.yaml (with its icon) and locale files, embedded at build time
/// (`scripts/embed-project-template.sh`), and a .gitignore.
enum ProjectTemplate {
    /// A file of the new project: its path relative to the project folder and its bytes.
    struct File: Equatable {
        var path: String
        var bytes: [UInt8]
    }

    /// The locale written always: the flow's default and jump.yaml's `captureLocale`.
    static let defaultLocale = "en-US"

    static let gitignore = """
        # What jump-forms writes into a project when asked to (its own state lives under
        # XDG_STATE_HOME, XDG_DATA_HOME and XDG_CONFIG_HOME): a server database placed here
        # (server.database), flow documents exported here (`flow export --out cdn`), builds.
        *.sqlite
        *.sqlite-shm
        *.sqlite-wal
        /cdn/
        .build/

        """

    /// The client id of the repository's example (its database and session are named by it).
    static let exampleClientID = "localdev0123456789abcdefghijklmn"

    /// A client id of its own for a new project, so that its local database and session are
    /// not the checkout's: `localdev` and 24 random lower-case letters and digits.
    static func newClientID(using generator: inout some RandomNumberGenerator) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        return "localdev" + String((0..<24).map { _ in alphabet.randomElement(using: &generator)! })
    }

    /// The files of a project with `en-US` and `locales`: a locale the template has is its
    /// translation; another starts from the template's translation that serves it best
    /// (fr-FR's for fr-CA, as `LocaleMatcher` negotiates), else from en-US's, to translate.
    /// jump.yaml gets `clientID` and, when `locales` names one, the first as `captureLocale`.
    static func files(locales: [LocaleTag], clientID: String) -> [File] {
        var files: [File] = []
        let localePaths = Set(texts.map(\.path).filter { $0.hasPrefix("locales/") })
        for (path, text) in texts where !localePaths.contains(path) {
            let content = path == "jump.yaml" ? configText(text, clientID: clientID, captureLocale: locales.first) : text
            files.append(File(path: path, bytes: Array((content + "\n").utf8)))
        }
        for (path, base64) in binaries {
            files.append(File(path: path, bytes: Array(Data(base64Encoded: base64) ?? Data())))
        }
        var tags = [defaultLocale]
        for tag in locales.map(\.identifier) where !tags.contains(tag) { tags.append(tag) }
        for tag in tags {
            files.append(File(path: "locales/\(tag).yaml", bytes: Array((localeText(tag) + "\n").utf8)))
        }
        files.append(File(path: ".gitignore", bytes: Array(gitignore.utf8)))
        return files
    }

    /// The example's jump.yaml with its own client id and, if given, its `captureLocale`.
    static func configText(_ text: String, clientID: String, captureLocale: LocaleTag?) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for index in lines.indices {
            if lines[index].hasPrefix("captureClientId:") {
                lines[index] = lines[index].replacingOccurrences(of: exampleClientID, with: clientID)
            } else if let captureLocale, lines[index].hasPrefix("captureLocale:") {
                lines[index] = "captureLocale: \(captureLocale.identifier)"
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The tags the template has a locale file for, sorted.
    static var templateLocales: [LocaleTag] {
        texts.compactMap { file -> LocaleTag? in
            guard file.path.hasPrefix("locales/"), file.path.hasSuffix(".yaml") else { return nil }
            return LocaleTag(String(file.path.dropFirst("locales/".count).dropLast(".yaml".count)))
        }.sorted()
    }

    /// The template's locale file for `tag`; else the messages of the template's locale that
    /// serves `tag` best (fr-FR for fr-CA), else en-US's, under `tag`.
    static func localeText(_ tag: String) -> String {
        if let text = texts.first(where: { $0.path == "locales/\(tag).yaml" })?.text { return text }
        let source = LocaleTag(tag).flatMap { LocaleMatcher(available: templateLocales).bestMatch(for: $0)?.identifier } ?? defaultLocale
        let original = texts.first { $0.path == "locales/\(source).yaml" }?.text ?? ""
        var lines = original.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while let first = lines.first, first.hasPrefix("#") { lines.removeFirst() }
        lines = lines.map { $0 == "locale: \(source)" ? "locale: \(tag)" : $0 }
        let header =
            source == defaultLocale
            ? [
                "# \(tag): en-US's messages, to translate. `jump-forms locales check` lists the ones",
                "# still the same as en-US (same-as-source)."
            ]
            : ["# \(tag): \(source)'s messages (the nearest translation the example has), to adapt to \(tag)."]
        return (header + lines).joined(separator: "\n")
    }

    /// Writes `files` under `folder`, creating the folders they need, after checking that none
    /// of them exists: nothing is overwritten, and a refusal writes nothing.
    static func write(_ files: [File], into folder: String) throws -> [String] {
        let paths = files.map { PathText.join(folder, $0.path) }
        var info = stat()
        let existing = paths.filter { lstat(WorkingDirectory.path($0), &info) == 0 }
        guard existing.isEmpty else { throw InitRefusal(existing: existing) }
        for (file, path) in zip(files, paths) {
            let folder = PathText.folder(of: path)
            guard LocaleFileIO.createFolder(folder) else { throw FileFailure.system(folder) }
            try AtomicFile.write(file.bytes, to: WorkingDirectory.path(path), mode: 0o644)
        }
        return paths
    }
}

/// `init` found files it would overwrite.
struct InitRefusal: Error, CustomStringConvertible {
    var existing: [String]

    var description: String {
        "not overwriting what is there already (move it away, or init another folder): " + existing.joined(separator: ", ")
    }
}

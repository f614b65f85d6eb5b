#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import JumpFiles
import JumpForms

/// What diagnostics never show, in any output (text, JSON, SARIF):
/// - the values `jump.yaml` took from the environment (`${NAME}`): a diagnostic about such a
///   value (at its place) shows `${NAME}` where the value would be, and its hint says the
///   value is not shown;
/// - the contents of files outside the project that `jump.yaml` points at (its flow, and the
///   flow's locale files). The project is `jump.yaml`'s folder and the folders below it, as
///   their real paths say (a link that leads out leads outside). A diagnostic in such a file
///   keeps its code, severity and place (file, line, column); its message, hint and notes are
///   replaced by a sentence saying why, and no line of the file is quoted. Files and folders
///   named on the command line are the user's choice and are shown in full.
public struct Withheld: Sendable {
    /// A `jump.yaml` value with `${NAME}` in it, as written and as expanded.
    struct Expansion: Sendable {
        var location: SourceLocation
        /// The scalar as written (`https://${HOST}/`).
        var written: String
        /// The scalar expanded.
        var value: String
        /// The variables the environment gave (defaults written in the file are not secret).
        var variables: [(name: String, value: String)]
    }

    var expansions: [Expansion] = []
    /// Files outside the project that a `jump.yaml` points at, with that project's folder.
    var outsideFiles: [String: String] = [:]
    /// Folders (of locale files) outside the project, with that project's folder.
    var outsideFolders: [String: String] = [:]

    public init() {}

    /// Whether nothing is withheld.
    public var isEmpty: Bool { expansions.isEmpty && outsideFiles.isEmpty && outsideFolders.isEmpty }

    /// The project folder of a file outside it, or nil for a file shown in full.
    func projectFolder(outside file: String) -> String? {
        let path = PathText.normalize(file)
        if let folder = outsideFiles[path] { return folder }
        return outsideFolders.first { path.hasPrefix($0.key + "/") }?.value
    }

    public func apply(to diagnostics: [Diagnostic]) -> [Diagnostic] {
        isEmpty ? diagnostics : diagnostics.map(apply)
    }

    /// The diagnostic as it may be shown.
    public func apply(to diagnostic: Diagnostic) -> Diagnostic {
        var shown = hidingValues(diagnostic)
        if let location = shown.location, let folder = projectFolder(outside: location.file) {
            return Diagnostic(
                shown.code,
                """
                not shown: '\(location.file)' is outside the project folder '\(folder)' (jump.yaml points at it), so only the place of this finding \
                is shown
                """,
                at: location, severity: shown.severity,
                hint: "to see it in full, check the file by name: jump-forms lint '\(location.file)'", file: shown.file)
        }
        shown.related = shown.related.map { related in
            guard let folder = projectFolder(outside: related.location.file) else { return related }
            return Diagnostic.Related("not shown: the file is outside the project folder '\(folder)'", at: related.location)
        }
        return shown
    }

    private func hidingValues(_ diagnostic: Diagnostic) -> Diagnostic {
        func at(_ location: SourceLocation?, _ expansion: Expansion) -> Bool {
            guard let location else { return false }
            return location.file == expansion.location.file && location.line == expansion.location.line
                && location.column == expansion.location.column
        }
        let matching = expansions.filter { expansion in
            at(diagnostic.location, expansion) || diagnostic.related.contains { at($0.location, expansion) }
        }
        guard !matching.isEmpty else { return diagnostic }
        // The whole value becomes the text as written; a variable's value, wherever it shows
        // alone, its name. Longest first, in one pass (a replacement is never replaced again).
        var replacements: [(String, String)] = []
        for expansion in matching {
            replacements.append((expansion.value, expansion.written))
            for variable in expansion.variables { replacements.append((variable.value, "${\(variable.name)}")) }
        }
        replacements = replacements.filter { !$0.0.isEmpty }.sorted { $0.0.unicodeScalars.count > $1.0.unicodeScalars.count }
        func hide(_ text: String) -> String { Self.replacing(replacements, in: text) }
        var names: [String] = []
        for variable in matching.flatMap(\.variables) where !names.contains(variable.name) { names.append(variable.name) }
        let note = "the value of \(names.map { "${\($0)}" }.joined(separator: ", ")) comes from the environment and is not shown"
        var shown = diagnostic
        shown.message = hide(diagnostic.message)
        shown.hint = diagnostic.hint.map { hide($0) + "; " + note } ?? note
        shown.related = diagnostic.related.map { Diagnostic.Related(hide($0.message), at: $0.location) }
        return shown
    }

    /// `text` with each occurrence of a pattern replaced, scanning once from the start and
    /// trying the patterns in order at each place.
    static func replacing(_ replacements: [(String, String)], in text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        let patterns = replacements.map { (Array($0.0.unicodeScalars), $0.1) }
        var out = String.UnicodeScalarView()
        var index = 0
        scan: while index < scalars.count {
            for (pattern, replacement) in patterns
            where index + pattern.count <= scalars.count
                && scalars[index..<(index + pattern.count)].elementsEqual(pattern)
            {
                out.append(contentsOf: replacement.unicodeScalars)
                index += pattern.count
                continue scan
            }
            out.append(scalars[index])
            index += 1
        }
        return String(out)
    }

    /// Whether `path` (a file or folder that exists) lies outside `folder`'s tree, comparing
    /// real paths; the folder's real path when it does.
    static func outside(_ path: String, project folder: String, from directory: String?) -> String? {
        guard let real = PathText.real(FileAccess.located(path, directory)), let root = PathText.real(FileAccess.located(folder, directory))
        else { return nil }
        if root == "/" || real == root || real.hasPrefix(root + "/") { return nil }
        return root
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Folder and file names of a path, as text (no file-system access).
public enum PathText {
    /// The folder part: `a/b` for `a/b/c`, `/` for `/c`, `.` for `c`.
    public static func folder(of path: String) -> String {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    /// The last part: `c` for `a/b/c`.
    public static func name(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// The file name without folder and extension: `fr-FR` for `locales/fr-FR.yaml`.
    public static func stem(of path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: ".") else { return name }
        return String(name[..<dot])
    }

    /// `folder/name`, with one slash between them.
    public static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// `relative` read from `base`: `base/relative`, or `relative` itself when it is absolute
    /// or `base` is `.` or empty.
    public static func resolve(_ relative: String, against base: String) -> String {
        if relative.hasPrefix("/") || base.isEmpty || base == "." { return relative }
        return join(base, relative)
    }

    /// `a/b/../c` -> `a/c`, `./x` -> `x`, `/../x` -> `/x`: for showing and comparing paths
    /// (lexically: symbolic links are not followed).
    public static func normalize(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
                continue
            }
            if part == "..", absolute { continue }
            parts.append(part)
        }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }

    /// The file's absolute path with symbolic links, `.` and `..` resolved (`realpath`), or nil
    /// when it does not exist.
    public static func real(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Like `real`, for a file that may not exist yet: its folder's real path and its name (the
    /// path as written when the folder does not exist either). Two spellings of one file
    /// compare equal.
    public static func canonical(_ path: String) -> String {
        if let real = real(path) { return real }
        guard let base = real(folder(of: path)) else { return path }
        return join(base, name(of: path))
    }
}

/// Whether a path names a file or a folder, following symbolic links.
public enum FileExists {
    /// True when `path` exists and is not a folder (a regular file, a pipe, a device).
    public static func file(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) != S_IFDIR
    }

    /// True when `path` is a folder.
    public static func directory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}

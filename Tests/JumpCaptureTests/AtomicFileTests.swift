import Foundation
import JumpCapture
import JumpFiles
import Testing
import TestSupport

@Suite struct AtomicFileTests {
    static func permissions(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test func replacesTheWholeFileAndLeavesNoTemporaryFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("file.txt", "the old contents, longer than the new")
        try AtomicFile.write(Array("new".utf8), to: path, mode: 0o644)
        #expect(FileManager.default.contents(atPath: path) == Data("new".utf8))
        try AtomicFile.write([], to: path, mode: 0o644)
        #expect(FileManager.default.contents(atPath: path) == Data())
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["file.txt"])
    }

    @Test func theModeIsLessTheUmaskUnlessIgnoringIt() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // What the process's umask makes of 0666, from a file created the ordinary way.
        let reference = folder.path + "/reference"
        let descriptor = open(reference, O_WRONLY | O_CREAT | O_EXCL, 0o666)
        try #require(descriptor >= 0)
        close(descriptor)
        try AtomicFile.write(Array("a".utf8), to: folder.path + "/masked", mode: 0o666)
        #expect(try Self.permissions(folder.path + "/masked") == Self.permissions(reference))
        try AtomicFile.write(Array("b".utf8), to: folder.path + "/exact", mode: 0o666, ignoringUmask: true)
        #expect(try Self.permissions(folder.path + "/exact") == 0o666)
        try AtomicFile.write(Array("c".utf8), to: folder.path + "/private", mode: 0o600, ignoringUmask: true)
        #expect(try Self.permissions(folder.path + "/private") == 0o600)
    }

    @Test func aFailedWriteNamesThePathAndLeavesNothing() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // No such folder: the temporary file cannot be created.
        let missing = folder.path + "/missing/file.txt"
        do {
            try AtomicFile.write(Array("x".utf8), to: missing, mode: 0o644)
            Issue.record("wrote into a folder that does not exist")
        } catch {
            #expect(error.path == missing)
            #expect(!error.reason.isEmpty)
        }
        // A folder in the way: the rename fails, and the temporary file is removed.
        let occupied = folder.path + "/occupied"
        try FileManager.default.createDirectory(atPath: occupied + "/inside", withIntermediateDirectories: true)
        do {
            try AtomicFile.write(Array("x".utf8), to: occupied, mode: 0o644)
            Issue.record("replaced a folder")
        } catch {
            #expect(error.path == occupied)
            #expect(!error.reason.isEmpty)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["occupied"])
    }

    /// Today's predictable temporary name (`path.tmp-PID`) with a link planted there: the old
    /// writer opened it with O_CREAT | O_TRUNC and wrote through the link.
    @Test func aLinkPlantedAtAPredictableTemporaryNameIsNeverFollowed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let victim = try folder.write("victim", "precious")
        let path = folder.path + "/out.txt"
        try FileManager.default.createSymbolicLink(atPath: path + ".tmp-\(getpid())", withDestinationPath: victim)
        try AtomicFile.write(Array("new".utf8), to: path, mode: 0o644)
        #expect(FileManager.default.contents(atPath: victim) == Data("precious".utf8))
        #expect(FileManager.default.contents(atPath: path) == Data("new".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["out.txt", "out.txt.tmp-\(getpid())", "victim"])
    }

    /// A read-only file is refused as cp refuses it (root too: no write bit at all), and kept.
    @Test func aReadOnlyTargetIsRefusedAndKept() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("file.txt", "old")
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
        do {
            try AtomicFile.write(Array("new".utf8), to: path, mode: 0o644)
            Issue.record("replaced a read-only file")
        } catch {
            #expect(error.path == path)
            #expect(error.reason.hasPrefix("permission denied"))
        }
        #expect(FileManager.default.contents(atPath: path) == Data("old".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["file.txt"])
    }

    /// As cp: an existing file keeps its permissions; a link is written through (the file it
    /// points at replaced, the link kept); a link to nothing is refused.
    @Test func existingFilesKeepTheirModeAndLinksAreWrittenThrough() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("kept.txt", "old")
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
        try AtomicFile.write(Array("new".utf8), to: path, mode: 0o644)
        #expect(try Self.permissions(path) == 0o640)

        let real = try folder.write("sub/real.txt", "old")
        let link = folder.path + "/link.txt"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        try AtomicFile.write(Array("through".utf8), to: link, mode: 0o644)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == real)
        #expect(FileManager.default.contents(atPath: real) == Data("through".utf8))

        let dangling = folder.path + "/dangling.txt"
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: folder.path + "/nowhere")
        #expect(throws: FileFailure.self) { try AtomicFile.write(Array("x".utf8), to: dangling, mode: 0o644) }
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/nowhere"))

        // A private file is never written through a link.
        #expect(throws: FileFailure.self) { try AtomicFile.writePrivate(Array("key".utf8), to: link) }
        #expect(FileManager.default.contents(atPath: real) == Data("through".utf8))

        // A device is written to, not replaced.
        try AtomicFile.write(Array("discarded".utf8), to: "/dev/null", mode: 0o644)
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
    }

    /// Folders others can write and private files others can read are refused, naming the
    /// path and the fix.
    @Test func privateFilesAndTheirFoldersAreCheckedAsSshChecksKeys() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let keys = folder.path + "/keys"
        try AtomicFile.writePrivate(Array("secret".utf8), to: keys + "/a.key")
        #expect(try Self.permissions(keys) == 0o700)
        #expect(try Self.permissions(keys + "/a.key") == 0o600)
        #expect(try PrivateAccess.read(keys + "/a.key") == Array("secret".utf8))

        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: keys + "/a.key")
        do {
            _ = try PrivateAccess.read(keys + "/a.key")
            Issue.record("read a key others can read")
        } catch {
            #expect(error.description.contains("chmod 600 '\(keys)/a.key'"), "\(error)")
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keys + "/a.key")
        try FileManager.default.setAttributes([.posixPermissions: 0o770], ofItemAtPath: keys)
        do {
            try AtomicFile.writePrivate(Array("other".utf8), to: keys + "/a.key")
            Issue.record("wrote into a folder others can write")
        } catch {
            #expect(error.description.contains("chmod 700 '\(keys)'"), "\(error)")
        }
        #expect(throws: FileFailure.self) { try PrivateAccess.read(keys + "/a.key") }
    }

    /// Without HOME, the home folder is the password database's; never /tmp.
    @Test func withoutHOMETheHomeFolderComesFromThePasswordDatabase() throws {
        let entry = try #require(getpwuid(getuid()))
        let home = String(cString: try #require(entry.pointee.pw_dir))
        #expect(HomeFolder.path([:]) == home)
        #expect(HomeFolder.path(["HOME": "relative/path"]) == home)
        #expect(HomeFolder.path(["HOME": "/somewhere"]) == "/somewhere")
        #expect(HomeFolder.xdg("XDG_STATE_HOME", default: ".local/state", ["XDG_STATE_HOME": "not/absolute"]) == home + "/.local/state")
        let store = FileSessionStore(name: "client", environment: [:])
        #expect(store.path == home + "/.local/state/jump-forms/session-client.sealed")
        #expect(store.keyPath == home + "/.config/jump-forms/session.key")
    }

    /// Every file the tree writes goes through `AtomicFile`: no other code creates or writes
    /// files. The exceptions: the empty database file made for SQLite, and the two files
    /// written as a stream rather than replaced whole: `users export`'s JSON lines (appended
    /// as pages arrive, resumable after a cut) and `users import`'s report.
    @Test func noWriterInTheSourcesBypassesAtomicFile() throws {
        let sources = Repository.path("Sources")
        let enumerator = try #require(FileManager.default.enumerator(atPath: sources))
        var bypasses: [String] = []
        for case let relative as String in enumerator where relative.hasSuffix(".swift") || relative.hasSuffix(".c") {
            if relative.hasPrefix("JumpFiles/") { continue }
            let text = try String(contentsOfFile: sources + "/" + relative, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let writes =
                    ["O_CREAT", "O_TRUNC", "write(toFile", "createFile(", "FileHandle(forWriting", "fwrite(", "fputs(", ".write(to: URL"]
                    .contains { line.contains($0) }
                    || (line.contains("fopen(") && (line.contains("\"w") || line.contains("\"a") || line.contains("+\"")))
                let sqliteFile = relative == "JumpCapture/Session.swift" && line.contains("O_CREAT | O_EXCL | O_NOFOLLOW")
                let streamed = ["JumpFormsCLI/Commands/UsersExportCommand.swift", "JumpFormsCLI/Commands/UsersImportCommand.swift"].contains(relative)
                if writes && !sqliteFile && !streamed {
                    bypasses.append("Sources/\(relative):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(bypasses.isEmpty, "\(bypasses.joined(separator: "\n"))")
    }
}

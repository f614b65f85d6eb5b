import Foundation
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
        try AtomicFile.write(Array("b".utf8), to: folder.path + "/exact", mode: 0o666, ignoringUmask: true, sync: true)
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
            #expect(error.path == missing + ".tmp-\(getpid())")
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
}

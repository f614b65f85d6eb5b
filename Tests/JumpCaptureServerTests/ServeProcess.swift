import Foundation
import JumpCapture
import JumpForms
import TestSupport
#if canImport(Glibc)
    import Glibc
#endif

/// A throw-away copy of the example project (flows, locales, identities, jump.yaml with bcrypt
/// cost 4) for the built `jump-forms` binary.
struct ServeProject {
    let folder: TemporaryFolder
    var path: String { folder.path }
    var databasePath: String { folder.path + "/data/capture.sqlite" }

    init() throws {
        folder = try TemporaryFolder("jump-serve-test")
        for item in ["flows", "locales", "identities.yaml"] {
            try FileManager.default.copyItem(atPath: Repository.path(item), toPath: folder.path + "/" + item)
        }
        let config = try String(contentsOfFile: Repository.path("jump.yaml"), encoding: .utf8)
        try folder.write("jump.yaml", config + "server:\n  bcryptCost: 4\n")
    }

    var environment: [String: String] {
        ["HOME": path, "XDG_DATA_HOME": path + "/share", "XDG_STATE_HOME": path + "/state", "NO_COLOR": "1"]
    }

    func run(_ arguments: [String], environment extra: [String: String] = [:]) async throws -> CommandResult {
        try await Executable.run("jump-forms", arguments, in: path, environment: environment.merging(extra) { $1 }, timeout: 30)
    }

    func remove() { folder.remove() }
}

/// `jump-forms serve` running as a child process, its output collected as it comes.
final class ServeProcess: Sendable {
    let child: ChildProcess

    init(_ arguments: [String], project: ServeProject, environment extra: [String: String] = [:]) throws {
        var environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        environment.merge(project.environment) { _, new in new }
        environment.merge(extra) { _, new in new }
        child = try ChildProcess(
            Executable.productsFolder + "/jump-forms", ["serve"] + arguments,
            in: project.path, environment: environment)
    }

    var stdout: String { child.stdout }
    var stderr: String { child.stderr }
    var pid: Int32 { child.pid }

    /// The URL the server printed, once it did.
    func waitForURL(timeout: Double = 20) async throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let late = Date() >= deadline
            let text = stdout
            if let range = text.range(of: " at http://"), let end = text[range.upperBound...].firstIndex(of: "\n") {
                return "http://" + text[range.upperBound..<end]
            }
            if !child.isRunning { break }
            if late { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw HarnessError.unexpected("serve printed no URL; stdout: \(stdout) stderr: \(stderr)")
    }

    func signal(_ number: Int32) {
        child.signal(number)
    }

    /// The exit status (or the signal that ended it), waiting at most `timeout` seconds; nil if
    /// it was still running (it is then killed).
    func waitForExit(timeout: Double = 15) async -> (status: Int32, signaled: Bool)? {
        guard let ended = await child.wait(timeout: timeout) else {
            child.kill9()
            return nil
        }
        return (ended.status, ended.signaled)
    }

    /// Kills it if it still runs.
    func stop() {
        child.kill9()
    }
}

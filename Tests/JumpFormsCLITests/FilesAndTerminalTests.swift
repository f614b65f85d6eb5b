import CLITestSupport
import Foundation
import JumpForms
import Testing
import TestSupport

/// What `jump-forms` writes and prints where others could interfere: files written
/// through one safe writer, HOME from the password database, private folders and keys checked
/// as ssh checks them, text from servers and records escaped, lint keeping files outside the
/// project and values from the environment to itself.
@Suite(.timeLimit(.minutes(5))) struct FilesAndTerminalTests {
    /// A copy of the example flows and locales with a `jump.yaml`, state and config folders of
    /// its own.
    struct Project {
        let folder: TemporaryFolder
        var path: String { folder.path }

        init(captureDomain: String = "embedded", extra: String = "") throws {
            folder = try TemporaryFolder("jump-forms-files")
            for item in ["flows", "locales"] {
                try FileManager.default.copyItem(atPath: Repository.path(item), toPath: folder.path + "/" + item)
            }
            let config = try String(contentsOfFile: Repository.path("jump.yaml"), encoding: .utf8)
                .replacingOccurrences(of: "captureDomain: embedded", with: "captureDomain: \(captureDomain)")
            try folder.write("jump.yaml", config + extra)
        }

        var environment: [String: String] {
            ["HOME": path, "XDG_STATE_HOME": path + "/state", "XDG_CONFIG_HOME": path + "/config", "XDG_DATA_HOME": path + "/share"]
        }

        /// `jump-forms` in the project's folder, in this process.
        func run(_ arguments: [String]) async throws -> CommandResult {
            try await InProcess.run(arguments, in: path, environment: environment)
        }

        /// The built `jump-forms` in the project's folder (`serve`, which runs until stopped
        /// when it starts).
        func runBinary(_ arguments: [String], timeout: Double) async throws -> CommandResult {
            try await Executable.run("jump-forms", arguments, in: path, environment: environment, timeout: timeout)
        }
    }

    static func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    static func chmod(_ path: String, _ mode: Int) throws {
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
    }

    /// No escape sequence, CR, BEL or other control, and no bidirectional control.
    static func controls(_ text: String) -> [String] {
        text.unicodeScalars.filter { scalar in
            let v = scalar.value
            return (v < 0x20 && v != 0x0A && v != 0x09) || (0x7F...0x9F).contains(v) || (0x202A...0x202E).contains(v)
                || (0x2066...0x2069).contains(v)
        }.map { String(format: "U+%04X", $0.value) }
    }

    // MARK: one safe writer

    /// `--out` of every kind of command (a file, a baseline, generated code in a folder): a
    /// read-only target is refused as `cp` refuses it, and left as it was.
    @Test(arguments: ["export", "baseline", "generate"])
    func aReadOnlyOutputIsRefusedAsCpRefusesIt(_ command: String) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("locales/en-US.yaml", "locale: en-US\nmessages:\n  greeting: Hello\n")
        let (arguments, target): ([String], String) =
            switch command {
            case "export": (["locales", "export", "--format", "strings", "--locales", "locales", "--out", "en.strings"], "en.strings")
            case "baseline": (["locales", "check", "--locales", "locales", "--reference", "en-US", "--write-baseline", "base.json"], "base.json")
            default: (["generate", "model", "--schema", Repository.path("schemas/default-schema.json"), "--out", "model"], "model/User.swift")
            }
        try folder.write(target, "keep me\n")
        try Self.chmod(folder.path + "/" + target, 0o444)
        let result = try await InProcess.run(arguments, in: folder.path)
        #expect(result.status != 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("cannot write '") && result.stderr.contains("permission denied"), "\(result.stderr)")
        #expect(try String(contentsOfFile: folder.path + "/" + target, encoding: .utf8) == "keep me\n")
        #expect(try Self.mode(folder.path + "/" + target) == 0o444)
        // Writable again, it is replaced, keeping its permissions as cp keeps them.
        try Self.chmod(folder.path + "/" + target, 0o640)
        let again = try await InProcess.run(arguments, in: folder.path)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try String(contentsOfFile: folder.path + "/" + target, encoding: .utf8) != "keep me\n")
        #expect(try Self.mode(folder.path + "/" + target) == 0o640)
    }

    /// `--out` through a link writes the file it points at (as cp does) and keeps the link.
    @Test func anOutputThroughALinkReplacesTheFileItPointsAt() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("locales/en-US.yaml", "locale: en-US\nmessages:\n  greeting: Hello\n")
        let real = try folder.write("elsewhere/real.strings", "old\n")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/en.strings", withDestinationPath: real)
        let result = try await InProcess.run(
            ["locales", "export", "--format", "strings", "--locales", "locales", "--out", "en.strings"],
            in: folder.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.path + "/en.strings") == real)
        #expect(try String(contentsOfFile: real, encoding: .utf8).contains("greeting"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/elsewhere") == ["real.strings"])
    }

    // MARK: HOME and private folders

    /// With HOME unset the folders are under the password database's home folder, never /tmp.
    @Test func withoutHOMETheHomeComesFromThePasswordDatabase() async throws {
        let project = try Project()
        defer { project.folder.remove() }
        let home = try #require(Self.passwordDatabaseHome())
        // A client id of its own: no database of that name exists in the real home folder.
        let client = "homeless" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
        let child = try ChildProcess(
            Executable.productsFolder + "/jump-forms", ["outbox"], in: project.path,
            environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "JUMP_CLIENT_ID": client])
        let ended = try await child.finish(timeout: 60)
        #expect(ended.code == 2, "\(child.stderr)")
        let expected = home + "/.local/share/jump-forms/\(client).sqlite"
        #expect(child.stderr.contains("no database at \(expected)"), "\(child.stderr)")
        #expect(!child.stderr.contains("/tmp/.local"), "\(child.stderr)")
    }

    static func passwordDatabaseHome() -> String? {
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return nil }
        return String(cString: directory)
    }

    /// A session key others can read, or a state folder others can write, is refused with the
    /// path and the fix.
    @Test func aSessionKeyOrStateFolderOthersCanUseIsRefused() async throws {
        let project = try Project()
        defer { project.folder.remove() }
        let client = "localdev0123456789abcdefghijklmn"
        let session = try project.folder.write("state/jump-forms/session-\(client).sealed", Data(repeating: 7, count: 64))
        try Self.chmod(project.path + "/state/jump-forms", 0o700)
        try Self.chmod(session, 0o600)
        let key = try project.folder.write("config/jump-forms/session.key", Data(repeating: 1, count: 32))
        try Self.chmod(project.path + "/config/jump-forms", 0o700)
        try Self.chmod(key, 0o644)
        let readable = try await project.run(["whoami", "--non-interactive"])
        #expect(readable.status == 1, "\(readable.stderr)")
        #expect(readable.stderr.contains("\(key)") && readable.stderr.contains("can be read by others (mode 0644)"), "\(readable.stderr)")
        #expect(readable.stderr.contains("chmod 600 '\(key)'"), "\(readable.stderr)")

        try Self.chmod(key, 0o600)
        try Self.chmod(project.path + "/state/jump-forms", 0o777)
        let writable = try await project.run(["whoami", "--non-interactive"])
        #expect(writable.status == 1, "\(writable.stderr)")
        #expect(writable.stderr.contains("can be written by others (mode 0777)"), "\(writable.stderr)")
        #expect(writable.stderr.contains("chmod 700 '\(project.path)/state/jump-forms'"), "\(writable.stderr)")
    }

    /// `serve --db` in a folder others can write, or with a key others can read, does not start.
    @Test func serveRefusesADatabaseFolderOrKeyOthersCanUse() async throws {
        let project = try Project()
        defer { project.folder.remove() }
        let data = project.path + "/data"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        try Self.chmod(data, 0o777)
        let folder = try await project.runBinary(["serve", "--port", "0", "--db", "data/capture.sqlite"], timeout: 30)
        #expect(folder.status == 2, "\(folder.stdout)\(folder.stderr)")
        #expect(folder.stderr.contains("can be written by others") && folder.stderr.contains("chmod 700 'data'"), "\(folder.stderr)")
        #expect(!FileManager.default.fileExists(atPath: data + "/capture.sqlite"))

        try Self.chmod(data, 0o700)
        try project.folder.write("data/capture.sqlite.key", Data(repeating: 3, count: 32))
        try Self.chmod(data + "/capture.sqlite.key", 0o644)
        let key = try await project.runBinary(["serve", "--port", "0", "--db", "data/capture.sqlite"], timeout: 30)
        #expect(key.status == 2, "\(key.stdout)\(key.stderr)")
        #expect(key.stderr.contains("chmod 600 'data/capture.sqlite.key'"), "\(key.stderr)")
    }

    // MARK: the terminal

    static let hostile = "ana\u{1B}[2J\u{1B}]0;owned\u{07}\r\u{202E}evil\u{9B}31m"
    static let hostileVersion = "v1\u{1B}]0;version\u{07}"

    /// A Capture server that answers with records and errors full of control characters.
    static func hostileServer() throws -> LoopbackServer {
        try LoopbackServer { request in
            let text = JSONValue.string(hostile).serialized()
            let record = JSONValue.object([("email", .string(hostile)), ("displayName", .string(hostile)), (hostile, .integer(1))]).serialized()
            if request.target.hasPrefix("/oauth/auth_native_traditional") {
                return .init(body: #"{"stat":"ok","access_token":"token1","capture_user":\#(record)}"#)
            }
            if request.target.hasPrefix("/entity") {
                return .init(body: #"{"stat":"ok","result":\#(record)}"#)
            }
            // The flow document the client reads `flow_version` from, with a hostile version.
            if request.target.hasPrefix("/widget_data/flows/") {
                return .init(body: #"{"version":\#(JSONValue.string(hostileVersion).serialized()),"fields":{}}"#)
            }
            if request.target.hasPrefix("/oauth/forgot_password_native") {
                return .init(
                    body:
                        #"{"stat":"error","code":390,"error":"invalid_form_fields","error_description":\#(text),"invalid_fields":{"signInEmailAddress":[\#(text)],"elsewhere":[\#(text)]}}"#
                )
            }
            return .init(body: #"{"stat":"error","code":200,"error":"invalid_argument","error_description":\#(text)}"#)
        }
    }

    @Test func textFromTheServerIsEscapedAndJSONStaysExact() async throws {
        let server = try Self.hostileServer()
        defer { server.stop() }
        let project = try Project(captureDomain: server.url)
        defer { project.folder.remove() }
        let signIn = try await project.run([
            "signin", "--non-interactive", "--set", "signInEmailAddress=ana@example.com",
            "--set", "currentPassword=correct horse battery"
        ])
        #expect(signIn.status == 0, "\(signIn.stdout)\(signIn.stderr)")
        #expect(Self.controls(signIn.stderr).isEmpty, "\(Self.controls(signIn.stderr))")
        #expect(signIn.stderr.contains(#"ana\u{1B}[2J\u{1B}]0;owned\u{7}\u{D}\u{202E}evil\u{9B}31m"#), "\(signIn.stderr)")
        // The flow document's version, in the warning that it differs from the flow's.
        #expect(signIn.stderr.contains(#"'v1\u{1B}]0;version\u{7}'"#), "\(signIn.stderr)")

        let text = try await project.run(["whoami", "--non-interactive"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(Self.controls(text.stdout).isEmpty, "\(Self.controls(text.stdout))")
        #expect(text.stdout.contains(#"email: ana\u{1B}[2J"#), "\(text.stdout)")

        let json = try await project.run(["whoami", "--non-interactive", "--format", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        let record = try JSONValue.parse(Array(json.stdout.utf8))
        #expect(record["email"]?.stringValue == Self.hostile)
        #expect(record[Self.hostile] != nil)

        // The server's error message, on standard error.
        let refresh = try await project.run(["refresh", "--non-interactive"])
        #expect(refresh.status == 1, "\(refresh.stderr)")
        #expect(Self.controls(refresh.stderr).isEmpty, "\(Self.controls(refresh.stderr))")
        #expect(refresh.stderr.contains(#"\u{1B}]0;owned\u{7}"#), "\(refresh.stderr)")

        // A refusal of fields (390): the server's messages for each field and for the form.
        let forgot = try await project.run(["forgot-password", "--non-interactive", "--set", "signInEmailAddress=ana@example.com"])
        #expect(forgot.status == 1, "\(forgot.stderr)")
        #expect(Self.controls(forgot.stderr).isEmpty, "\(Self.controls(forgot.stderr))")
        #expect(forgot.stderr.components(separatedBy: #"\u{1B}]0;owned\u{7}"#).count == 3, "\(forgot.stderr)")
    }

    /// The outbox's emails (here a project's own texts with escape sequences in them) are
    /// shown escaped; its JSON stays exact.
    @Test func theOutboxIsShownEscaped() async throws {
        let project = try Project(extra: "server:\n  bcryptCost: 4\n  database: data/capture.sqlite\n")
        defer { project.folder.remove() }
        let locale = try String(contentsOfFile: project.path + "/locales/en-US.yaml", encoding: .utf8)
        try project.folder.write(
            "locales/en-US.yaml",
            locale + """
                  jumpForms.server.verifyEmailSubject: "Confirm\\e]0;owned\\a now"
                  jumpForms.server.verifyEmailBody: "\\e[2JOpen {link}\\r\\u202Edone"

                """)
        let answers = try project.folder.write("ana.yaml", ExampleAnswers.anaRegistration)
        let register = try await project.run(["register", "--non-interactive", "--answers", answers])
        #expect(register.status == 0, "\(register.stdout)\(register.stderr)")
        let text = try await project.run(["outbox"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(Self.controls(text.stdout).isEmpty, "\(Self.controls(text.stdout))")
        #expect(text.stdout.contains(#"Subject: Confirm\u{1B}]0;owned\u{7} now"#), "\(text.stdout)")
        #expect(text.stdout.contains(#"\u{1B}[2JOpen http"#) && text.stdout.contains(#"\u{D}\u{202E}done"#), "\(text.stdout)")
        let json = try await project.run(["outbox", "--format", "json"])
        let messages = try JSONValue.parse(Array(json.stdout.utf8)).arrayValue ?? []
        #expect(messages.first?["subject"]?.stringValue == "Confirm\u{1B}]0;owned\u{07} now")
    }

    // MARK: lint

    /// A flow outside the project that jump.yaml points at: its problems are located, its
    /// lines never quoted; named on the command line, it is shown in full.
    @Test func lintDoesNotEchoFilesOutsideTheProject() async throws {
        let root = try TemporaryFolder()
        defer { root.remove() }
        let secret = "-----BEGIN PRIVATE KEY----- MIIEvQIBADANBgkqhkiG9w0BAQEFAASC"
        try root.write("private/id_key", "\(secret)\nsecond: line: of: the: key\n")
        let config = try String(contentsOfFile: Repository.path("jump.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "flow: flows/standard.yaml", with: "flow: ../private/id_key")
        try root.write("app/jump.yaml", config)
        for format in ["text", "json", "sarif"] {
            let result = try await InProcess.run(["lint", "--format", format], in: root.path + "/app")
            #expect(result.status != 0)
            let output = result.stdout + result.stderr
            #expect(!output.contains("MIIEvQ") && !output.contains("of: the: key"), "\(format): \(output)")
            #expect(output.contains("../private/id_key"), "\(format): \(output)")
            #expect(output.contains("is outside the project folder"), "\(format): \(output)")
        }
        let text = try await InProcess.run(["lint"], in: root.path + "/app")
        #expect(text.stdout.contains("../private/id_key:2:"), "\(text.stdout)")
        // Named on the command line, the user asked for it.
        let named = try await InProcess.run(["lint", "../private/id_key"], in: root.path + "/app")
        #expect(named.stdout.contains("of: the: key"), "\(named.stdout)")
    }

    /// A value from the environment is named, never shown, in any diagnostic.
    @Test func lintNeverShowsTheValueOfAnExpandedVariable() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for item in ["flows", "locales"] {
            try FileManager.default.copyItem(atPath: Repository.path(item), toPath: folder.path + "/" + item)
        }
        let config = try String(contentsOfFile: Repository.path("jump.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "captureDomain: embedded", with: "captureDomain: ${CAPTURE_URL}")
            .replacingOccurrences(of: "captureSignInFormName: signInForm", with: "captureSignInFormName: ${SIGN_IN_FORM}")
        try folder.write("jump.yaml", config)
        // Not a URL: the decoder's diagnostic. A form the flow lacks: lint's finding.
        let runs: [([String: String], String)] = [
            (["CAPTURE_URL": "hunter2-not-a-url", "SIGN_IN_FORM": "signInForm"], "${CAPTURE_URL}"),
            (["CAPTURE_URL": "http://127.0.0.1:9/hunter2", "SIGN_IN_FORM": "hunter2Form"], "${SIGN_IN_FORM}")
        ]
        for (environment, named) in runs {
            for format in ["text", "json", "sarif"] {
                let result = try await InProcess.run(["lint", "--format", format], in: folder.path, environment: environment)
                #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
                let output = result.stdout + result.stderr
                #expect(!output.contains("hunter2"), "\(format): \(output)")
                #expect(output.contains(named) && output.contains("comes from the environment and is not shown"), "\(format): \(output)")
            }
        }
    }
}

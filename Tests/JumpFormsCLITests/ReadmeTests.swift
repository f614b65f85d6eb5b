import Foundation
import Testing
import TestSupport

/// Every shell block of README.md runs as written, in order, in a copy of the repository's
/// example project: what a newcomer types after cloning.
@Suite(.timeLimit(.minutes(5))) struct ReadmeTests {
    /// The answers a person types at the prompts of the blocks that run `register` without an
    /// answers file (email, display name, first and last name, password twice, birth date,
    /// opt-in, then Enter to send), each block a different person.
    static let typed: [(block: String, answers: String)] = [
        ("swift run jump-forms register     #", person("bo.lind", "bo_l", "Bo", "Lind")),
        ("jump-forms init my-app", person("cy.ng", "cy_n", "Cy", "Ng")),
        ("swift run jump-forms register\nswift run jump-forms whoami", person("dee.moss", "dee_m", "Dee", "Moss"))
    ]

    static func person(_ user: String, _ name: String, _ first: String, _ last: String) -> String {
        "\(user)@example.com\n\(name)\n\(first)\n\(last)\ncorrect horse battery\ncorrect horse battery\n1990-04-01\nyes\n\n"
    }

    /// Blocks that end with a status other than 0 on purpose.
    static let statuses = ["swift run jump-forms validate registrationForm --locale pl-PL": Int32(1)]

    /// `swift run jump-forms` is the built binary, and `swift build` and `swift test` are what
    /// this test process already is (so `.build/debug/jump-forms` is the built binary, as
    /// `swift build` leaves it); the Examples package is a build of its own that .ci/run builds
    /// and runs. `apt-get`, `brew` and `install` change the machine, which already has what
    /// they install. Nothing else is defined: `jump-forms` is found on PATH as the Quick start
    /// puts it there, or not at all.
    static let prelude = """
        swift() {
          case "$1" in
            run)
              [ "$2 $3" = "--package-path Examples" ] && return 0
              [ "$2" = jump-forms ] || return 127; shift 2; "$JUMP_FORMS" "$@" ;;
            build|test) return 0 ;;
            *) echo "unexpected: swift $*" >&2; return 127 ;;
          esac
        }
        apt-get() { :; }; brew() { :; }; install() { :; }

        """

    /// What a new login shell reads first: the `~/.profile` Debian and Ubuntu give every user
    /// (`/etc/skel/.profile`), which puts `~/.local/bin` on PATH once it exists.
    static var profile: String {
        (try? String(contentsOfFile: "/etc/skel/.profile", encoding: .utf8))
            ?? "if [ -d \"$HOME/.local/bin\" ] ; then\n    PATH=\"$HOME/.local/bin:$PATH\"\nfi\n"
    }

    /// A block as the README tells this user to type it: as root without sudo (the README
    /// says to leave out `sudo` there), with `sudo` left out; nil when the README does not say
    /// so before a block that uses it.
    static func asTyped(_ block: String, saidBefore prose: String) -> String? {
        guard block.contains("sudo ") else { return block }
        guard prose.contains("leave out\n`sudo`") || prose.contains("leave out `sudo`") else { return nil }
        return block.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix("sudo ") ? String(line.dropFirst(5)) : String(line)
        }.joined(separator: "\n")
    }

    /// The README's shell blocks, each with the prose before it (since the previous block).
    static func blocks() throws -> [(prose: String, block: String)] {
        let readme = try String(contentsOfFile: Repository.path("README.md"), encoding: .utf8)
        var blocks: [(prose: String, block: String)] = []
        var rest = readme[...]
        while let start = rest.range(of: "```sh\n"), let end = rest.range(of: "```", range: start.upperBound..<rest.endIndex) {
            let prose = rest[..<start.lowerBound].components(separatedBy: "```").last ?? ""
            blocks.append((prose, String(rest[start.upperBound..<end.lowerBound])))
            rest = rest[end.upperBound...]
        }
        return blocks
    }

    @Test func everyShellBlockRunsAsWrittenInOrder() async throws {
        let home = try TemporaryFolder("jump-forms-readme")
        defer { home.remove() }
        let clone = home.path + "/clone"
        try FileManager.default.createDirectory(atPath: clone, withIntermediateDirectories: false)
        for item in ["flows", "locales", "schemas", "jump.yaml", "identities.yaml", "README.md"] {
            try FileManager.default.copyItem(atPath: Repository.path(item), toPath: clone + "/" + item)
        }
        // What `swift build` leaves in a clone.
        try FileManager.default.createDirectory(atPath: clone + "/.build/debug", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: clone + "/.build/debug/jump-forms", withDestinationPath: Executable.productsFolder + "/jump-forms")
        try Self.profile.write(toFile: home.path + "/.profile", atomically: true, encoding: .utf8)
        let environment = [
            "HOME": home.path, "XDG_CONFIG_HOME": home.path + "/config", "XDG_DATA_HOME": home.path + "/data",
            "XDG_STATE_HOME": home.path + "/state", "JUMP_FORMS": Executable.productsFolder + "/jump-forms",
            "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"
        ]
        let blocks = try Self.blocks()
        #expect(blocks.count >= 10)
        for (prose, written) in blocks {
            guard let block = Self.asTyped(written, saidBefore: prose) else {
                Issue.record("a block uses sudo, and the README does not say to leave it out as root (where there may be none):\n\(written)")
                continue
            }
            let input = Self.typed.first { block.contains($0.block) }?.answers ?? ""
            let expected = Self.statuses.first { block.contains($0.key) }?.value ?? 0
            // Each block in a new login shell: ~/.profile first, as bash --login reads it.
            let child = try ChildProcess(
                "/bin/bash", ["--noprofile", "--norc", "-e", "-c", ". \"$HOME/.profile\"\n" + Self.prelude + block], in: clone,
                environment: environment, input: input)
            let ended = try await child.finish(timeout: 120)
            #expect(ended.code == expected, "\(block)\n--- stdout\n\(child.stdout)\n--- stderr\n\(child.stderr)")
        }
    }
}

import Foundation
import JumpForms
import JumpFormsLoader
import Testing
import TestSupport

@Suite struct LoaderTests {
    func read(_ text: String, limits: LoaderLimits = .default) -> YAMLReadResult {
        YAMLReader.read(Array(text.utf8), path: "test.yaml", limits: limits)
    }

    @Test func filesOverTheSizeLimitAreRefusedBeforeParsing() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("big.yaml", "flow: x\n" + String(repeating: "# padding\n", count: 200))
        let project = ProjectLoader(limits: LoaderLimits(maximumFileSize: 1024)).load(paths: [path])
        let diagnostic = try #require(project.diagnostics.first)
        #expect(diagnostic.code == .fileTooLarge)
        #expect(diagnostic.message.contains("over the limit of 1024 bytes"))
    }

    /// A file whose size is not known before reading (a named pipe: `stat` says 0 bytes) is
    /// read to its end, and refused once it passes the size limit.
    @Test(.timeLimit(.minutes(5))) func filesOfUnknownSizeAreReadToTheEndWithinTheLimit() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let text = try String(contentsOfFile: Repository.path("flows/standard.yaml"), encoding: .utf8)
        let regular = ProjectLoader().load(paths: [try folder.write("standard.yaml", text)])
        for (limit, refused) in [(LoaderLimits.default.maximumFileSize, false), (4096, true)] {
            let pipe = folder.path + "/piped-\(limit).yaml"
            #expect(mkfifo(pipe, 0o600) == 0)
            let writer = Thread {
                let handle = FileHandle(forWritingAtPath: pipe)
                // The reader stops at the limit: a write after it closed fails, which is fine.
                signal(SIGPIPE, SIG_IGN)
                try? handle?.write(contentsOf: Data(text.utf8))
                try? handle?.close()
            }
            writer.start()
            let piped = ProjectLoader(limits: LoaderLimits(maximumFileSize: limit)).load(paths: [pipe])
            if refused {
                #expect(piped.diagnostics.map(\.code) == [.fileTooLarge], "\(piped.diagnostics)")
            } else {
                #expect(piped.flows.count == 1)
                #expect(piped.flows.first?.flow.forms.count == regular.flows.first?.flow.forms.count)
                #expect(piped.diagnostics.map(\.code) == regular.diagnostics.map(\.code))
            }
        }
    }

    @Test func missingFilesAreIOErrors() {
        let project = ProjectLoader().load(paths: ["/nonexistent/flow.yaml"])
        #expect(project.diagnostics.map(\.code) == [.fileUnreadable])
        #expect(project.diagnostics.first?.message.contains("/nonexistent/flow.yaml") == true)
    }

    @Test func aliasBombWithAliasKeysIsRefused() {
        // ~300 bytes that would expand to 9^7 (about 4.8 million) nodes.
        let bomb = """
            a: &a [x, x, x, x, x, x, x, x, x]
            b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
            c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]
            d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]
            e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]
            f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]
            g: {*f : 1}
            """
        #expect(bomb.utf8.count < 320)
        let result = read(bomb)
        #expect(result.document == nil)
        #expect(result.composeErrors.contains { if case .aliasBudgetExceeded = $0 { true } else { false } })
    }

    @Test func aliasesWithinTheBudgetShareNodes() throws {
        let result = read("rules: &r [a, b]\ncopy: *r\n")
        let document = try #require(result.document)
        guard case .mapping(let mapping) = document.root else { Issue.record("not a mapping"); return }
        #expect(mapping.entries[0].value == mapping.entries[1].value)
        #expect(document.anchors.map(\.name) == ["r"])
        #expect(document.aliases.map(\.name) == ["r"])
    }

    /// YAML allows tabs in content: a block scalar's line after its indentation, a quoted or
    /// plain scalar's continuation, a flow collection, after a value (issue 26). The value
    /// keeps them as YAML says.
    @Test(arguments: [
        ("text: |\n  first\n  \tsecond\n", "first\n\tsecond\n"),
        ("text: >\n  first\n  \tsecond\n", "first\n\tsecond\n"),
        ("text: |\n  first\n  \t\n  third\n", "first\n\t\nthird\n"),
        ("text: \"first\n\tsecond\"\n", "first second"),
        ("text: 'first\n  \tsecond'\n", "first second"),
        ("text: first\n  \tsecond\n", "first second"),
        ("text: first\t\nother: 1\t# note\n", "first"),
        ("text:\tfirst\n", "first"),
        ("text: \"a\tb\"\n", "a\tb"),
        ("list: [a,\n\tb]\ntext: x\n", "x"),
        // Blank and comment lines may start with tabs (libyaml refuses them; the reader does not).
        ("a: 1\n\t\ntext: x\n", "x"),
        ("a: 1\n \t # a comment\ntext: x\n", "x"),
        ("text: first\n\t\n  second\n", "first\nsecond"),
        ("text: |\n  first\n\t\n  second\n", "first\n\nsecond\n")
    ])
    func tabsInContentAreNoIndentation(_ yaml: String, _ text: String) throws {
        let result = read(yaml)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.message))")
        let document = try #require(result.document)
        guard case .mapping(let mapping) = document.root else { Issue.record("not a mapping"); return }
        let value = mapping.entries.first { $0.key.value == "text" }?.value
        guard case .scalar(let scalar) = value else { Issue.record("no text"); return }
        #expect(scalar.value == text)
    }

    /// libyaml's commonest syntax errors get a hint in our words; the others none.
    @Test(arguments: [
        ("messages:\n  a: hello\n  world\n  b: c\n", "line 3 is not 'key: value'"),
        ("a: He said: \"hi\"\n", #"must be quoted: a: 'He said: "hi"'"#),
        ("url: http://example.com\nb:\n  c:d\n  e: f\n", "'c:d' needs a space after ':' (c: d)"),
        ("fields:\n  email:\n    type: email\n     label: x\n", "indent it as that key, or end line 3 with ':'"),
        ("fields:\n  - a\n - b\n", "this line is indented 1 space, the keys around it 0 or 2"),
        ("a: 'open\nb: c\n", "the quoted text that starts on line 1 has no closing quote"),
        ("list: [a, b\n", nil)
    ])
    func commonSyntaxErrorsGetAHint(_ yaml: String, _ hint: String?) throws {
        let diagnostic = try #require(read(yaml).diagnostics.first)
        #expect(diagnostic.code == .yamlSyntax)
        if let hint {
            #expect(diagnostic.hint?.contains(hint) == true, "\(diagnostic.message): \(diagnostic.hint ?? "no hint")")
        } else {
            #expect(diagnostic.hint == nil, "\(diagnostic.hint ?? "")")
        }
    }

    /// Tabs used as indentation are refused (JF105) where they are, one per line, and only
    /// those: a tab in a block scalar of the same file stays content.
    @Test(arguments: [
        ("fields:\n\temail: {}\n", ["2:1"]),
        ("fields:\n  \temail: {}\n", ["2:3"]),
        ("a: |\n  x\n\ty\n", ["3:1"]),
        ("a: first\n\tsecond\n", ["2:1"]),
        ("a: |\n  x\n  \ty\nb:\n\tc: 1\nd:\n\t\te: 2\n", ["5:1", "7:1"]),
        ("a: 1\n\t# a comment\nb:\n\tc: 2\n", ["4:1"]),
        // Past the first, as many as there are, each after libyaml stopped at the one before.
        ("a:\n\tb: 1\n\tc: |\n\t  x\n\t  \ty\n", ["2:1", "3:1", "4:1", "5:1"]),
        (String(repeating: "a:\n", count: 1) + (1...40).map { "\t- item \($0)\n" }.joined(), (2...41).map { "\($0):1" })
    ])
    func tabsUsedAsIndentationAreRefused(_ yaml: String, _ places: [String]) {
        let result = read(yaml)
        #expect(result.document == nil)
        #expect(result.diagnostics.allSatisfy { $0.code == .tabIndentation }, "\(result.diagnostics.map(\.message))")
        #expect(result.diagnostics.map { "\($0.location?.line ?? 0):\($0.location?.column ?? 0)" } == places)
    }

    @Test func deepNestingStopsAtTheLimitWithoutRecursion() {
        let deep = "x: " + String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)
        let result = read(deep)
        #expect(result.document == nil)
        #expect(result.composeErrors.count == 1)
    }

    @Test(arguments: [
        ("plain: no", ScalarTrap.boolean), ("plain: On", .boolean), ("plain: 1.0", .number), ("plain: 0x1F", .number),
        ("plain: 1_000", .number), ("plain: 12:30", .number), ("plain: 2024-01-01", .date), ("plain: ~", .null),
        ("plain: .inf", .number), ("plain: -3", .number)
    ])
    func unquotedValuesOtherToolsWouldRetypeAreFlagged(_ line: String, _ trap: ScalarTrap) throws {
        let catalog = try locale("locale: en-US\nmessages:\n  \(line)\n")
        #expect(catalog["plain"]?.trap == trap)
    }

    @Test(arguments: ["plain: nope", "plain: \"no\"", "plain: 'on'", "plain: 1.0.0", "plain: v1", "plain: 2024-01-01x"])
    func stringsStayStrings(_ line: String) throws {
        let catalog = try locale("locale: en-US\nmessages:\n  \(line)\n")
        #expect(catalog["plain"]?.trap == nil)
    }

    func locale(_ text: String, name: String = "en-US.yaml") throws -> LocaleCatalog {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write(name, text)
        var project = LoadedProject()
        let catalog = try #require(ProjectLoader().loadLocale(at: path, into: &project))
        #expect(project.diagnostics.isEmpty, "\(project.diagnostics)")
        return catalog
    }

    @Test func nestedAndFlatKeysFlattenToTheSameNames() throws {
        let catalog = try locale(
            """
            locale: en-US
            messages:
              fields:
                email:
                  label: Email
              fields.name.label: Name
            """)
        #expect(catalog.keys == ["fields.email.label", "fields.name.label"])
        #expect(catalog["fields.email.label"]?.keyLocation.line == 5)
    }

    /// Offsets inside a message map back to the file, whatever the scalar style.
    @Test(arguments: [
        // (line as written, offset of the '{' in the value, expected column of it)
        ("  k: ab{c", 2, 8),
        ("  k: 'it''s {x'", 5, 13),
        ("  k: \"\\u00e9\\t{x\"", 2, 15),
        ("  k: \"plain {x\"", 6, 13)
    ])
    func messageOffsetsMapToFileColumns(_ line: String, _ offset: Int, _ column: Int) throws {
        let catalog = try locale("locale: en-US\nmessages:\n\(line)\n")
        let message = try #require(catalog["k"])
        let location = message.location(ofOffset: offset)
        #expect(location.line == 3)
        #expect(location.column == column, "\(message.text)")
        let scalars = Array(line.unicodeScalars)
        #expect(scalars[column - 1] == "{")
    }

    @Test func blockScalarOffsetsMapToTheirLines() throws {
        let catalog = try locale("locale: en-US\nmessages:\n  k: |\n    first\n    second {x\n")
        let message = try #require(catalog["k"])
        let brace = try #require(message.text.unicodeScalars.firstIndex(of: "{"))
        let offset = message.text.unicodeScalars.distance(from: message.text.unicodeScalars.startIndex, to: brace)
        let location = message.location(ofOffset: offset)
        #expect(location.line == 5)
        #expect(location.column == 12)
    }

    @Test func foldedScalarOffsetsFollowTheirWords() throws {
        let catalog = try locale("locale: en-US\nmessages:\n  k: >-\n    one two\n    three {x\n")
        let message = try #require(catalog["k"])
        #expect(message.text == "one two three {x")
        let location = message.location(ofOffset: 14)
        #expect((location.line, location.column) == (5, 11))
    }

    @Test func environmentVariablesAndDefaultsFillTheConfig() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(
            "flow.yaml",
            try String(contentsOfFile: Repository.path("Tests/JumpFormsLoaderTests/Fixtures/diagnostics/valid-minimal/flow.yaml"), encoding: .utf8))
        try folder.write(
            "locales/en-US.yaml",
            try String(
                contentsOfFile: Repository.path("Tests/JumpFormsLoaderTests/Fixtures/diagnostics/valid-minimal/locales/en-US.yaml"), encoding: .utf8))
        let config = try folder.write(
            "jump.yaml",
            """
            captureDomain: ${DOMAIN:-embedded}
            captureClientId: ${CLIENT_ID}
            captureLocale: en-US
            redirectUri: https://${HOST:-example.com}/cb
            flow: flow.yaml
            """)
        let project = ProjectLoader(environment: ["CLIENT_ID": "abc123"]).load(paths: [config])
        #expect(project.diagnostics.isEmpty, "\(project.diagnostics)")
        let loaded = try #require(project.config)
        #expect(loaded.captureClientId.value == "abc123")
        #expect(loaded.captureDomain.value == .embedded)
        #expect(loaded.redirectUri?.value == "https://example.com/cb")
        #expect(loaded.captureSignInFormName.value == "signInForm")
        #expect(loaded.writtenKeys.contains("captureClientId"))
        #expect(!loaded.writtenKeys.contains("captureSignInFormName"))
    }

    /// `server.schema` keeps its place (for the diagnostics of the file it names) and
    /// `maximumRecordSize` its number; both are optional.
    @Test func theRecordSettingsOfTheServer() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let minimal = "Tests/JumpFormsLoaderTests/Fixtures/diagnostics/valid-minimal"
        try folder.write("flow.yaml", try String(contentsOfFile: Repository.path(minimal + "/flow.yaml"), encoding: .utf8))
        try folder.write("locales/en-US.yaml", try String(contentsOfFile: Repository.path(minimal + "/locales/en-US.yaml"), encoding: .utf8))
        let config = try folder.write(
            "jump.yaml",
            """
            captureDomain: embedded
            captureClientId: abc123
            captureLocale: en-US
            flow: flow.yaml
            server:
              schema: ${SCHEMA:-schemas/user.json}
              maximumRecordSize: 2048
            """)
        let project = ProjectLoader(environment: [:]).load(paths: [config])
        #expect(project.diagnostics.isEmpty, "\(project.diagnostics)")
        let server = try #require(project.config?.server)
        #expect(server.schema?.value == "schemas/user.json")
        #expect(server.schema?.location.line == 6)
        #expect(server.schema?.location.column == 11)
        #expect(server.maximumRecordSize == 2048)
        #expect(ServerSettings().schema == nil)
        #expect(ServerSettings().maximumRecordSize == 1 << 20)
    }

    @Test func theExampleProjectIsLintClean() {
        let project = ProjectLoader(environment: [:]).load(paths: [Repository.path("jump.yaml")])
        let findings = project.lint()
        #expect(findings.isEmpty, "\(DiagnosticRenderer(sources: project.sources).render(findings))")
        #expect(project.flows.first?.catalogs.count ?? 0 >= 6)
    }

    @Test func theBuiltinCatalogEmbedsTheCatalogFiles() throws {
        let folder = Repository.path("Sources/JumpFormsLoader/Catalog")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".yaml") }.sorted()
        #expect(BuiltinCatalog.catalogs.count == names.count, "run scripts/embed-builtin-catalog.sh")
        let embedded = try String(contentsOfFile: Repository.path("Sources/JumpFormsLoader/BuiltinCatalog+Texts.generated.swift"), encoding: .utf8)
        for name in names {
            let text = try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
            #expect(embedded.contains(text.trimmingCharacters(in: .newlines)), "\(name) changed: run scripts/embed-builtin-catalog.sh")
        }
        #expect(BuiltinCatalog.catalogs.first?.tag.value.identifier == "en-US")
    }

    @Test func answersKeepValuesAsWritten() {
        let (answers, diagnostics, _) = AnswersLoader.load(
            bytes: Array("optIn: true\nbirthdate: 2012-06-15\nname: no\nlist: [a]\n".utf8), path: "answers.yaml")
        #expect(answers.map(\.value) == ["true", "2012-06-15", "no"])
        #expect(diagnostics.map(\.code) == [.wrongNodeKind])
    }
}

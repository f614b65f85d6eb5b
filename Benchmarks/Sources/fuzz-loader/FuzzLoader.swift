#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import DevToolSupport
import JumpFiles
import JumpForms
import JumpFormsLoader

// fuzz-loader: a libFuzzer target for the YAML reader and the flow, locale and config decoders.
//
// Built with `-sanitize=fuzzer -D FUZZING` (scripts/fuzz.sh) libFuzzer drives
// `LLVMFuzzerTestOneInput`; built normally it is a replay tool:
// `fuzz-loader FILE-OR-FOLDER...` runs each input once (a crash reproduces).
//
// One input: `YAMLReader.read`; when a document comes back, the bytes are written as a flow
// (`T/flows/input.yaml`), as that flow's locale file (`T/locales/en-US.yaml`) and as
// `T/jump.yaml`, and each is loaded with `ProjectLoader`, linted and rendered; the flow's forms
// are interpreted and validated, the locale's messages formatted. Invariants that must hold
// for any input (diagnostic places inside the file, a document only without read errors) trap.

enum FuzzLoader {
    static let directory: String = {
        var template = Array("/tmp/jump-fuzz-loader-XXXXXX".utf8CString)
        let path = template.withUnsafeMutableBufferPointer { buffer -> String in
            guard let base = buffer.baseAddress, let result = mkdtemp(base) else { fatalError("mkdtemp failed") }
            return String(cString: result)
        }
        mkdir(path + "/flows", 0o700)
        mkdir(path + "/locales", 0o700)
        return path
    }()

    /// Through `AtomicFile`, as every file jump-forms writes, without flushing (scratch files).
    static func write(_ bytes: UnsafeBufferPointer<UInt8>, to path: String) {
        do {
            try AtomicFile.write(Array(bytes), to: path, mode: 0o600, durable: false)
        } catch {
            fatalError("cannot write \(path): \(error.reason)")
        }
    }

    /// Lines as libyaml counts them (an upper bound): it breaks lines at LF, at CR, and at
    /// NEL (U+0085), LS (U+2028) and PS (U+2029), while jump-forms' own line handling
    /// (SourceFiles.line, SourceText) splits at LF only; see docs/PERFORMANCE.md, "Fuzzing".
    static func lineCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var lines = 1
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case 0x0A, 0x0D: lines += 1
            case 0xC2 where index + 1 < bytes.count && bytes[index + 1] == 0x85: lines += 1
            case 0xE2 where index + 2 < bytes.count && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                lines += 1
            default: break
            }
            index += 1
        }
        return lines
    }

    /// Diagnostics about a file point at a line of it (or the line after its last break).
    static func checkPlaces(_ diagnostics: [Diagnostic], file: String, lines: Int) {
        for diagnostic in diagnostics {
            for location in [diagnostic.location].compactMap({ $0 }) + diagnostic.related.map(\.location) where location.file == file {
                if location.line < 1 || location.line > lines + 1 || location.column < 1 {
                    fatalError("invariant: \(diagnostic.code.rawValue) at \(location) outside the \(lines)-line input: \(diagnostic.message)")
                }
            }
        }
    }

    static let sampleValues: [String] = ["", "a", "ana@example.com", "1990-01-01", "true", "12345", "Zoë Ångström", "x y"]

    static func testOneInput(_ input: UnsafeBufferPointer<UInt8>) {
        let bytes = Array(input)
        let read = YAMLReader.read(bytes, path: "input.yaml")
        if read.document != nil, !read.readErrors.isEmpty {
            fatalError("invariant: a document came back with read errors")
        }
        let lines = lineCount(input)
        checkPlaces(read.diagnostics, file: "input.yaml", lines: lines)
        _ = DiagnosticRenderer(sources: SourceFiles()).render(read.diagnostics)
        guard read.document != nil else { return }

        let flowPath = directory + "/flows/input.yaml"
        let localePath = directory + "/locales/en-US.yaml"
        let configPath = directory + "/jump.yaml"
        write(input, to: flowPath)
        write(input, to: localePath)
        write(input, to: configPath)
        defer {
            unlink(flowPath)
            unlink(localePath)
            unlink(configPath)
        }
        let loader = ProjectLoader(environment: ["JUMP_CLIENT_ID": "fuzzclient0123456789abcdefghijkl"])

        // As a flow (or whatever its keys make it), with the same bytes as its locale file.
        var project = loader.load(paths: [flowPath])
        exercise(project, path: flowPath, lines: lines)
        // As jump.yaml.
        project = loader.load(paths: [configPath])
        exercise(project, path: configPath, lines: lines)
        // As a locale file, whatever its keys.
        var localeProject = LoadedProject()
        if let catalog = loader.loadLocale(at: localePath, into: &localeProject) {
            checkPlaces(localeProject.diagnostics, file: localePath, lines: lines)
            formatMessages(catalog)
        }
    }

    static func exercise(_ project: LoadedProject, path: String, lines: Int) {
        let findings = project.lint()
        checkPlaces(findings, file: path, lines: lines)
        _ = DiagnosticRenderer(sources: project.sources).render(findings)
        for loaded in project.flows {
            let interpreter = FormInterpreter(flow: loaded.flow, localizer: loaded.localizer())
            for form in loaded.flow.forms.prefix(4) {
                guard let model = try? interpreter.model(form: form.name, locale: loaded.flow.defaultLocale.value) else { continue }
                let engine = RuleEngine(form: model, today: CivilDate(year: 2025, month: 6, day: 15)!)
                for variant in 0..<3 {
                    var values = FormValues()
                    for (index, field) in model.fields.enumerated() {
                        values[field.name] = field.defaultValue ?? sampleValues[(index + variant) % sampleValues.count]
                    }
                    let report = engine.validate(values)
                    _ = loaded.localizer().messages(for: report.violations, in: model)
                }
            }
        }
        for catalog in project.looseCatalogs + project.flows.flatMap(\.catalogs) {
            formatMessages(catalog)
        }
    }

    static func formatMessages(_ catalog: LocaleCatalog) {
        let formatter = MessageFormatter(localeTag: catalog.tag.value.identifier)
        for message in catalog.allMessages.prefix(64) {
            guard case .success(let pattern) = message.pattern else { continue }
            var arguments: [String: MessageArgument] = [:]
            for (index, use) in pattern.arguments.enumerated() {
                arguments[use.name] = index % 2 == 0 ? .int(index + 1) : .string("x")
            }
            _ = try? formatter.format(pattern, arguments)
            _ = message.location(ofOffset: message.text.unicodeScalars.count)
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLoaderTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzLoader.testOneInput(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    return 0
}

#if FUZZING
    // SwiftPM links an executable with `--defsym main=fuzz_loader_main` (the module's entry point), so the
    // fuzzing build provides that symbol itself and hands control to libFuzzer's driver.
    @_cdecl("fuzz_loader_main")
    public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
        FuzzTarget.runDriver(argc, argv, fuzzLoaderTestOneInput)
    }
#else
    /// Replays inputs: every file named, or every file in a folder named.
    @main
    struct FuzzLoaderReplay {
        static func main() {
            FuzzTarget.replay(tool: "fuzz-loader", FuzzLoader.testOneInput)
        }
    }
#endif

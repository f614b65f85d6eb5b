import Foundation
import JumpForms
import JumpFormsLoader
import Testing
import TestSupport

/// The JSON Schemas agree with the loader. Every YAML file of the diagnostic fixtures is
/// converted to JSON with jump-forms' own YAML reader (strict scalars: a boolean is plain
/// `true`/`false`, an integer plain digits, `yes`/`no`/`on` strings, quoted text a string) and
/// validated by Debian's python3-jsonschema (Draft 2020-12):
/// - a file the loader refuses for a key or type reason (JF200-JF206) is refused by the schema;
/// - a file the loader has nothing to say about, and every example of the repository, is
///   accepted.
@Suite struct FormatSchemaTests {
    static let fixtures = "Tests/JumpFormsLoaderTests/Fixtures/diagnostics"
    /// Unknown key, missing key, wrong node kind, null, not a boolean, not an integer, unknown value.
    static let keyOrTypeCodes: Set<DiagnosticCode> = [
        .unknownKey, .missingKey, .wrongNodeKind, .nullValue, .notABoolean, .notAnInteger, .unknownValue
    ]

    struct Case {
        var name: String
        var schema: FormatSchema
        var instance: JSONValue
        var mustAccept: Bool
        /// The JSON paths of the nodes the loader refused for a key or type reason: the schema
        /// must report an error there or at the mapping or list that holds the node.
        var refusedAt: [[String]] = []
    }

    /// The schema of a file, from its name and place as the fixtures use them.
    static func kind(of relative: String) -> FormatSchema? {
        let name = relative.split(separator: "/").last.map(String.init) ?? relative
        if name == "jump.yaml" { return .jump }
        if name == "identities.yaml" { return .identities }
        if relative.hasPrefix("locales/") { return .locale }
        if relative.hasPrefix("flows/") || name == "flow.yaml" { return .flow }
        return nil
    }

    static func yamlFiles(in folder: String) -> [String] {
        let names = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []
        return names.filter { $0.hasSuffix(".yaml") }.sorted()
    }

    /// The cases of the fixtures (and what was left out: files of no known kind, files the YAML
    /// reader refuses, files with only other findings).
    static func fixtureCases() -> (cases: [Case], skipped: [String]) {
        var cases: [Case] = []
        var skipped: [String] = []
        for name in Repository.folders(in: fixtures) {
            let folder = Repository.path("\(fixtures)/\(name)")
            let project = ProjectLoader(environment: [:]).load(paths: [folder])
            let findings = project.lint()
            for relative in yamlFiles(in: folder) {
                let path = folder + "/" + relative
                guard let kind = kind(of: relative) else {
                    skipped.append("\(name)/\(relative): no schema")
                    continue
                }
                let here = findings.filter { $0.location?.file == path }
                guard let (instance, paths) = YAMLToJSON.convertWithPaths(path: path) else {
                    skipped.append("\(name)/\(relative): the YAML reader refuses it")
                    continue
                }
                let keyOrType = here.filter { keyOrTypeCodes.contains($0.code) }
                if !keyOrType.isEmpty {
                    let places = keyOrType.compactMap { diagnostic in
                        diagnostic.location.flatMap { paths["\($0.line):\($0.column)"] }
                    }
                    #expect(places.count == keyOrType.count, "\(name)/\(relative): a diagnostic's place is no node")
                    cases.append(
                        Case(name: "\(name)/\(relative)", schema: kind, instance: instance, mustAccept: false, refusedAt: places))
                } else if here.isEmpty {
                    cases.append(Case(name: "\(name)/\(relative)", schema: kind, instance: instance, mustAccept: true))
                } else {
                    skipped.append("\(name)/\(relative): \(Set(here.map { $0.code.rawValue }).sorted().joined(separator: ","))")
                }
            }
        }
        return (cases, skipped)
    }

    /// The repository's own examples: the flows, locales, jump.yaml and identities.yaml.
    static func exampleCases() -> [Case] {
        let root = Repository.root
        var relatives = ["jump.yaml", "identities.yaml"]
        relatives += yamlFiles(in: root + "/flows").map { "flows/" + $0 }
        relatives += yamlFiles(in: root + "/locales").map { "locales/" + $0 }
        return relatives.compactMap { relative in
            guard let kind = kind(of: relative), let instance = YAMLToJSON.convert(path: root + "/" + relative) else { return nil }
            return Case(name: relative, schema: kind, instance: instance, mustAccept: true)
        }
    }

    @Test func schemasAgreeWithTheLoader() async throws {
        let (fixtureCases, _) = Self.fixtureCases()
        let examples = Self.exampleCases()
        #expect(examples.count >= 4, "the repository's examples were not found")
        let cases = fixtureCases + examples
        let refused = fixtureCases.filter { !$0.mustAccept }
        #expect(refused.count >= 10, "too few fixtures refused for a key or type reason: \(refused.map(\.name))")
        let results = try await SchemaValidator.validate(cases)
        for (index, entry) in cases.enumerated() {
            let errors = results[index]
            if entry.mustAccept {
                #expect(errors.isEmpty, "\(entry.name): the loader accepts it, the \(entry.schema.rawValue) schema refuses it: \(errors)")
            } else {
                #expect(!errors.isEmpty, "\(entry.name): the loader refuses it (key or type), the \(entry.schema.rawValue) schema accepts it")
                for place in entry.refusedAt {
                    let there = errors.contains { $0.path == place || $0.path == Array(place.dropLast()) }
                    #expect(there, "\(entry.name): the loader refuses /\(place.joined(separator: "/")), the schema does not: \(errors)")
                }
            }
        }
    }

    /// Strict scalars: `yes` is a string (a boolean key refuses it), `3` is text where text is
    /// expected, a quoted "5" is not an integer.
    @Test func strictScalarsAsTheLoaderReadsThem() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        func flow(_ option: String, _ rule: String) -> String {
            """
            flow: standard
            version: 3
            defaultLocale: en-US
            fields:
              gender:
                type: select
                options:
                  - { value: f, label: g.f, \(option) }
                validation:
                  - { rule: minLength, \(rule), message: m }
            forms:
              f: { fields: [gender] }

            """
        }
        let good = try folder.write("good.yaml", flow("disabled: false", "value: 2"))
        let yes = try folder.write("yes.yaml", flow("disabled: yes", "value: 2"))
        let quoted = try folder.write("quoted.yaml", flow("disabled: true", "value: \"5\""))
        let cases = try [good, yes, quoted].map { path in
            Case(name: path, schema: .flow, instance: try #require(YAMLToJSON.convert(path: path)), mustAccept: path == good)
        }
        let results = try await SchemaValidator.validate(cases)
        #expect(results[0].isEmpty, "\(results[0].map(\.message))")
        #expect(!results[1].isEmpty)
        #expect(!results[2].isEmpty)
    }

    /// Every property of every schema says what it is (editors show it on hover).
    @Test func everyPropertyHasADescription() {
        func check(_ value: JSONValue, _ path: String) {
            switch value {
            case .object(let entries):
                if let properties = value["properties"]?.objectValue {
                    for property in properties where property.value["description"] == nil {
                        Issue.record("\(path)/properties/\(property.key) has no description")
                    }
                }
                for entry in entries {
                    // A `properties` map holds schemas by name (one may be named `properties`).
                    if entry.key == "properties", let named = entry.value.objectValue {
                        for property in named { check(property.value, path + "/properties/" + property.key) }
                    } else {
                        check(entry.value, path + "/" + entry.key)
                    }
                }
            case .array(let items):
                for (index, item) in items.enumerated() { check(item, "\(path)/\(index)") }
            default: break
            }
        }
        for schema in FormatSchema.allCases {
            #expect(schema.document["description"] != nil)
            // `if` clauses name properties only to test them.
            check(schema.document.removing("$defs"), schema.fileName)
            for (name, definition) in schema.document["$defs"]?.objectValue ?? [] {
                check(Self.withoutConditions(definition), "\(schema.fileName)#/$defs/\(name)")
            }
        }
    }

    static func withoutConditions(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let entries): .object(entries.filter { $0.key != "allOf" }.map { ($0.key, withoutConditions($0.value)) })
        case .array(let items): .array(items.map(withoutConditions))
        default: value
        }
    }
}

/// Runs python3-jsonschema once over many instances.
enum SchemaValidator {
    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    static let script = """
        import json, sys
        try:
            import jsonschema
        except ImportError:
            print("python3-jsonschema is not installed: apt-get install python3-jsonschema (.ci/run installs it)", file=sys.stderr)
            sys.exit(3)
        cases = json.load(open(sys.argv[1]))
        results = []
        for case in cases:
            validator = jsonschema.Draft202012Validator(case["schema"])
            results.append([{"path": [str(p) for p in e.absolute_path], "message": e.message}
                            for e in validator.iter_errors(case["instance"])])
        json.dump(results, sys.stdout)
        """

    /// One error: where in the instance (object keys and list indexes) and what.
    struct Failure: Sendable, CustomStringConvertible {
        var path: [String]
        var message: String
        var description: String { "/\(path.joined(separator: "/")): \(message)" }
    }

    /// The errors of each case, in order (empty: accepted).
    static func validate(_ cases: [FormatSchemaTests.Case]) async throws -> [[Failure]] {
        let folder = try TemporaryFolder("jump-schema-agreement")
        defer { folder.remove() }
        let input = JSONValue.array(cases.map { ["schema": $0.schema.document, "instance": $0.instance] })
        let inputPath = try folder.write("cases.json", input.serialized())
        let scriptPath = try folder.write("validate.py", script)
        let child: ChildProcess
        do {
            child = try ChildProcess("/usr/bin/env", ["python3", scriptPath, inputPath])
        } catch {
            throw Missing(description: "python3 could not be started (\(error)): apt-get install python3 python3-jsonschema")
        }
        let end = try await child.finish(timeout: 120)
        guard end.code == 0 else {
            throw Missing(description: "python3 jsonschema failed (\(end)): \(child.stderr)")
        }
        guard let parsed = try? JSONSerialization.jsonObject(with: Data(child.stdout.utf8)) as? [[[String: Any]]],
            parsed.count == cases.count
        else {
            throw Missing(description: "python3 printed no results: \(child.stdout.prefix(500)) \(child.stderr)")
        }
        return parsed.map { errors in
            errors.map { Failure(path: $0["path"] as? [String] ?? [], message: $0["message"] as? String ?? "") }
        }
    }
}

/// YAML to JSON through jump-forms' own reader, with the loader's strict scalars.
enum YAMLToJSON {
    /// The file's JSON, or nil when the YAML reader refuses it.
    static func convert(path: String) -> JSONValue? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let read = YAMLReader.read(Array(data), path: path)
        guard read.diagnostics.isEmpty, let document = read.document else { return nil }
        return json(document.root)
    }

    /// The file's JSON and, by `line:column`, the path of the node (key or value) that starts
    /// there (the outermost one when several do: a block mapping starts at its first key).
    static func convertWithPaths(path: String) -> (JSONValue, [String: [String]])? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let read = YAMLReader.read(Array(data), path: path)
        guard read.diagnostics.isEmpty, let document = read.document else { return nil }
        var paths: [String: [String]] = [:]
        func note(_ mark: YAMLMark, _ path: [String]) {
            let key = "\(mark.line):\(mark.column)"
            if let known = paths[key], known.count <= path.count { return }
            paths[key] = path
        }
        func walk(_ node: YAMLNode, _ path: [String]) {
            note(node.start, path)
            switch node {
            case .mapping(let mapping):
                for entry in mapping.entries {
                    note(entry.key.start, path + [entry.key.value])
                    walk(entry.value, path + [entry.key.value])
                }
            case .sequence(let sequence):
                for (index, item) in sequence.items.enumerated() { walk(item, path + [String(index)]) }
            case .scalar: break
            }
        }
        walk(document.root, [])
        return (json(document.root), paths)
    }

    static func json(_ node: YAMLNode) -> JSONValue {
        switch node {
        case .mapping(let mapping): .object(mapping.entries.map { ($0.key.value, json($0.value)) })
        case .sequence(let sequence): .array(sequence.items.map(json))
        case .scalar(let scalar): json(scalar)
        }
    }

    static func json(_ scalar: YAMLScalar) -> JSONValue {
        if scalar.isNull { return .null }
        guard scalar.style == .plain, scalar.tag == nil else { return .string(scalar.value) }
        if scalar.value == "true" { return true }
        if scalar.value == "false" { return false }
        let digits = scalar.value.hasPrefix("-") ? scalar.value.dropFirst() : Substring(scalar.value)
        if !digits.isEmpty, digits.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }), Int(scalar.value) != nil {
            return .number(scalar.value)
        }
        return .string(scalar.value)
    }
}

import Foundation
import JumpForms
import Testing
import TestSupport

/// The app-facing products build for iOS: the targets JumpForms and JumpCapture are made of
/// (from `swift package describe --type json`) use neither the system libyaml (CYAML) nor
/// SwiftNIO, AsyncHTTPClient or any product of a package that is not known to stay clear of them.
@Suite(.timeLimit(.minutes(5))) struct ProductClosureTests {
    static let appProducts = ["JumpForms", "JumpCapture"]
    /// Modules the app-facing products must not reach: libyaml, and SwiftNIO's family.
    static func isForbidden(_ module: String) -> Bool {
        module == "CYAML" || module.hasPrefix("NIO") || module.hasPrefix("_NIO") || module == "AsyncHTTPClient"
            || module.hasPrefix("Hummingbird") || module == "JumpFormsLoader" || module == "JumpCaptureNIO"
    }
    /// Products of other packages the app-facing targets may use: packages without SwiftNIO
    /// (swift-log, swift-http-types, swift-crypto). Another needs a look at its own closure
    /// first, then a place here.
    static let allowedProducts: Set<String> = ["Logging", "HTTPTypes", "Crypto"]

    /// The targets reached from `products`' targets, and the other packages' products they use.
    static func closure(of products: [String], in description: JSONValue) -> (targets: Set<String>, products: Set<String>) {
        var byName: [String: JSONValue] = [:]
        for target in description["targets"]?.arrayValue ?? [] {
            if let name = target["name"]?.stringValue { byName[name] = target }
        }
        var pending = (description["products"]?.arrayValue ?? [])
            .filter { products.contains($0["name"]?.stringValue ?? "") }
            .flatMap { $0["targets"]?.arrayValue ?? [] }.compactMap(\.stringValue)
        var targets = Set<String>()
        var used = Set<String>()
        while let name = pending.popLast() {
            guard targets.insert(name).inserted else { continue }
            let target = byName[name]
            pending += (target?["target_dependencies"]?.arrayValue ?? []).compactMap(\.stringValue)
            used.formUnion((target?["product_dependencies"]?.arrayValue ?? []).compactMap(\.stringValue))
        }
        return (targets, used)
    }

    /// What is wrong with the closure of the app-facing products in `description`.
    static func problems(in description: JSONValue) -> [String] {
        let (targets, products) = closure(of: appProducts, in: description)
        var problems: [String] = []
        for target in targets.sorted() where isForbidden(target) { problems.append("target \(target)") }
        for product in products.sorted() where isForbidden(product) || !allowedProducts.contains(product) {
            problems.append("product \(product)")
        }
        if !targets.isSuperset(of: appProducts) { problems.append("the products' own targets are missing") }
        return problems
    }

    @Test func theAppProductsUseNeitherLibYAMLNorSwiftNIO() async throws {
        let description = try await DescribedPackage.current()
        let (targets, products) = Self.closure(of: Self.appProducts, in: description)
        #expect(targets.isSuperset(of: ["JumpForms", "JumpCapture", "JumpLocalization", "JumpDiagnostics", "JumpFiles"]))
        #expect(products.contains("Crypto") && products.contains("HTTPTypes"))
        #expect(Self.problems(in: description) == [])
        // What the servers and the CLI use is still there, in their products.
        #expect(Self.closure(of: ["JumpCaptureNIO"], in: description).products.contains("AsyncHTTPClient"))
        #expect(Self.closure(of: ["JumpFormsLoader"], in: description).targets.contains("CYAML"))
    }

    /// The check itself: a description where JumpCapture reaches AsyncHTTPClient and, through
    /// a target, libyaml, fails it.
    @Test func aForbiddenDependencyIsFound() throws {
        let description = try JSONValue.parse(
            Array(
                """
                {"products": [{"name": "JumpForms", "targets": ["JumpForms"]}, {"name": "JumpCapture", "targets": ["JumpCapture"]}],
                 "targets": [
                   {"name": "JumpForms", "target_dependencies": ["Reader"], "product_dependencies": ["Logging"]},
                   {"name": "Reader", "target_dependencies": ["CYAML"]},
                   {"name": "CYAML"},
                   {"name": "JumpCapture", "target_dependencies": ["JumpForms"], "product_dependencies": ["AsyncHTTPClient", "Crypto", "Other"]}
                 ]}
                """.utf8))
        #expect(Self.problems(in: description) == ["target CYAML", "product AsyncHTTPClient", "product Other"])
    }

    /// The products a target of the Examples package uses (`.product(name: "X", ...)` in its
    /// `dependencies`), read from the manifest's text.
    static func exampleProducts(_ target: String, manifest: String) -> [String]? {
        guard let start = manifest.range(of: "name: \"\(target)\""),
            let open = manifest.range(of: "dependencies: [", range: start.upperBound..<manifest.endIndex),
            let close = manifest.range(of: "]", range: open.upperBound..<manifest.endIndex)
        else { return nil }
        return manifest[open.upperBound..<close.lowerBound].components(separatedBy: ".product(name: \"").dropFirst().compactMap {
            $0.split(separator: "\"").first.map(String.init)
        }
    }

    /// The app without YAML (Examples/) is built as an app is: on the app-facing products only.
    @Test func theAppWithoutYAMLExampleUsesOnlyTheAppProducts() throws {
        let manifest = try String(contentsOfFile: Repository.path("Examples/Package.swift"), encoding: .utf8)
        #expect(Self.exampleProducts("app-without-yaml", manifest: manifest) == Self.appProducts)
        #expect(Self.exampleProducts("registration-app", manifest: manifest)?.contains("JumpFormsLoader") == true, "the check reads the manifest")
    }
}

import JumpForms

/// The generated parts of docs/schema.md, drawn from the schema families (attribute types,
/// constraints) so the page cannot drift from the code. A test keeps it in step
/// (`RECORD_SNAPSHOTS=1` rewrites it).
public enum SchemaReferenceDocs {
    /// Markdown blocks by name, as they appear between `<!-- BEGIN GENERATED: name -->` and
    /// `<!-- END GENERATED: name -->`.
    public static var blocks: [String: String] {
        ["attribute-types": attributeTypes, "constraints": constraints]
    }

    public static var attributeTypes: String {
        var out = "| type | holds | written by fields of type | in the generated model |\n|---|---|---|---|\n"
        for type in AttributeType.namedTypes where type != .password("password") {
            let name = type.isPassword ? "`password`, `password-<scheme>`" : "`\(type.name)`"
            let fields = type.writingFieldTypes.map { "`\($0.rawValue)`" }.joined(separator: ", ")
            out += "| \(name) | \(type.summary) | \(fields.isEmpty ? "none" : fields) | \(ModelGenerator.modelDescription(of: type)) |\n"
        }
        return out
    }

    public static var constraints: String {
        var out = "| constraint | meaning |\n|---|---|\n"
        for constraint in AttributeConstraint.allCases {
            out += "| `\(constraint.rawValue)` | \(constraint.summary) |\n"
        }
        return out
    }

    /// Replaces the generated blocks of a document with their current text.
    public static func update(_ document: String) -> String {
        ReferenceDocs.replacingGeneratedBlocks(in: document, with: blocks.sorted(by: { $0.key < $1.key }))
    }
}

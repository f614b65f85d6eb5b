import CYAML
import JumpFiles
import JumpForms

extension ProjectLoader {
    /// The locales folder a flow (or the flow of a `jump.yaml`) names, read from the first
    /// events of the files without decoding them, so that a caller can start loading the
    /// locale files while the flow is decoded. Nil when it cannot tell cheaply (environment
    /// variables, a key far down, a file that does not parse); the caller then waits for the
    /// flow. A guess only: the loaded flow's `localesDirectory` is what counts.
    public func peekLocalesDirectory(path: String) -> String? {
        var flowPath = path
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if name == "jump.yaml" || name == "jump.yml" {
            guard let flow = Self.topLevelScalar("flow", in: FileAccess.located(path, directory), limit: limits.maximumFileSize), !flow.contains("${")
            else { return nil }
            flowPath = PathText.resolve(flow, against: PathText.folder(of: path))
        }
        let folder =
            Self.topLevelScalar("locales", in: FileAccess.located(flowPath, directory), limit: limits.maximumFileSize, giveUpAfter: 400)
            ?? "../locales"
        return PathText.normalize(PathText.resolve(folder, against: PathText.folder(of: flowPath)))
    }

    /// The plain value of a top-level key, reading libyaml events only as far as needed.
    /// `giveUpAfter` events without the key: nil (so a missing key in a long file costs little).
    static func topLevelScalar(_ key: String, in path: String, limit: Int, giveUpAfter: Int = .max) -> String? {
        guard case .success(let bytes) = FileAccess.read(path, limit: limit, from: nil) else { return nil }
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return nil }
        defer { yaml_parser_delete(&parser) }
        return bytes.withUnsafeBufferPointer { buffer -> String? in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var event = yaml_event_t()
            var depth = 0
            var expectingKey = true
            var matched = false
            var count = 0
            while count < giveUpAfter {
                count += 1
                guard yaml_parser_parse(&parser, &event) == 1 else { return nil }
                defer { yaml_event_delete(&event) }
                switch event.type {
                case YAML_STREAM_END_EVENT, YAML_DOCUMENT_END_EVENT:
                    return nil
                case YAML_MAPPING_START_EVENT, YAML_SEQUENCE_START_EVENT:
                    if depth == 1 {
                        if matched { return nil }
                        expectingKey.toggle()
                    }
                    depth += 1
                case YAML_MAPPING_END_EVENT, YAML_SEQUENCE_END_EVENT:
                    depth -= 1
                    if depth == 0 { return nil }
                case YAML_SCALAR_EVENT, YAML_ALIAS_EVENT:
                    guard depth == 1 else { continue }
                    let data = event.data.scalar
                    let text =
                        event.type == YAML_SCALAR_EVENT
                        ? data.value.map { String(decoding: UnsafeBufferPointer(start: $0, count: data.length), as: UTF8.self) } ?? ""
                        : ""
                    if expectingKey {
                        matched = text == key
                    } else if matched {
                        return event.type == YAML_SCALAR_EVENT ? text : nil
                    }
                    expectingKey.toggle()
                default:
                    continue
                }
            }
            return nil
        }
    }
}

import JumpForms

/// A small XML reader for resource files: elements with attributes, text, CDATA, comments,
/// the five predefined entities and character references; the prolog, processing
/// instructions and a DOCTYPE without internal subset are skipped. No namespaces processing
/// (prefixes stay in names), no external entities. Every node knows its line and column.
struct XMLElement: Sendable {
    var name: String
    var attributes: [(name: String, value: String)]
    var children: [XMLNode]
    var location: SourceLocation

    func attribute(_ name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }
}

enum XMLNode: Sendable {
    case element(XMLElement)
    /// Character data, entities resolved; `cdata` when written as `<![CDATA[...]]>`.
    case text(String, cdata: Bool, location: SourceLocation)
    case comment(String, location: SourceLocation)
}

struct XMLSyntaxError: Error, Sendable {
    var message: String
    var location: SourceLocation
}

struct XMLReader {
    private let scalars: [Unicode.Scalar]
    private let path: String
    private var index = 0
    private var line = 1
    private var column = 1

    init(scalars: [Unicode.Scalar], path: String) {
        self.scalars = scalars
        self.path = path
    }

    /// The root element, and the comments before it.
    static func parse(_ scalars: [Unicode.Scalar], path: String) throws(XMLSyntaxError) -> XMLElement {
        var reader = XMLReader(scalars: scalars, path: path)
        return try reader.document()
    }

    private var here: SourceLocation { SourceLocation(file: path, line: line, column: column) }
    private var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    private mutating func step(_ count: Int = 1) {
        for _ in 0..<count where index < scalars.count {
            if scalars[index] == "\n" { line += 1; column = 1 } else { column += 1 }
            index += 1
        }
    }

    private func looking(at text: String) -> Bool {
        var position = index
        for scalar in text.unicodeScalars {
            guard position < scalars.count, scalars[position] == scalar else { return false }
            position += 1
        }
        return true
    }

    private mutating func skipWhitespace() {
        while let c = current, c == " " || c == "\n" || c == "\t" || c == "\r" || c == "\u{FEFF}" { step() }
    }

    private mutating func skip(until end: String, what: String) throws(XMLSyntaxError) -> String {
        let start = here
        var text = String.UnicodeScalarView()
        while !looking(at: end) {
            guard let c = current else { throw XMLSyntaxError(message: "this \(what) is never closed with '\(end)'", location: start) }
            text.append(c)
            step()
        }
        step(end.unicodeScalars.count)
        return String(text)
    }

    private mutating func document() throws(XMLSyntaxError) -> XMLElement {
        while true {
            skipWhitespace()
            if looking(at: "<?") {
                step(2)
                _ = try skip(until: "?>", what: "processing instruction")
            } else if looking(at: "<!--") {
                step(4)
                _ = try skip(until: "-->", what: "comment")
            } else if looking(at: "<!DOCTYPE") {
                _ = try skip(until: ">", what: "DOCTYPE")
            } else if current == "<" {
                let root = try element()
                skipWhitespace()
                while looking(at: "<!--") {
                    step(4)
                    _ = try skip(until: "-->", what: "comment")
                    skipWhitespace()
                }
                if current != nil { throw XMLSyntaxError(message: "content after the root element", location: here) }
                return root
            } else if current == nil {
                throw XMLSyntaxError(message: "the file has no root element", location: here)
            } else {
                throw XMLSyntaxError(message: "expected '<' but found '\(current!)'", location: here)
            }
        }
    }

    private static func isNameScalar(_ c: Unicode.Scalar) -> Bool {
        c.properties.isAlphabetic || ("0"..."9").contains(c) || "_-.:".unicodeScalars.contains(c)
    }

    private mutating func name() throws(XMLSyntaxError) -> String {
        var text = String.UnicodeScalarView()
        while let c = current, Self.isNameScalar(c) {
            text.append(c)
            step()
        }
        if text.isEmpty { throw XMLSyntaxError(message: "expected a name", location: here) }
        return String(text)
    }

    /// An element starting at `<`.
    private mutating func element() throws(XMLSyntaxError) -> XMLElement {
        let start = here
        step()
        let elementName = try name()
        var attributes: [(String, String)] = []
        while true {
            skipWhitespace()
            guard let c = current else { throw XMLSyntaxError(message: "the tag <\(elementName)> is never closed", location: start) }
            if c == "/" {
                step()
                guard current == ">" else { throw XMLSyntaxError(message: "expected '>' after '/'", location: here) }
                step()
                return XMLElement(name: elementName, attributes: attributes, children: [], location: start)
            }
            if c == ">" {
                step()
                break
            }
            let attributePlace = here
            let attribute = try name()
            skipWhitespace()
            guard current == "=" else { throw XMLSyntaxError(message: "expected '=' after the attribute '\(attribute)'", location: here) }
            step()
            skipWhitespace()
            guard let quote = current, quote == "\"" || quote == "'" else {
                throw XMLSyntaxError(message: "the value of '\(attribute)' must be quoted", location: here)
            }
            step()
            var value = ""
            while let c = current, c != quote {
                if c == "<" { throw XMLSyntaxError(message: "'<' in an attribute value", location: here) }
                if c == "&" { value += try reference() } else { value.unicodeScalars.append(c); step() }
            }
            guard current == quote else { throw XMLSyntaxError(message: "the value of '\(attribute)' is never closed", location: attributePlace) }
            step()
            if attributes.contains(where: { $0.0 == attribute }) {
                throw XMLSyntaxError(message: "the attribute '\(attribute)' is written twice", location: attributePlace)
            }
            attributes.append((attribute, value))
        }
        var children: [XMLNode] = []
        var text = ""
        var textPlace = here
        func flush() {
            if !text.isEmpty { children.append(.text(text, cdata: false, location: textPlace)) }
            text = ""
        }
        while true {
            guard let c = current else { throw XMLSyntaxError(message: "the element <\(elementName)> is never closed", location: start) }
            if c == "<" {
                if looking(at: "</") {
                    flush()
                    let closePlace = here
                    step(2)
                    let closing = try name()
                    skipWhitespace()
                    guard current == ">" else { throw XMLSyntaxError(message: "expected '>' to end </\(closing)>", location: here) }
                    step()
                    guard closing == elementName else {
                        throw XMLSyntaxError(message: "</\(closing)> closes <\(elementName)>, opened at line \(start.line)", location: closePlace)
                    }
                    return XMLElement(name: elementName, attributes: attributes, children: children, location: start)
                } else if looking(at: "<!--") {
                    flush()
                    let place = here
                    step(4)
                    children.append(.comment(try skip(until: "-->", what: "comment"), location: place))
                    textPlace = here
                } else if looking(at: "<![CDATA[") {
                    flush()
                    let place = here
                    step(9)
                    children.append(.text(try skip(until: "]]>", what: "CDATA section"), cdata: true, location: place))
                    textPlace = here
                } else {
                    flush()
                    children.append(.element(try element()))
                    textPlace = here
                }
            } else if c == "&" {
                if text.isEmpty { textPlace = here }
                text += try reference()
            } else {
                if text.isEmpty { textPlace = here }
                text.unicodeScalars.append(c)
                step()
            }
        }
    }

    /// `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&#NN;`, `&#xHH;`.
    private mutating func reference() throws(XMLSyntaxError) -> String {
        let start = here
        step()
        var body = String.UnicodeScalarView()
        while let c = current, c != ";" {
            guard body.count < 12 else { break }
            body.append(c)
            step()
        }
        guard current == ";" else { throw XMLSyntaxError(message: "'&' starts no entity; write '&amp;' for a literal ampersand", location: start) }
        step()
        let name = String(body)
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default:
            if name.hasPrefix("#x") || name.hasPrefix("#X"), let value = UInt32(name.dropFirst(2), radix: 16), let scalar = Unicode.Scalar(value) {
                return String(Character(scalar))
            }
            if name.hasPrefix("#"), let value = UInt32(name.dropFirst()), let scalar = Unicode.Scalar(value) {
                return String(Character(scalar))
            }
            throw XMLSyntaxError(message: "unknown entity '&\(name);'", location: start)
        }
    }
}

import HTTPTypes
import JumpForms

/// The locale of a page a browser opens (the hosted forms, the Engage dialog): the `locale`
/// parameter when it is a locale tag, else the first language of the browser's
/// `Accept-Language` (by weight, then order) that the flow's locale files or jump-forms' own
/// words speak, else the app's `captureLocale`. The texts then come from the locale files as
/// every message does (`fr-CA` is served by `fr-FR.yaml`).
extension CaptureService {
    func pageLocale(_ parameters: RequestParameters, headers: HTTPFields) -> LocaleTag {
        if let tag = parameters["locale"].flatMap(LocaleTag.init) { return tag }
        for tag in Self.acceptedLanguages(headers[values: .acceptLanguage]) where setup.localizer.speaks(tag) {
            return tag
        }
        return config.captureLocale.value
    }

    /// The language tags of `Accept-Language` fields (RFC 9110 12.5.4), the heaviest first and
    /// in the order written among equals; `*`, weight 0 and what is no locale tag are left out.
    static func acceptedLanguages(_ fields: [String]) -> [LocaleTag] {
        var ranges: [(tag: LocaleTag, weight: Double, position: Int)] = []
        for field in fields {
            for item in field.split(separator: ",") {
                let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: " \t") }
                guard let range = parts.first, !range.isEmpty, range != "*", let tag = LocaleTag(range) else { continue }
                var weight = 1.0
                for parameter in parts.dropFirst() {
                    let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: " \t") }
                    if pair.count == 2, pair[0].lowercased() == "q" { weight = Double(pair[1]) ?? 0 }
                }
                guard weight > 0, weight <= 1 else { continue }
                ranges.append((tag, weight, ranges.count))
            }
        }
        return ranges.sorted { ($0.weight, -$0.position) > ($1.weight, -$1.position) }.map(\.tag)
    }
}

private extension Substring {
    func trimmingCharacters(in set: String) -> String {
        var text = self
        while let first = text.first, set.contains(first) { text.removeFirst() }
        while let last = text.last, set.contains(last) { text.removeLast() }
        return String(text)
    }
}

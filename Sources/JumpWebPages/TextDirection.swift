import JumpLocalization

/// Which way a page's text runs, from its locale: `rtl` for the languages and scripts written
/// right to left (Arabic, Hebrew, Persian, Urdu, ... and the `ar-XB` pseudo-locale), else `ltr`.
public enum TextDirection: String, Sendable {
    case ltr, rtl

    /// Languages written right to left (BCP 47 language subtags).
    static let rightToLeftLanguages: Set<String> = [
        "ar", "he", "iw", "fa", "ur", "ps", "yi", "ji", "dv", "ckb", "sd", "ug", "syr", "ks", "nqo", "arc"
    ]
    /// Scripts written right to left (ISO 15924).
    static let rightToLeftScripts: Set<String> = ["Arab", "Hebr", "Syrc", "Thaa", "Nkoo", "Adlm", "Rohg"]

    /// The direction of `locale`: its script when it names one, else its language.
    public init(_ locale: LocaleTag) {
        if let script = locale.script {
            self = Self.rightToLeftScripts.contains(script) ? .rtl : .ltr
        } else {
            self = Self.rightToLeftLanguages.contains(locale.language) ? .rtl : .ltr
        }
    }
}

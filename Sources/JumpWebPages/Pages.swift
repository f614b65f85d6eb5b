import JumpForms
import JumpLocalization

/// A link a page offers (another form, the way back).
public struct PageLink: Sendable, Hashable {
    public var label: String
    public var href: String

    public init(label: String, href: String) {
        self.label = label
        self.href = href
    }
}

/// A page of text: a title, paragraphs and links (a success, an error, a used-up link).
public struct MessagePage: Sendable {
    public var locale: LocaleTag
    public var title: String
    public var paragraphs: [String]
    public var links: [PageLink]

    public init(locale: LocaleTag, title: String, paragraphs: [String] = [], links: [PageLink] = []) {
        self.locale = locale
        self.title = title
        self.paragraphs = paragraphs
        self.links = links
    }
}

/// A list of big buttons to choose from: the Engage dialog's identities (name and email) or
/// providers.
public struct ChoicePage: Sendable {
    public struct Choice: Sendable, Hashable {
        public var name: String
        /// A second line (an identity's email address).
        public var detail: String?
        public var href: String

        public init(name: String, detail: String? = nil, href: String) {
            self.name = name
            self.detail = detail
            self.href = href
        }
    }

    public var locale: LocaleTag
    public var title: String
    public var paragraphs: [String]
    public var choices: [Choice]

    public init(locale: LocaleTag, title: String, paragraphs: [String] = [], choices: [Choice]) {
        self.locale = locale
        self.title = title
        self.paragraphs = paragraphs
        self.choices = choices
    }
}

/// A form as a page: the fields of a `FormModel` (labels, placeholders, tips, options,
/// required marks, and each rule a browser can enforce as an attribute), the values to show
/// again (never a password's), the localized messages next to their fields, and form-level
/// messages. The DOM: `<form id="form-<name>" method="post">`, each control
/// `id="field-<name>" name="<name>"` with `<label for>`, its messages in
/// `<p class="field-error" id="field-<name>-error">` named by the control's `aria-describedby`
/// (with `aria-invalid="true"`), form-level messages in `<div class="form-errors" role="alert"
/// id="form-errors">`, focus (`autofocus`) on the first invalid field, and
/// `<button type="submit" id="submit">`.
public struct FormPage: Sendable {
    /// The words a form page needs besides the flow's texts, already localized.
    public struct Words: Sendable {
        public var submit: String
        /// The note that explains the required mark (`*`); nil shows none.
        public var requiredNote: String?
        /// The empty choice of a select without one.
        public var chooseOne: String
        public var year: String
        public var month: String
        public var day: String

        public init(submit: String, requiredNote: String?, chooseOne: String, year: String, month: String, day: String) {
            self.submit = submit
            self.requiredNote = requiredNote
            self.chooseOne = chooseOne
            self.year = year
            self.month = month
            self.day = day
        }
    }

    /// The form's name: the form's `id` is `form-<name>`.
    public var formName: String
    public var locale: LocaleTag
    public var title: String
    public var fields: [FormModel.Field]
    public var words: Words
    /// The values to show; those of password fields are never shown.
    public var values: FormValues
    /// Localized messages by field name.
    public var fieldErrors: [String: [String]]
    public var formErrors: [String]
    /// Messages that say something went well (a saved profile).
    public var notices: [String]
    /// Paragraphs above the form.
    public var intro: [String]
    /// Rules shown up front as a list (the reset page's password rules), and the field whose
    /// control they describe (`aria-describedby`).
    public var rules: [String]
    public var rulesField: String?
    /// Hidden inputs besides the form's own hidden fields (the CSRF token, an Engage token).
    public var hiddenInputs: [(name: String, value: String)]
    /// Where the form posts; nil posts to the page's own address.
    public var action: String?
    public var links: [PageLink]

    public init(
        formName: String, locale: LocaleTag, title: String, fields: [FormModel.Field], words: Words,
        values: FormValues = FormValues(), fieldErrors: [String: [String]] = [:], formErrors: [String] = [],
        notices: [String] = [], intro: [String] = [], rules: [String] = [], rulesField: String? = nil,
        hiddenInputs: [(name: String, value: String)] = [], action: String? = nil, links: [PageLink] = []
    ) {
        self.formName = formName
        self.locale = locale
        self.title = title
        self.fields = fields
        self.words = words
        self.values = values
        self.fieldErrors = fieldErrors
        self.formErrors = formErrors
        self.notices = notices
        self.intro = intro
        self.rules = rules
        self.rulesField = rulesField
        self.hiddenInputs = hiddenInputs
        self.action = action
        self.links = links
    }

    /// The id of a field's control (`field-<name>`; a dateselect's parts add `-year`, ...).
    public static func controlID(_ field: String) -> String { "field-" + field }

    /// The id of a field's message paragraph.
    public static func errorID(_ field: String) -> String { "field-" + field + "-error" }

    /// The name of the first field that has a message (the one focused), if any.
    public var firstInvalidField: String? {
        fields.first { !(fieldErrors[$0.name] ?? []).isEmpty && $0.type != .hidden }?.name
    }
}

/// `jump-forms preview`'s gallery: every form of the flow in every locale, each locale a
/// frame of its hosted form, and above them the last reload's problems, if any.
public struct GalleryPage: Sendable {
    /// A form and its frames, one per locale.
    public struct Form: Sendable {
        public var name: String
        public var frames: [Frame]

        public init(name: String, frames: [Frame]) {
            self.name = name
            self.frames = frames
        }
    }

    /// One locale's frame of a form: the hosted form's address.
    public struct Frame: Sendable {
        public var locale: String
        public var source: String

        public init(locale: String, source: String) {
            self.locale = locale
            self.source = source
        }
    }

    public var flowName: String
    /// What the page's script compares with `/preview/generation`.
    public var generation: Int
    /// The locales shown, in order.
    public var locales: [String]
    public var forms: [Form]
    /// The last reload's problems as the CLI renders them (nil: it linted clean).
    public var problems: String?

    public init(flowName: String, generation: Int, locales: [String], forms: [Form], problems: String? = nil) {
        self.flowName = flowName
        self.generation = generation
        self.locales = locales
        self.forms = forms
        self.problems = problems
    }
}

import JumpForms
import JumpLocalization
import Mustache

/// Renders the server's pages with the compiled templates (`Templates`), every page in the
/// one layout: `lang` and `dir` from the page's locale, the mobile viewport, the stylesheet.
public enum PageRenderer {
    /// The templates, parsed once. A template that does not parse is a bug in this module
    /// (the tests render every one).
    static let library: MustacheLibrary = {
        var library = MustacheLibrary()
        for template in Templates.all {
            do {
                try library.register(template.text, named: template.name)
            } catch {
                preconditionFailure("the page template '\(template.name)' does not parse: \(error)")
            }
        }
        return library
    }()

    static func render(_ context: [String: Any], template: String, locale: LocaleTag, title: String) -> String {
        var context = context
        context["lang"] = locale.identifier
        context["dir"] = TextDirection(locale).rawValue
        context["title"] = title
        return library.render(context, withTemplate: template) ?? ""
    }

    /// A page of text.
    public static func message(_ page: MessagePage) -> String {
        render(
            ["paragraphs": page.paragraphs, "links": page.links.map(link)], template: "message", locale: page.locale,
            title: page.title)
    }

    /// A list of big buttons.
    public static func choices(_ page: ChoicePage) -> String {
        let choices: [[String: Any]] = page.choices.map { choice in
            var entry: [String: Any] = ["name": choice.name, "href": choice.href]
            if let detail = choice.detail, !detail.isEmpty { entry["detail"] = detail }
            return entry
        }
        return render(["paragraphs": page.paragraphs, "choices": choices], template: "choices", locale: page.locale, title: page.title)
    }

    /// `jump-forms preview`'s gallery (a page of its own, not in the layout).
    public static func gallery(_ page: GalleryPage) -> String {
        let forms: [[String: Any]] = page.forms.map { form in
            [
                "name": form.name,
                "frames": form.frames.map { frame -> [String: Any] in ["form": form.name, "locale": frame.locale, "src": frame.source] }
            ]
        }
        let values: [String: Any] = [
            "flow": page.flowName, "generation": page.generation, "forms": forms, "locales": page.locales.joined(separator: ", "),
            "problems": page.problems.map { [["text": $0]] } ?? [[String: String]]()
        ]
        return library.render(values, withTemplate: "gallery") ?? ""
    }

    /// A form.
    public static func form(_ page: FormPage) -> String {
        var context: [String: Any] = [
            "formName": page.formName,
            "notices": page.notices,
            "hasFormErrors": !page.formErrors.isEmpty,
            "formErrors": page.formErrors,
            "intro": page.intro,
            "hasRules": !page.rules.isEmpty,
            "rules": page.rules,
            "rulesID": rulesID(page),
            "hidden": page.hiddenInputs.map { ["name": $0.name, "value": $0.value] as [String: Any] },
            "fields": fieldContexts(page),
            "submitLabel": page.words.submit,
            "links": page.links.map(link)
        ]
        if let note = page.words.requiredNote, page.fields.contains(where: \.isRequired) { context["requiredNote"] = note }
        if let action = page.action { context["action"] = action }
        return render(context, template: "form", locale: page.locale, title: page.title)
    }

    static func link(_ link: PageLink) -> [String: Any] { ["label": link.label, "href": link.href] }

    static func rulesID(_ page: FormPage) -> String { "form-\(page.formName)-rules" }

    /// An attribute: `name="text"`, or `name` alone.
    static func attribute(_ name: String, _ text: String? = nil) -> [String: Any] {
        ["name": name, "hasText": text != nil, "text": text ?? ""]
    }

    static func fieldContexts(_ page: FormPage) -> [[String: Any]] {
        let focused = page.firstInvalidField
        return page.fields.map { field in
            fieldContext(field, page: page, autofocus: field.name == focused)
        }
    }

    static func fieldContext(_ field: FormModel.Field, page: FormPage, autofocus: Bool) -> [String: Any] {
        let id = FormPage.controlID(field.name)
        let errors = page.fieldErrors[field.name] ?? []
        // A password is never shown again.
        let value: String? = field.type == .password ? nil : page.values[field.name] ?? field.defaultValue
        var context: [String: Any] = [
            "id": id, "name": field.name, "label": field.label, "required": field.isRequired, "errors": errors,
            "isHidden": field.type == .hidden, "isCheckbox": field.type == .checkbox, "isRadio": field.type == .radio,
            "isDate": field.type == .dateselect, "isTextarea": field.type == .textarea, "isSelect": field.type == .select,
            "isInput": [.text, .email, .password].contains(field.type),
            "isLabelled": [.text, .email, .password, .textarea, .select].contains(field.type)
        ]
        if let value, !value.isEmpty { context["value"] = value }
        if let tip = field.tip, !tip.isEmpty { context["tip"] = tip }
        var described: [String] = []
        if field.tip.map({ !$0.isEmpty }) ?? false { described.append(id + "-tip") }
        if page.rulesField == field.name, !page.rules.isEmpty { described.append(rulesID(page)) }
        if !errors.isEmpty { described.append(FormPage.errorID(field.name)) }
        // The attributes every control of the field carries.
        var common: [[String: Any]] = []
        if !described.isEmpty { common.append(attribute("aria-describedby", described.joined(separator: " "))) }
        if !errors.isEmpty { common.append(attribute("aria-invalid", "true")) }
        var attributes: [[String: Any]] = []
        switch field.type {
        case .text, .email, .password, .textarea:
            context["inputType"] = field.type == .email ? "email" : field.type == .password ? "password" : "text"
            attributes += ruleAttributes(field)
            if let placeholder = field.placeholder, !placeholder.isEmpty { attributes.append(attribute("placeholder", placeholder)) }
            if let completion = autocomplete(field) { attributes.append(attribute("autocomplete", completion)) }
        case .checkbox:
            context["checked"] = value == "true"
            if value == "true" { attributes.append(attribute("checked")) }
            if field.isRequired { attributes.append(attribute("required")) }
        case .select:
            if field.isRequired { attributes.append(attribute("required")) }
            var options = field.options.map { option -> [String: Any] in
                ["value": option.value, "label": option.label, "selected": option.value == (value ?? ""), "disabled": option.disabled]
            }
            if !field.options.contains(where: { $0.value.isEmpty }) {
                options.insert(["value": "", "label": page.words.chooseOne, "selected": (value ?? "").isEmpty, "disabled": false], at: 0)
            }
            context["options"] = options
        case .radio:
            context["options"] = field.options.enumerated().map { index, option -> [String: Any] in
                [
                    "id": index == 0 ? id : "\(id)-\(index)", "name": field.name, "value": option.value, "label": option.label,
                    "checked": option.value == value, "disabled": option.disabled, "autofocus": autofocus && index == 0
                ]
            }
        case .dateselect:
            context["parts"] = dateParts(field, value: value, page: page, common: common, autofocus: autofocus)
        case .hidden:
            break
        }
        if autofocus, field.type != .radio, field.type != .dateselect { attributes.append(attribute("autofocus")) }
        context["attributes"] = attributes + common
        return context
    }

    /// What the browser can check of a text field's rules: `required`, `minlength`,
    /// `maxlength`, `pattern` (a flow pattern `BrowserPattern` can carry over, or an ASCII
    /// format written exactly as one), and `inputmode` for numbers and phone numbers.
    static func ruleAttributes(_ field: FormModel.Field) -> [[String: Any]] {
        var attributes: [[String: Any]] = []
        var pattern: String?
        for rule in field.rules where rule.clientSide && !rule.kind.isServerOnly {
            switch (rule.kind, rule.value) {
            case (.required, _): attributes.append(attribute("required"))
            case (.minLength, .integer(let n)): attributes.append(attribute("minlength", String(n)))
            case (.maxLength, .integer(let n)): attributes.append(attribute("maxlength", String(n)))
            case (.pattern, .text(let source)) where field.type != .textarea && pattern == nil:
                pattern = BrowserPattern.attribute(for: source)
            case (.format, .text(let name)):
                guard let format = Format(rawValue: name) else { continue }
                if field.type != .textarea, pattern == nil, let exact = BrowserPattern.pattern(of: format) { pattern = exact }
                switch format {
                case .numeric, .zipCode, .zipCodePlus4: attributes.append(attribute("inputmode", "numeric"))
                case .numericReal: attributes.append(attribute("inputmode", "decimal"))
                case .phone, .phoneInternational: attributes.append(attribute("inputmode", "tel"))
                default: break
                }
            default: continue
            }
        }
        if let pattern { attributes.append(attribute("pattern", pattern)) }
        return attributes
    }

    /// The `autocomplete` token of a field, from its type and schema path.
    static func autocomplete(_ field: FormModel.Field) -> String? {
        var path: String?
        if case .path(let located)? = field.schemaId { path = located.value }
        switch field.type {
        case .password: return path == "password" ? "new-password" : "current-password"
        case .email: return "email"
        default: break
        }
        switch path {
        case "givenName": return "given-name"
        case "familyName": return "family-name"
        case "displayName": return "nickname"
        case "primaryAddress.mobile", "primaryAddress.phone": return "tel"
        case "primaryAddress.address1": return "address-line1"
        case "primaryAddress.city": return "address-level2"
        case "primaryAddress.zip": return "postal-code"
        default: return nil
        }
    }

    /// A dateselect's parts in the order the locale writes a date (`CivilDate.partOrder`: day,
    /// month, year in de-DE; month, day, year in en-US; year, month, day in ja-JP), each with a
    /// visible label: the year a number input, the month a select of the locale's month names
    /// (CLDR's, `CivilDate.monthNames`), the day a select; from a `yyyy-MM-dd` value. Every
    /// part carries the field's `aria-invalid` and `aria-describedby` when it has messages.
    static func dateParts(
        _ field: FormModel.Field, value: String?, page: FormPage, common: [[String: Any]], autofocus: Bool
    ) -> [[String: Any]] {
        let pieces = (value ?? "").split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        func piece(_ index: Int) -> String { index < pieces.count ? pieces[index] : "" }
        let id = FormPage.controlID(field.name)
        var attributes = common
        if field.isRequired { attributes.append(attribute("required")) }
        var isBirthday = false
        if case .path(let located)? = field.schemaId, located.value == "birthday" { isBirthday = true }
        func completion(_ part: String) -> [[String: Any]] { isBirthday ? [attribute("autocomplete", "bday-" + part)] : [] }
        func options(_ labels: [String], selected: String) -> [[String: Any]] {
            [["value": "", "label": "", "selected": Int(selected) == nil]]
                + labels.enumerated().map { index, label in ["value": String(index + 1), "label": label, "selected": Int(selected) == index + 1] }
        }
        let order = CivilDate.partOrder(for: page.locale)
        return order.enumerated().map { position, part -> [String: Any] in
            let focus = autofocus && position == 0 ? [attribute("autofocus")] : []
            switch part {
            case .year:
                return [
                    "id": id + "-year", "name": "\(field.name)[dateselect_year]", "label": page.words.year, "part": "year", "isSelect": false,
                    "value": piece(0),
                    "attributes": attributes + completion("year") + [attribute("min", "1"), attribute("max", "9999")] + focus
                ]
            case .month:
                return [
                    "id": id + "-month", "name": "\(field.name)[dateselect_month]", "label": page.words.month, "part": "month", "isSelect": true,
                    "value": piece(1), "options": options(CivilDate.monthNames(for: page.locale), selected: piece(1)),
                    "attributes": attributes + completion("month") + focus
                ]
            case .day:
                return [
                    "id": id + "-day", "name": "\(field.name)[dateselect_day]", "label": page.words.day, "part": "day", "isSelect": true,
                    "value": piece(2), "options": options((1...31).map(String.init), selected: piece(2)),
                    "attributes": attributes + completion("day") + focus
                ]
            }
        }
    }
}

/// The Mustache templates of the server's pages, compiled into the binary (no file is read at
/// run time). `{{name}}` escapes for HTML; the templates never use `{{{name}}}`, so every text
/// a page shows (labels, messages, values a user typed) is escaped. Every page fills the one
/// layout (`layout`) through template inheritance (`{{<layout}}{{$content}}...`).
enum Templates {
    static let all: [(name: String, text: String)] = [
        ("layout", layout), ("form", form), ("message", message), ("choices", choices)
    ]

    /// Every page: `lang` and `dir`, the mobile viewport, the stylesheet, the title as `h1`.
    static let layout = """
        <!DOCTYPE html>
        <html lang="{{lang}}" dir="{{dir}}">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{title}}</title>
        <link rel="stylesheet" href="/assets/jump-forms.css">
        </head>
        <body>
        <main class="page">
        <h1>{{title}}</h1>
        {{$content}}{{/content}}
        </main>
        </body>
        </html>

        """

    /// The attributes of a control: `name="value"`, or a bare `name` (a boolean attribute).
    static let attributes = "{{#attributes}} {{name}}{{#hasText}}=\"{{text}}\"{{/hasText}}{{/attributes}}"

    /// A form: notices, form-level errors, the rules shown up front, the fields, the button.
    static let form = """
        {{<layout}}{{$content}}
        {{#notices}}
        <p class="notice" role="status">{{.}}</p>
        {{/notices}}
        {{#hasFormErrors}}
        <div class="form-errors" role="alert" id="form-errors">
        {{#formErrors}}
        <p>{{.}}</p>
        {{/formErrors}}
        </div>
        {{/hasFormErrors}}
        {{#intro}}
        <p>{{.}}</p>
        {{/intro}}
        {{#hasRules}}
        <ul class="rules" id="{{rulesID}}">
        {{#rules}}
        <li>{{.}}</li>
        {{/rules}}
        </ul>
        {{/hasRules}}
        {{#requiredNote}}
        <p class="note">{{requiredNote}}</p>
        {{/requiredNote}}
        <form id="form-{{formName}}" method="post"{{#action}} action="{{action}}"{{/action}}>
        {{#hidden}}
        <input type="hidden" name="{{name}}" value="{{value}}">
        {{/hidden}}
        {{#fields}}
        {{#isHidden}}
        <input type="hidden" id="{{id}}" name="{{name}}" value="{{value}}">
        {{/isHidden}}
        {{^isHidden}}
        <div class="field" id="{{id}}-row">
        {{#isCheckbox}}
        <div class="check">
        <input type="checkbox" id="{{id}}" name="{{name}}" value="true"\(attributes)>
        <label for="{{id}}">{{label}}{{#required}}<span class="required" aria-hidden="true">*</span>{{/required}}</label>
        </div>
        {{/isCheckbox}}
        {{#isRadio}}
        <fieldset id="{{id}}-group"\(attributes)>
        <legend>{{label}}{{#required}}<span class="required" aria-hidden="true">*</span>{{/required}}</legend>
        <div class="options">
        {{#options}}
        <label for="{{id}}"><input type="radio" id="{{id}}" name="{{name}}" value="{{value}}"{{#checked}} checked{{/checked}}{{#disabled}} disabled{{/disabled}}{{#autofocus}} autofocus{{/autofocus}}{{#required}} required{{/required}}> {{label}}</label>
        {{/options}}
        </div>
        </fieldset>
        {{/isRadio}}
        {{#isDate}}
        <fieldset>
        <legend id="{{id}}-legend">{{label}}{{#required}}<span class="required" aria-hidden="true">*</span>{{/required}}</legend>
        <div class="date">
        {{#parts}}
        <div class="date-part date-{{part}}">
        <label for="{{id}}">{{label}}</label>
        {{#isSelect}}
        <select id="{{id}}" name="{{name}}"\(attributes)>
        {{#options}}
        <option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>
        {{/options}}
        </select>
        {{/isSelect}}
        {{^isSelect}}
        <input type="number" id="{{id}}" name="{{name}}" value="{{value}}" inputmode="numeric"\(attributes)>
        {{/isSelect}}
        </div>
        {{/parts}}
        </div>
        </fieldset>
        {{/isDate}}
        {{#isLabelled}}
        <label for="{{id}}">{{label}}{{#required}}<span class="required" aria-hidden="true">*</span>{{/required}}</label>
        {{/isLabelled}}
        {{#isInput}}
        <input type="{{inputType}}" id="{{id}}" name="{{name}}"{{#value}} value="{{value}}"{{/value}}\(attributes)>
        {{/isInput}}
        {{#isTextarea}}
        <textarea id="{{id}}" name="{{name}}"\(attributes)>{{value}}</textarea>
        {{/isTextarea}}
        {{#isSelect}}
        <select id="{{id}}" name="{{name}}"\(attributes)>
        {{#options}}
        <option value="{{value}}"{{#selected}} selected{{/selected}}{{#disabled}} disabled{{/disabled}}>{{label}}</option>
        {{/options}}
        </select>
        {{/isSelect}}
        {{#tip}}
        <p class="tip" id="{{id}}-tip">{{tip}}</p>
        {{/tip}}
        <p class="field-error" id="{{id}}-error">{{#errors}}<span>{{.}}</span> {{/errors}}</p>
        </div>
        {{/isHidden}}
        {{/fields}}
        <button type="submit" id="submit">{{submitLabel}}</button>
        </form>
        {{#links}}
        <p class="note"><a href="{{href}}">{{label}}</a></p>
        {{/links}}
        {{/content}}{{/layout}}
        """

    /// A page of text: a message, a success, an error.
    static let message = """
        {{<layout}}{{$content}}
        {{#paragraphs}}
        <p>{{.}}</p>
        {{/paragraphs}}
        {{#links}}
        <p><a class="button" href="{{href}}">{{label}}</a></p>
        {{/links}}
        {{/content}}{{/layout}}
        """

    /// A list of big buttons: the Engage dialog's identities and providers.
    static let choices = """
        {{<layout}}{{$content}}
        {{#paragraphs}}
        <p>{{.}}</p>
        {{/paragraphs}}
        <ul class="choices">
        {{#choices}}
        <li><a class="choice" href="{{href}}"><span class="name">{{name}}</span>{{#detail}}<span class="detail">{{detail}}</span>{{/detail}}</a></li>
        {{/choices}}
        </ul>
        {{/content}}{{/layout}}
        """
}

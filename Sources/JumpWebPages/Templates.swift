/// The Mustache templates of the server's pages, compiled into the binary (no file is read at
/// run time). `{{name}}` escapes for HTML; the templates never use `{{{name}}}`, so every text
/// a page shows (labels, messages, values a user typed) is escaped. Every page fills the one
/// layout (`layout`) through template inheritance (`{{<layout}}{{$content}}...`).
enum Templates {
    static let all: [(name: String, text: String)] = [
        ("layout", layout), ("form", form), ("message", message), ("choices", choices), ("gallery", gallery)
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

    /// `jump-forms preview`'s gallery (`GalleryPage`): a page of its own, not in the layout,
    /// with its inline style and the script that reloads it when the generation moves on (the
    /// server allows both by their hashes in its `Content-Security-Policy`, so they hold no
    /// value).
    static let gallery = """
        <!DOCTYPE html>
        <html lang="en" dir="ltr">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{flow}}: preview</title>
        <style>
        *, *::before, *::after { box-sizing: border-box; }
        body { font-family: system-ui, sans-serif; margin: 0 1rem 2rem; color: #1b1b1f; background: #f4f4f6; overflow-wrap: anywhere; }
        header { position: sticky; top: 0; background: #f4f4f6; padding: .5rem 0; }
        h1 { font-size: 1.25rem; margin: .5rem 0; }
        h2 { font-size: 1.05rem; margin: 1.25rem 0 .5rem; }
        .problems { background: #fff1f0; border: 1px solid #c62828; border-radius: 6px; padding: .5rem 1rem; }
        .problems pre { white-space: pre-wrap; overflow-x: auto; font-size: .85rem; }
        .locales { display: flex; gap: 1rem; overflow-x: auto; padding-bottom: .5rem; max-width: 100%; }
        figure { margin: 0; flex: 0 0 auto; max-width: 100%; }
        figcaption { font: 600 .85rem ui-monospace, monospace; margin-bottom: .25rem; }
        iframe { display: block; width: 375px; max-width: calc(100vw - 2rem); height: 667px; border: 1px solid #c4c4cc; border-radius: 6px; background: #fff; }
        </style>
        </head>
        <body data-generation="{{generation}}">
        <header>
        <h1>{{flow}}: every form in {{locales}}</h1>
        <p id="generation">Generation {{generation}}: this page reloads when a flow, locale or config file changes.</p>
        </header>
        {{#problems}}
        <section class="problems" id="problems" role="alert">
        <h2>The last change has errors; the forms below are the last good ones</h2>
        <pre>{{text}}</pre>
        </section>
        {{/problems}}
        {{#forms}}
        <section class="form" id="gallery-{{name}}">
        <h2>{{name}}</h2>
        <div class="locales">
        {{#frames}}
        <figure>
        <figcaption>{{locale}}</figcaption>
        <iframe title="{{form}} in {{locale}}" src="{{src}}" loading="lazy"></iframe>
        </figure>
        {{/frames}}
        </div>
        </section>
        {{/forms}}
        <script>
        (function () {
          const seen = document.body.dataset.generation;
          async function poll() {
            for (;;) {
              try {
                const answer = await fetch("/preview/generation?after=" + seen, { cache: "no-store" });
                if (answer.ok && (await answer.text()).trim() !== seen) { location.reload(); return; }
              } catch (error) {}
              await new Promise(function (resume) { setTimeout(resume, 300); });
            }
          }
          // After the load event: a request in flight before it would hold the event.
          if (document.readyState === "complete") { setTimeout(poll, 0); }
          else { window.addEventListener("load", function () { setTimeout(poll, 0); }, { once: true }); }
        })();
        </script>
        </body>
        </html>

        """
}

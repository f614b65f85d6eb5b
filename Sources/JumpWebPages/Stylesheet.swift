/// The one stylesheet of the server's pages (`/assets/jump-forms.css`): no web fonts, no CDN,
/// readable from 320 px wide, and written with logical properties (`margin-inline-start`,
/// `text-align: start`) so that right-to-left pages mirror by themselves.
public enum Stylesheet {
    /// Where the server serves it; every page links it.
    public static let path = "/assets/jump-forms.css"

    /// Its content type.
    public static let contentType = "text/css; charset=utf-8"

    public static let text = """
        *, *::before, *::after { box-sizing: border-box; }
        html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
        body {
          margin: 0; background: #f4f5f7; color: #1d2330;
          font: 1rem/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans Arabic", sans-serif;
        }
        .page {
          max-inline-size: 32rem; margin-block: 0; margin-inline: auto;
          padding-block: 1.25rem 2rem; padding-inline: 1rem; background: #fff; min-block-size: 100vh;
        }
        h1 { font-size: 1.5rem; line-height: 1.25; margin-block: 0 1rem; overflow-wrap: anywhere; }
        p { margin-block: 0 .75rem; overflow-wrap: anywhere; }
        a { color: #0b57d0; }
        .note { color: #4a5263; font-size: .875rem; }
        .notice { padding: .75rem; border-radius: .5rem; background: #e7f5ec; color: #0f5132; }
        .form-errors {
          padding: .75rem; margin-block-end: 1rem; border-radius: .5rem;
          border-inline-start: .25rem solid #b3261e; background: #fdecea; color: #8c1d18;
        }
        .form-errors p:last-child { margin-block-end: 0; }
        .field { margin-block-end: 1rem; }
        .field > label, .field legend { display: block; font-weight: 600; margin-block-end: .25rem; }
        fieldset { border: 0; padding: 0; margin: 0; min-inline-size: 0; }
        .required { color: #b3261e; margin-inline-start: .25rem; }
        input[type=text], input[type=email], input[type=password], input[type=number], select, textarea {
          display: block; inline-size: 100%; min-block-size: 2.75rem; padding-block: .5rem; padding-inline: .75rem;
          font: inherit; color: inherit; background: #fff; border: 1px solid #8a91a0; border-radius: .5rem;
        }
        textarea { min-block-size: 6rem; resize: vertical; }
        input:focus, select:focus, textarea:focus, button:focus, .choice:focus {
          outline: 3px solid #0b57d0; outline-offset: 2px;
        }
        input[aria-invalid=true], select[aria-invalid=true], textarea[aria-invalid=true], fieldset[aria-invalid=true] {
          border-color: #b3261e; border-width: 2px;
        }
        .check { display: flex; gap: .5rem; align-items: flex-start; }
        .check input { inline-size: 1.5rem; block-size: 1.5rem; margin: 0; flex: none; }
        .check label { font-weight: 400; }
        .date { display: flex; flex-wrap: wrap; gap: .5rem; }
        .date-part { flex: 1 1 5.5rem; min-inline-size: 0; }
        .date-month { flex: 2 1 8rem; }
        .date-part label { display: block; font-size: .875rem; color: #4a5263; margin-block-end: .125rem; }
        .options label { display: flex; gap: .5rem; align-items: center; min-block-size: 2.75rem; font-weight: 400; }
        .tip { color: #4a5263; font-size: .875rem; margin-block: .25rem 0; }
        .field-error { color: #8c1d18; font-weight: 600; margin-block: .25rem 0; }
        .field-error:empty { display: none; }
        .rules { margin-block: 0 1rem; padding-inline-start: 1.25rem; color: #4a5263; }
        button, .button {
          display: block; inline-size: 100%; min-block-size: 3rem; padding-block: .75rem; padding-inline: 1rem;
          font: inherit; font-weight: 600; text-align: center; text-decoration: none;
          color: #fff; background: #0b57d0; border: 0; border-radius: .5rem; cursor: pointer;
        }
        .choices { list-style: none; margin: 0; padding: 0; }
        .choices li { margin-block-end: .75rem; }
        .choice {
          display: block; padding: 1rem; min-block-size: 3.5rem; text-align: start; text-decoration: none;
          color: inherit; background: #fff; border: 1px solid #8a91a0; border-radius: .75rem;
        }
        .choice .name { display: block; font-weight: 600; }
        .choice .detail { display: block; color: #4a5263; font-size: .875rem; overflow-wrap: anywhere; }
        @media (min-width: 40rem) {
          .page { margin-block: 2rem; min-block-size: 0; border-radius: .75rem; box-shadow: 0 1px 3px rgb(0 0 0 / .15); padding: 2rem; }
        }
        """
}

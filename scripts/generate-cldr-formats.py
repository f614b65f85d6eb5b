#!/usr/bin/env python3
"""Generates jump-forms' CLDR formatting data: ordinal plural rules, number and date formats.

A sibling of scripts/generate-plural-rules.py (whose rule translator and locale tables it
imports), with the same sources. Run from the repository root (needs `pip install babel==2.18.0
pyicu-wheels==2.15.2`, nothing else):

    python3 scripts/generate-cldr-formats.py          # rewrite the outputs
    python3 scripts/generate-cldr-formats.py --check  # exit 1 when an output is stale

Outputs (committed, so that building never needs Python):

  Sources/JumpLocalization/PluralRules+Ordinal.generated.swift
      CLDR 47's ordinal plural rules (`selectordinal`) of every language babel has them for,
      translated into Swift by generate-plural-rules.py's translator (babel's rule parser ->
      AST -> Swift), with samples computed the same way as the cardinal ones.
  Sources/JumpLocalization/CLDRFormats+Numbers.generated.swift
      Per locale: the default numbering system's digits and symbols, the decimal, percent,
      currency, accounting and scientific patterns, minimumGroupingDigits, the compact
      patterns (short and long decimal, short currency) per plural form and the currency
      symbols. Supplemental: each region's currency
      today, each currency's fraction digits.
  Sources/JumpLocalization/CLDRFormats+Dates.generated.swift
      Per locale, Gregorian calendar: month, weekday, era and day-period names in
      every context and width, the day-period rules, the date, time and date-time patterns,
      the availableFormats (skeleton -> pattern), the localized GMT formats and the names of
      UTC, and the hour letter the skeleton `j` stands for.
  Tests/JumpFormsTests/Fixtures/cldr-ordinal-samples.json
      CLDR 47's own ordinal sample strings, read from ICU 77.1's `plurals` resource as
      generate-plural-rules.py reads the cardinal ones, after checking that ICU's rules equal
      babel's for every language.

Data layout. Each locale's values are stored only where they differ from what its CLDR parent
resolves to (babel's merged data of the locale against its parent's: parent_exceptions, else
the truncated id, else root), as `key=value` lines after an `@id` line, in one Swift string
literal per file that is parsed once, on first use. A lookup walks the chain (`fr_CA`, `fr`,
`root`) and takes the first value found, which gives back babel's merged value for every id
(the script checks this for every key of every locale). Lists (month names, ...) are one value
whose items are separated by LIST_SEPARATOR.

Sources. Everything comes from babel 2.18.0 (CLDR 47) except what babel does not carry, which is
read from ICU 77.1 (pyicu-wheels 2.15.2), ICU's copy of the same CLDR 47:
  - minimumGroupingDigits (NumberElements/minimumGroupingDigits);
  - the decimal, percent, currency and accounting patterns of locales whose default numbering
    system is not latn (NumberElements/<system>/patterns: babel has only the latn ones);
  - the names of UTC that `z` and `zzzz` show, and the AM/PM names of `a` (format context);
  - the localized GMT format's hour format and zero format (zoneStrings/hourFormat,
    gmtZeroFormat);
  - the digits of each numbering system (NumberingSystem);
  - the hour letter of the skeleton `j` (DateTimePatternGenerator.getBestPattern("jm"): CLDR's
    timeData for the locale's likely region);
  - availableFormats (skeleton -> pattern) and the date-time patterns a skeleton's date and time
    are joined with (`dk.*`, the atTime ones for full and long), as ICU's
    DateTimePatternGenerator holds them (babel keeps the alt="ascii" availableFormats and has no
    atTime patterns).
Currency spacing (currencySpacing) is checked to be root's in every locale and is built into
the Swift code.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.util
import json
import sys
import unicodedata
from pathlib import Path

import babel
import babel.core
import babel.dates
import babel.localedata as localedata
import babel.numbers
from babel import Locale

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("generate_plural_rules", ROOT / "scripts/generate-plural-rules.py")
pr = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(pr)

ORDINAL_SWIFT = ROOT / "Sources/JumpLocalization/PluralRules+Ordinal.generated.swift"
NUMBERS_SWIFT = ROOT / "Sources/JumpLocalization/CLDRFormats+Numbers.generated.swift"
DATES_SWIFT = ROOT / "Sources/JumpLocalization/CLDRFormats+Dates.generated.swift"
ORDINAL_SAMPLES = ROOT / "Tests/JumpFormsTests/Fixtures/cldr-ordinal-samples.json"

LIST_SEPARATOR = "\u00a6"  # BROKEN BAR: in no CLDR value (checked)
CURRENCY_DATE = datetime.date(2025, 7, 1)  # "today" for each region's currency

PLURAL_FORMS = ["zero", "one", "two", "few", "many", "other"]
SYMBOLS = ["decimal", "group", "minusSign", "plusSign", "percentSign", "perMille", "exponential", "infinity", "nan"]
CONTEXTS = {"format": "f", "stand-alone": "s"}
WIDTHS = {"wide": "w", "abbreviated": "a", "narrow": "n", "short": "s"}
STYLES = ["full", "long", "medium", "short"]


def fail(message: str) -> None:
    sys.exit(f"generate-cldr-formats: {message}")


def icu_module():
    try:
        import icu
    except ImportError:
        fail(f"needs PyICU with ICU {pr.ICU_VERSION} (pip install pyicu-wheels=={pr.PYICU_WHEELS_VERSION})")
    if icu.ICU_VERSION != pr.ICU_VERSION:
        fail(f"needs ICU {pr.ICU_VERSION}, found ICU {icu.ICU_VERSION}: pip install pyicu-wheels=={pr.PYICU_WHEELS_VERSION}")
    return icu


# MARK: - Ordinals


def ordinals(cldr, ids, aliases):
    merged, own = {}, {}
    localedata._cache.clear()
    for tag in ids + sorted(aliases):
        merged[tag] = dict(Locale.parse(aliases.get(tag, tag)).ordinal_form.rules)
    localedata._cache.clear()
    for locale_id in ids:
        data = localedata.load(locale_id, merge_inherited=False)
        if "ordinal_form" in data:
            own[locale_id] = dict(data["ordinal_form"].rules)
    localedata._cache.clear()
    swift, fixture, count = pr.plurals(cldr, ids, aliases, merged, own)
    replacements = [
        ("// Generated by scripts/generate-plural-rules.py", "// Generated by scripts/generate-cldr-formats.py"),
        ("// Cardinal plural rules translated from babel's rule AST", "// Ordinal plural rules translated from babel's rule AST"),
        ("Regenerate: python3 scripts/generate-plural-rules.py", "Regenerate: python3 scripts/generate-cldr-formats.py"),
        ("extension PluralRules {\n    enum CLDR {", "extension PluralRules {\n    enum CLDROrdinal {"),
        ("CLDR ids with cardinal rules, sorted.", "CLDR ids with ordinal rules, sorted."),
    ]
    for old, new in replacements:
        if old not in swift:
            fail(f"generate-plural-rules.py's output no longer contains {old!r}")
        swift = swift.replace(old, new, 1)
    canonical = {k: v for k, v in own.items() if "_" not in k or v != own.get(k.split("_")[0])}
    return swift, fixture, count, canonical


def ordinal_samples(cldr, canonical) -> str:
    """CLDR's ordinal samples (ICU 77.1's plurals resource), after checking ICU's rules."""
    icu = icu_module()
    bundle = icu.ResourceBundle("", icu.Locale("plurals"))
    locales, rule_sets = bundle.get("locales_ordinals"), bundle.get("rules")
    languages = {}
    for language in sorted(canonical):
        try:
            rule_set = rule_sets.get(locales.get(language).getString())
        except icu.ICUError:
            fail(f"ICU {pr.ICU_VERSION} has no ordinal rules for {language}")
        conditions, samples = {}, {}
        for index in range(rule_set.getSize()):
            entry = rule_set.get(index)
            category, text = entry.getKey(), entry.getString()
            condition, _, rest = text.partition("@")
            if condition.strip():
                conditions[category] = condition.strip()
            found = {}
            for part in ("@" + rest).split("@")[1:]:
                kind, _, values = part.partition(" ")
                found[kind] = values.strip()
            samples[category] = found
        ours = sorted(pr.bp.PluralRule.parse(canonical[language]).abstract)
        theirs = sorted(pr.bp.PluralRule.parse(conditions).abstract)
        if ours != theirs:
            fail(f"{language}: ICU's ordinal rules {conditions} differ from babel's {canonical[language]}")
        languages[language] = {c: samples[c] for c in pr.CATEGORIES if c in samples}
    about = (
        f"CLDR {cldr} ordinal samples: the @integer sample strings of ordinals.xml, verbatim, for each of "
        f"the {len(languages)} languages with ordinal rules. Written by scripts/generate-cldr-formats.py from "
        f"ICU {pr.ICU_VERSION}'s plurals resource (pyicu-wheels {pr.PYICU_WHEELS_VERSION}), after checking that "
        f"ICU's ordinal rules equal babel {babel.__version__}'s for every language."
    )
    lines = ["{", f'  "about": {json.dumps(about)},', f'  "cldr": {json.dumps(cldr)},', '  "languages": {']
    for n, (language, categories) in enumerate(languages.items()):
        comma = "," if n < len(languages) - 1 else ""
        lines.append(f"    {json.dumps(language)}: {json.dumps(categories, ensure_ascii=False)}{comma}")
    lines += ["  }", "}"]
    text = "\n".join(lines) + "\n"
    json.loads(text)
    return text


# MARK: - Locale data


def pattern_text(value):
    text = getattr(value, "pattern", None)
    return text if text is not None else value


def listed(values) -> str:
    values = [str(v) for v in values]
    for v in values:
        if LIST_SEPARATOR in v:
            fail(f"{v!r} contains the list separator")
    return LIST_SEPARATOR.join(values)


def numbers_of(locale: Locale, icu) -> dict:
    data = locale._data
    out = {}
    system = data.get("default_numbering_system", "latn")
    if system != "latn":
        ns = icu.NumberingSystem.createInstanceByName(system)
        digits = ns.getDescription()
        if ns.isAlgorithmic() or ns.getRadix() != 10 or len(digits) != 10:
            fail(f"{locale}: numbering system {system} is not decimal")
        out["nu"] = digits
    symbols = data["number_symbols"][system]
    for name in SYMBOLS:
        value = symbols.get(name)
        if value is None:
            value = data["number_symbols"]["latn"][name]
        out["s." + name] = value

    def patterns(kind, key):
        # `key in table` is False for CLDR aliases (de's accounting pattern is its standard
        # one), which babel resolves only on access.
        try:
            return pattern_text(data[kind][key])
        except KeyError:
            return None

    out["p.decimal"] = patterns("decimal_formats", None)
    out["p.percent"] = patterns("percent_formats", None)
    out["p.scientific"] = patterns("scientific_formats", None)
    out["p.currency"] = patterns("currency_formats", "standard")
    out["p.accounting"] = patterns("currency_formats", "accounting")
    # Compact and unit patterns: one value per magnitude (unit and width), its items the
    # patterns of the plural forms zero, one, two, few, many and other (empty when absent).
    def forms(table):
        return listed(table.get(form, "") for form in PLURAL_FORMS)

    for prefix, tables in (
        ("cs", data["compact_decimal_formats"].get("short", {})),
        ("cl", data["compact_decimal_formats"].get("long", {})),
        ("cc", data["compact_currency_formats"].get("short", {})),
    ):
        magnitudes = sorted({m for table in tables.values() for m in table}, key=len)
        for magnitude in magnitudes:
            by_form = {form: pattern_text(table[magnitude]) for form, table in tables.items() if magnitude in table}
            out[f"{prefix}.{len(magnitude) - 1}"] = forms(by_form)
    for code, symbol in data["currency_symbols"].items():
        out["$." + code] = symbol
    return {k: v for k, v in out.items() if v is not None}


def lookup(table, key, default=None):
    """`table[key]`: babel's `get` and `in` miss CLDR aliases (cy's abbreviated day periods are
    its wide ones), which only indexing resolves."""
    try:
        return table[key]
    except KeyError:
        return default


def dates_of(locale: Locale) -> dict:
    data = locale._data
    out = {}
    for name, letter, count, first in (("months", "M", 12, 1), ("days", "D", 7, None)):
        for context, c in CONTEXTS.items():
            for width, w in WIDTHS.items():
                table = lookup(data[name][context], width)
                if table is None:
                    continue
                keys = [6, 0, 1, 2, 3, 4, 5] if name == "days" else list(range(first, first + count))
                out[f"{letter}.{c}{w}"] = listed(table[k] for k in keys)
    for width, w in WIDTHS.items():
        eras = lookup(data["eras"], width)
        if eras:
            out[f"E.{w}"] = listed([eras[0], eras[1]])
    for context, c in CONTEXTS.items():
        for width, w in WIDTHS.items():
            for period, name in lookup(data["day_periods"][context], width, {}).items():
                out[f"P.{c}{w}.{period}"] = name
    rules_table = data["day_period_rules"] if "day_period_rules" in data else {}
    for period, rules in rules_table.get(None, {}).items():
        parts = []
        for rule in rules:
            if "at" in rule:
                parts.append(f"@{rule['at'] // 60}")
            else:
                parts.append(f"{rule['from'] // 60}-{rule['before'] // 60}")
        out[f"R.{period}"] = ",".join(parts)
    for style in STYLES:
        out[f"d.{style}"] = pattern_text(data["date_formats"][style])
        out[f"t.{style}"] = pattern_text(data["time_formats"][style])
        out[f"dt.{style}"] = pattern_text(data["datetime_formats"][style])
    gmt = data["zone_formats"]["gmt"]
    out["z.gmt"] = gmt.replace("%s", "{0}")
    utc = data["time_zones"].get("Etc/UTC", {}) if "time_zones" in data else {}
    for width, w in (("long", "l"), ("short", "s")):
        name = utc.get(width, {}).get("standard")
        if name:
            out[f"z.utc{w}"] = name
    return out


def icu_dates_of(locale_id: str, icu) -> dict:
    bundle = icu.ResourceBundle(icu.UnicodeString("ICUDATA-zone"), icu.Locale(locale_id))
    zones = bundle.getWithFallback("zoneStrings")
    out = {
        "z.hour": zones.getWithFallback("hourFormat").getString(),
        "z.zero": zones.getWithFallback("gmtZeroFormat").getString(),
    }
    pattern = icu.DateTimePatternGenerator.createInstance(icu.Locale(locale_id)).getBestPattern("jm")
    hour = next((c for c in pattern if c in "hHkK"), None)
    if hour is None:
        fail(f"{locale_id}: no hour letter in the pattern of 'jm' ({pattern!r})")
    out["hj"] = hour
    # The names ICU shows for UTC (`z` and `zzzz`): babel's short name of Etc/UTC is not always
    # the one ICU uses (fr: babel "TU", ICU "UTC").
    utc_format = icu.SimpleDateFormat("z'\u0001'zzzz", icu.Locale(locale_id))
    utc_format.setTimeZone(icu.TimeZone.createTimeZone("Etc/UTC"))
    out["z.utcs"], out["z.utcl"] = utc_format.format(0.0).split("\u0001")
    # AM and PM as ICU shows them (babel 2.18.0 gives cy's abbreviated ones as root's AM/PM).
    period_format = icu.SimpleDateFormat("a'\u0001'aaaa'\u0001'aaaaa", icu.Locale(locale_id))
    period_format.setTimeZone(icu.TimeZone.createTimeZone("Etc/UTC"))
    for period, seconds in (("am", 0.0), ("pm", 43200.0)):
        for width, name in zip("awn", period_format.format(seconds).split("\u0001")):
            out[f"P.f{width}.{period}"] = name
    # availableFormats and the date-time patterns that join a skeleton's date and time, as
    # ICU's DateTimePatternGenerator has them: babel 2.18.0 keeps CLDR's alt="ascii" variants
    # of availableFormats (a plain space before AM/PM where CLDR 47 has U+202F) and has no
    # atTime date-time patterns ("{1} 'at' {0}").
    generator = icu.DateTimePatternGenerator.createInstance(icu.Locale(locale_id))
    for skeleton in generator.getSkeletons():
        if "Q" in skeleton or "w" in skeleton or "W" in skeleton:  # quarters and weeks are not carried
            continue
        out[f"k.{skeleton}"] = generator.getBestPattern(skeleton)
    for index, style in enumerate(STYLES):
        out[f"dk.{style}"] = generator.getDateTimeFormat(index)
    return out


def icu_numbers_of(locale_id: str, system: str, icu) -> dict:
    bundle = icu.ResourceBundle(icu.UnicodeString(), icu.Locale(locale_id))
    out = {"mg": bundle.getWithFallback("NumberElements").getWithFallback("minimumGroupingDigits").getString()}
    if system != "latn":
        # babel's patterns are the latn ones; a locale whose digits are another system's uses
        # that system's patterns (ar-EG: no explicit negative subpattern), as ICU does.
        for key, name in (("p.decimal", "decimalFormat"), ("p.percent", "percentFormat"),
                          ("p.currency", "currencyFormat"), ("p.accounting", "accountingFormat")):
            try:
                out[key] = bundle.getWithFallback(f"NumberElements/{system}/patterns/{name}").getString()
            except icu.ICUError:
                pass
    return out


def check_currency_spacing(ids, icu):
    def spacing(locale_id):
        bundle = icu.ResourceBundle(icu.UnicodeString("ICUDATA-curr"), icu.Locale(locale_id)).getWithFallback("currencySpacing")
        return tuple(
            bundle.get(side).get(key).getString()
            for side in ("beforeCurrency", "afterCurrency")
            for key in ("currencyMatch", "surroundingMatch", "insertBetween")
        )

    expected = ("[[:^S:]&[:^Z:]]", "[:digit:]", "\u00a0") * 2
    for locale_id in ["root"] + ids:
        if spacing(locale_id) != expected:
            fail(f"{locale_id}: currencySpacing {spacing(locale_id)} is not root's; the Swift code assumes root's")


def parent_of(locale_id: str, exceptions: dict) -> str | None:
    """The CLDR parent, as babel's loader finds it: parentLocales, then CLDR 45's nonlikelyScript
    rule (`az_Arab` -> root), then the truncated id."""
    if locale_id == "root":
        return None
    if locale_id in exceptions:
        return exceptions[locale_id]
    if localedata._is_non_likely_script(locale_id):
        return "root"
    return "_".join(locale_id.split("_")[:-1]) or "root"


def diffed(flat: dict, exceptions: dict) -> dict:
    """Each id's values that differ from what its parent chain resolves to."""
    out = {}
    for locale_id in flat:
        parent = parent_of(locale_id, exceptions)
        inherited = flat.get(parent, {}) if parent else {}
        own = {k: v for k, v in flat[locale_id].items() if inherited.get(k) != v}
        missing = [k for k in inherited if k not in flat[locale_id]]
        if missing:
            fail(f"{locale_id} lacks {missing[:3]} that its parent {parent} has")
        out[locale_id] = own
    # Check: walking the chain gives every merged value back.
    for locale_id, values in flat.items():
        for key, value in values.items():
            chain = locale_id
            while chain is not None and key not in out[chain]:
                chain = parent_of(chain, exceptions)
            if chain is None or out[chain][key] != value:
                fail(f"{locale_id}: {key} does not resolve to {value!r}")
    return out


def swift_literal_line(text: str) -> str:
    out = []
    for ch in text:
        code = ord(ch)
        category = unicodedata.category(ch)
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif category[0] == "C" or category in ("Zl", "Zp"):
            out.append(f"\\u{{{code:04X}}}")
        else:
            out.append(ch)
    return "".join(out)


def render_table(name: str, table: dict, order: list) -> list:
    lines = [f"    static let {name} = \"\"\""]
    for locale_id in order:
        values = table.get(locale_id)
        if not values:
            continue
        lines.append(swift_literal_line("@" + locale_id))
        for key in sorted(values):
            value = values[key]
            if "\n" in value or "\t" in value or "=" in key:
                fail(f"{locale_id}: unusable {key}={value!r}")
            lines.append(swift_literal_line(f"{key}={value}"))
    lines.append('"""')
    return lines


def locale_table(ids, aliases):
    """The ids, and the aliases: `lang_REGION` for `lang_Script_REGION` when CLDR's likely
    subtags give that script to the region (`zh_TW` -> `zh_Hant_TW`, `sr_ME` -> `sr_Latn_ME`), as
    ICU's alias bundles do, and the legacy codes (`iw` -> `he`)."""
    likely = babel.core.get_global("likely_subtags")
    known = set(ids)
    alias_table = {}
    for locale_id in ids:
        parts = locale_id.split("_")
        if len(parts) != 3 or len(parts[1]) != 4:
            continue
        language, script, region = parts
        short = f"{language}_{region}"
        if short in known:
            continue
        full = likely.get(short) or likely.get(language)
        if full and babel.core.parse_locale(full)[2] == script:
            alias_table[short] = locale_id
    for legacy, target in aliases.items():
        alias_table[legacy] = target
    for short in alias_table:
        if short in known:
            fail(f"alias {short} is also a locale")
    return sorted(known), dict(sorted(alias_table.items()))


def generate_locale_data(cldr, ids, aliases, icu):
    # Parents of locales babel has (CLDR also lists es_JP -> es_419, a locale it has no data for:
    # ICU, having no bundle for it either, falls back by truncation, as the Swift lookup does).
    exceptions = {k: v for k, v in babel.core.get_global("parent_exceptions").items() if k in ids}
    for child, parent in exceptions.items():
        if parent != "root" and parent not in ids:
            fail(f"parent exception {child} -> {parent} names an unknown locale")
    check_currency_spacing(ids, icu)
    numbers, dates = {}, {}
    localedata._cache.clear()
    for locale_id in ["root"] + ids:
        # A fresh cache for each locale: babel resolves CLDR aliases (de's accounting pattern
        # is an alias of its standard one) against whatever root data is cached, giving root's
        # value when root was loaded first.
        localedata._cache.clear()
        locale = Locale.parse(locale_id)
        numbers[locale_id] = numbers_of(locale, icu) | icu_numbers_of(locale_id, locale._data.get("default_numbering_system", "latn"), icu)
        dates[locale_id] = dates_of(locale) | icu_dates_of(locale_id, icu)
    localedata._cache.clear()
    # ICU's generator adds the skeletons of each locale's own date and time patterns, so a
    # child may lack one of its parent's: it is written with an empty value ("not here").
    done = set()

    def inherit(locale_id):
        if locale_id in done:
            return
        done.add(locale_id)
        parent = parent_of(locale_id, exceptions)
        if parent is None:
            return
        inherit(parent)
        for key, value in dates[parent].items():
            if key.startswith("k.") and key not in dates[locale_id]:
                dates[locale_id][key] = ""

    for locale_id in ["root"] + ids:
        inherit(locale_id)
    number_table = diffed(numbers, exceptions)
    date_table = diffed(dates, exceptions)
    known, alias_table = locale_table(ids, aliases)
    parent_exceptions = {
        locale_id: parent_of(locale_id, exceptions)
        for locale_id in ids
        if parent_of(locale_id, exceptions) != ("_".join(locale_id.split("_")[:-1]) or "root")
    }

    # Supplemental: currencies.
    regions = sorted(babel.core.get_global("territory_currencies"))
    region_currency = {}
    for region in regions:
        current = babel.numbers.get_territory_currencies(region, start_date=CURRENCY_DATE, tender=True)
        if current:
            region_currency[region] = current[0]
    fractions = {
        code: digits
        for code, (digits, _rounding, _cash_digits, _cash_rounding) in babel.core.get_global("currency_fractions").items()
        if code != "DEFAULT" and digits != 2
    }
    order = ["root"] + ids
    header = [
        f"// Generated by scripts/generate-cldr-formats.py from babel {babel.__version__} (CLDR {cldr}) and ICU {pr.ICU_VERSION}; do not edit.",
        "// Regenerate: python3 scripts/generate-cldr-formats.py",
        "",
    ]
    numbers_swift = header + [
        "extension CLDRFormatData {",
        "    /// Number data: `@id` lines, then `key=value` lines of the values that differ from the",
        "    /// parent's (see scripts/generate-cldr-formats.py for the keys).",
        *render_table("numbersText", number_table, order),
        "",
        f"    /// Each region's currency on {CURRENCY_DATE.isoformat()} (legal tender, babel's territory_currencies).",
        "    static let regionCurrencies: [String: String] = [",
        *pr.wrap_list("        ", [f"{pr.swift_string(r)}: {pr.swift_string(c)}" for r, c in region_currency.items()]),
        "    ]",
        "",
        "    /// Fraction digits of the currencies that do not have 2 (babel's currency_fractions).",
        "    static let currencyDigits: [String: Int] = [",
        *pr.wrap_list("        ", [f"{pr.swift_string(c)}: {d}" for c, d in sorted(fractions.items())]),
        "    ]",
        "",
        "    /// Every CLDR locale id babel has, sorted (root excluded).",
        "    static let localeIDs: [String] = [",
        *pr.wrap_list("        ", [pr.swift_string(x) for x in known]),
        "    ]",
        "",
        "    /// Parents that are not the truncated id (`en_GB` -> `en_001`, `es_MX` -> `es_419`,",
        "    /// `zh_Hant` -> `root`).",
        "    static let parentExceptions: [String: String] = [",
        *pr.wrap_list("        ", [f"{pr.swift_string(k)}: {pr.swift_string(v)}" for k, v in parent_exceptions.items()]),
        "    ]",
        "",
        "    /// Ids that stand for another: a region whose script is not the language's default",
        "    /// (`zh_TW` -> `zh_Hant_TW`, `sr_ME` -> `sr_Latn_ME`) and legacy codes (`iw` -> `he`).",
        "    static let localeAliases: [String: String] = [",
        *pr.wrap_list("        ", [f"{pr.swift_string(k)}: {pr.swift_string(v)}" for k, v in alias_table.items()]),
        "    ]",
        "}",
        "",
    ]
    dates_swift = header + [
        "extension CLDRFormatData {",
        "    /// Gregorian calendar data: `@id` lines, then `key=value` lines of the values that differ",
        "    /// from the parent's (see scripts/generate-cldr-formats.py for the keys).",
        *render_table("datesText", date_table, order),
        "}",
        "",
    ]
    stats = (sum(len(v) for v in number_table.values()), sum(len(v) for v in date_table.values()))
    return "\n".join(numbers_swift), "\n".join(dates_swift), stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when a generated file is out of date")
    args = parser.parse_args()
    icu = icu_module()
    cldr, ids, aliases, _merged, _own, _symbols = pr.load_babel()
    ordinal_swift, _fixture, count, canonical = ordinals(cldr, ids, aliases)
    numbers_swift, dates_swift, stats = generate_locale_data(cldr, ids, aliases, icu)
    outputs = {
        ORDINAL_SWIFT: ordinal_swift,
        ORDINAL_SAMPLES: ordinal_samples(cldr, canonical),
        NUMBERS_SWIFT: numbers_swift,
        DATES_SWIFT: dates_swift,
    }
    print(f"{count} languages with ordinal rules; {stats[0]} number values, {stats[1]} date values")
    pr.write_outputs(outputs, check=args.check)


if __name__ == "__main__":
    main()

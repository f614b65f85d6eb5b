#!/usr/bin/env python3
"""Records what ICU4C makes of jump-forms' differential corpus, for the Swift tests.

Run from the repository root with PyICU (pyicu-wheels 2.15.2 brings ICU 77.1, whose data is
CLDR 47 like jump-forms' tables; Debian's python3-icu brings ICU 72.1, CLDR 42):

    python3 scripts/generate-icu-differential.py          # rewrite the fixtures
    python3 scripts/generate-icu-differential.py --check  # exit 1 when a fixture is stale

Outputs (committed, so that the tests never need Python or ICU):

  Tests/JumpFormsTests/Fixtures/icu-messages.json
      The corpus: every pattern of PATTERNS below with each of its argument sets, in each
      locale of LOCALES, and ICU's MessageFormat output (or ICU's error). Dates are given to
      ICU as UDate (ISO 8601 text read as UTC, midnight for a date), with ICU's default time
      zone set to UTC; numbers as int64 when whole and plain, else as double (every decimal
      here round-trips through a double, and ICU formats a double from its shortest
      representation, so ICU sees the very digits jump-forms reads).
  Tests/JumpFormsTests/Fixtures/icu-plurals.json
      ICU's PluralRules (cardinal: PluralRules.forLocale; ordinal: ICU's ordinal rule text of
      the language from its plurals resource, through PluralRules.createRules, as PyICU has no
      ordinal forLocale) for every language jump-forms has rules for and ICU has too: the category of each integer 0-1000 and of each decimal of DECIMALS with its
      visible fraction digits (selected through a FormattedNumber with exactly those digits).
      Identical category strings are stored once.

Tests/JumpFormsTests/IcuDifferentialTests.swift compares jump-forms with these; the known
differences, each with its reason, are Tests/JumpFormsTests/Fixtures/icu-known-differences.json
and docs/locales.md.
"""

from __future__ import annotations

import argparse
import datetime
import json
import re
import sys
from pathlib import Path

import icu

ROOT = Path(__file__).resolve().parent.parent
MESSAGES = ROOT / "Tests/JumpFormsTests/Fixtures/icu-messages.json"
PLURALS = ROOT / "Tests/JumpFormsTests/Fixtures/icu-plurals.json"
CARDINAL_SWIFT = ROOT / "Sources/JumpLocalization/PluralRules+CLDR.generated.swift"
ORDINAL_SWIFT = ROOT / "Sources/JumpLocalization/PluralRules+Ordinal.generated.swift"

LOCALES = ["en-US", "de-CH", "fr-FR", "fr-CA", "es-MX", "pt-BR", "ru-RU", "pl-PL", "ar-EG", "ja-JP", "zh-Hant-TW",
           "hi-IN", "cy"]

NUMBERS = ["0", "1", "2", "-1", "2.5", "3.14159", "1234.5678", "-1234.5", "1000000", "0.005", "12345678.9", "1e3",
           "1.5e6", "2.5e-3"]
FEW_NUMBERS = ["0", "1", "2.5", "-1234.5", "1000000", "0.005"]
ORDINALS = ["0", "1", "2", "3", "4", "5", "6", "8", "10", "11", "12", "13", "20", "21", "22", "23", "40", "80", "101", "111",
            "1000", "1e3"]
DATES = ["2024-01-15T10:05:03Z", "2000-02-29", "1999-12-31T12:00:00Z", "2024-03-09T00:30:00+02:00"]

# (pattern, values of its one argument; None for no argument)
PATTERNS: list[tuple[str, list[str] | None]] = []


def corpus():
    number_styles = ["{n}", "{n, number}", "{n, number, integer}", "{n, number, percent}", "{n, number, currency}",
                     "{n, number, ::currency/EUR}", "{n, number, ::currency/JPY}", "{n, number, ::percent}",
                     "{n, number, ::.00}", "{n, number, ::compact-short}", "{n, number, ::compact-long}",
                     "{n, number, ::sign-always}", "{n, number, ::group-off}", "{n, number, ::precision-integer}",
                     "{n, number, ::@@@}", "{n, number, ::currency/USD unit-width-iso-code}", "{n, number, #,##0.00}",
                     "{n, number, 0.000}", "{n, number, #,##0%}", "{n, number, ::scientific}"]
    for style in number_styles:
        PATTERNS.append((style, NUMBERS))
    more_styles = ["{n, number, ::.##/@@+}", "{n, number, ::sign-accounting currency/EUR}", "{n, number, ::rounding-mode-half-up .00}",
                   "{n, number, ::integer-width/*000}", "{n, number, ::percent scale/100}", "{n, number, ::sign-except-zero}",
                   "{n, number, ::currency/CHF .00}", "{n, number, ::compact-short currency/EUR}", "{n, number, ::engineering}",
                   "{n, number, ::.0#}", "{n, number, ::group-min2}", "{n, number, ::@@#}", "{n, number, ::precision-increment/0.05}",
                   "{n, number, ::sign-never}", "{n, number, ::.00+}", "{n, number, ::percent .0}", "{n, number, ¤#,##0.00}",
                   "{n, number, #,##0.###;(#,##0.###)}", "{n, number, ::K}", "{n, number, ::,_ .000}"]
    for style in more_styles:
        PATTERNS.append((style, FEW_NUMBERS))
    PATTERNS.append(("{n, selectordinal, zero {#z} one {#st} two {#nd} few {#rd} many {#m} other {#th}}", ORDINALS))
    PATTERNS.append(("{n, selectordinal, =1 {first} one {#st} other {#th}}", ["1", "21", "2"]))
    PATTERNS.append(("{n, plural, zero {z #} one {o #} two {t #} few {f #} many {m #} other {x #}}", NUMBERS + ["1.0", "2.00", "0.0"]))
    PATTERNS.append(("{n, plural, offset:1 =0 {none} =1 {just {n}} one {{n} and # other} other {{n} and # others}}", ["0", "1", "2", "3", "22"]))
    PATTERNS.append(("{n, plural, =1e3 {exact} other {#}}", ["1000", "1e3", "999"]))
    date_styles = ["{d, date}", "{d, date, short}", "{d, date, medium}", "{d, date, long}", "{d, date, full}",
                   "{d, time}", "{d, time, short}", "{d, time, medium}", "{d, time, long}", "{d, time, full}",
                   "{d, date, ::yMMMd}", "{d, date, ::yMd}", "{d, date, ::MMMMd}", "{d, date, ::yMMMMEEEEd}", "{d, date, ::yMMM}",
                   "{d, date, ::MMMd}", "{d, date, ::MMMEd}", "{d, date, ::EEEE}", "{d, date, ::yMMMMd}", "{d, date, ::MMMMy}",
                   "{d, time, ::jm}", "{d, time, ::Hm}", "{d, time, ::hm}", "{d, time, ::jms}", "{d, time, ::Hms}",
                   "{d, date, ::yMMMdjm}", "{d, date, ::yMdjms}", "{d, date, ::MMMMEEEEdjm}",
                   "{d, date, yyyy-MM-dd HH:mm}", "{d, date, EEEE d MMMM y}", "{d, time, h:mm a}", "{d, date, dd.MM.yy}",
                   "{d, time, HH:mm:ss z}", "{d, time, HH:mm zzzz}", "{d, date, ::yMMMMEEEEdjmsz}", "{d, date, ::GyMMMd}",
                   "{d, time, ::Bhm}", "{d, date, MMMM}", "{d, date, LLLL}", "{d, date, EEEEE}"]
    for style in date_styles:
        PATTERNS.append((style, DATES))
    PATTERNS.append(("{d}", DATES[:2]))
    # Parser corners and plain text.
    for text in ["It''s {0}", "'{'{0}'}'", "{1a}", "{0} {1a} {0}", "a '#' {0}", "{0, select, a {A} other {O}}"]:
        PATTERNS.append((text, ["x"]))


def value_of(text: str, is_date: bool):
    if is_date:
        if "T" in text:
            moment = datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
        else:
            moment = datetime.datetime.fromisoformat(text + "T00:00:00+00:00")
        return icu.Formattable(moment.timestamp(), icu.Formattable.kIsDate)
    if re.fullmatch(r"-?[0-9]+", text):
        return icu.Formattable(int(text))
    if re.fullmatch(r"-?[0-9.]+(e-?[0-9]+)?", text):
        return icu.Formattable(float(text))
    return icu.Formattable(text)


def names_in(pattern: str) -> list[str]:
    names = []
    for match in re.finditer(r"\{\s*([^\s,{}']+)\s*[,}]", pattern):
        if match.group(1) not in names:
            names.append(match.group(1))
    return names


def run_messages():
    corpus()
    icu.TimeZone.setDefault(icu.TimeZone.createTimeZone("UTC"))
    lines = []
    count = 0
    for locale in LOCALES:
        icu_locale = icu.Locale.forLanguageTag(locale)
        for pattern, values in PATTERNS:
            names = names_in(pattern)
            is_date = "{d" in pattern
            try:
                message = icu.MessageFormat(pattern, icu_locale)
            except icu.ICUError as error:
                lines.append([locale, pattern, {}, None, str(error.args[0])[:80]])
                count += 1
                continue
            for text in values:
                args = {name: text for name in names}
                try:
                    output = message.format(names, [value_of(text, is_date) for _ in names])
                    lines.append([locale, pattern, args, output])
                except icu.ICUError as error:
                    lines.append([locale, pattern, args, None, str(error.args[0])[:80]])
                count += 1
    return lines, count


def render_messages(lines) -> str:
    about = (f"ICU {icu.ICU_VERSION} (CLDR {cldr_version()}) MessageFormat outputs of jump-forms' differential "
             "corpus: [locale, message, args, output] or [locale, message, args, null, ICU's error]. Numbers in args are JSON number "
             "text, dates ISO 8601. Written by scripts/generate-icu-differential.py; do not edit.")
    out = ["{", f'  "about": {json.dumps(about)},', f'  "icu": {json.dumps(icu.ICU_VERSION)},', '  "cases": [']
    for n, line in enumerate(lines):
        locale, pattern, args = line[0], line[1], line[2]
        arg_text = "{" + ", ".join(
            f"{json.dumps(k)}: {v if re.fullmatch(r'-?[0-9.]+(e-?[0-9]+)?', v) else json.dumps(v)}" for k, v in args.items()) + "}"
        rest = ", ".join(json.dumps(x, ensure_ascii=False) for x in line[3:])
        comma = "," if n < len(lines) - 1 else ""
        out.append(f"    [{json.dumps(locale)}, {json.dumps(pattern, ensure_ascii=False)}, {arg_text}, {rest}]{comma}")
    out += ["  ]", "}"]
    text = "\n".join(out) + "\n"
    json.loads(text)
    return text


def cldr_version() -> str:
    return {"77.1": "47", "72.1": "42"}.get(icu.ICU_VERSION, "unknown")


DECIMALS = [f"{i / 10:.1f}" for i in range(0, 31)] + [f"{i / 100:.2f}" for i in range(0, 201, 7)] + [
    "1.0", "1.00", "1.000", "2.0", "11.0", "21.0", "101.0", "1000.0", "1000000.0", "0.01", "0.10", "1.10", "2.50", "100.5",
    "1000.5", "1000000.5", "5.0", "15.0", "25.5", "0.001"]


def languages(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    marker = "static let languages: [String] = ["
    block = text[text.index(marker) + len(marker):]
    block = block[: block.index("]")]
    return re.findall(r'"([^"]+)"', block)


def run_plurals():
    bundle = icu.ResourceBundle("", icu.Locale("plurals"))
    result = {}
    for kind, path, table in (("cardinal", CARDINAL_SWIFT, "locales"), ("ordinal", ORDINAL_SWIFT, "locales_ordinals")):
        known = bundle.get(table)
        have = set()
        for index in range(known.getSize()):
            have.add(known.get(index).getKey())
        ids = [x for x in languages(path) if x in have]
        per_language = {}
        for language in ids:
            locale = icu.Locale(language)
            if kind == "cardinal":
                rules = icu.PluralRules.forLocale(locale)
            else:
                # PyICU has no ordinal forLocale: ICU's own ordinal rule text for the language,
                # from the same plurals resource, given to ICU's rule parser.
                rule_set = bundle.get("rules").get(known.get(language).getString())
                text = "; ".join(f"{rule_set.get(i).getKey()}: {rule_set.get(i).getString()}" for i in range(rule_set.getSize()))
                rules = icu.PluralRules.createRules(text)
            letters = "".join(letter(rules.select(i)) for i in range(0, 1001))
            decimals = ""
            for text in DECIMALS:
                digits = len(text.split(".")[1])
                formatter = icu.NumberFormatter.withLocale(icu.Locale("en")).precision(icu.Precision.minMaxFraction(digits, digits)).grouping(icu.UNumberGroupingStrategy.OFF)
                formatted = formatter.formatDoubleToValue(float(text))
                if str(formatted) != text:
                    sys.exit(f"{text} formats as {formatted}")
                decimals += letter(rules.select(formatted))
            per_language[language] = letters + "|" + decimals
        result[kind] = per_language
    return result


def letter(category: str) -> str:
    return {"zero": "z", "one": "o", "two": "t", "few": "f", "many": "m", "other": "x"}[category]


def render_plurals(result) -> str:
    about = (f"ICU {icu.ICU_VERSION} (CLDR {cldr_version()}) plural categories: per kind, per language, one letter per number "
             "(z zero, o one, t two, f few, m many, x other) for the integers 0-1000, then '|', then one letter per decimal of "
             "\"decimals\" (with its visible fraction digits). \"strings\" holds each distinct letter string once; languages "
             "index it. Written by scripts/generate-icu-differential.py; do not edit.")
    strings: list[str] = []
    out = ["{", f'  "about": {json.dumps(about)},', f'  "icu": {json.dumps(icu.ICU_VERSION)},',
           f'  "decimals": {json.dumps(DECIMALS)},']
    kinds = {}
    for kind, per_language in result.items():
        indexes = {}
        for language, text in per_language.items():
            if text not in strings:
                strings.append(text)
            indexes[language] = strings.index(text)
        kinds[kind] = indexes
    for kind, indexes in kinds.items():
        out.append(f'  {json.dumps(kind)}: {json.dumps(indexes)},')
    out.append('  "strings": [')
    for n, text in enumerate(strings):
        out.append(f"    {json.dumps(text)}{',' if n < len(strings) - 1 else ''}")
    out += ["  ]", "}"]
    text = "\n".join(out) + "\n"
    json.loads(text)
    return text


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when a fixture is out of date")
    args = parser.parse_args()
    lines, count = run_messages()
    outputs = {MESSAGES: render_messages(lines), PLURALS: render_plurals(run_plurals())}
    print(f"ICU {icu.ICU_VERSION}: {count} message cases ({len(PATTERNS)} patterns x {len(LOCALES)} locales)")
    stale = []
    for path, text in outputs.items():
        if path.exists() and path.read_text(encoding="utf-8") == text:
            continue
        stale.append(path)
        if not args.check:
            path.write_text(text, encoding="utf-8")
    for path in stale:
        print(f"{'stale' if args.check else 'wrote'}: {path.relative_to(ROOT)}")
    if args.check and stale:
        sys.exit(1)


if __name__ == "__main__":
    main()

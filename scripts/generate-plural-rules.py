#!/usr/bin/env python3
"""Generates jump-forms' CLDR tables from Python's babel (2.18.0, CLDR 47).

Writes:
  Sources/JumpForms/Localization/PluralRules+CLDR.generated.swift
      cardinal plural rules of every language babel knows, translated from babel's rule AST
      into Swift (no rule parsing at run time), deduplicated into shared rule sets, with
      sample numbers per category;
  Sources/JumpForms/Localization/NumberSymbols+CLDR.generated.swift
      decimal and group symbols, minus sign and grouping sizes (latn digits);
  Tests/JumpFormsTests/Fixtures/plural-samples.json
      the samples and number-formatting expectations the Swift tests check.

Sample numbers: babel strips CLDR's "@integer ... @decimal ..." samples, so this script
computes them with babel's own evaluator (babel.plural.PluralRule) over a fixed candidate set
(integers 0-1000 and powers of ten up to 10^9; decimals with one and two fraction digits).
They are therefore babel's evaluation of the CLDR 47 rules, not copies of plurals.xml; the
Swift tests check that the generated Swift code agrees with babel on every one of them.

Run from the repository root:  python3 scripts/generate-plural-rules.py
"""
import decimal
import json
import os
import sys

import babel
from babel import Locale
from babel import localedata
from babel import numbers as babel_numbers
from babel import plural as babel_plural

EXPECTED_BABEL = "2.18.0"
if babel.__version__ != EXPECTED_BABEL:
    sys.exit(f"babel {EXPECTED_BABEL} is required (pip install babel=={EXPECTED_BABEL}), found {babel.__version__}")

try:
    CLDR_VERSION = babel.core.get_cldr_version()
except AttributeError:
    CLDR_VERSION = "47"

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), ".."))
CATEGORIES = ["zero", "one", "two", "few", "many", "other"]

# ---------------------------------------------------------------- rules


def swift_operand(name):
    return {"n": "o.n", "i": "o.i", "v": "o.v", "w": "o.w", "f": "o.f", "t": "o.t", "c": "o.e", "e": "o.e"}[name]


def expression(node):
    """(swift text, is_double) of an operand expression."""
    kind, payload = node
    if kind == "mod":
        (operand, (_, (modulus,))) = payload
        text, is_double = expression(operand)
        if is_double:
            return f"{text}.truncatingRemainder(dividingBy: {modulus})", True
        return f"{text} % {modulus}", False
    return swift_operand(kind), kind == "n"


def relation(node):
    op, left, (_, ranges) = node
    text, is_double = expression(left)
    terms = []
    for (_, (low,)), (_, (high,)) in ranges:
        if low == high:
            terms.append(f"{text} == {low}")
        else:
            terms.append(f"({text} >= {low} && {text} <= {high})")
    body = " || ".join(terms)
    if is_double:
        test = f"(PluralOperands.isIntegral({text}) && ({body}))"
    else:
        test = f"({body})"
    return test if op == "in" else f"!{test}"


def condition(node):
    kind, payload = node
    if kind == "relation":
        return relation(payload)
    if kind == "and":
        return f"({condition(payload[0])} && {condition(payload[1])})"
    if kind == "or":
        return f"({condition(payload[0])} || {condition(payload[1])})"
    if kind == "not":
        return f"!({condition(payload[0])})"
    raise ValueError(f"unknown node {kind}")


def languages():
    """CLDR ids with plural rules: every base language, and regional variants whose rules differ."""
    ids = sorted(localedata.locale_identifiers())
    result = {}
    for identifier in ids:
        try:
            locale = Locale.parse(identifier)
        except Exception:
            continue
        rules = locale.plural_form.rules
        base = identifier.split("_")[0]
        if "_" in identifier and base in result and result[base] == rules:
            continue
        result[identifier] = rules
    return result


def candidates():
    integers = [decimal.Decimal(i) for i in list(range(0, 1001)) + [10**k for k in range(4, 10)]]
    decimals = []
    for whole in list(range(0, 31)) + [100, 1000, 10000, 100000, 1000000]:
        for tenth in range(0, 10):
            decimals.append(decimal.Decimal(f"{whole}.{tenth}"))
    for text in ["0.00", "0.01", "0.10", "1.00", "1.05", "1.50", "2.00", "2.50", "10.00", "100.50", "1000.00"]:
        decimals.append(decimal.Decimal(text))
    return integers, decimals


def samples(rules):
    rule = babel_plural.PluralRule(rules)
    integers, decimals = candidates()
    result = {}
    for category in CATEGORIES:
        ints = [str(i) for i in integers if rule(i) == category]
        decs = [str(d) for d in decimals if rule(d) == category]
        if ints or decs or category == "other":
            result[category] = {"integers": ints, "decimals": decs}
    return result


def generate_rules(out_swift, fixture):
    table = languages()
    rule_sets = []
    index_of = {}
    language_index = {}
    for language, rules in sorted(table.items()):
        key = json.dumps(sorted(rules.items()))
        if key not in index_of:
            index_of[key] = len(rule_sets)
            rule_sets.append(rules)
        language_index[language] = index_of[key]

    lines = [
        f"// Generated by scripts/generate-plural-rules.py from babel {babel.__version__}, CLDR {CLDR_VERSION}. Do not edit.",
        "",
        "extension PluralRules {",
        "    /// The CLDR version the tables come from.",
        f"    public static let cldrVersion = \"{CLDR_VERSION}\"",
        "",
        "    /// CLDR language id -> rule set.",
        "    static let ruleSetOfLanguage: [String: Int] = [",
    ]
    for language, index in sorted(language_index.items()):
        lines.append(f"        \"{language}\": {index},")
    lines += ["    ]", "", "    /// The categories of each rule set, in CLDR order.", "    static let ruleSetCategories: [[PluralCategory]] = ["]
    for rules in rule_sets:
        categories = [c for c in CATEGORIES if c in rules] + ["other"]
        lines.append("        [" + ", ".join("." + c for c in categories) + "],")
    lines += ["    ]", "", "    /// The category of a number under a rule set.",
              "    static func category(ruleSet: Int, _ o: PluralOperands) -> PluralCategory {",
              "        switch ruleSet {"]
    for index, rules in enumerate(rule_sets):
        lines.append(f"        case {index}:")
        for category in CATEGORIES:
            if category in rules:
                ast = babel_plural._Parser(rules[category]).ast
                lines.append(f"            // {category}: {rules[category]}")
                lines.append(f"            if {condition(ast)} {{ return .{category} }}")
        lines.append("            return .other")
    lines += ["        default:", "            return .other", "        }", "    }", ""]

    sample_sets = [samples(rules) for rules in rule_sets]
    lines += ["    /// Sample numbers of each category of each rule set (babel's evaluation of the CLDR rules).",
              "    static let ruleSetSamples: [[PluralCategory: PluralSamples]] = ["]
    for sample in sample_sets:
        entries = []
        for category, values in sample.items():
            ints = ", ".join(f"\"{v}\"" for v in values["integers"][:16])
            decs = ", ".join(f"\"{v}\"" for v in values["decimals"][:10])
            entries.append(f".{category}: PluralSamples(integers: [{ints}], decimals: [{decs}])")
        lines.append("        [" + ", ".join(entries) + "],")
    lines += ["    ]", "}", ""]
    with open(out_swift, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))

    fixture_languages = {}
    for language, index in sorted(language_index.items()):
        rules = rule_sets[index]
        fixture_languages[language] = {
            "categories": [c for c in CATEGORIES if c in rules] + ["other"],
            "samples": sample_sets[index],
        }
    fixture["plurals"] = fixture_languages
    return len(language_index), len(rule_sets)


# ---------------------------------------------------------------- numbers


def symbols(identifier):
    locale = Locale.parse(identifier)
    system = locale.default_numbering_system or "latn"
    table = locale.number_symbols.get("latn") or locale.number_symbols.get(system)
    pattern = locale.decimal_formats[None]
    primary, secondary = pattern.grouping
    return {
        "decimal": table["decimal"],
        "group": table["group"],
        "minus": table["minusSign"],
        "primary": primary,
        "secondary": secondary,
    }


def generate_numbers(out_swift, fixture):
    ids = sorted(localedata.locale_identifiers())
    table = {}
    for identifier in ids:
        try:
            entry = symbols(identifier)
        except Exception:
            continue
        base = identifier.split("_")[0]
        if "_" in identifier and base in table and table[base] == entry:
            continue
        table[identifier] = entry
    lines = [
        f"// Generated by scripts/generate-plural-rules.py from babel {babel.__version__}, CLDR {CLDR_VERSION}. Do not edit.",
        "",
        "extension NumberSymbols {",
        "    /// CLDR locale id -> (decimal, group, minus sign, primary grouping, secondary grouping), latn digits.",
        "    static let table: [String: NumberSymbols] = [",
    ]

    def swift_string(text):
        return "\"" + "".join(c if 0x20 <= ord(c) < 0x7F and c not in "\"\\" else f"\\u{{{ord(c):04X}}}" for c in text) + "\""

    for identifier, entry in sorted(table.items()):
        lines.append(f"        \"{identifier}\": NumberSymbols(decimal: {swift_string(entry['decimal'])}, group: {swift_string(entry['group'])}, "
                     f"minusSign: {swift_string(entry['minus'])}, primaryGrouping: {entry['primary']}, secondaryGrouping: {entry['secondary']}),")
    lines += ["    ]", "}", ""]
    with open(out_swift, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))

    expectations = {}
    for identifier in ["en", "fr", "de", "es", "it", "pt", "pt_PT", "nl", "sv", "da", "nb", "fi", "pl", "cs", "ru", "uk", "tr",
                       "el", "hu", "ro", "ja", "ko", "zh", "ar", "he", "hi", "th", "id", "vi", "sk", "de_CH", "en_IN", "fr_CH"]:
        values = {}
        # Non-negative only: babel writes "-" where CLDR's minusSign differs (U+2212 in sv, fi, nb;
        # a left-to-right mark before "-" in ar, he); jump-forms follows CLDR, tested separately.
        for number in ["0", "7", "1234", "12345", "123456", "1234567", "12345678.5", "1000000", "0.25", "9876543.21"]:
            values[number] = babel_numbers.format_decimal(decimal.Decimal(number), locale=identifier, decimal_quantization=False)
        expectations[identifier] = values
    fixture["numbers"] = expectations
    return len(table)


def main():
    fixture = {"generatedBy": f"scripts/generate-plural-rules.py (babel {babel.__version__}, CLDR {CLDR_VERSION})"}
    languages_count, sets = generate_rules(os.path.join(ROOT, "Sources/JumpForms/Localization/PluralRules+CLDR.generated.swift"), fixture)
    symbols_count = generate_numbers(os.path.join(ROOT, "Sources/JumpForms/Localization/NumberSymbols+CLDR.generated.swift"), fixture)
    fixture_path = os.path.join(ROOT, "Tests/JumpFormsTests/Fixtures/plural-samples.json")
    os.makedirs(os.path.dirname(fixture_path), exist_ok=True)
    with open(fixture_path, "w", encoding="utf-8") as f:
        json.dump(fixture, f, ensure_ascii=False, indent=1, sort_keys=True)
        f.write("\n")
    print(f"babel {babel.__version__}, CLDR {CLDR_VERSION}: {languages_count} languages in {sets} rule sets, {symbols_count} number-symbol entries")


if __name__ == "__main__":
    main()

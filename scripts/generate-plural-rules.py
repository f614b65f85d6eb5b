#!/usr/bin/env python3
"""Generates jump-forms' CLDR plural rules and number symbols from Python's babel.

Run from the repository root (needs `pip install babel==2.18.0 pyicu-wheels==2.15.2`, nothing
else; pyicu-wheels brings its own ICU 77.1, which carries CLDR 47):

    python3 scripts/generate-plural-rules.py          # rewrite the outputs
    python3 scripts/generate-plural-rules.py --check  # exit 1 when an output is stale

Outputs (committed, so that building never needs Python):

  Sources/JumpLocalization/PluralRules+CLDR.generated.swift
      The cardinal plural rules of every language babel has rules for. Each rule is parsed
      with babel's own parser (babel.plural.PluralRule.parse -> AST) and translated into Swift
      code: nothing parses rule text at run time. Languages with identical rules share one
      function (a "rule set"); a switch maps CLDR ids to languages. Also the sample numbers
      of every category.
  Sources/JumpLocalization/NumberSymbols+CLDR.generated.swift
      Decimal and group symbols, minus sign (latn digits) and the grouping sizes of the
      default decimal pattern, for every babel locale (only those that differ from what the
      fallback would give are listed).
  Tests/JumpFormsTests/Fixtures/plural-samples.json
      What the Swift tests check: rules, categories and samples per language, babel's
      category for every candidate number, the CLDR id every babel locale resolves to, and
      babel.numbers.format_decimal outputs.
  Tests/JumpFormsTests/Fixtures/cldr-plural-samples.json
      CLDR 47's own sample strings ("@integer 2~4, 22~24, ..., …" and "@decimal ...") of every
      category of every language above, verbatim. babel drops them (see below), so they are read
      from ICU 77.1's `plurals` resource bundle (ICU's copy of CLDR 47's plurals.xml), through
      PyICU as pyicu-wheels 2.15.2 ships it. The script checks that ICU's rule for each
      category parses (with babel's parser) to the same AST as babel's, so the samples belong
      to the very rules the Swift code was generated from. The Swift tests expand the ranges
      and check that PluralRules.cardinal(for:) puts each sample in its category.

Sample numbers. babel strips CLDR's "@integer ... @decimal ..." samples from the rules, so the
samples here are NOT copied from CLDR's plurals.xml: they are computed by babel's evaluator over
the CLDR 47 rules, on a fixed candidate set (CANDIDATES below: integers 0-200, powers of ten,
decimals with one and two fraction digits, compact numbers such as 1c6 and 1.5c6). Per category
they list the first 10 plain matches, in candidate order, then at most 2 compact ones, as CLDR
does ("2, 3, 4, 22, 23, 24, 32, 33, 34, 42").

babel's evaluator and the compact exponent. babel.plural.extract_operands always sets the
compact-decimal exponent operands c and e to 0 (its source says "TODO: c and e are not
supported"), so babel alone cannot evaluate `1c6`. This script therefore extracts TR35 operands
from the sample text itself (operands() below) and evaluates babel's compiled rule expression
(babel.plural._PythonCompiler, with babel's IN/WITHIN/MOD helpers, i.e. what to_python runs)
on them. For every candidate without an exponent it asserts that its operands equal
babel.plural.extract_operands and that the category equals babel.plural.PluralRule(...)(value),
with one exception: extract_operands miscounts v and f when the integer part is 0 and the
fraction starts with zeros ("0.05" gives v=1 instead of 2, from Decimal.as_tuple() dropping
leading zeros); there the TR35 operands are kept and any category change is printed (none in
CLDR 47 on these candidates).

Number formatting. The fixture records babel.numbers.format_decimal outputs verbatim. babel
writes negative numbers with an ASCII '-' whatever the locale's minus sign (the '-' of the
pattern's implicit negative subpattern is not localized), while CLDR says that '-' stands for
the locale's minusSign (U+2212 in sv, fi, nb; U+200E U+002D in ar, he, ...). The Swift code
follows CLDR, and the tests swap a leading '-' of babel's output for the minus sign. babel has
no minimumGroupingDigits data and groups 4-digit numbers everywhere ("1.234" in es, "1 234" in
pl, where ICU writes "1234"); the Swift code mirrors babel.
"""

from __future__ import annotations

import argparse
import decimal
import json
import re
import sys
from pathlib import Path

import babel
import babel.core
import babel.localedata
import babel.numbers
import babel.plural as bp
from babel import Locale

BABEL_VERSION = "2.18.0"
ROOT = Path(__file__).resolve().parent.parent
PLURAL_SWIFT = ROOT / "Sources/JumpLocalization/PluralRules+CLDR.generated.swift"
NUMBER_SWIFT = ROOT / "Sources/JumpLocalization/NumberSymbols+CLDR.generated.swift"
FIXTURE = ROOT / "Tests/JumpFormsTests/Fixtures/plural-samples.json"
CLDR_SAMPLES = ROOT / "Tests/JumpFormsTests/Fixtures/cldr-plural-samples.json"
PYICU_WHEELS_VERSION = "2.15.2"
ICU_VERSION = "77.1"  # ICU 77 carries CLDR 47

CATEGORIES = ["zero", "one", "two", "few", "many", "other"]  # PluralCategory's order
DEFAULT_SYMBOLS = (".", ",", "-", 3, 3)  # NumberSymbols' fallback (root)
MARKER = 10**18  # operands above this are kept modulo 10^18 plus 10^18 (see PluralOperands)
LEGACY_CODE_LENGTH = 2  # deprecated language codes listed: the 2-letter ones (iw, in, ji, jw, mo, sh, tl, ...)


def fail(message: str) -> None:
    sys.exit(f"generate-plural-rules: {message}")


# MARK: - Locale ids, as the Swift lookup sees them


def candidates(tag: str) -> list[str]:
    """The CLDR ids to try for a tag, most specific first. Mirrors CLDRLocaleID.candidates in
    PluralRules.swift: full tag, language_Script_REGION, language_REGION, language_Script,
    language; extensions (-u-..., -x-...) are ignored."""
    parts = [p for p in re.split(r"[-_]", tag) if p]
    if not parts or not (2 <= len(parts[0]) <= 3 and parts[0].isascii() and parts[0].isalpha()):
        return []
    language = parts[0].lower()
    script = region = None
    variants: list[str] = []
    k = 1
    if k < len(parts) and len(parts[k]) == 4 and parts[k].isascii() and parts[k].isalpha():
        script = parts[k][0].upper() + parts[k][1:].lower()
        k += 1
    if k < len(parts) and parts[k].isascii() and (
        (len(parts[k]) == 2 and parts[k].isalpha()) or (len(parts[k]) == 3 and parts[k].isdigit())
    ):
        region = parts[k].upper()
        k += 1
    while k < len(parts) and parts[k].isascii() and parts[k].isalnum() and (
        5 <= len(parts[k]) <= 8 or (len(parts[k]) == 4 and parts[k][0].isdigit())
    ):
        variants.append(parts[k].upper())
        k += 1
    out = ["_".join([language] + [x for x in (script, region) if x] + variants)]
    for c in (
        f"{language}_{script}_{region}" if script and region else None,
        f"{language}_{region}" if region else None,
        f"{language}_{script}" if script else None,
        language,
    ):
        if c and c not in out:
            out.append(c)
    return out


def resolve(table: dict, tag: str, default):
    for c in candidates(tag):
        if c in table:
            return table[c]
    return default


def minimal_table(expected: dict, default) -> dict:
    """The smallest table (greedy, least specific ids first) with which resolve() gives the
    expected value for every id."""
    table: dict = {}
    for locale_id in sorted(expected, key=lambda x: (x.count("_"), x)):
        if resolve(table, locale_id, default) != expected[locale_id]:
            table[locale_id] = expected[locale_id]
    for locale_id, value in expected.items():
        if resolve(table, locale_id, default) != value:
            fail(f"lookup of {locale_id} does not reach its value")
    return table


# MARK: - Babel data


def load_babel():
    if babel.__version__ != BABEL_VERSION:
        fail(f"needs babel {BABEL_VERSION} (pip install babel=={BABEL_VERSION}); found {babel.__version__}")
    cldr = babel.core.get_cldr_version() if hasattr(babel.core, "get_cldr_version") else "unknown"
    print(f"babel {babel.__version__}, CLDR {cldr}")
    ids = sorted(babel.localedata.locale_identifiers())
    aliases = {
        k: v
        for k, v in babel.core.get_global("language_aliases").items()
        if len(k) == LEGACY_CODE_LENGTH and k.isalpha() and k.islower() and k not in ids
    }
    # Merged (inherited) data first: babel.localedata caches by name, and an unmerged load
    # would otherwise be served to a later merged one.
    merged_rules, symbols = {}, {}
    for tag in ids + sorted(aliases):
        locale = Locale.parse(aliases.get(tag, tag))
        merged_rules[tag] = dict(locale.plural_form.rules)
        latn = locale.number_symbols["latn"]
        pattern = locale.decimal_formats[None]
        primary, secondary = pattern.grouping
        if primary >= 1000:  # a pattern without ',' ("0.######" of en_US_POSIX): no grouping
            primary = secondary = 0
        symbols[tag] = (latn["decimal"], latn["group"], latn["minusSign"], primary, secondary)
    babel.localedata._cache.clear()
    own_rules = {}
    for locale_id in ids:
        data = babel.localedata.load(locale_id, merge_inherited=False)
        if "plural_form" in data:
            own_rules[locale_id] = dict(data["plural_form"].rules)
    babel.localedata._cache.clear()
    return cldr, ids, aliases, merged_rules, own_rules, symbols


# MARK: - Operands and babel's evaluator

SAMPLE = re.compile(r"-?(\d+)(?:\.(\d+))?(?:[ce](\d+))?\Z")


def operands(text: str):
    """TR35 operands (n, i, v, w, f, t, c, e) of a sample such as '1.50' or '1.2c6'."""
    match = SAMPLE.match(text)
    if not match:
        fail(f"bad sample {text!r}")
    whole, fraction, exponent = match.group(1), match.group(2) or "", int(match.group(3) or 0)
    shift = min(exponent, len(fraction))
    whole = whole + fraction[:shift] + "0" * (exponent - shift)
    fraction = fraction[shift:]
    trimmed = fraction.rstrip("0")
    n = decimal.Decimal(whole + ("." + fraction if fraction else ""))
    return n, int(whole), len(fraction), len(trimmed), int(fraction or "0"), int(trimmed or "0"), exponent, exponent


def evaluator(rules: dict):
    """babel's compiled rule (what babel.plural.to_python builds), taking the operands."""
    compile_ast = bp._PythonCompiler().compile
    namespace = {"IN": bp.in_range_list, "WITHIN": bp.within_range_list, "MOD": bp.cldr_modulo}
    lines = ["def evaluate(n, i, v, w, f, t, c, e):"]
    for tag, ast in bp.PluralRule.parse(rules).abstract:
        lines.append(f" if ({compile_ast(ast)}): return {tag!r}")
    lines.append(f" return {bp._fallback_tag!r}")
    exec(compile("\n".join(lines), "<rule>", "exec"), namespace)
    return namespace["evaluate"]


def build_candidates():
    """(text, kind) in sample order; kind: integer, compact-integer, decimal, compact-decimal,
    negative (evaluated, never a sample)."""
    out = [(str(k), "integer") for k in range(0, 201)]
    out += [(str(10**k), "integer") for k in range(3, 10)]
    out += [(f"{k}c3", "compact-integer") for k in range(1, 4)]
    out += [(f"{k}c6", "compact-integer") for k in range(1, 7)]
    out += [("1c9", "compact-integer")]
    out += [(f"{k}.{d}", "decimal") for k in range(0, 31) for d in range(10)]
    out += [(f"{k}.{d}", "decimal") for k in range(31, 201) for d in (0, 5)]
    out += [(f"{10**k}.0", "decimal") for k in range(3, 7)] + [("1000000.5", "decimal")]
    out += [(f"{k}.{d:02d}", "decimal") for k in range(0, 3) for d in range(100)]
    out += [(f"{k}.000", "decimal") for k in range(0, 3)]
    out += [(t, "compact-decimal") for t in ("1.1c3", "1.5c3", "1.1c6", "1.5c6", "2.1c6", "1.0000001c6", "1.2c7")]
    out += [(t, "negative") for t in ("-1", "-2", "-5", "-11", "-0.5", "-1.0", "-1.5", "-1c6")]
    return out


# MARK: - Rules -> Swift


def swift_relation(node) -> tuple[str, bool]:
    """(Swift code, whether it is a compound needing parentheses inside && or !)."""
    op, args = node
    if op == "not":
        inner, compound = swift_relation(args[0])
        if compound:
            return f"!({inner})", False
        if " == " in inner:
            return inner.replace(" == ", " != "), False
        return f"!{inner}", False  # !(a...b).contains(x)
    if op in ("is", "isnot"):
        expr, value = args
        node = ("relation", ("in", expr, ("range_list", [(value, value)])))
        return swift_relation(("not", (node,)) if op == "isnot" else node)
    if op != "relation":
        fail(f"unexpected node {op}")
    method, expr, (_, ranges) = args
    if method != "in":
        fail(f"'{method}' relations are not used by CLDR 47 rules and not supported")
    if expr[0] == "mod":
        (name, _), (_, (modulus,)) = expr[1]
        if MARKER % modulus:
            fail(f"modulus {modulus} does not divide 10^18")
    else:
        name, modulus = expr[0], None
    operand = {"n": "i", "c": "e"}.get(name, name)
    value = f"o.{operand}" + (f" % {modulus}" if modulus else "")
    tests = []
    for (_, (low,)), (_, (high,)) in ranges:
        if high >= MARKER:
            fail(f"range bound {high} too large")
        tests.append(f"{value} == {low}" if low == high else f"({low}...{high}).contains({value})")
    code = " || ".join(tests)
    if name == "n":  # n is a decimal: `n in ...` holds for integers only (babel's in_range_list)
        return "o.f == 0 && " + (f"({code})" if len(tests) > 1 else code), True
    return code, len(tests) > 1


def swift_condition(node) -> str:
    op, args = node
    if op == "or":
        return f"{swift_disjunct(args[0])} || {swift_disjunct(args[1])}"
    if op == "and":
        return f"{swift_conjunct(args[0])} && {swift_conjunct(args[1])}"
    return swift_relation(node)[0]


def flatten_or(node) -> list:
    return flatten_or(node[1][0]) + flatten_or(node[1][1]) if node[0] == "or" else [node]


def swift_disjunct(node) -> str:
    if node[0] == "or":
        return swift_condition(node)
    if node[0] == "and":
        return f"({swift_condition(node)})"
    code, compound = swift_relation(node)
    return f"({code})" if compound else code


def swift_conjunct(node) -> str:
    if node[0] == "and":
        return swift_condition(node)
    if node[0] == "or":
        return f"({swift_condition(node)})"
    code, compound = swift_relation(node)
    return f"({code})" if compound else code


def swift_string(text: str) -> str:
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif 0x20 <= ord(ch) < 0x7F:
            out.append(ch)
        else:
            out.append(f"\\u{{{ord(ch):04X}}}")
    return '"' + "".join(out) + '"'


def swift_strings(items) -> str:
    return "[" + ", ".join(swift_string(s) for s in items) + "]"


def wrap_list(prefix: str, items: list[str], continuation: str | None = None, end: str = ",", width: int = 100) -> list[str]:
    """Items separated by ", " in lines of at most `width` characters; the last ends with `end`."""
    continuation = prefix if continuation is None else continuation
    lines, line = [], prefix
    for n, item in enumerate(items):
        piece = item + ("," if n < len(items) - 1 else end)
        if line not in (prefix, continuation) and len(line) + 1 + len(piece) > width:
            lines.append(line)
            line = continuation
        line += ("" if line in (prefix, continuation) else " ") + piece
    lines.append(line)
    return lines


# MARK: - Plurals


def plurals(cldr, ids, aliases, merged_rules, own_rules):
    # CLDR ids with rules: babel also stores the rules in script and "_001" locales whose parent
    # is root (sr_Latn, zh_Hant, en_001, ...), always equal to their language's; only pt_PT
    # differs. Those copies are not separate CLDR languages.
    canonical = {
        k: v for k, v in own_rules.items() if "_" not in k or v != own_rules.get(k.split("_")[0])
    }
    parent_exceptions = babel.core.get_global("parent_exceptions")

    def cldr_id(tag: str) -> str:
        locale_id = aliases.get(tag, tag)
        while locale_id != "root":
            if locale_id in own_rules:
                return locale_id if locale_id in canonical else locale_id.split("_")[0]
            parent = parent_exceptions.get(locale_id)
            locale_id = parent or ("_".join(locale_id.split("_")[:-1]) or "root")
        return "root"

    expected = {tag: cldr_id(tag) for tag in ids + sorted(aliases)}
    for tag, target in expected.items():
        if canonical.get(target, {}) != merged_rules[tag]:
            fail(f"{tag}: babel's rules differ from those of {target}")
    table = minimal_table({**expected, **{k: k for k in canonical}}, "root")

    # Rule sets: index 0 is the root (only `other`), then by first language.
    groups: dict = {}
    for language in sorted(canonical):
        groups.setdefault(tuple(sorted(canonical[language].items())), []).append(language)
    empty = groups.pop((), [])
    rule_sets = [{"languages": empty, "rules": {}}] + [
        {"languages": langs, "rules": dict(key)} for key, langs in sorted(groups.items(), key=lambda kv: kv[1][0])
    ]

    cands = build_candidates()
    texts = [t for t, _ in cands]
    overlaps = []
    babel_operand_bugs: set = set()
    babel_category_bugs: set = set()
    for rule_set in rule_sets:
        rules = rule_set["rules"]
        evaluate = evaluator(rules)
        check = bp.PluralRule(rules)
        per_tag = {tag: evaluator({tag: expr}) for tag, expr in rules.items()}
        rule_set["categories"] = [c for c in CATEGORIES if c in set(bp.PluralRule(rules).tags) | {"other"}]
        chosen = []
        for text, kind in cands:
            ops = operands(text)
            category = evaluate(*ops)
            if "c" not in text:
                value = decimal.Decimal(text)
                babel_ops = bp.extract_operands(value)
                if babel_ops[0] != ops[0] or babel_ops[1] != ops[1]:
                    fail(f"operands of {text}: {babel_ops} != {ops}")
                if babel_ops[2:6] != ops[2:6]:
                    # babel drops leading zeros of the fraction when the integer part is 0
                    # (Decimal('0.05').as_tuple().digits is (5,)): v=1 f=5 instead of v=2 f=5.
                    if not text.lstrip("-").startswith("0."):
                        fail(f"operands of {text}: {babel_ops} != {ops}")
                    babel_operand_bugs.add(text)
                    if check(value) != category:
                        babel_category_bugs.add((rule_set["languages"][0], text, check(value), category))
                elif check(value) != category:
                    fail(f"{rule_set['languages']}: {text} is {check(value)} for babel, {category} here")
            matching = [tag for tag, f in per_tag.items() if f(*ops) != "other"]
            if len(matching) > 1:
                overlaps.append((rule_set["languages"][0], text, matching))
            chosen.append(category)
        rule_set["candidateCategories"] = "".join(str(CATEGORIES.index(c)) for c in chosen)
        samples = {}
        for category in rule_set["categories"]:
            hits = [(t, k) for (t, k), c in zip(cands, chosen) if c == category]

            def pick(kind, limit, hits=hits):
                return [t for t, k in hits if k == kind][:limit]

            samples[category] = {
                "integers": pick("integer", 10) + pick("compact-integer", 2),
                "decimals": pick("decimal", 10) + pick("compact-decimal", 2),
            }
            if not samples[category]["integers"] and not samples[category]["decimals"]:
                fail(f"{rule_set['languages'][0]}: no candidate falls in '{category}'")
        rule_set["samples"] = samples
    if babel_operand_bugs:
        print(
            f"note: babel.plural.extract_operands miscounts v/f for {len(babel_operand_bugs)} candidates "
            f"(e.g. {sorted(babel_operand_bugs)[:4]}); TR35 operands are used, which changes the "
            f"category in {len(babel_category_bugs)} language/candidate pairs"
        )
        for language, text, babel_says, tr35_says in sorted(babel_category_bugs):
            print(f"  {language}: {text} -> babel.PluralRule says {babel_says}, TR35 operands give {tr35_says}")
    for language, text, tags in overlaps:
        print(f"note: rules of {language} overlap on {text}: {tags} (babel takes the first alphabetically)")

    language_index = {language: n for n, language in enumerate(sorted(canonical))}
    rule_set_of = {language: n for n, rs in enumerate(rule_sets) for language in rs["languages"]}
    swift = render_plurals(cldr, canonical, rule_sets, table, language_index, rule_set_of)
    fixture = {
        "candidates": texts,
        "ruleSets": rule_sets,
        "locales": dict(sorted(expected.items())),
    }
    return swift, fixture, len(canonical)


def render_plurals(cldr, canonical, rule_sets, table, language_index, rule_set_of) -> str:
    languages = sorted(canonical)
    out = [
        f"// Generated by scripts/generate-plural-rules.py from babel {babel.__version__}, CLDR {cldr}; do not edit.",
        "// Cardinal plural rules translated from babel's rule AST; samples computed by babel's evaluator",
        "// (not copied from CLDR's plurals.xml). Regenerate: python3 scripts/generate-plural-rules.py",
        "",
        "extension PluralRules {",
        "    enum CLDR {",
        f"        /// The {len(languages)} CLDR ids with cardinal rules, sorted.",
        "        static let languages: [String] = [",
        *wrap_list("            ", [swift_string(x) for x in languages]),
        "        ]",
        "",
        "        /// The rule set of each of `languages`.",
        "        static let ruleSetOfLanguage: [UInt8] = [",
        *wrap_list("            ", [str(rule_set_of[x]) for x in languages]),
        "        ]",
        "",
        "        /// The index in `languages` of each CLDR id, of locales whose rules come from another",
        "        /// (`pt_AO` -> `pt_PT`, `ht` -> `fr`) and of deprecated codes (`iw` -> `he`).",
        "        static let languageIndex: [String: Int] = [",
    ]
    entries = sorted(
        ((key, language_index[target]) for key, target in table.items() if target != "root"),
        key=lambda kv: (kv[1], kv[0] != languages[kv[1]], kv[0]),
    )
    out += wrap_list("            ", [f"{swift_string(k)}: {v}" for k, v in entries])
    out += [
        "        ]",
        "",
        "        static func category(ruleSet: Int, _ o: PluralOperands) -> PluralCategory {",
        "            switch ruleSet {",
    ]
    for n in range(1, len(rule_sets)):
        out.append(f"            case {n}: ruleSet{n}(o)")
    out += [
        "            default: .other",
        "            }",
        "        }",
        "",
        "        /// Per rule set: its categories (sorted) and their samples, in the same order.",
        "        static let ruleSets: [(categories: [PluralCategory], samples: [PluralSamples])] = [",
    ]
    for n, rule_set in enumerate(rule_sets):
        out.append(f"            // {n}: {', '.join(rule_set['languages'][:12])}{', ...' if len(rule_set['languages']) > 12 else ''}")
        out.append("            (")
        out.append(f"                [{', '.join('.' + c for c in rule_set['categories'])}],")
        out.append("                [")
        for category in rule_set["categories"]:
            s = rule_set["samples"][category]
            out.append(
                f"                    PluralSamples(integers: {swift_strings(s['integers'])},"
            )
            out.append(f"                                  decimals: {swift_strings(s['decimals'])}),")
        out.append("                ]")
        out.append("            ),")
    out += ["        ]"]
    for n, rule_set in enumerate(rule_sets):
        if n == 0:
            continue
        out.append("")
        names = rule_set["languages"]
        out += wrap_list("        /// ", names, end="")
        for tag, expr in sorted(rule_set["rules"].items(), key=lambda kv: CATEGORIES.index(kv[0])):
            out.append(f"        /// - {tag}: {expr}")
        out.append(f"        static func ruleSet{n}(_ o: PluralOperands) -> PluralCategory {{")
        # babel's order (alphabetical by tag): the order its evaluator tries the rules in.
        for tag, ast in bp.PluralRule.parse(rule_set["rules"]).abstract:
            disjuncts = [swift_disjunct(d) for d in flatten_or(ast)]
            if len(disjuncts) == 1:
                out.append(f"            if {swift_condition(ast)} {{ return .{tag} }}")
            elif len(" || ".join(disjuncts)) <= 80:
                out.append(f"            if {' || '.join(disjuncts)} {{ return .{tag} }}")
            else:
                out.append(f"            if {disjuncts[0]}")
                out += [f"                || {d}" for d in disjuncts[1:-1]]
                out.append(f"                || {disjuncts[-1]} {{ return .{tag} }}")
        out.append("            return .other")
        out.append("        }")
    out += ["    }", "}", ""]
    return "\n".join(out)


# MARK: - Numbers

FORMAT_LOCALES = [
    "en", "fr", "de", "es", "it", "pt", "pt_PT", "nl", "sv", "da", "nb", "fi", "pl", "cs", "ru", "uk",
    "tr", "el", "hu", "ro", "ja", "ko", "zh", "ar", "he", "hi", "th", "id", "vi", "sk",
    "de_CH", "de_AT", "en_IN", "es_MX", "fr_CH", "fr_CA", "it_CH", "ar_EG", "fa", "bn", "en_US_POSIX", "tok",
]
FORMAT_INTEGERS = [
    0, 7, 12, 123, 999, 1000, 1234, 9999, 10000, 12345, 99999, 100000, 123456, 1234567, 12345678,
    123456789, 1234567890, 9223372036854775807, -1, -999, -1000, -1234567, -9223372036854775808,
]
FORMAT_DECIMALS = [
    "0.0", "0.5", "1.50", "12.345", "999.9", "1000.01", "1234.5", "-1234.56", "123456.789",
    "1234567.0", "-0.25", "100000.000", "12345678901234567890.12",
]


def emulate_format(symbols, text: str) -> str:
    """The Swift NumberSymbols.format algorithm (babel's NumberPattern._format_int grouping)."""
    decimal_sep, group, minus, primary, secondary = symbols
    negative = text.startswith("-")
    whole, _, fraction = text.lstrip("-").partition(".")
    whole = whole.lstrip("0") or "0"
    out, size = "", primary
    while size > 0 and len(whole) > size:
        out = group + whole[-size:] + out
        whole = whole[:-size]
        size = secondary
    return (minus if negative else "") + whole + out + (decimal_sep + fraction if fraction else "")


def babel_pattern(symbols, fraction_digits: int) -> str:
    _, _, _, primary, secondary = symbols
    if primary == 0:
        whole = "0"
    elif primary == secondary:
        whole = "#," + "#" * (primary - 1) + "0"
    else:
        whole = "#," + "#" * secondary + "," + "#" * (primary - 1) + "0"
    return whole + ("." + "0" * fraction_digits if fraction_digits else "")


def localize_sign(babel_output: str, symbols) -> str:
    return symbols[2] + babel_output[1:] if babel_output.startswith("-") else babel_output


def numbers(cldr, ids, aliases, symbols):
    table = minimal_table(symbols, DEFAULT_SYMBOLS)
    sets = sorted(set(table.values()) | {DEFAULT_SYMBOLS}, key=lambda s: (s != DEFAULT_SYMBOLS, s))
    set_index = {s: n for n, s in enumerate(sets)}

    # Every locale, every value: the Swift algorithm on the table equals babel.
    formats = {}
    for tag in ids + sorted(aliases):
        sym = resolve(table, tag, DEFAULT_SYMBOLS)
        babel_integers = [babel.numbers.format_decimal(v, locale=aliases.get(tag, tag)) for v in FORMAT_INTEGERS]
        babel_decimals = [
            babel.numbers.format_decimal(
                decimal.Decimal(t),
                format=babel_pattern(symbols[tag], len(t.partition(".")[2])),
                locale=aliases.get(tag, tag),
            )
            for t in FORMAT_DECIMALS
        ]
        for value, out in zip(FORMAT_INTEGERS, babel_integers):
            if emulate_format(sym, str(value)) != localize_sign(out, sym):
                fail(f"{tag}: {value} is {out!r} in babel, {emulate_format(sym, str(value))!r} here")
        for value, out in zip(FORMAT_DECIMALS, babel_decimals):
            if emulate_format(sym, value) != localize_sign(out, sym):
                fail(f"{tag}: {value} is {out!r} in babel, {emulate_format(sym, value)!r} here")
        formats[tag] = {"integers": babel_integers, "decimals": babel_decimals}

    # The fixture keeps the named locales and one locale of each distinct symbol set.
    kept = set(FORMAT_LOCALES)
    for s in sets:
        first = min((t for t in ids if symbols[t] == s), key=lambda x: (x.count("_"), x), default=None)
        if first:
            kept.add(first)

    out = [
        f"// Generated by scripts/generate-plural-rules.py from babel {babel.__version__}, CLDR {cldr}; do not edit.",
        "// latn decimal/group symbols, minus sign and default-pattern grouping sizes of every babel locale.",
        "// Regenerate: python3 scripts/generate-plural-rules.py",
        "",
        "extension NumberSymbols {",
        "    enum CLDR {",
        "        /// The distinct symbol sets; 0 is the root's.",
        "        static let symbolSets: [NumberSymbols] = [",
    ]
    for s in sets:
        out.append(
            f"            NumberSymbols(decimal: {swift_string(s[0])}, group: {swift_string(s[1])}, "
            f"minusSign: {swift_string(s[2])}, primaryGrouping: {s[3]}, secondaryGrouping: {s[4]}),"
        )
    out += [
        "        ]",
        "",
        "        /// The symbol set of each CLDR id whose symbols differ from what its fallback gives.",
        "        static let symbolSetIndex: [String: Int] = [",
    ]
    entries = sorted(((key, set_index[value]) for key, value in table.items()), key=lambda kv: (kv[1], kv[0]))
    out += wrap_list("            ", [f"{swift_string(k)}: {v}" for k, v in entries])
    out += ["        ]", "    }", "}", ""]

    fixture = {
        "integers": [str(v) for v in FORMAT_INTEGERS],
        "decimals": FORMAT_DECIMALS,
        "symbolSets": [
            {"decimal": s[0], "group": s[1], "minusSign": s[2], "primaryGrouping": s[3], "secondaryGrouping": s[4]}
            for s in sets
        ],
        "locales": {tag: set_index[symbols[tag]] for tag in sorted(ids + sorted(aliases))},
        "formats": {tag: formats[tag] for tag in sorted(kept)},
    }
    return "\n".join(out), fixture, len(table)


# MARK: - CLDR's own samples (from ICU's copy of plurals.xml)


def cldr_samples(cldr, own_rules) -> str:
    """The fixture of CLDR's sample strings for every language with rules, from ICU."""
    try:
        import icu
    except ImportError:
        fail(f"needs PyICU with ICU {ICU_VERSION} (pip install pyicu-wheels=={PYICU_WHEELS_VERSION})")
    if icu.ICU_VERSION != ICU_VERSION:
        fail(f"needs ICU {ICU_VERSION} (CLDR {cldr}), found ICU {icu.ICU_VERSION}: pip install pyicu-wheels=={PYICU_WHEELS_VERSION}")
    bundle = icu.ResourceBundle("", icu.Locale("plurals"))
    locales, rule_sets = bundle.get("locales"), bundle.get("rules")
    canonical = {
        k: v for k, v in own_rules.items() if "_" not in k or v != own_rules.get(k.split("_")[0])
    }
    languages = {}
    for language in sorted(canonical):
        try:
            rule_set = rule_sets.get(locales.get(language).getString())
        except icu.ICUError:
            fail(f"ICU {ICU_VERSION} has no plural rules for {language}")
        conditions, samples = {}, {}
        for index in range(rule_set.getSize()):
            entry = rule_set.get(index)
            category, text = entry.getKey(), entry.getString()
            condition, _, rest = text.partition("@")
            condition = condition.strip()
            if condition:
                conditions[category] = condition
            found = {}
            for part in ("@" + rest).split("@")[1:]:
                kind, _, values = part.partition(" ")
                if kind not in ("integer", "decimal"):
                    fail(f"{language} {category}: unexpected sample kind {kind!r} in {text!r}")
                found[kind] = values.strip()
            if not found:
                fail(f"{language} {category}: no samples in {text!r}")
            samples[category] = found
        ours = sorted(bp.PluralRule.parse(canonical[language]).abstract)
        theirs = sorted(bp.PluralRule.parse(conditions).abstract)
        if ours != theirs:
            fail(f"{language}: ICU {ICU_VERSION}'s rules {conditions} differ from babel's {canonical[language]}")
        languages[language] = {c: samples[c] for c in CATEGORIES if c in samples}
    about = (
        f"CLDR {cldr} plural samples: the @integer and @decimal sample strings of plurals.xml, verbatim "
        f"('~' ranges, a final '…'), for each of the {len(languages)} languages of PluralRules.languages. "
        f"Written by scripts/generate-plural-rules.py from ICU {icu.ICU_VERSION}'s plurals resource "
        f"(ICU's copy of CLDR {cldr}, via PyICU of pyicu-wheels {PYICU_WHEELS_VERSION}), after checking that "
        f"ICU's rules equal babel {babel.__version__}'s for every language."
    )
    lines = ["{", f'  "about": {json.dumps(about, ensure_ascii=False)},', f'  "cldr": {json.dumps(cldr)},',
             f'  "icu": {json.dumps(icu.ICU_VERSION)},', '  "languages": {']
    for n, (language, categories) in enumerate(languages.items()):
        lines.append(f"    {json.dumps(language)}: {{")
        for m, (category, found) in enumerate(categories.items()):
            comma = "," if m < len(categories) - 1 else ""
            lines.append(f"      {json.dumps(category)}: {json.dumps(found, ensure_ascii=False)}{comma}")
        lines.append("    }" + ("," if n < len(languages) - 1 else ""))
    lines += ["  }", "}"]
    text = "\n".join(lines) + "\n"
    json.loads(text)
    return text


# MARK: - Output


def fixture_text(cldr, plural_fixture, number_fixture) -> str:
    """JSON with one entry per line below the second level, so diffs stay readable."""
    doc = {
        "about": (
            f"Generated by scripts/generate-plural-rules.py from babel {babel.__version__}, CLDR {cldr}. "
            "Samples and candidateCategories are babel's evaluation of the CLDR rules on the candidates "
            "(one digit per candidate: index in zero, one, two, few, many, other), not CLDR's plurals.xml "
            "samples. numbers.formats are babel.numbers.format_decimal outputs, verbatim (ASCII '-')."
        ),
        "babel": babel.__version__,
        "cldr": cldr,
        "plurals": plural_fixture,
        "numbers": number_fixture,
    }

    def dump(value):
        return json.dumps(value, ensure_ascii=True, separators=(", ", ": "))

    lines = ["{"]
    top = list(doc.items())
    for n, (key, value) in enumerate(top):
        comma = "," if n < len(top) - 1 else ""
        if isinstance(value, dict):
            lines.append(f"  {dump(key)}: {{")
            inner = list(value.items())
            for m, (k2, v2) in enumerate(inner):
                comma2 = "," if m < len(inner) - 1 else ""
                if isinstance(v2, (dict, list)) and len(dump(v2)) > 100:
                    opening, closing = ("{", "}") if isinstance(v2, dict) else ("[", "]")
                    lines.append(f"    {dump(k2)}: {opening}")
                    if isinstance(v2, dict):
                        items = [f"{dump(a)}: {dump(b)}" for a, b in v2.items()]
                        lines += [f"      {item}," for item in items[:-1]] + [f"      {items[-1]}"]
                    elif all(isinstance(a, (str, int)) for a in v2):
                        lines += wrap_list("      ", [dump(a) for a in v2], end="")
                    else:
                        items = [dump(a) for a in v2]
                        lines += [f"      {item}," for item in items[:-1]] + [f"      {items[-1]}"]
                    lines.append(f"    {closing}{comma2}")
                else:
                    lines.append(f"    {dump(k2)}: {dump(v2)}{comma2}")
            lines.append(f"  }}{comma}")
        else:
            lines.append(f"  {dump(key)}: {dump(value)}{comma}")
    lines.append("}")
    text = "\n".join(lines) + "\n"
    json.loads(text)
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when a generated file is out of date")
    args = parser.parse_args()

    decimal.getcontext().prec = 60
    cldr, ids, aliases, merged_rules, own_rules, symbols = load_babel()
    plural_swift, plural_fixture, language_count = plurals(cldr, ids, aliases, merged_rules, own_rules)
    number_swift, number_fixture, number_entries = numbers(cldr, ids, aliases, symbols)
    outputs = {
        PLURAL_SWIFT: plural_swift,
        NUMBER_SWIFT: number_swift,
        FIXTURE: fixture_text(cldr, plural_fixture, number_fixture),
        CLDR_SAMPLES: cldr_samples(cldr, own_rules),
    }
    print(
        f"{language_count} languages in {len(plural_fixture['ruleSets'])} rule sets; "
        f"{len(ids)} babel locales + {len(aliases)} legacy codes checked; "
        f"{number_entries} number-symbol entries in {len(number_fixture['symbolSets'])} sets"
    )
    write_outputs(outputs, check=args.check)


def write_outputs(outputs: dict, check: bool) -> None:
    """Writes each changed file (path -> text), or with `check` only names the stale ones and
    exits 1 if there are any. Shared by the generators that import this script."""
    stale = [path for path, text in outputs.items()
             if not path.exists() or path.read_text(encoding="utf-8") != text]
    for path in stale:
        if not check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(outputs[path], encoding="utf-8")
        print(f"{'stale' if check else 'wrote'}: {path.relative_to(ROOT)}")
    if check and stale:
        sys.exit(1)


if __name__ == "__main__":
    main()

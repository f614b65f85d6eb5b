#!/usr/bin/env python3
"""Records what ICU4C's LocaleMatcher and PluralRules answer for jump-forms' locale cases.

    python3 scripts/locale-matcher-icu-cases.py          # rewrite the fixture
    python3 scripts/locale-matcher-icu-cases.py --check  # exit 1 when it is stale

Needs PyICU: `pip install pyicu-wheels==2.15.2` (ICU 77.1, CLDR 47: the CLDR version of
jump-forms' data) or Debian's python3-icu (ICU 72.1, CLDR 42; run it with /usr/bin/python3: the
same verdicts, `--check` then differs only in the versions it records).
The fixture names the ICU version that answered.

Each case is a requested tag, the available locales (in the order both matchers break ties by)
and jump-forms' answer (None: no available locale serves the request, the caller's default
applies). ICU is asked with no default locale (so `None` means the same) and its default
settings otherwise. Where the answers differ, the case carries the reason, and the Swift test
(Tests/JumpFormsTests/LocaleMatcherTests.swift) checks that every difference has one; the
script fails when a reason is missing or when ICU agrees with a case said to differ.

The grid (GRID_REQUESTED x GRID_SETS) records only ICU's answers; the Swift test requires
jump-forms' to be the same except for GRID_DIFFERENCES, whose entries must differ (so a
difference is added here with its reason when the test names it).

The plural cases (PLURAL_CASES) are locale ids the CLDR tables lack (aliases, regions): the
language whose rules jump-forms uses, and ICU's categories and choices for PLURAL_SAMPLES.

Output: Tests/JumpFormsTests/Fixtures/locale-matcher-icu.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import icu

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "Tests/JumpFormsTests/Fixtures/locale-matcher-icu.json"

# Reasons jump-forms answers otherwise than ICU, shared by several cases.
UNDERSTOOD = ("CLDR's languageMatching says readers of one language understand another (da/nb, ca/es, "
              "ms/id, yue/zh-Hant); jump-forms serves only the language asked for (babel carries no "
              "languageMatching data) and falls back to the default locale, saying so on stderr")
OTHER_SCRIPT = ("CLDR's languageMatching lets some scripts of a language stand for others (sr-Latn/sr-Cyrl); jump-forms follows the inheritance chain, where a non-default script's parent "
                "is root, and falls back to the default locale")
HINGLISH = ("CLDR 47 makes en-IN the parent locale of hi-Latn (Hinglish inherits English texts); jump-forms "
            "follows the parent chain, ICU's languageMatching prefers hi (Devanagari)")
MAGHREB = ("ICU's languageMatching groups the Maghreb's Arabic ($maghreb: MA, DZ, TN, LY, MR, EH); CLDR's parent "
           "locales do not, so jump-forms serves ar-MA with Arabic's own locale (ar-EG)")
NN_NO = ("nn and nb both have `no` as their CLDR parent; jump-forms serves nn with the parent's own locale "
         "(`no`), ICU 77 with nb (languageMatching)")

# (requested, available, jump-forms' answer, reason when ICU answers otherwise)
CASES = [
    # The examples.
    ("fr", ["en-US", "fr-FR"], "fr-FR", None),
    ("fr-CA", ["en-US", "fr-FR"], "fr-FR", None),
    ("fr-CA", ["de-DE", "en-US", "es-ES", "fr-FR", "ja-JP", "pl-PL"], "fr-FR", None),
    ("es-419", ["en-US", "es-ES", "es-MX"], "es-MX", None),
    ("es-419", ["en-US", "es-ES"], "es-ES", None),
    ("es-419", ["es", "es-MX"], "es-MX", None),
    ("zh-HK", ["en-US", "zh-Hans", "zh-Hant"], "zh-Hant", None),
    ("zh-HK", ["en-US", "zh-CN", "zh-TW"], "zh-TW", None),
    ("nb", ["en-US", "no"], "no", None),
    ("no", ["en-US", "nb"], "nb", None),
    ("nb-NO", ["en-US", "no-NO"], "no-NO", None),
    ("no", ["nb", "nn"], "nb", None),
    ("nb", ["nn", "no"], "no", None),
    ("nn", ["nb", "no"], "no", NN_NO),
    # Likely subtags and the language's own region.
    ("fr", ["fr-BE", "fr-CH"], "fr-BE", None),
    ("fr", ["fr-CA", "fr-FR"], "fr-FR", None),
    ("fr-CA", ["fr-BE", "fr-FR"], "fr-FR", None),
    ("fr-CA", ["fr-BE", "fr-CH"], "fr-BE", None),
    ("fr-FR", ["fr", "fr-BE"], "fr", None),
    ("fr-CA", ["fr", "fr-CA"], "fr-CA", None),
    ("fr-CH", ["fr", "fr-FR"], "fr", None),
    ("de-AT", ["de-CH", "de-DE"], "de-DE", None),
    ("de-CH", ["de-AT", "de-LI"], "de-AT", None),
    ("de", ["de-AT", "de-CH"], "de-AT", None),
    ("pt", ["pt-BR", "pt-PT"], "pt-BR", None),
    ("pt-AO", ["pt-BR", "pt-PT"], "pt-PT", None),
    ("pt-CV", ["pt-AO", "pt-BR", "pt-MZ"], "pt-AO", None),
    ("pt-MZ", ["en-US", "pt-BR"], "pt-BR", None),
    ("es", ["es-ES", "es-MX"], "es-ES", None),
    ("es", ["es-AR", "es-MX"], "es-AR", None),
    ("es-AR", ["es-419", "es-ES"], "es-419", None),
    ("es-CO", ["es-AR", "es-ES", "es-MX"], "es-AR", None),
    ("es-ES", ["en-US", "es-MX"], "es-MX", None),
    ("es-US", ["es-ES", "es-MX"], "es-MX", None),
    ("ar-SA", ["ar", "ar-EG", "ar-MA"], "ar", None),
    ("ar-MA", ["ar-DZ", "ar-EG"], "ar-EG", MAGHREB),
    ("ar-EG", ["en-US", "ar-SA"], "ar-SA", None),
    # English: en-001 and the United States.
    ("en-GB", ["en-AU", "en-US"], "en-AU", None),
    ("en-AU", ["en-GB", "en-US"], "en-GB", None),
    ("en-IN", ["en-GB", "en-US"], "en-GB", None),
    ("en-CA", ["en-GB", "en-US"], "en-US", None),
    ("en-NZ", ["en-AU", "en-CA", "en-US"], "en-AU", None),
    ("en", ["en-AU", "en-GB"], "en-GB", None),
    ("en-NZ", ["en-GB", "en-IN"], "en-GB", None),
    ("en-ZA", ["en-AU", "en-GB", "en-IN"], "en-GB", None),
    ("en-001", ["en-AU", "en-GB"], "en-GB", None),
    ("es", ["es-419", "es-AR"], "es-419", None),
    ("es-MX", ["es-419", "es-AR"], "es-419", None),
    ("es-CO", ["es-419", "es-AR", "es-MX"], "es-419", None),
    ("pt", ["pt-AO", "pt-PT"], "pt-PT", None),
    ("en-US", ["en-GB", "fr"], "en-GB", None),
    ("en-US-posix", ["en-GB", "en-US"], "en-US", None),
    ("en-PR", ["en-GB", "en-US"], "en-US", None),
    # Chinese scripts and regions.
    ("zh", ["zh-CN", "zh-TW"], "zh-CN", None),
    ("zh-TW", ["en-US", "zh-CN"], None, None),
    ("zh-MO", ["zh-CN", "zh-HK", "zh-TW"], "zh-HK", None),
    ("zh-Hant", ["zh-HK", "zh-TW"], "zh-TW", None),
    ("zh-SG", ["zh-CN", "zh-TW"], "zh-CN", None),
    ("zh-Hans-HK", ["zh-CN", "zh-TW"], "zh-CN", None),
    ("zh-Hant-CN", ["zh-CN", "zh-TW"], "zh-TW", None),
    ("zh-Hans", ["zh", "zh-Hant"], "zh", None),
    # Aliases.
    ("iw", ["en-US", "he-IL"], "he-IL", None),
    ("he", ["en-US", "iw"], "iw", None),
    ("in", ["id-ID"], "id-ID", None),
    ("tl", ["en-US", "fil"], "fil", None),
    ("mo", ["en-US", "ro"], "ro", None),
    ("mo-MD", ["ro-RO"], "ro-RO", None),
    ("sh", ["sr", "sr-Latn"], "sr-Latn", None),
    ("cmn", ["zh-CN"], "zh-CN", None),
    ("ars", ["ar"], "ar", None),
    ("ars", ["ar-EG", "ar-SA"], "ar-SA", None),
    ("en-UK", ["en-GB", "en-US"], "en-GB", None),
    ("sr-ME", ["sr-Cyrl", "sr-Latn"], "sr-Latn", None),
    ("sr", ["sr-Cyrl", "sr-Latn"], "sr-Cyrl", None),
    # Pseudo-locales (region XA, XB, XC) serve only themselves, and only they serve themselves.
    ("en-US", ["ar-XB", "de-DE", "en-US", "en-XA", "fr-FR"], "en-US", None),
    ("en", ["en-XA", "fr-FR"], None, None),
    ("en-GB", ["en-XA", "en-US"], "en-US", None),
    ("ar-EG", ["ar-XB", "en-US"], None, None),
    ("en-XA", ["en-US"], None, None),
    ("en-XA", ["en-US", "en-XA"], "en-XA", None),
    ("ar-XB", ["ar-EG", "en-US"], None, None),
    ("en-XC", ["en-XA", "en-XC"], "en-XC", None),
    ("fr-XA", ["fr-FR"], None, None),
    ("en-XD", ["en-US"], "en-US", None),
    # No match: another language, script or nothing.
    ("ja", ["en-US", "fr-FR"], None, None),
    ("und", ["en-US", "fr-FR"], None, None),
    ("en-Dsrt", ["en-US"], None, None),
    ("sr-Latn", ["en", "sr"], None, OTHER_SCRIPT),
    ("hi-Latn", ["en", "hi"], "en", HINGLISH),
    ("da", ["en-US", "nb"], None, UNDERSTOOD),
    ("ca", ["en-US", "es-ES"], None, UNDERSTOOD),
    ("ms", ["id"], None, UNDERSTOOD),
    ("yue", ["en-US", "zh-Hant"], None, UNDERSTOOD),
]


# Plural rules of locale ids the CLDR tables do not list: each resolves through CLDR's aliases
# and likely subtags (`ars` is `ar_SA`, `mo` is `ro`, `iw` is `he`, `hbs` is `sr_Latn`). The
# case says which language's rules jump-forms uses; ICU's categories and choices are recorded,
# and where ICU answers otherwise the reason says why.
NO_ALIAS_IN_ICU = ("ICU's PluralRules looks the id up in its plurals data without applying CLDR's language aliases "
                   "(it lists only ars, in, iw, ji, jw, mo, no, sh, tl and a few more), so ICU gives root's rule (other); "
                   "jump-forms applies CLDR 47's aliases")
PARENT_PLURALS = ("CLDR's inheritance (parent locales, as babel resolves it) gives pt-AO and pt-MZ the rules of their "
                  "parent pt-PT; ICU's PluralRules falls back by truncation to pt (scripts/generate-plural-rules.py)")
PLURAL_CASES = [
    ("ars", "ar", None), ("ars-SA", "ar", None), ("mo", "ro", None), ("mo-MD", "ro", None), ("iw", "he", None),
    ("in", "id", None), ("ji", "yi", None), ("jw", "jv", None), ("tl", "fil", None), ("sh", "sr", None),
    ("no", "no", None), ("nb", "nb", None), ("nob", "nb", None), ("cmn", "zh", None), ("zh-HK", "zh", None),
    ("en-UK", "en", None), ("sr-ME", "sr", None), ("pt-AO", "pt_PT", PARENT_PLURALS), ("pt-MZ", "pt_PT", PARENT_PLURALS), ("pt-PT", "pt_PT", None),
    ("pt-BR", "pt", None), ("yue-Hans", "yue", None), ("fil", "fil", None),
    ("hbs", "sr", NO_ALIAS_IN_ICU), ("prs", "fa", NO_ALIAS_IN_ICU), ("aar", "aa", None), ("tw", "ak", NO_ALIAS_IN_ICU),
    ("bh", "bho", NO_ALIAS_IN_ICU), ("swc", "sw", NO_ALIAS_IN_ICU),
]
# The numbers each plural case is selected for (ICU's select(double): 1.5 has one visible
# fraction digit, as jump-forms reads "1.5").
PLURAL_SAMPLES = ["0", "1", "2", "3", "4", "5", "6", "7", "11", "12", "19", "21", "22", "100", "101", "102", "1000000",
                  "0.5", "1.5", "2.5", "0.1", "10.3"]


def plural_case(tag: str, language: str, reason: str | None) -> dict:
    rules = icu.PluralRules.forLocale(icu.Locale.forLanguageTag(tag))
    case = {"tag": tag, "rules": language, "icuCategories": sorted(rules.getKeywords()),
            "icuChoices": [rules.select(float(sample) if "." in sample else int(sample)) for sample in PLURAL_SAMPLES]}
    if reason is not None:
        case["reason"] = reason
    return case


# A grid: every requested tag against every set of available locales, ICU's answer recorded.
# The Swift test requires jump-forms to answer the same, except for the entries of
# GRID_DIFFERENCES (`requested|set` -> reason), which it requires to differ.
GRID_REQUESTED = [
    "en", "en-US", "en-GB", "en-AU", "en-CA", "en-IN", "en-150", "en-DE", "en-PH", "en-ZA",
    "fr", "fr-FR", "fr-CA", "fr-BE", "fr-CH", "fr-SN", "de", "de-AT", "de-CH", "de-LU",
    "es", "es-ES", "es-419", "es-MX", "es-AR", "es-US", "es-CO", "pt", "pt-BR", "pt-PT", "pt-AO", "pt-MZ",
    "it", "it-CH", "nl", "nl-BE", "pl", "ja", "ja-JP", "ko", "zh", "zh-CN", "zh-TW", "zh-HK", "zh-MO", "zh-SG",
    "zh-Hans", "zh-Hant", "zh-Hant-CN", "ar", "ar-EG", "ar-SA", "ars", "he", "iw", "nb", "nn", "no", "sv", "da",
    "sr", "sr-Latn", "sr-ME", "sr-Cyrl-BA", "ru", "uk", "tl", "fil", "in", "id", "mo", "ro-MD", "und", "xx",
    "en-XA", "ar-XB", "en-XC",
]
GRID_SETS = [
    ["de-DE", "en-US", "es-ES", "fr-FR", "ja-JP", "pl-PL"],
    ["ar", "de", "en-GB", "en-US", "es-419", "es-ES", "fr", "fr-CA", "nb", "pt-BR", "pt-PT", "sr-Latn", "zh-Hans", "zh-Hant"],
    ["en", "es", "fr", "id", "it", "ja", "ko", "nl", "no", "pt", "ro", "ru", "sr", "sv", "zh-CN", "zh-TW"],
    # The example project after `locales pseudo --locale en-XA --locale ar-XB`.
    ["ar-XB", "de-DE", "en-US", "en-XA", "es-ES", "fr-FR", "ja-JP", "pl-PL"],
]
GRID_DIFFERENCES: dict[str, str] = {
    "da|1": UNDERSTOOD, "da|2": UNDERSTOOD,
    "sr|1": OTHER_SCRIPT, "sr-Cyrl-BA|1": OTHER_SCRIPT, "sr-Latn|2": OTHER_SCRIPT, "sr-ME|2": OTHER_SCRIPT,
}

# What ICU answers when nothing matches. Not setNoDefaultLocale: Debian's PyICU (ICU 72)
# crashes wrapping the null locale that gives.
NO_MATCH = "zxx"


def best(desired: str, supported: list[str]) -> str | None:
    builder = icu.LocaleMatcher.Builder()
    builder.setSupportedLocalesFromListString(",".join(supported))
    builder.setDefaultLocale(icu.Locale(NO_MATCH))
    locale = builder.build().getBestMatch(icu.Locale.forLanguageTag(desired))
    tag = locale.toLanguageTag()
    return None if tag == NO_MATCH else tag


def same(first: str | None, second: str | None) -> bool:
    """Whether two answers name one locale (ICU answers `he` for an available `iw`)."""
    if first is None or second is None:
        return first == second
    def canonical(tag: str) -> str:
        return icu.Locale.createCanonical(icu.Locale.forLanguageTag(tag).getName()).toLanguageTag()
    return canonical(first) == canonical(second)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when the fixture is out of date")
    args = parser.parse_args()

    problems = []
    cases = []
    for requested, available, expected, reason in CASES:
        answer = best(requested, available)
        if not same(answer, expected) and reason is None:
            problems.append(f"{requested} {available}: ICU {answer}, jump-forms {expected}, and no reason given")
        if same(answer, expected) and reason is not None:
            problems.append(f"{requested} {available}: ICU agrees ({answer}) but a reason is given")
        case = {"requested": requested, "available": available, "expected": expected, "icu": answer}
        if reason is not None:
            case["reason"] = reason
        cases.append(case)
    if problems:
        print("\n".join(problems), file=sys.stderr)
        sys.exit(1)
    grid = [[best(requested, available) for available in GRID_SETS] for requested in GRID_REQUESTED]
    plurals = [plural_case(tag, language, reason) for tag, language, reason in PLURAL_CASES]
    for case in plurals:
        # What the named language's own rules answer in ICU, to tell whether ICU agrees.
        own = icu.PluralRules.forLocale(icu.Locale(case["rules"]))
        agrees = sorted(own.getKeywords()) == case["icuCategories"] and all(
            own.select(float(sample) if "." in sample else int(sample)) == choice
            for sample, choice in zip(PLURAL_SAMPLES, case["icuChoices"]))
        if not agrees and "reason" not in case:
            problems.append(f"plural rules of {case['tag']}: ICU does not answer as {case['rules']}, and no reason given")
        if agrees and "reason" in case:
            problems.append(f"plural rules of {case['tag']}: ICU answers as {case['rules']} but a reason is given")
    if problems:
        print("\n".join(problems), file=sys.stderr)
        sys.exit(1)
    fixture = {
        "generator": "scripts/locale-matcher-icu-cases.py",
        "icu": icu.ICU_VERSION,
        "pluralSamples": PLURAL_SAMPLES,
        "gridSets": GRID_SETS,
        "gridDifferences": GRID_DIFFERENCES,
        "plurals": plurals,
        "cases": cases,
    }
    # One case per line: the file stays short and a changed answer is a one-line diff.
    head = json.dumps({key: value for key, value in fixture.items() if key not in ("cases", "plurals", "gridDifferences")},
                      ensure_ascii=False)[:-1]
    head += ',\n"gridDifferences": ' + json.dumps(GRID_DIFFERENCES, indent=0, ensure_ascii=False, sort_keys=True)
    grid_rows = ",\n".join("  " + json.dumps({"requested": requested, "icu": answers}, ensure_ascii=False)
                            for requested, answers in zip(GRID_REQUESTED, grid))
    head += f',\n"grid": [\n{grid_rows}\n]'
    plural_rows = ",\n".join("  " + json.dumps(case, ensure_ascii=False) for case in plurals)
    rows = ",\n".join("  " + json.dumps(case, ensure_ascii=False) for case in cases)
    text = f'{head},\n"plurals": [\n{plural_rows}\n],\n"cases": [\n{rows}\n]}}\n'
    current = OUTPUT.read_text(encoding="utf-8") if OUTPUT.exists() else None
    differing = sum(1 for case in cases if "reason" in case)
    print(f"ICU {icu.ICU_VERSION}: {len(cases)} cases, {differing} answered otherwise by ICU (each with its reason)")
    if current == text:
        return
    if args.check:
        print(f"stale: {OUTPUT.relative_to(ROOT)}")
        sys.exit(1)
    OUTPUT.write_text(text, encoding="utf-8")
    print(f"wrote: {OUTPUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()

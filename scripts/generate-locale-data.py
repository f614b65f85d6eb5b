#!/usr/bin/env python3
"""Generates the CLDR data jump-forms matches locales with, from Python's babel.

Run from the repository root (needs `pip install babel==2.18.0`, nothing else):

    python3 scripts/generate-locale-data.py          # rewrite the output
    python3 scripts/generate-locale-data.py --check  # exit 1 when the output is stale

Output (committed, so that building never needs Python):

  Sources/JumpLocalization/LocaleMatcher+CLDR.generated.swift
      CLDR 47's likely subtags (`fr` -> `fr_Latn_FR`, `und_HK` -> `zh_Hant_HK`), parent
      locales (`es_AR` -> `es_419`, `nb` -> `no`, `zh_Hant_MO` -> `zh_Hant_HK`), language
      aliases (`iw` -> `he`, `sh` -> `sr_Latn`, `tl` -> `fil`), territory aliases (`UK` -> `GB`)
      and script aliases, as babel 2.18.0 carries them (babel.core.get_global). LocaleMatcher
      (Sources/JumpLocalization/LocaleMatcher.swift) reads them; the plural rules and
      number symbols look locales up through the same aliases and parents.

What babel leaves out, and what this script therefore adds or derives:

  - Parent locales whose parent is root (`zh_Hant`, `sr_Latn`, `az_Cyrl`, ...): babel keeps
    only the parents that are not root (`hi_Latn` -> `en_IN` is one it keeps). CLDR lists
    exactly the locales made of a language and a script that is not the language's likely
    script, so the Swift code derives the rule from the likely subtags instead of a list: the
    parent of `lang_Script` is root when `Script` is not the script of `lang`'s likely subtags.
  - ICU_ONLY_ALIASES below: locale ids that ICU4C treats as aliases although CLDR's data has no
    alias for them. ICU's data build makes `ars` (Najdi Arabic) an alias of `ar_SA`; ICU's
    plural rules and LocaleMatcher answer for `ars` as for `ar_SA`. The list is short and each
    entry says where it comes from.
  - CLDR's paradigm locales (languageInfo.xml: en, en_GB, es, es_419, pt_BR, pt_PT), which
    ICU's LocaleMatcher prefers among equally near locales: babel has no languageInfo data, so
    LocaleMatcher.swift lists them (`LocaleInheritance.paradigmLocales`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import babel
import babel.core

BABEL_VERSION = "2.18.0"
ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "Sources/JumpLocalization/LocaleMatcher+CLDR.generated.swift"

# id -> replacement, for ids ICU4C aliases and CLDR does not (see the docstring).
ICU_ONLY_ALIASES = {
    "ars": "ar_SA",  # ICU data build: ars.txt is %%ALIAS ar_SA
}


def fail(message: str) -> None:
    print(f"error: {message}", file=sys.stderr)
    sys.exit(1)


def swift_string(text: str) -> str:
    if any(ch in text for ch in '"\\\n') or not text.isascii():
        fail(f"unexpected character in {text!r}")
    return '"' + text + '"'


def text_block(name: str, doc: str, tokens: list[str], prefix: str = "") -> list[str]:
    """A static String of space-separated tokens, wrapped at about 100 columns (a long literal
    compiles fast, a dictionary literal of thousands of entries does not). With `prefix`, every
    line starts with it (the tokens that follow share it)."""
    out = [f"    /// {doc}", f"    static let {name} = \"\"\""]
    line = ""
    for token in tokens:
        if line and len(line) + 1 + len(token) > 96:
            out.append(f"        {line}")
            line = ""
        line = f"{prefix} {token}" if not line and prefix else (f"{line} {token}" if line else token)
    if line:
        out.append(f"        {line}")
    out += ['        """', ""]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when the generated file is out of date")
    args = parser.parse_args()

    if babel.__version__ != BABEL_VERSION:
        fail(f"babel {babel.__version__} is installed; this script is pinned to {BABEL_VERSION} (pip install babel=={BABEL_VERSION})")
    cldr = babel.core.get_global("cldr")["version"]
    likely = babel.core.get_global("likely_subtags")
    parents = babel.core.get_global("parent_exceptions")
    language_aliases = dict(babel.core.get_global("language_aliases"))
    territory_aliases = babel.core.get_global("territory_aliases")
    script_aliases = babel.core.get_global("script_aliases")

    for key, value in ICU_ONLY_ALIASES.items():
        if key in language_aliases:
            fail(f"CLDR now has an alias for {key} ({language_aliases[key]}): drop it from ICU_ONLY_ALIASES")
        language_aliases[key] = value

    # Sanity checks on the shapes the Swift code relies on.
    for key, value in likely.items():
        parts = value.split("_")
        if len(parts) != 3:
            fail(f"likely subtags of {key} is {value}, not language_Script_Region")
        if not key.startswith("und") and key.split("_")[0] != parts[0]:
            fail(f"likely subtags of {key} change its language ({value})")
    for key, value in parents.items():
        if value == "root":
            fail(f"babel now lists root parents ({key}); the Swift rule would repeat them")
    for key, values in territory_aliases.items():
        if not values:
            fail(f"territory alias {key} has no replacement")

    lines = [
        f"// Generated by scripts/generate-locale-data.py from babel {BABEL_VERSION}, CLDR {cldr}; do not edit.",
        "// Likely subtags, parent locales and aliases, as babel carries them (babel.core.get_global).",
        "// Regenerate: python3 scripts/generate-locale-data.py",
        "",
        "enum LocaleData {",
        f"    /// The CLDR version of the data.",
        f"    static let cldrVersion = {swift_string(cldr)}",
        "",
    ]
    # Most likely subtags add a script and region to a bare language (`aa` -> `aa_Latn_ET`):
    # those are grouped by what they add. The rest (`und_HK`, `az_IQ`, `arc_Hatr`) are pairs.
    by_addition: dict[str, list[str]] = {}
    others: list[str] = []
    for key, value in sorted(likely.items()):
        if "_" not in key and not key.startswith("und") and value.startswith(key + "_"):
            by_addition.setdefault(value[len(key) + 1:], []).append(key)
        else:
            others.append(f"{key}>{value}")
    rows: list[str] = []
    for addition, languages in sorted(by_addition.items()):
        rows += [line.strip() for line in text_block("x", "", languages, prefix=addition)[2:-2]]
    lines += [
        f"    /// The {len(likely)} likely subtags. A bare language's: `Script_Region lang lang...` per",
        "    /// line (the languages that take that script and region); the others in `likelySubtagsText`.",
        "    static let likelyScriptRegionText = \"\"\"",
    ]
    lines += [f"        {row}" for row in rows]
    lines += ['        """', ""]
    lines += text_block(
        "likelySubtagsText",
        "The other likely subtags: `id>language_Script_Region`, space-separated.",
        others,
    )
    lines += text_block(
        "parentLocalesText",
        f"The {len(parents)} parent locales that are not the truncation nor root: `id>parent`.",
        [f"{key}>{value}" for key, value in sorted(parents.items())],
    )
    lines += text_block(
        "languageAliasesText",
        f"The {len(language_aliases)} language aliases (CLDR's, and ICU's `ars`): `id>replacement`.",
        [f"{key}>{value}" for key, value in sorted(language_aliases.items())],
    )
    lines += text_block(
        "territoryAliasesText",
        f"The {len(territory_aliases)} territory aliases: `code>replacement,...` (the first is the default).",
        [f"{key}>{','.join(values)}" for key, values in sorted(territory_aliases.items())],
    )
    lines += [
        "    /// The script aliases.",
        "    static let scriptAliases: [String: String] = [",
    ]
    lines += [f"        {swift_string(key)}: {swift_string(value)}," for key, value in sorted(script_aliases.items())]
    lines += ["    ]", "}", ""]
    text = "\n".join(lines)

    current = OUTPUT.read_text(encoding="utf-8") if OUTPUT.exists() else None
    print(f"CLDR {cldr}: {len(likely)} likely subtags, {len(parents)} parent locales, "
          f"{len(language_aliases)} language aliases, {len(territory_aliases)} territory aliases")
    if current == text:
        return
    if args.check:
        print(f"stale: {OUTPUT.relative_to(ROOT)}")
        sys.exit(1)
    OUTPUT.write_text(text, encoding="utf-8")
    print(f"wrote: {OUTPUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()

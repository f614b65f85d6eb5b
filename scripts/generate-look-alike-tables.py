#!/usr/bin/python3
"""Generates jump-forms' look-alike tables (NFKC_Casefold and UTS #39 confusable skeletons) from ICU.

Run from the repository root with Debian's python3-icu (PyICU 2.10 on ICU 72.1, Unicode 15.0;
`apt-get install python3-icu`), nothing else:

    /usr/bin/python3 scripts/generate-look-alike-tables.py          # rewrite the outputs
    /usr/bin/python3 scripts/generate-look-alike-tables.py --check  # exit 1 when an output is stale

Outputs (committed, so that building and CI never need Python):

  Sources/JumpForms/Rules/LookAlike+Unicode.generated.swift
      Two per-scalar tables, as compact text the Swift code parses once:
      - fold: every code point whose NFKC_Casefold mapping (Unicode's NFKC_CF property: NFKC,
        case folding and removal of default ignorables, repeated until stable) is not the code
        point itself, from ICU's `nfkc_cf` normalizer applied to the code point alone.
        LookAlike.folded(_:) maps each scalar of a string with it, then puts the result in NFC
        (with the Swift standard library's NFC), which is how Unicode defines toNFKC_Casefold on
        strings (UAX #44, "NFKC_Casefold"; DerivedNormalizationProps.txt says the mapping of each
        character must be followed by NFC).
      - skeleton: every code point c for which NFC(skeleton(c)) is not c, with that value, from
        ICU's SpoofChecker.getSkeleton (UTS #39 section 4: skeleton(X) = NFD(map every character
        of NFD(X) to its confusables.txt prototype)). Code points whose skeleton is only their
        canonical decomposition (é, Hangul syllables) are left out: LookAlike compares in NFC,
        where they come back. LookAlike.skeleton(_:) maps each scalar of a string (already
        folded, so in NFC) with it and puts the result in NFC.
  Tests/JumpFormsTests/Fixtures/look-alike-cases.json
      What the Swift tests check: for hand-picked strings (width, case, ligatures, default
      ignorables, Cyrillic and Greek look-alikes, combining sequences, emails) and seeded random
      strings, ICU's own results for the whole string: `folded` = the nfkc_cf normalizer's
      output, `skeleton` = NFC(getSkeleton(folded)).

Before writing, the script runs the Swift algorithm on its tables in Python (with ICU's NFC in
place of Swift's) over every fixture string and over every single code point, and stops when
one result differs from ICU's.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

import icu

ROOT = Path(__file__).resolve().parent.parent
SWIFT = ROOT / "Sources/JumpForms/Rules/LookAlike+Unicode.generated.swift"
FIXTURE = ROOT / "Tests/JumpFormsTests/Fixtures/look-alike-cases.json"
EXPECTED_ICU = "72.1"
SEED = 22
RANDOM_CASES = 400

FOLD = icu.Normalizer2.getInstance(None, "nfkc_cf", icu.UNormalizationMode2.COMPOSE)
NFC = icu.Normalizer2.getNFCInstance()
SPOOF = icu.SpoofChecker()


def fail(message: str) -> None:
    sys.exit(f"generate-look-alike-tables: {message}")


def code_points():
    for cp in range(0x110000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        yield cp


def icu_folded(text: str) -> str:
    return FOLD.normalize(text)


def icu_skeleton(text: str) -> str:
    """The key of a display name: the UTS #39 skeleton of its NFKC_Casefold form, in NFC."""
    return NFC.normalize(SPOOF.getSkeleton(0, icu_folded(text)))


def tables() -> tuple[dict[int, str], dict[int, str]]:
    fold: dict[int, str] = {}
    skeleton: dict[int, str] = {}
    for cp in code_points():
        c = chr(cp)
        f = FOLD.normalize(c)
        if f != c:
            fold[cp] = f
        s = NFC.normalize(SPOOF.getSkeleton(0, c))
        if s != c:
            skeleton[cp] = s
    return fold, skeleton


def apply(table: dict[int, str], text: str) -> str:
    return NFC.normalize("".join(table.get(ord(c), c) for c in text))


def encode(table: dict[int, str]) -> list[str]:
    """Lines `S-E+D` / `S-E-D` (each code point of S...E maps to itself plus or minus D), or
    `S-E=M M ...` (each maps to the scalars M; none for an empty mapping); hexadecimal, and
    `-E` left out when the range is one code point."""
    lines: list[str] = []
    entries = sorted(table.items())
    i = 0
    while i < len(entries):
        start, value = entries[i]
        end = start
        if len(value) == 1:
            delta = ord(value) - start
            while i + 1 < len(entries) and entries[i + 1][0] == end + 1 and len(entries[i + 1][1]) == 1 \
                    and ord(entries[i + 1][1]) - entries[i + 1][0] == delta:
                i += 1
                end = entries[i][0]
            span = f"{start:X}" if end == start else f"{start:X}-{end:X}"
            lines.append(f"{span}{'+' if delta >= 0 else '-'}{abs(delta):X}")
        else:
            while i + 1 < len(entries) and entries[i + 1][0] == end + 1 and entries[i + 1][1] == value:
                i += 1
                end = entries[i][0]
            span = f"{start:X}" if end == start else f"{start:X}-{end:X}"
            lines.append(f"{span}=" + " ".join(f"{ord(c):X}" for c in value))
        i += 1
    return lines


def cases() -> list[str]:
    chosen = [
        "admin", "ADMIN", "Admin", "ａdmin", "ＡＤＭＩＮ", "аdmin", "аdmіn", "adm\u0131n", "adrnin", "αdmin",
        "root", "ROOT", "r\u043e\u043et", "\u24e1\u24de\u24de\u24e3", "𝐫𝐨𝐨𝐭", "ʀᴏᴏᴛ",
        "support", "ѕupport", "sup\u200bport", "sup\u00adport", "su\u2060pport", "\ufeffsupport",
        "ana_r", "ANA_R", "ana＿r", "аna_r", "ana_r2", "bob", "ana r", "ana\u3000r",
        "paypal", "pаypal", "PAYPAL", "ρaypal", "paypa1", "paypaI",
        "ﬁle", "ﬀ", "ß", "ẞ", "straße", "STRASSE", "ǆ", "Ǆ", "ǅ", "İstanbul", "ıstanbul", "ς", "Σ", "σ",
        "㎏", "①", "½", "™", "Å", "\u212b", "\u0041\u030a", "e\u0301", "é", "ё", "ë", "й", "и\u0306",
        "한국", "\u1112\u1161\u11ab", "日本", "ｶﾀｶﾅ", "カタカナ", "ﾊﾟ", "パ", "Ⅻ", "ⅻ",
        "marta.keller@example.com", "Marta.Keller@Example.COM", "ｍａｒｔａ＠ｅｘａｍｐｌｅ．ｃｏｍ",
        "eve@mailinator.com", "eve@MAILINATOR.COM", "eve@mailinator.ｃｏｍ", "eve@mаilinator.com",
        "a\u0301\u0323", "a\u0323\u0301", "\u1e0b\u0323", "\u1e0d\u0307", "q\u0307\u0323",
        "", " ", "\u00a0", "x\u0000y", "ǰ", "ΐ", "\U0001f600", "👩\u200d💻", "\ufe0f", "a\ufe0f",
        "0O", "O0", "l1I|", "rn", "m", "vv", "w", "cl", "d",
    ]
    rng = random.Random(SEED)
    pools = [
        list(range(0x20, 0x7F)),                          # ASCII
        list(range(0xC0, 0x250)),                         # Latin-1, Latin Extended
        list(range(0x300, 0x370)),                        # combining marks
        list(range(0x370, 0x400)),                        # Greek
        list(range(0x400, 0x500)),                        # Cyrillic
        list(range(0x1E00, 0x1F00)),                      # Latin Extended Additional
        list(range(0x2000, 0x2070)),                      # punctuation, default ignorables
        list(range(0x2100, 0x2190)),                      # letterlike, number forms
        list(range(0x2460, 0x2500)),                      # enclosed
        list(range(0x3000, 0x3100)),                      # CJK punctuation, kana
        list(range(0xAC00, 0xAC40)) + list(range(0x1100, 0x1200)),  # Hangul
        list(range(0xFB00, 0xFB07)) + list(range(0xFF00, 0xFFEF)),  # ligatures, width forms
        list(range(0x1D400, 0x1D500)),                    # mathematical alphanumerics
    ]
    generated = []
    while len(generated) < RANDOM_CASES:
        length = rng.randint(1, 8)
        text = "".join(chr(rng.choice(rng.choice(pools))) for _ in range(length))
        if text not in chosen and text not in generated:
            generated.append(text)
    return chosen + generated


def check(fold: dict[int, str], skeleton: dict[int, str], strings: list[str]) -> None:
    problems = []
    for text in strings:
        folded = apply(fold, text)
        if folded != icu_folded(text):
            problems.append(f"folded({text!r}) = {folded!r}, ICU {icu_folded(text)!r}")
        key = apply(skeleton, folded)
        if key != icu_skeleton(text):
            problems.append(f"skeleton({text!r}) = {key!r}, ICU {icu_skeleton(text)!r}")
    if problems:
        fail("the table algorithm differs from ICU:\n  " + "\n  ".join(problems[:20]))


def swift_source(fold: dict[int, str], skeleton: dict[int, str]) -> str:
    def literal(lines: list[str]) -> str:
        rows, row = [], ""
        for line in lines:
            if len(row) + len(line) + 1 > 100:
                rows.append(row)
                row = ""
            row += ("" if not row else ";") + line
        rows.append(row)
        return "\n".join(rows)

    fold_lines = encode(fold)
    skeleton_lines = encode(skeleton)
    return f"""// Generated by scripts/generate-look-alike-tables.py from ICU {icu.ICU_VERSION} (Unicode {icu.UNICODE_VERSION}); do not edit.
// Regenerate: /usr/bin/python3 scripts/generate-look-alike-tables.py (needs Debian's python3-icu)

extension LookAlike {{
    /// The per-scalar mappings, as text parsed once (`LookAlike.Table`): entries separated by
    /// `;` or a line break, each `S-E+D` / `S-E-D` (every scalar of S...E maps to itself plus or
    /// minus D) or `S-E=M M` (every scalar of S...E maps to the scalars M; none: removed), in
    /// hexadecimal, `-E` left out for a single scalar.
    enum Data {{
        /// The Unicode version of ICU's data the tables come from.
        static let unicodeVersion = "{icu.UNICODE_VERSION}"

        /// NFKC_Casefold of each scalar it changes ({len(fold)} scalars, {len(fold_lines)} entries).
        static let fold = \"\"\"
{literal(fold_lines)}
\"\"\"

        /// NFC(UTS #39 skeleton) of each scalar whose skeleton is not itself up to canonical
        /// equivalence ({len(skeleton)} scalars, {len(skeleton_lines)} entries).
        static let skeleton = \"\"\"
{literal(skeleton_lines)}
\"\"\"
    }}
}}
"""


def fixture(strings: list[str]) -> str:
    entries = [{"input": s, "folded": icu_folded(s), "skeleton": icu_skeleton(s)} for s in strings]
    document = {
        "generator": "scripts/generate-look-alike-tables.py",
        "icu": icu.ICU_VERSION,
        "unicode": icu.UNICODE_VERSION,
        "cases": entries,
    }
    return json.dumps(document, ensure_ascii=True, indent=1) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when a generated file is out of date")
    arguments = parser.parse_args()
    if icu.ICU_VERSION != EXPECTED_ICU:
        fail(f"expected ICU {EXPECTED_ICU} (Debian 12's python3-icu), found {icu.ICU_VERSION}: the tables would change")
    fold, skeleton = tables()
    strings = cases()
    check(fold, skeleton, strings + [chr(cp) for cp in code_points()])
    outputs = {SWIFT: swift_source(fold, skeleton), FIXTURE: fixture(strings)}
    stale = [path for path, text in outputs.items() if not path.exists() or path.read_text(encoding="utf-8") != text]
    if arguments.check:
        if stale:
            fail("stale: " + ", ".join(str(p.relative_to(ROOT)) for p in stale))
        return
    for path in stale:
        path.write_text(outputs[path], encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()

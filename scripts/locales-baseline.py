#!/usr/bin/env python3
"""The baseline of the locale-check benchmark (docs/PERFORMANCE.md, "How each figure is measured").

What a team writes when it has no checker: load every locale file with PyYAML's libyaml C
loader (yaml.CLoader), flatten the keys, and compare each locale with the reference:

  missing         keys of the reference the locale lacks
  extra           keys the locale has and the reference does not
  arguments       the `{name}` and `{name,` argument names of a message differ from the reference's
  whitespace      leading/trailing whitespace or a double space the reference's text lacks
  same-as-source  the text equals the reference's

It sees only what survives YAML 1.1 typing (an unquoted `no` is already False), keeps the last
of two duplicate keys without a word, and knows nothing of ICU syntax, plurals or call sites.

usage: scripts/locales-baseline.py LOCALES_DIR [--reference en-US] [--json]
"""
import glob
import json
import os
import re
import sys

import yaml

ARGUMENT = re.compile(r"\{\s*([A-Za-z0-9_]+)\s*[,}]")


def flatten(node, prefix, out):
    if isinstance(node, dict):
        for key, value in node.items():
            name = f"{prefix}.{key}" if prefix else str(key)
            flatten(value, name, out)
    else:
        out[prefix] = "" if node is None else str(node)
    return out


def load(path):
    with open(path, "rb") as handle:
        document = yaml.load(handle, Loader=yaml.CLoader)
    if not isinstance(document, dict):
        return None, {}
    return str(document.get("locale", "")), flatten(document.get("messages") or {}, "", {})


def main(argv):
    if not argv or argv[0].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    folder = argv[0]
    reference = argv[argv.index("--reference") + 1] if "--reference" in argv else "en-US"
    as_json = "--json" in argv
    if not yaml.__with_libyaml__:
        print("PyYAML was built without libyaml: pip install --force-reinstall pyyaml", file=sys.stderr)
        return 2
    locales = {}
    for path in sorted(glob.glob(os.path.join(folder, "*.yaml"))):
        tag, messages = load(path)
        locales[tag or os.path.basename(path)[:-5]] = (path, messages)
    if reference not in locales:
        print(f"{reference} has no file in {folder}", file=sys.stderr)
        return 2
    ref_path, ref = locales[reference]
    ref_arguments = {key: set(ARGUMENT.findall(text)) for key, text in ref.items()}
    findings = []
    for tag, (path, messages) in sorted(locales.items()):
        if tag == reference:
            continue
        for key in ref:
            if key not in messages:
                findings.append((path, key, "missing"))
        for key, text in messages.items():
            source = ref.get(key)
            if source is None:
                findings.append((path, key, "extra"))
                continue
            if set(ARGUMENT.findall(text)) != ref_arguments[key]:
                findings.append((path, key, "arguments"))
            edge = text != text.strip() and source == source.strip()
            double = "  " in text and "  " not in source
            if edge or double:
                findings.append((path, key, "whitespace"))
            if text == source:
                findings.append((path, key, "same-as-source"))
    counts = {}
    for _, _, kind in findings:
        counts[kind] = counts.get(kind, 0) + 1
    if as_json:
        print(json.dumps({"counts": counts, "findings": [{"file": f, "key": k, "kind": kind} for f, k, kind in findings]}))
    else:
        for path, key, kind in findings:
            print(f"{path}: {kind}: {key}")
        print(", ".join(f"{count} {kind}" for kind, count in sorted(counts.items())) or "no findings", file=sys.stderr)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""CI, on Windows and macOS: the collector's report renders, and every fact it holds is a value or says why not.

Usage: python .ci/collector_answered.py REPORT.md REPORT.json. Lists each fact's source or reason, and exits
non-zero, naming the facts, where one failed (status "error": a probe raised, or a child crashed) or is missing
without a reason, or where the Markdown report lacks its heading or shows a traceback.
"""

from __future__ import annotations

import json
import sys


def problems(markdown: str, facts: dict[str, dict[str, str]]) -> list[str]:
    found = [f"{name} failed: {fact['missing']}" for name, fact in facts.items() if fact.get("status") == "error"]
    found += [f"{name} is missing without a reason" for name, fact in facts.items() if fact.get("missing") == ""]
    if "### Environment" not in markdown or "Traceback" in markdown:
        found.append("the Markdown report has no heading, or shows a traceback")
    return found


def main(markdown_path: str, json_path: str) -> int:
    with open(markdown_path, encoding="utf-8") as handle:
        markdown = handle.read()
    with open(json_path, encoding="utf-8") as handle:
        facts = json.load(handle)["facts"]
    for name, fact in facts.items():
        sys.stdout.write(f"{name}: {fact.get('status', 'fact')}: {fact.get('missing') or fact.get('source')}\n")
    found = problems(markdown, facts)
    sys.stdout.writelines(f"::error::{problem}\n" for problem in found)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))

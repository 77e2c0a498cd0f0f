"""Every plural through ngettext: no "1 problems", "1 tables", "All 1 series are drawn".

A message that puts a number before a counted noun ("%(n)s tables", "{{ n }} deals")
must come from ngettext or ``{% blocktranslate count %}``, so English and German say
"1 table" and "2 tables". The few that only ever count several (a table of 3 or 4
players, a sheet of at least 3 deals, a file's fixed limits) are listed here by name.
"""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)
NOUNS = (
    r"(deals|tables|sheets|rounds|days|minutes|series|problems|players|games|pairs|meetings|points|tricks|seats"
    r"|entries|places|rows|columns|parts|times|teams|categories)"
)
NUMBER_IN_TEMPLATE = re.compile(r"\{\{ ?\w+ ?\}\}(?: of \{\{ ?\w+ ?\}\})? (?:[a-z-]+ )?" + NOUNS + r"\b")
NUMBER_IN_CODE = re.compile(r"%\(\w+\)s(?: of %\(\w+\)s)? (?:[a-z-]+ )?" + NOUNS + r"\b")
BLOCK = re.compile(r"\{% blocktranslate(?P<args>[^%]*)%\}(?P<body>.*?)\{% endblocktranslate %\}", re.S)
SINGULAR_CALL = re.compile(r'(?<![n\w])(?:_|gettext|gettext_lazy|gettext_noop)\(\s*((?:"[^"\n]*"\s*)+)')

#: Numbers that are never 1: deals at a table (3 or more), its players (3 or 4), the game
#: points a sheet's foot multiplies (50, 30), a file's limits, "{{ dealer }} deals" (a verb).
NEVER_ONE = (
    "{{ entered }} of {{ deals }} deals",
    "{{ dealer }} deals",
    "plays %(deals)s deals",
    "%(entered)s of %(deals)s deals entered",
    "%(points)s x games",
    "%(bonus)s x games",
    "%(size)s players, %(deals)s deals",
    "the first %(places)s places",
    "more than %(max)s rows",
    "The workbook has %(n)s parts",
    "compressed %(ratio)s times",
    "at most %(max)s rows",
    "at most %(max)s columns",
    "from series %(series)s",
)


def _allowed(text: str) -> bool:
    return any(phrase in text for phrase in NEVER_ONE)


def test_templates_count_their_plurals():
    found = []
    for path in sorted((ROOT / "templates").rglob("*.html")):
        for block in BLOCK.finditer(path.read_text(encoding="utf-8")):
            body = block.group("body")
            if " count " not in block.group("args") and NUMBER_IN_TEMPLATE.search(body) and not _allowed(body):
                found.append(f"{path.relative_to(ROOT)}: {body[:80]}")
    assert found == []


def test_code_counts_its_plurals_with_ngettext():
    found = []
    for package in ("scoring", "tournaments", "referees", "leagues", "office"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            source = path.read_text(encoding="utf-8")
            for call in SINGULAR_CALL.finditer(source):
                text = re.sub(r'"\s*"', "", call.group(1))
                if NUMBER_IN_CODE.search(text) and not _allowed(text):
                    found.append(f"{path.relative_to(ROOT)}: {text[:80]}")
    assert found == []


def test_the_scan_finds_a_singular_plural():
    assert NUMBER_IN_CODE.search('"%(n)s series are already drawn."')
    assert NUMBER_IN_TEMPLATE.search("{{ done }} of {{ total }} tables finished")

"""referees.paragraphs: the decision's choice list is the Skatordnung's own sections 3-5."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from referees import paragraphs

ROOT = Path(__file__).resolve().parents[2]
# The Skatordnung lies in the shared folder next to the checkout (../shared or ../../shared).
REFERENCE = next(
    (p for base in (ROOT.parent, ROOT.parent.parent) for p in (base / "shared" / "reference").glob("000_*.txt")), None
)
MISSING = (
    "the Skatordnung reference text (shared/reference/000_*.txt) is not next to this checkout "
    f"({ROOT.parent / 'shared'} or {ROOT.parent.parent / 'shared'})"
)


@pytest.fixture(scope="module")
def text() -> str:
    """The Skatordnung's text. CI and every developer's machine have shared/ beside the
    checkout: its absence fails the checks against it (a broken set-up is no reason to
    check nothing). Skipped, saying so, only on purpose: ``SKAT_NO_REFERENCE=1``, which
    ``make test-fast`` sets in a clone without ../shared. The tests of the list that need
    no book run either way."""
    if REFERENCE is None:
        if os.environ.get("SKAT_NO_REFERENCE") == "1":
            pytest.skip(f"SKAT_NO_REFERENCE=1: {MISSING}; the paragraph list is NOT checked against the book")
        pytest.fail(f"{MISSING}; set SKAT_NO_REFERENCE=1 to skip the checks against it", pytrace=False)
    return REFERENCE.read_text(encoding="utf-8")


def test_every_paragraph_of_sections_3_to_5_is_offered_in_the_book_s_order(text):
    numbers = re.findall(r"^([345]\.\d+\.\d+)\b", text, flags=re.MULTILINE)
    assert list(paragraphs.PARAGRAPHS) == list(dict.fromkeys(numbers))
    assert {"4.1.4", "4.5.10", "5.5.3", "3.2.11", "5.6.1"} <= set(paragraphs.PARAGRAPHS)


def test_each_opening_is_the_paragraph_s_own_text(text):
    for number, opening in paragraphs.PARAGRAPHS.items():
        line = next(line for line in text.splitlines() if re.match(rf"^{re.escape(number)}(\s|$)", line))
        words = opening.removesuffix(" …")
        assert words in line or number == "5.6.1", number


def test_the_section_titles_are_the_book_s_contents(text):
    start = text.index("this page\n")  # the table of contents
    toc = text[start : text.index("\nSkatordnung\n", start)]
    contents = dict(re.findall(r"^([345](?:\.\d)?) (\S.*)$", toc, flags=re.MULTILINE))
    assert len(contents) == 19
    assert {key: str(title) for key, title in paragraphs.SECTIONS.items()} == contents
    assert {paragraphs.section_of(n) for n in paragraphs.PARAGRAPHS} <= set(paragraphs.SECTIONS)


def test_choices_are_grouped_by_section_and_labels_name_it():
    groups = paragraphs.choices()
    assert groups[0][0] == "3.1 Seating"
    lead = dict(groups)["4.1 The lead"]
    assert lead[3][0] == "4.1.4" and lead[3][1].startswith("4.1.4 If anyone leads out of turn")
    assert sum(len(items) for _, items in groups) == len(paragraphs.PARAGRAPHS)
    assert paragraphs.label("4.1.4") == "4.1.4 (The lead)"
    assert paragraphs.label("7.2.5") == "7.2.5"


def test_a_german_reader_gets_no_english_sentence_in_the_list():
    """The correction form's paragraph list is German in German, titles and all."""
    from django.utils import translation

    with translation.override("de"):
        groups = paragraphs.choices()
    lead = dict((str(title), items) for title, items in groups)["4.1 Das Ausspielen"]
    assert lead[3] == ("4.1.4", "4.1.4 · Das Ausspielen")
    assert not any("the" in text.split() for _, items in groups for _, text in items)

"""File names of downloads (PDFs, exports): readable, in the page's language, plain ASCII.

"Großes Öffentliches Preisskat" is saved as ``grosses-oeffentliches-preisskat-...``, not
``groes-offentliches-...``: German letters are spelled out (ä -> ae, ö -> oe, ü -> ue,
ß -> ss) before the name becomes a slug. The words a file name adds ("series",
"sheets", "standings") are translated like the page ("serie", "spiellisten",
"rangliste"); the names of tournaments, leagues and categories stay as they are.
"""

from __future__ import annotations

from django.utils.text import slugify
from django.utils.translation import pgettext_lazy

#: German letters spelled out, so "Großes Open" is saved as grosses-open, not groes-open.
SPELLED = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ß": "ss"})

#: The words of file names, translated with the page (context "file name"); a caller names one
#: in lower case ("standings"). Written capitalised here, as the catalogue's entries are.
WORDS: dict[str, object] = {
    str(key).lower(): word
    for key, word in (
        ("Series", pgettext_lazy("file name", "Series")),
        ("Sheets", pgettext_lazy("file name", "Sheets")),
        ("Sheet", pgettext_lazy("file name", "Sheet")),
        ("Blank", pgettext_lazy("file name", "Blank")),
        ("Filled", pgettext_lazy("file name", "Filled")),
        ("Table", pgettext_lazy("file name", "Table")),
        ("Table-cards", pgettext_lazy("file name", "Table-cards")),
        ("Pin-slips", pgettext_lazy("file name", "Pin-slips")),
        ("Settlement", pgettext_lazy("file name", "Settlement")),
        ("Standings", pgettext_lazy("file name", "Standings")),
        ("Team-standings", pgettext_lazy("file name", "Team-standings")),
        ("Prize-list", pgettext_lazy("file name", "Prize-list")),
        ("Certificates", pgettext_lazy("file name", "Certificates")),
        ("Start-list", pgettext_lazy("file name", "Start-list")),
        ("Tournament", pgettext_lazy("file name", "Tournament")),
        ("Category", pgettext_lazy("file name", "Category")),
        ("League", pgettext_lazy("file name", "League")),
        ("Corrections", pgettext_lazy("file name", "Corrections")),
        ("Ranking", pgettext_lazy("file name", "Ranking")),
        ("Teams", pgettext_lazy("file name", "Teams")),
        ("Results", pgettext_lazy("file name", "Results")),
        ("Games", pgettext_lazy("file name", "Games")),
        ("Players", pgettext_lazy("file name", "Players")),
        ("Tables", pgettext_lazy("file name", "Tables")),
        ("Season", pgettext_lazy("file name", "Season")),
        ("Match-days", pgettext_lazy("file name", "Match-days")),
    )
}


class Name(str):
    """A proper name in a file name (a tournament's, a category's): never translated."""


def slug(text: str) -> str:
    """``text`` as one part of a file name: umlauts spelled out, then a slug."""
    return slugify(str(text).translate(SPELLED))


def file_name(*parts: str | int | Name, suffix: str, fallback: str = "tournament") -> str:
    """The parts joined with "-" and ``suffix`` added: a :class:`Name` as it is written,
    a word of :data:`WORDS` in the page's language, a number as it is.

    ``fallback`` (a word) stands in for a first name that leaves nothing (only symbols).
    """
    out = []
    for index, part in enumerate(parts):
        if isinstance(part, Name):
            text = slug(part) or (slug(WORDS[fallback]) if index == 0 else "")
        elif isinstance(part, str):
            text = slug(WORDS[part]) if part in WORDS else slug(part)
        else:
            text = str(part)
        if text:
            out.append(text)
    return "-".join(out) + suffix

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

#: The words of file names, translated with the page (context "file name").
WORDS = {
    "series": pgettext_lazy("file name", "series"),
    "sheets": pgettext_lazy("file name", "sheets"),
    "sheet": pgettext_lazy("file name", "sheet"),
    "blank": pgettext_lazy("file name", "blank"),
    "filled": pgettext_lazy("file name", "filled"),
    "table": pgettext_lazy("file name", "table"),
    "table-cards": pgettext_lazy("file name", "table-cards"),
    "pin-slips": pgettext_lazy("file name", "pin-slips"),
    "settlement": pgettext_lazy("file name", "settlement"),
    "standings": pgettext_lazy("file name", "standings"),
    "team-standings": pgettext_lazy("file name", "team-standings"),
    "prize-list": pgettext_lazy("file name", "prize-list"),
    "start-list": pgettext_lazy("file name", "start-list"),
    "tournament": pgettext_lazy("file name", "tournament"),
    "category": pgettext_lazy("file name", "category"),
    "league": pgettext_lazy("file name", "league"),
    "corrections": pgettext_lazy("file name", "corrections"),
    "ranking": pgettext_lazy("file name", "ranking"),
    "teams": pgettext_lazy("file name", "teams"),
    "results": pgettext_lazy("file name", "results"),
    "games": pgettext_lazy("file name", "games"),
    "players": pgettext_lazy("file name", "players"),
    "tables": pgettext_lazy("file name", "tables"),
    "season": pgettext_lazy("file name", "season"),
    "match-days": pgettext_lazy("file name", "match-days"),
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

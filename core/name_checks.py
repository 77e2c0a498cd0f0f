"""What counts as a name: something a person can read, on one line.

One rule for every name or title a person types: players, clubs, teams, a tournament's
name and venue, its categories, a league, its season, groups, league teams and hosts,
and the name given with a dispute at a table link. They are printed on the ranking list,
the scoresheets and the league's tables, and read out in the hall.

A name made only of invisible characters (zero-width spaces, a byte order mark, Hangul
fillers, the braille blank) shows as nothing on the ranking list; a control character
(a bell, a line break, also Unicode's line and paragraph separators) or a bidirectional
override (U+202E turns "Anna" into a name read backwards) makes the list lie. A
spreadsheet's error value (``#DIV/0!``, ``#N/A``) is a broken formula, not somebody's
name. Every way a name comes in (the forms, the admin through the models' validators,
the player list, the tournament file, ``manage.py league_host``) asks
:func:`name_problem`; the models carry :func:`validate_name`.
"""

from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

#: Error values Excel and LibreOffice show in a cell (English; LibreOffice also Err:nnn).
SPREADSHEET_ERRORS = frozenset(
    {
        "#null!",
        "#div/0!",
        "#value!",
        "#ref!",
        "#name?",
        "#num!",
        "#n/a",
        "#getting_data",
        "#spill!",
        "#calc!",
        "#field!",
        "#blocked!",
        "#connect!",
        "#busy!",
        "#unknown!",
        "#external!",
        "#nv",  # German Excel's #N/A
        "#bezug!",
        "#wert!",
        "#zahl!",
    }
)
#: Characters that reorder the text around them (Unicode bidirectional controls), and the
#: deprecated format controls U+206A-206F (symmetric swapping, digit shapes): they change
#: how the text around them is shown.
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u206a\u206b\u206c\u206d\u206e\u206f"
)
#: Tag characters (U+E0000-E007F) spell hidden text after a visible name.
TAGS = range(0xE0000, 0xE0080)
#: Unicode categories that are no character of a name: controls (Cc: a bell, a tab, a
#: line break) and the line and paragraph separators (Zl, Zp), which break a line too.
CONTROL_CATEGORIES = frozenset({"Cc", "Zl", "Zp"})
#: Letters and symbols by category that still show as blank space (Hangul fillers, the
#: braille blank, the musical null notehead).
BLANK_LOOKALIKES = frozenset("\u115f\u1160\u3164\uffa0\u2800\U0001d159")


def is_spreadsheet_error(text: str) -> bool:
    folded = text.strip().casefold()
    return folded in SPREADSHEET_ERRORS or (folded.startswith("err:") and folded[4:].isdigit())


def _visible(char: str) -> bool:
    return unicodedata.category(char)[0] in "LNPS" and char not in BLANK_LOOKALIKES


def name_problem(text: str) -> str | None:
    """Why ``text`` (stripped, not empty) cannot be a name, or None."""
    if is_spreadsheet_error(text):
        return _("%(value)s is a spreadsheet error, not a name") % {"value": text.strip()}
    if any(unicodedata.category(c) in CONTROL_CATEGORIES or c in BIDI_CONTROLS or ord(c) in TAGS for c in text):
        return _("contains a control character (such as a right-to-left override)")
    if not any(_visible(c) for c in text):
        return _("has no visible character")
    return None


def validate_name(value: str) -> None:
    """The models' and forms' validator: a :class:`ValidationError` naming the rule (the
    form shows it at the field, the admin beside it, ``full_clean`` under its name)."""
    problem = name_problem(value) if value else None
    if problem:
        raise ValidationError(_("Not a name: %(problem)s.") % {"problem": problem}, code="invisible_name")

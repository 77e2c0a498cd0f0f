"""The columns a list of players may have, as club lists and federation exports name them.

English and German headers are read alike; a column the office does not know ("Telefon")
is listed and left out, never a reason to refuse the list. The titles the messages name
(:data:`SHOWN`) are in the page's language, not the keys the code uses.
"""

from __future__ import annotations

import re

from django.utils import translation
from django.utils.translation import gettext as gettext_now
from django.utils.translation import gettext_lazy as _

PLAYER_COLUMNS = {
    "name": ("Name", "Spieler", "Spielername", "Player", "Nachname", "Familienname", "Surname", "Last name"),
    "first_name": ("First name", "Firstname", "Given name", "Vorname"),
    "club": ("Club", "Verein", "Klub"),
    "membership_number": (
        "Membership number",
        "Membership no",
        "Member number",
        "Mitgliedsnummer",
        "Mitglieds-Nr",
        "Mitgliedsnr",
        "Passnummer",
        "DSKV-Nr",
    ),
    "nationality": ("Nationality", "Nation", "Nationalität", "Land", "Country"),
    "team": ("Team", "Mannschaft"),
    "category": ("Category", "Kategorie", "Klasse", "Altersklasse", "Wertung"),
    "gender": ("Gender", "Sex", "Geschlecht"),
    "birth_year": ("Year of birth", "Birth year", "Born", "Date of birth", "Geburtsjahr", "Jahrgang", "Geburtsdatum"),
}
#: Each column as a message names it, in the page's language.
SHOWN = {
    "name": _("Name"),
    "first_name": _("First name"),
    "club": _("Club"),
    "membership_number": _("Membership number"),
    "nationality": _("Nationality"),
    "team": _("Team"),
    "category": _("Category"),
    "gender": _("Gender"),
    "birth_year": _("Year of birth"),
}
#: Genders a club list writes for a woman: her row goes to the women's category.
WOMEN = frozenset({"w", "weiblich", "f", "female", "frau", "damen", "d", "woman", "women"})
#: Names a tournament's own women's category may already have (kept, not doubled).
WOMEN_CATEGORIES = ("Damen", "Frauen", "Women", "Ladies")
#: The gender headers of a German list: its women's category is named in German.
GERMAN_GENDER_HEADERS = frozenset({"geschlecht"})
#: The longest values the database takes (tournaments.models).
MAX_LENGTH = {"name": 120, "club": 120, "membership_number": 32, "nationality": 3, "team": 120, "category": 60}

#: A year of birth as lists write it: 1961, or a date whose last part is the year
#: (12.03.1961, 3/12/1961) or whose first is (1961-03-12); digits 0-9 only.
_YEAR = re.compile(r"^(?:(\d{4})|\d{1,2}[./-]\d{1,2}[./-](\d{4})|(\d{4})-\d{1,2}-\d{1,2}(?:[ T].*)?)$", re.ASCII)


def birth_year(text: str, this_year: int) -> int | None:
    """The year a cell gives, or None when it gives none a person can have been born in.

    Raises ValueError with the rule for a cell that is not a year.
    """
    if not text:
        return None
    found = _YEAR.match(text.strip())
    if found is None:
        raise ValueError(_("a year like 1961 or a date like 12.03.1961"))
    year = int(next(group for group in found.groups() if group))
    if not 1900 <= year <= this_year:
        raise ValueError(_("a year from 1900 to %(year)s") % {"year": this_year})
    return year


def women_category(tournament, gender_header: str) -> str:
    """The category a woman of the list goes to: the tournament's own if it has one by a
    usual name, else named in the list's language ("Geschlecht": "Damen"), else in the
    director's. Categories are data, in the tournament's language, not the reader's."""
    have = {name.casefold(): name for name in tournament.categories.values_list("name", flat=True)}
    for usual in WOMEN_CATEGORIES:
        if usual.casefold() in have:
            return have[usual.casefold()]
    language = "de" if gender_header.casefold() in GERMAN_GENDER_HEADERS else translation.get_language()
    with translation.override(language):
        return gettext_now("Women")

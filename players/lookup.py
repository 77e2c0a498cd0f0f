"""The public lookup: start number and surname show where the player sits now.

For the player without his start card's QR. Both are public (the standings list them), so
the answer is only what the hall's seat board shows anyway: his table and seat, not his
own page (whose link is on his start card). One answer for every miss: "no such start
number" and "wrong surname" read the same, so the form tells a guesser nothing about
which start numbers exist, and every miss is counted (players.throttle).
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import Registration, Tournament
from tournaments.names import query_words, search_key, split_name

#: The longest surname read.
SURNAME_LENGTH = 80
MISS = _("No player of this tournament has this start number and this surname. Check both, or ask at the desk.")


class LookupForm(forms.Form):
    start_number = forms.IntegerField(
        label=_("Start number"),
        min_value=1,
        max_value=99999,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
        error_messages={
            "required": _("Start number: enter the number on your start card."),
            "invalid": _("Start number: enter digits only."),
            "min_value": _("Start number: numbers start at 1."),
            "max_value": _("Start number: no start number is that high."),
        },
    )
    surname = forms.CharField(
        label=_("Surname"),
        max_length=SURNAME_LENGTH,
        widget=forms.TextInput(attrs={"autocomplete": "family-name", "autocapitalize": "words"}),
        error_messages={
            "required": _("Surname: enter your surname as registered."),
            "max_length": _("Surname: at most 80 characters."),
        },
    )


def surname_matches(name: str, typed: str) -> bool:
    """``typed`` names the surname of ``name`` ("Anna Müller" or "Müller, Anna"): every word
    typed is a word of the name and one of them is the surname, case, accents and umlaut
    spellings aside (Mueller, Muller and Müller are one; "von Bülow" and "Bülow" too)."""
    surname, _first = split_name(name)
    words = query_words(typed)
    in_name = set(search_key(name).split())
    in_surname = set(search_key(surname).split())
    return bool(words) and all(word in in_name for word in words) and any(word in in_surname for word in words)


def find(tournament: Tournament, start_number: int, surname: str) -> Registration | None:
    """The registration with this start number and surname (one query), else None."""
    found = (
        Registration.objects.select_related("player")
        .filter(tournament=tournament, start_number=start_number)
        .only("pk", "tournament_id", "player_id", "start_number", "player__name")
        .first()
    )
    if found is None or not surname_matches(found.player.name, surname):
        return None
    return found

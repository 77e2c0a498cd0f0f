"""The forms of the changes after the draw: a no-show, a late arrival, a redraw, a
substitute. They check what the director chose; draw.arrivals, redraw and
substitutes decide and write."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments import door
from tournaments.models import Registration, Seat, Series, Tournament
from tournaments.names import search_key
from tournaments.player_forms import PlayerFieldsForm


class NoShowForm(forms.Form):
    """Who did not turn up, by start number or name (any order, umlauts or not): a
    series of hundreds of tables lists no select of every player."""

    player = forms.CharField(
        label=_("player who did not turn up"),
        max_length=120,
        help_text=_("start number or name"),
        error_messages={"required": _("Enter the start number or the name of the player who did not turn up.")},
    )

    def __init__(self, *args, series: Series, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.series = series
        self.fields["player"].widget.attrs.update({"placeholder": _("start number or name"), "autocomplete": "off"})

    def clean_player(self) -> Registration:
        query = " ".join(self.cleaned_data["player"].split())
        seated = Registration.objects.filter(
            tournament=self.series.tournament,
            player_id__in=Seat.objects.filter(series=self.series).values("player_id"),
        ).select_related("player")
        # The whole name, however written ("Müller, Anna"), before the start of words.
        found = [] if query.isdigit() else list(seated.filter(player__search_key=search_key(query))[:2])
        if len(found) != 1:
            found = list(door.search(seated, query)[:6])
        if not found:
            raise forms.ValidationError(
                _("No player seated in series %(series)s is “%(query)s”.")
                % {"series": self.series.number, "query": query}
            )
        if len(found) > 1:
            names = ", ".join(f"{r.player.name} ({r.start_number or '—'})" for r in found[:5])
            raise forms.ValidationError(
                _("Several seated players match “%(query)s”: %(names)s; enter the start number.")
                % {"query": query, "names": names}
            )
        return found[0]


class LateArrivalForm(forms.Form):
    registration = forms.TypedChoiceField(
        label=_("player who arrived late"),
        coerce=int,
        error_messages={"invalid_choice": _("Choose a registered player who has no seat in this series.")},
    )

    def __init__(self, *args, arriving: list[Registration], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["registration"].choices = [("", "—"), *((r.pk, str(r.player)) for r in arriving)]


class RedrawForm(forms.Form):
    confirm = forms.BooleanField(
        label=_("draw the whole series again: every table gets new players, a new link, a new card and new PIN slips"),
        error_messages={"required": _("confirm: tick the box to draw the series again.")},
    )


class SubstituteForm(PlayerFieldsForm):
    """The player who leaves (of a team, playing the next series) and his reserve."""

    out = forms.TypedChoiceField(
        label=_("player who leaves"),
        coerce=int,
        error_messages={"invalid_choice": _("Choose a team's player who plays the next series.")},
    )

    field_order = ["out", "name", "club", "membership_number", "namesake_ok"]

    def __init__(self, *args, tournament: Tournament, leaving: list[Registration], **kwargs) -> None:
        super().__init__(*args, tournament=tournament, **kwargs)
        self.fields["out"].choices = [("", "—"), *((r.pk, f"{r.player.name} ({r.team})") for r in leaving)]
        self.fields["name"].label = _("reserve's name")
        self.order_fields(self.field_order)

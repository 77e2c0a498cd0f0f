"""The forms of the changes after the draw: a no-show, a late arrival, a redraw, a
substitute. They check what the director chose; tournaments.arrivals, redraw and
substitutes decide and write."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import Registration, Tournament
from .player_forms import PlayerFieldsForm


class NoShowForm(forms.Form):
    player = forms.TypedChoiceField(
        label=_("player who did not turn up"),
        coerce=int,
        error_messages={"invalid_choice": _("Choose a player seated in this series.")},
    )

    def __init__(self, *args, players: list[tuple[int, str]], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [("", "—"), *players]


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

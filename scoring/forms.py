"""The scorekeeper's game form: fields as on the paper list, valued by the engine.

``clean()`` asks :meth:`Game.apply_rules`, so every rejection is the engine's, shown
at the field it concerns with its paragraph first ("5.4.1: ...").
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from . import rules
from .messages import rule_message
from .models import Game

# Engine field names that differ from the form's.
_FIELD_OF = {"declarer": "declarer_seat", "game": None, "players": None}

BID_CHOICES = [("", _("no bid"))] + [(str(v), str(v)) for v in sorted(rules.GAME_VALUES)]


class GameForm(forms.ModelForm):
    """One deal. ``number`` and ``client_id`` come from the page, so a resend of the
    same submission is recognised (the same client id never makes a second game)."""

    # Hidden, so their errors are shown above the form as "label: error" (_game_form.html).
    number = forms.IntegerField(label=_("deal"), widget=forms.HiddenInput, min_value=1)
    client_id = forms.UUIDField(label=_("entry id"), widget=forms.HiddenInput, required=False)
    version = forms.IntegerField(label=_("version"), widget=forms.HiddenInput, required=False, min_value=1)
    bid = forms.TypedChoiceField(label=_("bid"), choices=BID_CHOICES, coerce=int, empty_value=None, required=False)
    opponents_points = forms.IntegerField(
        label=_("opponents' card points"),
        required=False,
        min_value=0,
        max_value=120,
        help_text=_("Instead of the declarer's: the office counts 120 minus these."),
    )

    class Meta:
        model = Game
        fields = list(Game.ENTERED_FIELDS)
        widgets = {
            "declarer_seat": forms.RadioSelect,
            "contract": forms.RadioSelect,
            "tops_kind": forms.RadioSelect,
            "tops": forms.NumberInput(attrs={"min": 1, "max": 11, "inputmode": "numeric"}),
            "declarer_points": forms.NumberInput(attrs={"min": 0, "max": 120, "inputmode": "numeric"}),
            "declarer_tricks": forms.NumberInput(attrs={"min": 0, "max": 10, "inputmode": "numeric"}),
        }

    def __init__(self, *args, table, players: dict[int, str], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.table = table
        self.players = players
        self.fields["declarer_seat"].widget.choices = [(seat, name) for seat, name in sorted(players.items())]
        self.fields["declarer_seat"].required = False
        self.fields["contract"].required = False
        self.fields["contract"].choices = Game.CONTRACT_CHOICES
        self.fields["tops_kind"].required = False
        self.fields["tops_kind"].choices = Game.TopsKind.choices
        self.fields["declarer_points"].max_value = 120
        self.outcome: rules.Outcome | None = None

    @property
    def hidden_field_errors(self) -> list[str]:
        """Errors of the hidden fields as "label: error": they have no input to stand by."""
        return [f"{field.label}: {error}" for field in self.hidden_fields() for error in field.errors]

    def clean(self) -> dict:
        data = super().clean()
        if self.errors:
            return data
        number = data["number"]
        if number > self.table.deals:
            raise forms.ValidationError(
                _("This table plays %(deals)s deals; deal %(number)s does not exist (3.2.1).")
                % {"deals": self.table.deals, "number": number}
            )
        points, opponents = data.get("declarer_points"), data.get("opponents_points")
        if points is None and opponents is not None:
            data["declarer_points"] = 120 - opponents
        elif points is not None and opponents is not None and points + opponents != 120:
            self.add_error("opponents_points", _("declarer and opponents together hold 120 card points (1.2.2)"))
        if data.get("contract") == rules.Contract.NULL:
            data["tops"] = None
            data["tops_kind"] = ""
        return data

    def _post_clean(self) -> None:
        # The instance is built from cleaned_data here; only then can the engine value it.
        super()._post_clean()
        if self.errors:
            return
        self.instance.number = self.cleaned_data["number"]
        self.instance.table = self.table
        try:
            self.outcome = self.instance.apply_rules(self.table.size)
        except rules.RuleError as error:
            field = _FIELD_OF.get(error.field, error.field)
            self.add_error(field if field in self.fields else None, rule_message(error))

"""The ranking's forms: its name and rules, its table of points per place, a tournament
to add, a tournament file to import, the director's word on two player records."""

from __future__ import annotations

from django import forms
from django.forms import inlineformset_factory
from django.utils.translation import gettext_lazy as _

from tournaments.models import Tournament

from .models import PlacePoints, Ranking

RULE_FIELDS = [
    "name",
    "season",
    "public",
    "counts",
    "unit",
    "aggregate",
    "best",
    "planned",
    "minimum",
    "penalty",
    "tie_break_1",
    "tie_break_2",
    "tie_break_3",
]


class RankingForm(forms.ModelForm):
    class Meta:
        model = Ranking
        fields = RULE_FIELDS

    def check_rules(self, place_points: tuple[int, ...]) -> bool:
        """The engine's word on the rules with the table given (errors under their field)."""
        from django.core.exceptions import ValidationError

        try:
            self.instance.check_rules(place_points)
        except ValidationError as error:
            for field, messages in error.message_dict.items():
                self.add_error(field, messages)
            return False
        return True


PlacePointsFormSet = inlineformset_factory(
    Ranking, PlacePoints, fields=["place", "points"], extra=3, can_delete=True, max_num=500, validate_max=True
)


class AddTournamentForm(forms.Form):
    tournament = forms.ModelChoiceField(queryset=Tournament.objects.none(), label=_("tournament"))

    def __init__(self, *args, user, ranking: Ranking, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # Tournaments the user directs; one in the ranking already is still listed, and
        # adding it again is explained (services.add_tournament), not hidden.
        self.fields["tournament"].queryset = Tournament.objects.for_user(user).order_by("-date", "name")


class ImportForm(forms.Form):
    file = forms.FileField(label=_("tournament file (XLSX)"))


class DecisionForm(forms.Form):
    player = forms.IntegerField(widget=forms.HiddenInput)
    other = forms.IntegerField(label=_("the other record"))
    same = forms.TypedChoiceField(
        label=_("decision"),
        choices=[("1", _("one person: merge")), ("0", _("two people"))],
        coerce=lambda v: v == "1",
    )
    reason = forms.CharField(label=_("why"), max_length=300)


class SearchForm(forms.Form):
    q = forms.CharField(label=_("search"), required=False, max_length=100)

"""The end-of-season forms: the rules table, a deduction, a forfeit, a withdrawal, the rollover."""

from __future__ import annotations

from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from leagues.models import Group, LeagueTeam, MatchDay
from tournaments.forms import money_input

from .models import SeasonRules

REASON = forms.CharField(label=_("Reason"), max_length=500, widget=forms.TextInput(attrs={"autocomplete": "off"}))


class RulesForm(forms.ModelForm):
    """The league's rules and, per group, its level and its promotion and relegation places."""

    class Meta:
        model = SeasonRules
        fields = ["forfeit_fine", "individual_best", "individual_minimum", "individual_tie"]
        # Money in the reader's language: 25,50 in German, 25.50 accepted too.
        localized_fields = ["forfeit_fine"]
        widgets = {"forfeit_fine": money_input()}

    def __init__(self, *args, groups: list[tuple], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.groups = []
        for group, places, teams in groups:
            names = []
            for key, label in (
                ("level", _("level")),
                ("promotion", _("promotion places")),
                ("relegation", _("relegation places")),
            ):
                name = f"{key}-{group.pk}"
                self.fields[name] = forms.IntegerField(
                    label=f"{group.name}: {label}",
                    min_value=1 if key == "level" else 0,
                    max_value=99,
                    initial=getattr(places, key),
                )
                names.append(self[name])
            self.groups.append((group, teams, names))

    def places(self) -> dict[int, tuple[int, int, int]]:
        data = self.cleaned_data
        return {
            group.pk: (data[f"level-{group.pk}"], data[f"promotion-{group.pk}"], data[f"relegation-{group.pk}"])
            for group, _teams, _fields in self.groups
        }


class DeductionForm(forms.Form):
    team = forms.ModelChoiceField(label=_("Team"), queryset=LeagueTeam.objects.none())
    points = forms.DecimalField(
        label=_("Points"),
        min_value=Decimal("0.5"),
        max_value=Decimal("99"),
        decimal_places=1,
        initial=Decimal("1"),
        localize=True,
        widget=money_input(),
    )
    reason = REASON

    def __init__(self, *args, group: Group, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["team"].queryset = LeagueTeam.objects.filter(group=group)


class ForfeitForm(forms.Form):
    match_day = forms.ModelChoiceField(label=_("Match day"), queryset=MatchDay.objects.none())
    team = forms.ModelChoiceField(label=_("Team"), queryset=LeagueTeam.objects.none())
    reason = REASON

    def __init__(self, *args, group: Group, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["match_day"].queryset = MatchDay.objects.filter(group=group)
        self.fields["match_day"].label_from_instance = lambda d: f"{d.number} ({d.date:%d.%m.%Y})"
        self.fields["team"].queryset = LeagueTeam.objects.filter(group=group)


class WithdrawForm(forms.Form):
    reason = REASON


class RolloverForm(forms.Form):
    season = forms.CharField(label=_("New season"), max_length=20, help_text=_("e.g. 2027"))

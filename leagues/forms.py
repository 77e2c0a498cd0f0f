"""Forms of the league manager's pages: a match day, a line-up, a substitution, a check."""

from __future__ import annotations

from django import forms
from django.forms.utils import flatatt
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.rule_messages import rule_message
from skat.rules import RuleError
from tournaments.models import Player

from .models import REGULARS, Host, LeagueTeam, RosterEntry


def refusal(error: RuleError, *, named: bool = True) -> str:
    """A refused league step in the reader's language, naming the field ("players: ...");
    ``named=False`` leaves the field out, for a message shown under the field's own label."""
    if error.paragraph != "league":
        return rule_message(error)
    params = {key: value for key, value in error.params.items()}
    try:
        text = gettext(error.template).format(**params) if params else gettext(error.template)
    except (KeyError, IndexError, ValueError):
        text = error.message
    return f"{gettext(error.field.replace('_', ' '))}: {text}" if named else text


class PlainSelect(forms.Select):
    """A select whose options are written here, not by a template each: Django renders
    an option template per option, 0.15 ms each, and a national league's host list of 250
    halls took 40 ms on every group's league page. No option groups."""

    def render(self, name, value, attrs=None, renderer=None) -> SafeString:
        widget = self.get_context(name, value, attrs)["widget"]
        options = "".join(
            f'<option value="{escape(option["value"])}"{" selected" if option["selected"] else ""}>'
            f"{escape(option['label'])}</option>"
            for _group, choices, _index in widget["optgroups"]
            for option in choices
        )
        return format_html(
            '<select name="{}"{}>{}</select>', widget["name"], flatatt(widget["attrs"]), mark_safe(options)
        )


class MatchDayForm(forms.Form):
    number = forms.IntegerField(label=_("Match day"), min_value=1, max_value=99)
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    host = forms.ModelChoiceField(label=_("Host"), queryset=Host.objects.none(), required=False, widget=PlainSelect)
    teams = forms.ModelMultipleChoiceField(
        label=_("Teams"), queryset=LeagueTeam.objects.none(), widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args, group, hosts: list[Host] | None = None, **kwargs) -> None:
        """``hosts``: the league's hosts, read once for every group's form (the league page);
        the group's teams come from its prefetched ``teams`` there: no query per group."""
        super().__init__(*args, **kwargs)
        self.fields["host"].queryset = Host.objects.filter(league=group.league)
        if hosts is not None:
            self.fields["host"].choices = [("", self.fields["host"].empty_label), *((h.pk, str(h)) for h in hosts)]
        self.fields["teams"].queryset = group.teams.all()
        teams = list(group.teams.all())
        self.fields["teams"].choices = [(team.pk, str(team)) for team in teams]
        self.fields["teams"].initial = [team.pk for team in teams]
        self.group = group

    def clean_number(self) -> int:
        number = self.cleaned_data["number"]
        if self.group.match_days.filter(number=number).exists():
            raise forms.ValidationError(
                _("%(group)s has a match day %(number)s already.") % {"group": self.group.name, "number": number}
            )
        return number


class LineUpForm(forms.Form):
    team = forms.ModelChoiceField(label=_("Team"), queryset=LeagueTeam.objects.none(), widget=forms.HiddenInput)
    players = forms.ModelMultipleChoiceField(
        label=_("Players"),
        queryset=Player.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Up to four players of the roster."),
    )

    #: The saved line-up the form showed (player ids): saving refuses to overwrite another one.
    saved = forms.CharField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, team: LeagueTeam, saved: list[Player] | None = None, **kwargs) -> None:
        """``saved``: the team's saved line-up (it is what the boxes show, ticked)."""
        kwargs.setdefault("prefix", f"lineup-{team.pk}")
        super().__init__(*args, **kwargs)
        self.league_team = team
        self.saved_players = list(saved or [])
        self.fields["saved"].initial = ",".join(str(p.pk) for p in self.saved_players)
        self.fields["team"].queryset = LeagueTeam.objects.filter(pk=team.pk)
        self.fields["team"].initial = team.pk
        roster = RosterEntry.objects.filter(team=team).select_related("player")
        self.fields["players"].queryset = Player.objects.filter(rosters__team=team)
        self.fields["players"].choices = [
            (
                entry.player_id,
                f"{entry.position}. {entry.player.name}" + (f" ({gettext('reserve')})" if entry.reserve else ""),
            )
            for entry in roster
        ]
        if self.saved_players:
            self.fields["players"].initial = [p.pk for p in self.saved_players]
        else:
            self.fields["players"].initial = [e.player_id for e in roster if e.position <= REGULARS]

    def clean_saved(self) -> list[int]:
        raw = self.cleaned_data.get("saved") or ""
        try:
            return [int(part) for part in raw.split(",") if part.strip()]
        except ValueError:
            raise forms.ValidationError(_("The form is damaged; reload the page.")) from None


class SubstitutionForm(forms.Form):
    team = forms.ModelChoiceField(label=_("Team"), queryset=LeagueTeam.objects.none())
    player_out = forms.ModelChoiceField(label=_("Out"), queryset=Player.objects.none())
    player_in = forms.ModelChoiceField(label=_("In"), queryset=Player.objects.none())

    def __init__(self, *args, match_day, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        teams = match_day.teams.all()
        self.fields["team"].queryset = teams
        players = Player.objects.filter(rosters__team__in=teams).distinct().order_by("name")
        self.fields["player_out"].queryset = players
        self.fields["player_in"].queryset = players

    def clean(self) -> dict:
        data = super().clean()
        if data.get("player_out") and data.get("player_out") == data.get("player_in"):
            self.add_error("player_in", _("The player coming in must be another than the one going out."))
        return data


class CheckForm(forms.Form):
    note = forms.CharField(label=_("Note"), max_length=500, required=False)


class RemovePublicationForm(forms.Form):
    reason = forms.CharField(label=_("Why"), max_length=500)

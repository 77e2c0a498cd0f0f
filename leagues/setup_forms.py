"""Forms of the league's setup pages: the league and its settings, a league manager, a
group, a team with its roster and captain, a host. They check one form's input;
leagues.setup writes and refuses what needs the database (a name taken, a player on
another roster)."""

from __future__ import annotations

from django import forms
from django.contrib.auth.base_user import AbstractBaseUser
from django.forms.models import fields_for_model, model_to_dict
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.forms import AccountForm
from core.name_checks import validate_name
from tournaments.names import identity_key

from . import setup
from .models import POSITIONS, REGULARS, League, LeagueTeam
from .setup import RosterRow


def _clean_text(value: str | None) -> str:
    return " ".join((value or "").split())


#: The league's fields on its settings page, in this order.
LEAGUE_FIELDS = [
    "name",
    "season",
    "tie",
    "tie_break",
    "series_per_matchday",
    "rounds_per_series",
    "binding_days",
    "published",
]


class LeagueForm(forms.Form):
    """The league and its rule (README, "Leagues"): the settings the season table uses.

    A plain form over the model's fields: a name taken in the season is refused by
    leagues.setup in the league's words, not by the model's generic unique check."""

    def __init__(self, data=None, *, instance: League | None = None) -> None:
        super().__init__(data, initial=model_to_dict(instance, LEAGUE_FIELDS) if instance else None)
        help_texts = {
            "rounds_per_series": _("A round is one deal by each player at the table: 1 round is 4 deals at four."),
            "series_per_matchday": _("For match days set up from now on."),
            "published": _("Everybody sees the season table, the match days and the teams."),
        }
        self.fields.update(fields_for_model(League, LEAGUE_FIELDS, help_texts=help_texts))
        # The model's own rules (1-6 series, 1-30 rounds, a name and a season a person can
        # read: core.name_checks), as a model form runs them.
        for name in LEAGUE_FIELDS:
            extra = [v for v in League._meta.get_field(name).validators if v not in self.fields[name].validators]
            self.fields[name].validators.extend(extra)

    def clean_name(self) -> str:
        return _clean_text(self.cleaned_data["name"])

    def clean_season(self) -> str:
        return _clean_text(self.cleaned_data["season"])

    def settings(self) -> dict:
        return {name: self.cleaned_data[name] for name in LEAGUE_FIELDS}


class NameForm(forms.Form):
    """A group's or a host's name."""

    name = forms.CharField(label=_("Name"), max_length=80, validators=[validate_name])

    def clean_name(self) -> str:
        name = _clean_text(self.cleaned_data["name"])
        if not name:
            raise forms.ValidationError(_("Enter a name."))
        return name


class TeamForm(forms.Form):
    name = forms.CharField(label=_("Team name"), max_length=120, validators=[validate_name])
    club = forms.CharField(
        label=_("Club"),
        max_length=120,
        required=False,
        validators=[validate_name],
        help_text=_("The club of every player of the roster whose club is left blank."),
    )

    def clean_name(self) -> str:
        name = _clean_text(self.cleaned_data["name"])
        if not name:
            raise forms.ValidationError(_("Enter the team's name."))
        return name

    def clean_club(self) -> str:
        return _clean_text(self.cleaned_data.get("club"))


class RosterRowForm(forms.Form):
    """One position of the roster: blank name, empty position."""

    name = forms.CharField(label=_("Name"), max_length=120, required=False, validators=[validate_name])
    club = forms.CharField(label=_("Club"), max_length=120, required=False, validators=[validate_name])
    membership_number = forms.CharField(label=_("Membership number"), max_length=32, required=False)

    def clean(self) -> dict:
        data = super().clean()
        for field in ("name", "club", "membership_number"):
            data[field] = _clean_text(data.get(field))
        if not data["name"] and (data["club"] or data["membership_number"]) and not self.errors:
            self.add_error("name", _("Enter the player's name, or clear the line to leave the position empty."))
        return data


class BaseRosterFormSet(forms.BaseFormSet):
    def clean(self) -> None:
        """A player once in the roster: the same name and club, or the same membership number."""
        seen: dict[str, int] = {}
        for position, form in enumerate(self.forms, start=1):
            data = getattr(form, "cleaned_data", {})
            if form.errors or not data.get("name"):  # a line refused already says why
                continue
            club = data["club"] or self.team_club
            key = f"no {data['membership_number']}" if data["membership_number"] else identity_key(data["name"], club)
            if key in seen:
                form.add_error(
                    "name",
                    gettext("%(player)s is at position %(other)s already: a player is once in a roster.")
                    % {"player": data["name"], "other": seen[key]},
                )
            seen.setdefault(key, position)

    def rows(self) -> list[RosterRow]:
        return [
            RosterRow(position, f.cleaned_data["name"], f.cleaned_data["club"], f.cleaned_data["membership_number"])
            for position, f in enumerate(self.forms, start=1)
        ]


RosterFormSet = forms.formset_factory(
    RosterRowForm,
    formset=BaseRosterFormSet,
    extra=0,
    min_num=POSITIONS,
    max_num=POSITIONS,
    validate_min=True,
    validate_max=True,
)


def roster_formset(team: LeagueTeam, data=None, *, team_club: str = "") -> BaseRosterFormSet:
    """The eight positions of the team's roster, filled with the players on it."""
    on_roster = {e.position: e.player for e in team.roster.select_related("player__club")}
    initial = []
    for position in range(1, POSITIONS + 1):
        player = on_roster.get(position)
        initial.append(
            {
                "name": player.name if player else "",
                "club": player.club.name if player and player.club_id and player.club_id != team.club_id else "",
                "membership_number": player.membership_number if player else "",
            }
        )
    formset = RosterFormSet(data, initial=initial, prefix="roster")
    formset.team_club = team_club if data is not None else (team.club.name if team.club_id else "")
    for position, form in enumerate(formset.forms, start=1):
        form.position = position
        form.reserve = position > REGULARS
    return formset


class CaptainForm(forms.Form):
    captain = forms.TypedChoiceField(
        label=_("Captain"),
        coerce=int,
        required=False,
        empty_value=None,
        help_text=_("The position of the player who signs the match report for the team."),
    )

    def __init__(self, *args, team: LeagueTeam, **kwargs) -> None:
        entries = {e.position: e for e in team.roster.select_related("player")}
        captain = next((p for p, e in entries.items() if e.player_id == team.captain_id), None)
        kwargs.setdefault("initial", {"captain": captain})
        super().__init__(*args, **kwargs)
        self.fields["captain"].choices = [("", "—")] + [
            (
                p,
                f"{p} · {entries[p].player.name}"
                if p in entries
                else gettext("position %(position)s") % {"position": p},
            )
            for p in range(1, POSITIONS + 1)
        ]


class ManagerForm(AccountForm):
    """Name a league manager (a co-manager, Staffelleiter) by user name."""

    password_help = _("Only for a league manager without an account yet: the office creates it with this password.")

    def __init__(self, *args, league: League, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.league = league
        #: The match days he directs once saved (setup.add_manager).
        self.match_days = 0

    def already(self, user: AbstractBaseUser) -> str | None:
        if self.league.managers.filter(pk=user.pk).exists():
            return _("%(name)s is a league manager of this league already.") % {"name": user.get_username()}
        return None

    def save(self, by: AbstractBaseUser | None = None) -> tuple[AbstractBaseUser, bool] | None:
        """Let him manage the league and direct its match days, making his account first
        when needed; (user, created), or None when a twin request got in between."""

        def give(user: AbstractBaseUser) -> None:
            self.match_days = setup.add_manager(self.league, user, by=by)

        return self.save_with(give)

"""The league office's forms: a league right given to an account (made here when it does
not exist yet), and the match report's remarks, protests and signing."""

from __future__ import annotations

import datetime

from django import forms
from django.contrib.auth.base_user import AbstractBaseUser
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.forms import AccountForm
from leagues.models import League, LeagueTeam, MatchDay

from . import rights
from .models import ReportRemark, ReportSigning


class GrantForm(AccountForm):
    """Give an account a league right: manage one league, or set up new leagues."""

    password_help = _("Only for a person without an account yet: the office creates it with this password.")
    right = forms.ChoiceField(label=_("Right"))

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        leagues = [
            (str(league.pk), _("League manager: %(league)s") % {"league": league}) for league in League.objects.all()
        ]
        self.fields["right"].choices = [("", "—"), (rights.NEW_LEAGUES, _("May set up new leagues")), *leagues]

    def already(self, user: AbstractBaseUser) -> str | None:
        right = self.cleaned_data.get("right")
        if right == rights.NEW_LEAGUES and (user.is_superuser or user.has_perm("leagues.add_league")):
            return _("%(name)s may set up new leagues already.") % {"name": user.get_username()}
        if right and right != rights.NEW_LEAGUES and League.objects.filter(pk=right, managers=user).exists():
            return _("%(name)s manages this league already.") % {"name": user.get_username()}
        return None

    def save(self, by: AbstractBaseUser) -> tuple[AbstractBaseUser, bool] | None:
        right = self.cleaned_data["right"]
        return self.save_with(lambda user: rights.grant(user, right, by=by))


class RemarkForm(forms.Form):
    """A captain's remark or protest, typed by whoever keeps the report."""

    team = forms.ModelChoiceField(
        label=_("Captain of"), queryset=LeagueTeam.objects.none(), required=False, empty_label=_("the host")
    )
    kind = forms.ChoiceField(label=_("Kind"), choices=ReportRemark.Kind.choices)
    text = forms.CharField(label=_("Remark or protest"), max_length=1000, widget=forms.Textarea(attrs={"rows": 3}))

    def __init__(self, *args, match_day: MatchDay, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["team"].queryset = match_day.teams.order_by("name")


class SigningForm(forms.Form):
    """Where and when the captains signed the report (by default: the host, now)."""

    place = forms.CharField(label=_("Place of signing"), max_length=ReportSigning._meta.get_field("place").max_length)
    signed_at = forms.DateTimeField(
        label=_("Time of signing"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )

    def __init__(self, *args, match_day: MatchDay, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.match_day = match_day

    def clean_signed_at(self) -> datetime.datetime:
        value = self.cleaned_data["signed_at"]
        if value > timezone.now() + datetime.timedelta(minutes=5):
            raise forms.ValidationError(_("The report cannot be signed in the future."))
        if timezone.localtime(value).date() < self.match_day.date:
            raise forms.ValidationError(
                _("The report is signed on the match day (%(date)s) or later.") % {"date": self.match_day.date}
            )
        return value

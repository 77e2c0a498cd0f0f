"""The director's forms: the tournament and its rules, registrations, draws, seat changes."""

from __future__ import annotations

from decimal import Decimal

from django import forms
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from .models import (
    Club,
    LostGameFee,
    PassedOutFee,
    Player,
    Prize,
    Registration,
    Series,
    TableMoney,
    Team,
    Tournament,
)
from .names import validate_name


class TournamentForm(forms.ModelForm):
    class Meta:
        model = Tournament
        fields = [
            "name",
            "date",
            "venue",
            "series_count",
            "rounds_per_series",
            "entry_fee",
            "list_fee",
            "prize_pool_percent",
            "standings_public",
        ]
        widgets = {"date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}


class WholeScheduleFormSet(forms.BaseInlineFormSet):
    """An inline formset for a step table with a unique key per tournament (lost-game
    fees; also fits passed-out fees and table money): saved as a whole, so rows may
    exchange their keys in one save (from 1 -> 4 while from 4 -> 6). Saved row by row,
    the first update would hit the unique constraint of a row not yet updated (a 500).
    The formset has already checked the new table for duplicates; call it inside a
    transaction (the edit view does)."""

    def save(self, commit: bool = True) -> list:
        instances = super().save(commit=False)
        if not commit:
            return instances
        for row in self.deleted_objects:
            row.delete()
        self.model.objects.filter(pk__in=[row.pk for row in instances if row.pk]).delete()
        for row in instances:
            row.pk = None
            row.save()
        return instances


LostGameFeeFormSet = forms.inlineformset_factory(
    Tournament,
    LostGameFee,
    formset=WholeScheduleFormSet,
    fields=["from_lost_game", "amount"],
    extra=2,
    can_delete=True,
)

PassedOutFeeFormSet = forms.inlineformset_factory(
    Tournament,
    PassedOutFee,
    formset=WholeScheduleFormSet,
    fields=["table_size", "from_passed_out", "amount"],
    extra=2,
    can_delete=True,
)

TableMoneyFormSet = forms.inlineformset_factory(
    Tournament,
    TableMoney,
    formset=WholeScheduleFormSet,
    fields=["table_size", "place", "amount"],
    extra=3,
    can_delete=True,
)


class PrizeTableFormSet(WholeScheduleFormSet):
    """The prize table: besides one prize per place (the unique key), the shares of the
    pool must not add up to more than the whole pool."""

    def clean(self) -> None:
        super().clean()
        if any(self.errors):
            return
        total = Decimal("0")
        for form in self.forms:
            if not getattr(form, "cleaned_data", None) or form.cleaned_data.get("DELETE"):
                continue
            total += form.cleaned_data.get("percent") or 0
        if total > 100:
            raise forms.ValidationError(
                _("The shares of the prize pool add up to %(total)s %%: more than the whole pool.")
                % {"total": format(total.normalize(), "f")}
            )


PrizeFormSet = forms.inlineformset_factory(
    Tournament,
    Prize,
    formset=PrizeTableFormSet,
    fields=["place", "percent", "amount"],
    extra=3,
    can_delete=True,
)


class RegistrationForm(forms.Form):
    """Register a player: an existing one by membership number, or a new one."""

    name = forms.CharField(label=_("name"), max_length=120, validators=[validate_name])
    club = forms.CharField(label=_("club"), max_length=120, required=False, validators=[validate_name])
    membership_number = forms.CharField(label=_("membership number"), max_length=32, required=False)
    nationality = forms.CharField(label=_("nationality"), max_length=3, required=False)
    team = forms.CharField(label=_("team"), max_length=120, required=False, validators=[validate_name])
    first_series = forms.IntegerField(label=_("plays from series"), min_value=1, initial=1)

    def __init__(self, *args, tournament: Tournament, user=None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        self.user = user
        self.fields["first_series"].max_value = tournament.series_count
        self.fields["first_series"].widget.attrs["max"] = tournament.series_count
        # A late entry plays from the first series not yet drawn (3.1.2): offer that one.
        last_drawn = max(tournament.series.values_list("number", flat=True), default=0)
        self.fields["first_series"].initial = min(last_drawn + 1, tournament.series_count)

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise forms.ValidationError(_("Enter the player's name."))
        return name

    def clean_first_series(self) -> int:
        first = self.cleaned_data["first_series"]
        if first > self.tournament.series_count:
            raise forms.ValidationError(
                _("This tournament has %(count)s series.") % {"count": self.tournament.series_count}
            )
        drawn = self.tournament.series.filter(number__gte=first).order_by("number").first()
        if drawn is not None:
            raise forms.ValidationError(
                _("Series %(number)s is already drawn; a late entry plays from the next series (3.1.2).")
                % {"number": drawn.number}
            )
        return first

    def clean(self) -> dict:
        data = super().clean()
        number = (data.get("membership_number") or "").strip()
        if number:
            player = Player.objects.filter(membership_number=number).first()
            if player is not None and data.get("name") and player.name.casefold() != data["name"].casefold():
                if Player.objects.known_to(self.user).filter(pk=player.pk).exists():
                    message = _("Membership number %(number)s belongs to %(name)s.")
                else:  # a player of tournaments this director cannot see: not his name
                    message = _(
                        "Membership number %(number)s belongs to another player; check the number and the name."
                    )
                self.add_error("membership_number", message % {"number": number, "name": player.name})
            if player is not None and Registration.objects.filter(tournament=self.tournament, player=player).exists():
                self.add_error("membership_number", _("%(name)s is already registered.") % {"name": player.name})
        elif data.get("name"):
            # Without a number, the same name and club is the player already registered.
            club = " ".join((data.get("club") or "").split()).casefold()
            wanted = (data["name"].casefold(), club)
            registered = Registration.objects.filter(tournament=self.tournament).values_list(
                "player__name", "player__club__name"
            )
            if any((name.casefold(), (their_club or "").casefold()) == wanted for name, their_club in registered):
                self.add_error(
                    "name",
                    _("%(name)s is already registered (give a membership number to tell them apart).")
                    % {"name": data["name"]},
                )
        return data

    @transaction.atomic
    def save(self) -> Registration:
        data = self.cleaned_data
        club = None
        if data.get("club", "").strip():
            club, _created = Club.objects.get_or_create(name=" ".join(data["club"].split()))
        number = data.get("membership_number", "").strip()
        player = Player.objects.filter(membership_number=number).first() if number else None
        if player is None:
            player = Player.objects.create(
                name=data["name"], club=club, membership_number=number, nationality=data.get("nationality", "").upper()
            )
        team = None
        if data.get("team", "").strip():
            team, _created = Team.objects.get_or_create(tournament=self.tournament, name=data["team"].strip())
        return Registration.objects.create(
            tournament=self.tournament, player=player, team=team, first_series=data["first_series"]
        )


class DrawForm(forms.Form):
    method = forms.ChoiceField(label=_("draw"), choices=Series.Method.choices, initial=Series.Method.RANDOM)


class SwapForm(forms.Form):
    first = forms.TypedChoiceField(label=_("player"), coerce=int)
    second = forms.TypedChoiceField(label=_("swap with"), coerce=int)

    def __init__(self, *args, players: list[tuple[int, str]], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["first"].choices = players
        self.fields["second"].choices = players


class MoveForm(forms.Form):
    player = forms.TypedChoiceField(label=_("player"), coerce=int)
    table = forms.TypedChoiceField(label=_("to table"), coerce=int)

    def __init__(self, *args, players: list[tuple[int, str]], tables: list[tuple[int, str]], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = players
        self.fields["table"].choices = tables

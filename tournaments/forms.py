"""The director's forms: the tournament and its rules, its directors, registrations,
draws, seat changes."""

from __future__ import annotations

from decimal import Decimal

from django import forms
from django.contrib.auth.base_user import AbstractBaseUser
from django.utils.translation import gettext_lazy as _

from accounts.forms import AccountForm

from . import services
from .models import Category, LostGameFee, PassedOutFee, Prize, Series, TableMoney, Tournament


class KeepsWhatIsPlayed(forms.ModelForm):
    """Refuses, field by field, the changes of a tournament that would orphan drawn
    series or entered deals (services.played_changes_refused): the director's edit form
    and the admin's both."""

    def clean(self) -> dict:
        data = super().clean()
        if self.instance.pk is None or self.errors:
            return data
        # As stored: a form that validated before may have put its values on the instance.
        saved = Tournament.objects.get(pk=self.instance.pk)
        refused = services.played_changes_refused(
            saved,
            series_count=data.get("series_count", saved.series_count),
            rounds_per_series=data.get("rounds_per_series", saved.rounds_per_series),
        )
        for field, message in refused.items():
            self.add_error(field, message)
        return data


def money_input() -> forms.TextInput:
    """A money or percent field's input, localised (``localized_fields``): German shows
    and accepts 10,00 and still accepts 10.00; a text input (browsers' number inputs
    take only their own locale's separator) with the phone's decimal keypad."""
    return forms.TextInput(attrs={"inputmode": "decimal", "class": "money"})


class TournamentForm(KeepsWhatIsPlayed):
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
            "list_fee_refund_percent",
            "table_money_from",
            "standings_public",
        ]
        widgets = {
            "date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "entry_fee": money_input(),
            "list_fee": money_input(),
        }
        localized_fields = ["entry_fee", "list_fee"]

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # Added later: a post of the older form (or a script) without it keeps the rule as it is.
        self.fields["list_fee_refund_percent"].required = False
        self.fields["table_money_from"].required = False

    def clean_list_fee_refund_percent(self) -> int:
        value = self.cleaned_data.get("list_fee_refund_percent")
        return self.instance.list_fee_refund_percent if value is None else value

    def clean_table_money_from(self) -> str:
        return self.cleaned_data.get("table_money_from") or self.instance.table_money_from


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
    localized_fields=["amount"],
    widgets={"amount": money_input()},
    extra=2,
    can_delete=True,
)

PassedOutFeeFormSet = forms.inlineformset_factory(
    Tournament,
    PassedOutFee,
    formset=WholeScheduleFormSet,
    fields=["table_size", "from_passed_out", "amount"],
    localized_fields=["amount"],
    widgets={"amount": money_input()},
    extra=2,
    can_delete=True,
)

TableMoneyFormSet = forms.inlineformset_factory(
    Tournament,
    TableMoney,
    formset=WholeScheduleFormSet,
    fields=["table_size", "place", "amount"],
    localized_fields=["amount"],
    widgets={"amount": money_input()},
    extra=3,
    can_delete=True,
)


class PrizeTableFormSet(WholeScheduleFormSet):
    """The prize table: besides one prize per place of a ranking (overall, or a category's
    own), the shares of the pool must not add up to more than the whole pool."""

    def add_fields(self, form, index) -> None:
        super().add_fields(form, index)
        # Only this tournament's categories; empty is the overall ranking.
        form.fields["category"].queryset = Category.objects.filter(tournament=self.instance)
        form.fields["category"].empty_label = _("overall")

    def clean(self) -> None:
        super().clean()
        if any(self.errors):
            return
        total = Decimal("0")
        seen = set()
        for form in self.forms:
            if not getattr(form, "cleaned_data", None) or form.cleaned_data.get("DELETE"):
                continue
            total += form.cleaned_data.get("percent") or 0
            category, place = form.cleaned_data.get("category"), form.cleaned_data.get("place")
            if place is not None and (category, place) in seen:
                raise forms.ValidationError(
                    _("place: place %(place)s of %(ranking)s has two prizes.")
                    % {"place": place, "ranking": category.name if category else _("the overall ranking")}
                )
            seen.add((category, place))
        if total > 100:
            raise forms.ValidationError(
                _("The shares of the prize pool add up to %(total)s %%: more than the whole pool.")
                % {"total": format(total.normalize(), "f")}
            )


PrizeFormSet = forms.inlineformset_factory(
    Tournament,
    Prize,
    formset=PrizeTableFormSet,
    fields=["category", "place", "percent", "amount"],
    localized_fields=["percent", "amount"],
    widgets={"percent": money_input(), "amount": money_input()},
    extra=3,
    can_delete=True,
)


class DrawForm(forms.Form):
    method = forms.ChoiceField(label=_("draw"), choices=Series.Method.choices, initial=Series.Method.RANDOM)
    #: The director knows the standings to seed by rest on unconfirmed sheets (5.5.3).
    provisional = forms.BooleanField(label=_("seed on the provisional standings anyway"), required=False)


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


class DirectorForm(AccountForm):
    """Name a director: a second director, or a helper at the desk, by user name."""

    password_help = _("Only for a director without an account yet: the office creates it with this password.")

    def __init__(self, *args, tournament: Tournament, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.tournament = tournament

    def already(self, user: AbstractBaseUser) -> str | None:
        if self.tournament.directors.filter(pk=user.pk).exists():
            return _("%(name)s directs this tournament already.") % {"name": user.get_username()}
        return None

    def save(self) -> tuple[AbstractBaseUser, bool] | None:
        """Let him direct the tournament, making his account first when needed; (user,
        created), or None when a twin request got in between (the form says so)."""
        return self.save_with(lambda user: services.add_director(self.tournament, user))

"""Forms of the referees' pages and of the table link's sign-off and dispute."""

from __future__ import annotations

from django import forms
from django.contrib.auth.base_user import AbstractBaseUser
from django.utils.translation import gettext_lazy as _

from accounts.forms import AccountForm
from core.name_checks import validate_name
from scoring.forms import FIELD_PARAGRAPHS, GameForm
from scoring.models import IRREGULARITY_CHOICES, Game
from tournaments.models import Table

from . import disputes, paragraphs
from .models import Dispute, RefereeAssignment


class AssignForm(AccountForm):
    """Name a referee: an existing account, or a new one made here with its password."""

    password_help = _("Only for a referee without an account yet: the office creates it with this password.")

    def __init__(self, *args, tournament, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.tournament = tournament

    def already(self, user: AbstractBaseUser) -> str | None:
        if RefereeAssignment.objects.filter(tournament=self.tournament, user=user).exists():
            return _("%(name)s already referees this tournament.") % {"name": user.get_username()}
        return None

    def save(self, *, assigned_by: AbstractBaseUser) -> tuple[AbstractBaseUser, bool] | None:
        """Assign the referee, creating the account first when needed; (user, created),
        or None when a twin request got in between (the form says so)."""
        return self.save_with(
            lambda user: RefereeAssignment.objects.create(
                tournament=self.tournament, user=user, assigned_by=assigned_by
            )
        )


def _game_of(table: Table, number: int | None) -> Game | None:
    if number is None:
        return None
    game = Game.objects.filter(table=table, number=number).first()
    if game is None:
        raise forms.ValidationError(
            _("Deal %(deal)s is not entered at table %(table)s.") % {"deal": number, "table": table.number}
        )
    return game


class TableDisputeForm(forms.Form):
    """A claim raised from the table link (4.5.10: addressed at once). The table is the link's own."""

    deal = forms.IntegerField(
        label=_("Deal"), min_value=1, required=False, help_text=_("Leave empty for the whole sheet.")
    )
    description = forms.CharField(
        label=_("What happened?"),
        help_text=_("At most %(limit)s characters.") % {"limit": disputes.MAX_LINK_TEXT},
        widget=forms.Textarea(attrs={"rows": 4, "maxlength": disputes.MAX_LINK_TEXT}),
    )
    name = forms.CharField(label=_("Your name"), max_length=100, validators=[validate_name])

    def __init__(self, *args, table: Table, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.table = table

    def clean_description(self) -> str:
        refusal = disputes.too_long(self.cleaned_data["description"])
        if refusal:
            raise forms.ValidationError(refusal)
        return self.cleaned_data["description"]

    def clean(self):
        data = super().clean()
        refusal = disputes.too_many_open(self.table)
        if refusal:
            raise forms.ValidationError(refusal)
        if "deal" in data and not self.errors:
            try:
                data["game"] = _game_of(self.table, data["deal"])
            except forms.ValidationError as error:
                self.add_error("deal", error)
        return data


class DisputeForm(forms.Form):
    """A dispute raised by a director or referee about any table of the tournament, named
    as at the table: the series and the table number (a hall has thousands of tables; a
    list of them all would be a page of its own)."""

    series = forms.TypedChoiceField(label=_("Series"), coerce=int, choices=())
    table = forms.IntegerField(label=_("Table"), min_value=1)
    deal = forms.IntegerField(
        label=_("Deal"), min_value=1, required=False, help_text=_("Leave empty for the whole sheet.")
    )
    description = forms.CharField(label=_("What happened?"), max_length=2000, widget=forms.Textarea(attrs={"rows": 4}))

    def __init__(self, *args, tournament, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        numbers = tournament.series.order_by("number").values_list("number", flat=True)
        self.fields["series"].choices = [(n, _("Series %(series)s") % {"series": n}) for n in numbers]

    def clean(self):
        data = super().clean()
        if data.get("series") is None or data.get("table") is None:
            return data
        table = (
            Table.objects.filter(series__tournament=self.tournament, series__number=data["series"])
            .select_related("series")
            .filter(number=data["table"])
            .first()
        )
        if table is None:
            self.add_error(
                "table",
                _("Series %(series)s has no table %(table)s.") % {"series": data["series"], "table": data["table"]},
            )
            return data
        data["table"] = table
        if "deal" in data:
            try:
                data["game"] = _game_of(table, data["deal"])
            except forms.ValidationError as error:
                self.add_error("deal", error)
        return data


class DecideForm(forms.Form):
    """4.5.10: the referee's decision, citing the paragraph it rests on, and its effect."""

    paragraph = forms.ChoiceField(label=_("Paragraph"), choices=())
    effect = forms.ChoiceField(label=_("Effect"), choices=Dispute.Effect.choices, widget=forms.RadioSelect)
    decision = forms.CharField(label=_("Decision"), max_length=4000, widget=forms.Textarea(attrs={"rows": 4}))

    def __init__(self, *args, dispute: Dispute, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.dispute = dispute
        self.fields["paragraph"].choices = [("", _("choose the paragraph")), *paragraphs.choices()]

    def clean(self):
        data = super().clean()
        effect = data.get("effect")
        if effect in (Dispute.Effect.CORRECTED, Dispute.Effect.VOIDED):
            kind = "void" if effect == Dispute.Effect.VOIDED else "edit"
            if not self.dispute.corrections.filter(kind=kind).exists():
                self.add_error(
                    "effect",
                    _("Record the correction first (with this dispute chosen), then decide."),
                )
        return data


class WithdrawForm(forms.Form):
    note = forms.CharField(label=_("Note"), max_length=4000, required=False)


SETTLES_HELP = _(
    "Choosing a dispute closes it with this change: decided, citing the paragraph, the reason as its decision."
)


def offer_open_disputes(form: forms.BaseForm, table: Table) -> None:
    """Only the table's open disputes can be settled (4.5.10), each citing a paragraph of sections 3-5."""
    form.fields["dispute"].queryset = Dispute.objects.filter(table=table, status=Dispute.Status.OPEN).order_by(
        "-raised_at"
    )
    form.fields["paragraph"].choices = [("", _("choose the paragraph")), *paragraphs.choices()]


def require_paragraph(form: forms.BaseForm, data: dict) -> None:
    """A change that settles a dispute is its decision, and a decision cites its paragraph (4.5.10)."""
    if data.get("dispute") is not None and not data.get("paragraph"):
        form.add_error(
            "paragraph", _("4.5.10: settling a dispute decides it; choose the paragraph the decision rests on")
        )


class CorrectionForm(GameForm):
    """The game form of the table link plus what only a referee records: the irregularity
    that ended the game (4.1.3-4.1.6), the reason, and the dispute it settles."""

    irregularity = forms.ChoiceField(
        label=_("Ended by an irregularity of"),
        choices=[("", _("nobody: the game was played out")), *IRREGULARITY_CHOICES],
        required=False,
        widget=forms.RadioSelect,
        help_text=_(
            "4.1.4: the offended party wins a simple game; card points and tricks do not count. "
            "If the outcome was already established (4.1.3), leave this empty and enter the card points taken then."
        ),
    )
    reason = forms.CharField(label=_("Why"), max_length=2000, widget=forms.Textarea(attrs={"rows": 3}))
    dispute = forms.ModelChoiceField(
        label=_("Settles dispute"), queryset=Dispute.objects.none(), required=False, help_text=SETTLES_HELP
    )
    paragraph = forms.ChoiceField(label=_("Decision citing paragraph"), choices=(), required=False)
    paragraphs = {
        **FIELD_PARAGRAPHS,
        "irregularity": "4.1.4",
        "reason": "4.5.10",
        "dispute": "4.5.10",
        "paragraph": "4.5.10",
    }

    class Meta(GameForm.Meta):
        fields = [*Game.ENTERED_FIELDS, "irregularity"]

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["version"].required = True
        offer_open_disputes(self, self.table)

    def clean(self) -> dict:
        data = super().clean()
        require_paragraph(self, data)
        return data


class CorrectionPreviewForm(CorrectionForm):
    """The correction form for the value shown as it is filled in: the game's fields only.

    The reason, version and dispute are asked when the correction is saved; the preview
    values the game as the engine would then (it saves nothing).
    """

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for name in ("reason", "version", "dispute", "paragraph"):
            del self.fields[name]


class VoidForm(forms.Form):
    # Hidden: its errors are shown above the form as "version: error" (correct.html).
    version = forms.IntegerField(label=_("version"), widget=forms.HiddenInput)
    reason = forms.CharField(label=_("Why"), max_length=2000, widget=forms.Textarea(attrs={"rows": 2}))
    dispute = forms.ModelChoiceField(
        label=_("Settles dispute"), queryset=Dispute.objects.none(), required=False, help_text=SETTLES_HELP
    )
    paragraph = forms.ChoiceField(label=_("Decision citing paragraph"), choices=(), required=False)

    def __init__(self, *args, table: Table, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        offer_open_disputes(self, table)

    def clean(self) -> dict:
        data = super().clean()
        require_paragraph(self, data)
        return data

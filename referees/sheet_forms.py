"""Forms of the referee's sheet actions: accepting the sheet over a differing second
list, lifting a seat's PIN lock, re-opening a confirmed sheet, adding a missed deal."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .forms import CorrectionForm


class ReasonForm(forms.Form):
    """A sheet decision with the referee's reason (4.5.10: a referee's ruling says why)."""

    reason = forms.CharField(label=_("Why"), max_length=2000, widget=forms.Textarea(attrs={"rows": 2}))


class PaperForm(forms.Form):
    """Signed on paper finalises the sheet for every player at once (5.5.3): the referee
    ticks that he saw every signature, so a stray click finalises nothing."""

    signed = forms.BooleanField(label=_("I have seen every player's signature on the printed sheet"))


class LiftLockForm(forms.Form):
    """The seat whose PIN lock the director or a referee lifts."""

    seat = forms.TypedChoiceField(label=_("Player"), coerce=int)

    def __init__(self, *args, seats: dict[int, str], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["seat"].choices = sorted(seats.items())


class AddDealForm(CorrectionForm):
    """The correction form for a deal not on the sheet yet: no version to compare."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["version"].required = False

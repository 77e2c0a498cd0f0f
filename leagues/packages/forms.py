"""The hall office's import form: the package's file, or the league server's address and the host's token."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .fetching import refusal
from .schema import KEY


class ImportForm(forms.Form):
    file = forms.FileField(
        label=_("Package file"), required=False, help_text=_("The JSON file the league manager gave the host.")
    )
    url = forms.URLField(
        label=_("League server"),
        required=False,
        assume_scheme="https",
        help_text=_("Or fetch it: the server's address, e.g. https://liga.example.org/league/api/package/"),
    )
    token = forms.CharField(
        label=_("Host's token"), required=False, widget=forms.PasswordInput, strip=True, max_length=200
    )
    key = forms.CharField(
        label=_("Match day key"),
        required=False,
        max_length=32,
        help_text=_("Only this match day of the host's (blank: all of them)."),
    )

    def clean_url(self) -> str:
        """Only an allowed league server's address (SKAT_LEAGUE_SERVERS; leagues.packages.fetching)."""
        url = self.cleaned_data.get("url") or ""
        refused = refusal(url) if url else None
        if refused:
            raise forms.ValidationError(refused)
        return url

    def clean(self) -> dict:
        data = super().clean()
        if bool(data.get("file")) == bool(data.get("url")) and not self.has_error("url"):
            raise forms.ValidationError(
                _("Choose the package's file or give the league server's address (one of them).")
            )
        if data.get("url") and not data.get("token"):
            self.add_error("token", _("The league server gives the package only for the host's token."))
        if data.get("key") and not KEY.fullmatch(data["key"]):
            self.add_error("key", _("A match day's key is 32 hex digits (0-9, a-f)."))
        return data

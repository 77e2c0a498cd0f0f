"""The sign-off's records in the admin: read-only, like every audit record (scoring.admin.ReadOnly)."""

from django.contrib import admin

from scoring.admin import ReadOnly

from .models import ListsAccepted, SignOff


@admin.register(SignOff)
class SignOffAdmin(ReadOnly):
    """A sheet is confirmed by the players' PINs or marked signed on paper (5.5.3)."""

    list_display = ["table", "confirmed_at", "on_paper", "confirmed_by"]
    list_select_related = ["table"]


@admin.register(ListsAccepted)
class ListsAcceptedAdmin(SignOffAdmin):
    """Read-only: a referee's decision that the sheet stands over a differing second list."""

    list_display = ["table", "accepted_at", "accepted_by", "deals", "reason"]

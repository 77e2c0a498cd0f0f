from django.contrib import admin

from .models import Game, SignOff


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    """Read-only: games change through the table link or a referee's recorded correction."""

    list_display = ["table", "number", "declarer_seat", "contract", "value", "score", "won", "overbid", "passed_out"]
    list_select_related = ["table__series__tournament"]
    list_filter = ["table__series__tournament", "contract", "passed_out"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


class ReadOnly(admin.ModelAdmin):
    """An audit record is never edited or deleted by hand, not even in the admin."""

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(SignOff)
class SignOffAdmin(ReadOnly):
    """A sheet is confirmed by the players' PINs or marked signed on paper (5.5.3)."""

    list_display = ["table", "confirmed_at", "on_paper", "confirmed_by"]
    list_select_related = ["table"]

from django.contrib import admin

from .models import Game


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    """Read-only: games change through the table link or a referee's recorded correction,
    and are never deleted here."""

    list_display = [
        "table",
        "number",
        "declarer_seat",
        "contract",
        "value",
        "score",
        "won",
        "overbid",
        "passed_out",
        "entered_by_label",
    ]
    list_select_related = ["table__series__tournament"]
    list_filter = ["table__series__tournament", "contract", "passed_out"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        # Nothing is deleted (a referee voids a game, recorded); and deleting a series,
        # table or tournament that holds games is refused with it (Django asks every
        # related model's admin).
        return False


class ReadOnly(admin.ModelAdmin):
    """An audit record is never edited or deleted by hand, not even in the admin."""

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

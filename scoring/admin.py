from django.contrib import admin

from .models import Game


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

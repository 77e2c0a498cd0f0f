"""The admin: nothing here bypasses the lock on what is played.

Once a deal is entered, a series' status, its tables and seats are read-only here, and a
tournament's rounds per series (and series below those drawn) are refused with the
director's form's message (forms.KeepsWhatIsPlayed). Games cannot be deleted (scoring's
admin), so neither can the series, tables or tournaments that hold them.
"""

from django.contrib import admin

from . import hooks, services
from .forms import KeepsWhatIsPlayed
from .models import (
    Club,
    LostGameFee,
    PassedOutFee,
    Player,
    PlayerChange,
    Prize,
    Registration,
    Seat,
    Series,
    Table,
    TableMoney,
    Team,
    Tournament,
)


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    search_fields = ["name"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "membership_number", "nationality"]
    list_select_related = ["club"]
    search_fields = ["name", "membership_number", "club__name"]
    autocomplete_fields = ["club"]

    def save_model(self, request, obj, form, change) -> None:
        """The admin changes a person everywhere: kept as a PlayerChange, as from a players page."""
        before = services.person_fields(Player.objects.select_related("club").get(pk=obj.pk)) if change else None
        super().save_model(request, obj, form, change)
        after = services.person_fields(obj)
        if before is not None and before != after:
            PlayerChange.objects.create(player=obj, user=request.user, before=before, after=after)


@admin.register(PlayerChange)
class PlayerChangeAdmin(admin.ModelAdmin):
    """The record of changes to people: read, never written by hand."""

    list_display = ["at", "player", "user", "tournament"]
    list_select_related = ["player__club", "user", "tournament"]
    search_fields = ["player__name"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


class LostGameFeeInline(admin.TabularInline):
    model = LostGameFee
    extra = 0


class PassedOutFeeInline(admin.TabularInline):
    model = PassedOutFee
    extra = 0


class TableMoneyInline(admin.TabularInline):
    model = TableMoney
    extra = 0


class PrizeInline(admin.TabularInline):
    model = Prize
    extra = 0


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 0
    autocomplete_fields = ["player", "team"]


class TournamentAdminForm(KeepsWhatIsPlayed):
    class Meta:
        model = Tournament
        fields = "__all__"


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    form = TournamentAdminForm
    list_display = ["name", "date", "venue", "series_count", "rounds_per_series", "standings_public"]
    search_fields = ["name", "venue"]
    filter_horizontal = ["directors"]
    inlines = [LostGameFeeInline, PassedOutFeeInline, TableMoneyInline, PrizeInline, RegistrationInline]


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["name", "tournament"]
    search_fields = ["name"]
    list_filter = ["tournament"]


def _played(series: Series | None) -> bool:
    """A deal of the series is entered: its status, tables and seats are fixed (3.1.2, 5.5.3)."""
    return series is not None and series.pk is not None and hooks.play_started(series)


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    autocomplete_fields = ["player"]
    readonly_fields = ["series"]

    # ``obj`` is the table: once its series is played, its seats stay as they are.
    def has_add_permission(self, request, obj=None) -> bool:
        return not (obj is not None and _played(obj.series)) and super().has_add_permission(request, obj)

    def has_change_permission(self, request, obj=None) -> bool:
        return not (obj is not None and _played(obj.series)) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None) -> bool:
        return not (obj is not None and _played(obj.series)) and super().has_delete_permission(request, obj)


@admin.register(Series)
class SeriesAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "status", "method", "repeat_meetings", "club_meetings"]
    list_filter = ["status", "tournament"]

    def has_change_permission(self, request, obj=None) -> bool:
        # Finishing and re-opening go through the director's pages and the referees'.
        return not _played(obj) and super().has_change_permission(request, obj)


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["series", "number", "size"]
    list_select_related = ["series__tournament"]
    list_filter = ["series__tournament"]
    inlines = [SeatInline]

    def has_change_permission(self, request, obj=None) -> bool:
        return not (obj is not None and _played(obj.series)) and super().has_change_permission(request, obj)

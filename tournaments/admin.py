from django.contrib import admin

from .models import (
    Club,
    LostGameFee,
    PassedOutFee,
    Player,
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


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "date", "venue", "series_count", "rounds_per_series", "standings_public"]
    search_fields = ["name", "venue"]
    filter_horizontal = ["directors"]
    inlines = [LostGameFeeInline, PassedOutFeeInline, TableMoneyInline, PrizeInline, RegistrationInline]


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["name", "tournament"]
    search_fields = ["name"]
    list_filter = ["tournament"]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    autocomplete_fields = ["player"]
    readonly_fields = ["series"]


@admin.register(Series)
class SeriesAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "status", "method", "repeat_meetings", "club_meetings"]
    list_filter = ["status", "tournament"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["series", "number", "size"]
    list_select_related = ["series__tournament"]
    list_filter = ["series__tournament"]
    inlines = [SeatInline]

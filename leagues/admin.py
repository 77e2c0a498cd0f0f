"""The league's setup in the admin: leagues, groups, teams with their rosters, hosts."""

from django.contrib import admin

from .models import Group, Host, League, LeagueEvent, LeagueTeam, MatchDay, Publication, RosterEntry


class RosterInline(admin.TabularInline):
    model = RosterEntry
    extra = 8
    max_num = 8
    autocomplete_fields = ["player"]


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "season", "tie", "tie_break", "published"]
    filter_horizontal = ["managers"]


@admin.register(Group)
class GroupAdmin(admin.ModelAdmin):
    list_display = ["name", "league"]


@admin.register(LeagueTeam)
class LeagueTeamAdmin(admin.ModelAdmin):
    list_display = ["name", "group", "captain"]
    inlines = [RosterInline]
    autocomplete_fields = ["captain"]


@admin.register(Host)
class HostAdmin(admin.ModelAdmin):
    list_display = ["name", "league", "active"]
    readonly_fields = ["token_digest"]


@admin.register(MatchDay)
class MatchDayAdmin(admin.ModelAdmin):
    list_display = ["number", "group", "date", "host", "checked_at", "binding_at"]


@admin.register(LeagueEvent)
class LeagueEventAdmin(admin.ModelAdmin):
    list_display = ["match_day", "kind", "note", "user", "at"]


@admin.register(Publication)
class PublicationAdmin(admin.ModelAdmin):
    list_display = ["host", "digest", "match_day", "tournament", "received_at"]

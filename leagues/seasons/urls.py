"""The end of a season: the managers' pages (namespace ``seasons``, under /league/) and the
public individual ranking (namespace ``public``, under /p/league/)."""

from django.urls import path

from . import views

app_name = "seasons"

urlpatterns = [
    path("<int:league_id>/season-end/", views.end, name="end"),
    path("<int:league_id>/season-end/rules/", views.rules, name="rules"),
    path("<int:league_id>/season-end/deductions/", views.deduction_new, name="deduction_new"),
    path(
        "<int:league_id>/season-end/deductions/<int:deduction_id>/withdraw/",
        views.deduction_withdraw,
        name="deduction_withdraw",
    ),
    path("<int:league_id>/season-end/forfeits/", views.forfeit_new, name="forfeit_new"),
    path(
        "<int:league_id>/season-end/forfeits/<int:forfeit_id>/withdraw/",
        views.forfeit_withdraw,
        name="forfeit_withdraw",
    ),
    path("<int:league_id>/season-end/rollover/", views.roll_over, name="rollover"),
    path("<int:league_id>/cross-table/", views.cross, name="cross"),
    path("<int:league_id>/players/", views.players, name="players"),
    path("<int:league_id>/players.<slug:kind>", views.players_file, name="players_file"),
]

public = [
    path("<int:league_id>/cross-table/", views.public_cross, name="league_cross"),
    path("<int:league_id>/players/", views.public_players, name="league_players"),
    path("<int:league_id>/players.<slug:kind>", views.public_players_file, name="league_players_file"),
]

"""Public URLs: published standings (and their full list as CSV and PDF), the projector
page and the statistics."""

from django.urls import path

from . import data_views, standings_views

app_name = "public"

urlpatterns = [
    path("<int:tournament_id>/standings/", standings_views.public_standings, name="standings"),
    path("<int:tournament_id>/standings.csv", standings_views.standings_csv, name="standings_csv"),
    path("<int:tournament_id>/standings.pdf", standings_views.public_standings_pdf, name="standings_pdf"),
    path("<int:tournament_id>/live/", standings_views.live, name="live"),
    path("<int:tournament_id>/statistics/", data_views.public_statistics, name="statistics"),
    path(
        "<int:tournament_id>/statistics/<int:player_id>/",
        data_views.public_player_statistics,
        name="player_statistics",
    ),
]

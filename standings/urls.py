"""Public URLs: published standings (and their full list as CSV), the projector page and
the statistics; the standings PDF is printing's (printing/urls.py, in the same namespace)."""

from django.urls import path

from . import statistics_views
from . import views as standings_views

urlpatterns = [
    path("<int:tournament_id>/standings/", standings_views.public_standings, name="standings"),
    path("<int:tournament_id>/standings.csv", standings_views.standings_csv, name="standings_csv"),
    path("<int:tournament_id>/live/", standings_views.live, name="live"),
    path("<int:tournament_id>/statistics/", statistics_views.public_statistics, name="statistics"),
    path(
        "<int:tournament_id>/statistics/<int:player_id>/",
        statistics_views.public_player_statistics,
        name="player_statistics",
    ),
]

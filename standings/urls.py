"""The standings' URLs: the director's standings and statistics (namespace ``director``),
and once published the same for everybody with the full list as CSV and the projector's
page (namespace ``public``, under /p/)."""

from django.urls import path

from . import statistics_views, views

director = [
    path("t/<int:tournament_id>/standings/", views.standings_view, name="standings"),
    path("t/<int:tournament_id>/statistics/", statistics_views.statistics, name="statistics"),
    path(
        "t/<int:tournament_id>/statistics/<int:player_id>/",
        statistics_views.player_statistics_view,
        name="player_statistics",
    ),
]

public = [
    path("<int:tournament_id>/standings/", views.public_standings, name="standings"),
    path("<int:tournament_id>/standings.csv", views.standings_csv, name="standings_csv"),
    path("<int:tournament_id>/live/", views.live, name="live"),
    path("<int:tournament_id>/statistics/", statistics_views.public_statistics, name="statistics"),
    path(
        "<int:tournament_id>/statistics/<int:player_id>/",
        statistics_views.public_player_statistics,
        name="player_statistics",
    ),
]

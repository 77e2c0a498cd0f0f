"""Public URLs: published standings and the projector page."""

from django.urls import path

from . import views

app_name = "public"

urlpatterns = [
    path("<int:tournament_id>/standings/", views.public_standings, name="standings"),
    path("<int:tournament_id>/live/", views.live, name="live"),
]

# Statistics, public once the standings are published (tournaments.data_views).
from . import data_views  # noqa: E402

urlpatterns += [
    path("<int:tournament_id>/statistics/", data_views.public_statistics, name="statistics"),
    path(
        "<int:tournament_id>/statistics/<int:player_id>/",
        data_views.public_player_statistics,
        name="player_statistics",
    ),
]

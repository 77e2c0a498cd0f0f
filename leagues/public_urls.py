"""The public league pages (published leagues only; namespace ``public``, under /p/league/)."""

from django.urls import path

from . import public_views

public = [
    path("<int:league_id>/", public_views.season, name="season"),
    path("<int:league_id>/table.pdf", public_views.season_pdf, name="season_pdf"),
    path("<int:league_id>/match-days/<int:match_day_id>/", public_views.match_day, name="match_day"),
    path("<int:league_id>/teams/<int:team_id>/", public_views.team, name="team"),
]

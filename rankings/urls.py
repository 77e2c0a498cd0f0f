"""The ranking's pages: the directors' (namespace ``rankings``, under /rankings/) and the
public ones (``public``, under /p/rankings/, published rankings only)."""

from django.urls import path

from . import public_views, views

app_name = "rankings"

urlpatterns = [
    path("", views.ranking_list, name="list"),
    path("new/", views.ranking_new, name="new"),
    path("<int:ranking_id>/", views.ranking_detail, name="ranking"),
    path("<int:ranking_id>/rules/", views.rules, name="rules"),
    path("<int:ranking_id>/tournaments/", views.tournaments, name="tournaments"),
    path("<int:ranking_id>/tournaments/add/", views.tournament_add, name="add"),
    path("<int:ranking_id>/tournaments/import/", views.tournament_import, name="import"),
    path("<int:ranking_id>/tournaments/<int:entry_id>/remove/", views.tournament_remove, name="remove"),
    path("<int:ranking_id>/refresh/", views.refresh, name="refresh"),
    path("<int:ranking_id>/players/<int:player_id>/", views.player, name="player"),
    path("<int:ranking_id>/people/", views.who_is_who, name="people"),
    path("<int:ranking_id>/people/decide/", views.decide, name="decide"),
    path("<int:ranking_id>/people/<int:decision_id>/undo/", views.undo, name="undo"),
    path("<int:ranking_id>/ranking.<slug:kind>", public_views.staff_file, name="file"),
]

#: Mounted under /p/rankings/ in the ``public`` namespace.
public = [
    path("", public_views.published_list, name="rankings"),
    path("<int:ranking_id>/", public_views.ranking, name="ranking"),
    path("<int:ranking_id>/players/<int:player_id>/", public_views.player, name="ranking_player"),
    path("<int:ranking_id>/ranking.<slug:kind>", public_views.public_file, name="ranking_file"),
]

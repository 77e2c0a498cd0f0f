"""The director's URLs of tournaments' pages: tournaments, players, directors, the door, links.

config/urls.py mounts them in the ``director`` namespace with every app's director pages."""

from django.urls import path

from . import director_views, door_views, link_views, views

director = [
    path("", views.home, name="home"),
    path("t/new/", views.tournament_create, name="create"),
    path("t/<int:tournament_id>/edit/", views.tournament_edit, name="edit"),
    path("t/<int:tournament_id>/players/", views.players, name="players"),
    path("t/<int:tournament_id>/players/import/", views.players_import, name="players_import"),
    path("t/<int:tournament_id>/players/<int:registration_id>/withdraw/", views.withdraw, name="withdraw"),
    path("t/<int:tournament_id>/players/<int:registration_id>/edit/", views.player_edit, name="player_edit"),
    path("t/<int:tournament_id>/categories/", views.category_add, name="category_add"),
    path("t/<int:tournament_id>/delete/", views.tournament_delete, name="delete"),
    path("t/<int:tournament_id>/directors/", director_views.directors, name="directors"),
    path(
        "t/<int:tournament_id>/directors/<int:user_id>/remove/",
        director_views.director_remove,
        name="director_remove",
    ),
    path("t/<int:tournament_id>/desk/", door_views.desk, name="desk"),
    path("t/<int:tournament_id>/desk/add/", door_views.quick_add, name="desk_add"),
    path(
        "t/<int:tournament_id>/desk/<int:registration_id>/<str:flag>/",
        door_views.toggle,
        name="desk_toggle",
    ),
    path(
        "t/<int:tournament_id>/series/<int:number>/tables/<int:table_number>/new-link/",
        link_views.reissue_table_link,
        name="reissue_link",
    ),
    path(
        "t/<int:tournament_id>/series/<int:number>/new-links/", link_views.reissue_series_links, name="reissue_links"
    ),
]

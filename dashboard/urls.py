"""The dashboard's URLs, for the director (config/urls.py mounts them in the ``director``
namespace with every app's director pages): the tournament's dashboard, its progress,
a series' tables, one table, and the office grid that types a table's paper list."""

from django.urls import path

from . import grid_views, table_views, views

director = [
    path("t/<int:tournament_id>/", views.tournament_detail, name="detail"),
    path("t/<int:tournament_id>/progress/", views.progress, name="progress"),
    path("t/<int:tournament_id>/hall/", views.hall, name="hall"),
    path("t/<int:tournament_id>/series/<int:number>/", views.series_detail, name="series"),
    path("t/<int:tournament_id>/series/<int:number>/finish/", views.series_finish, name="finish"),
    path(
        "t/<int:tournament_id>/series/<int:number>/tables/<int:table_number>/",
        table_views.table_detail,
        name="table",
    ),
    path("t/<int:tournament_id>/series/<int:number>/table/<int:table>/grid/", grid_views.grid_page, name="grid"),
    path(
        "t/<int:tournament_id>/series/<int:number>/table/<int:table>/grid/preview/",
        grid_views.grid_preview,
        name="grid_preview",
    ),
]

"""Transfer's URLs for the director (namespace ``director``): the league workbook and its
sheets as CSV, and a table's finished paper scoresheet imported."""

from django.urls import path

from . import views

director = [
    path("t/<int:tournament_id>/export/", views.export, name="export"),
    path("t/<int:tournament_id>/export/league.xlsx", views.export_xlsx, name="export_xlsx"),
    path("t/<int:tournament_id>/export/<str:sheet>.csv", views.export_csv, name="export_csv"),
    path(
        "t/<int:tournament_id>/series/<int:number>/tables/<int:table>/import/",
        views.sheet_import,
        name="sheet_import",
    ),
]

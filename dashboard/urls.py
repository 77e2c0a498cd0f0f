"""The director's URLs of scoring's pages. They share the ``tournaments`` namespace with
tournaments/urls.py (config/urls.py puts them together), so every page keeps its name:
the dashboard, a series' tables, standings, printed documents, exports, statistics."""

from django.urls import path

from money import views as money_views
from printing import views as print_views
from standings import statistics_views
from standings import views as standings_views
from transfer import views as data_views

from . import grid_views, table_views
from . import views as director_views

urlpatterns = [
    path("t/<int:tournament_id>/", director_views.tournament_detail, name="detail"),
    path("t/<int:tournament_id>/progress/", director_views.progress, name="progress"),
    path("t/<int:tournament_id>/series/<int:number>/", director_views.series_detail, name="series"),
    path("t/<int:tournament_id>/series/<int:number>/finish/", director_views.series_finish, name="finish"),
    path(
        "t/<int:tournament_id>/series/<int:number>/tables/<int:table_number>/",
        table_views.table_detail,
        name="table",
    ),
    path("t/<int:tournament_id>/standings/", standings_views.standings_view, name="standings"),
]

# Printed documents (printing/views.py): scoresheets, table cards, PIN slips, settlements,
# ranking list, prize list.
urlpatterns += [
    path("t/<int:tournament_id>/series/<int:number>/sheets.pdf", print_views.series_sheets, name="series_sheets_pdf"),
    path("t/<int:tournament_id>/series/<int:number>/cards.pdf", print_views.series_cards, name="series_cards_pdf"),
    path(
        "t/<int:tournament_id>/series/<int:number>/pin-slips.pdf",
        print_views.series_pin_slips,
        name="series_pin_slips_pdf",
    ),
    path(
        "t/<int:tournament_id>/series/<int:number>/settlement.pdf",
        print_views.series_settlement,
        name="series_settlement_pdf",
    ),
    path(
        "t/<int:tournament_id>/series/<int:number>/table/<int:table>/sheet.pdf",
        print_views.table_sheet,
        name="table_sheet_pdf",
    ),
    path(
        "t/<int:tournament_id>/series/<int:number>/table/<int:table>/settlement.pdf",
        print_views.table_settlement,
        name="table_settlement_pdf",
    ),
    path("t/<int:tournament_id>/standings.pdf", print_views.standings_pdf, name="standings_pdf"),
    path("t/<int:tournament_id>/prizes.pdf", print_views.prize_list_pdf, name="prizes_pdf"),
    path("t/<int:tournament_id>/start-list.pdf", print_views.start_list_pdf, name="start_list_pdf"),
    path("t/<int:tournament_id>/fees/", money_views.fee_account, name="fee_account"),
]

# Results as data: export, sheet imports, statistics (transfer/views.py).
urlpatterns += [
    path("t/<int:tournament_id>/export/", data_views.export, name="export"),
    path("t/<int:tournament_id>/export/league.xlsx", data_views.export_xlsx, name="export_xlsx"),
    path("t/<int:tournament_id>/export/<str:sheet>.csv", data_views.export_csv, name="export_csv"),
    path(
        "t/<int:tournament_id>/series/<int:number>/tables/<int:table>/import/",
        data_views.sheet_import,
        name="sheet_import",
    ),
    path("t/<int:tournament_id>/statistics/", statistics_views.statistics, name="statistics"),
    path(
        "t/<int:tournament_id>/statistics/<int:player_id>/",
        statistics_views.player_statistics_view,
        name="player_statistics",
    ),
]

# The office grid (dashboard/grid_views.py): a table's paper list typed at the desk.
urlpatterns += [
    path("t/<int:tournament_id>/series/<int:number>/table/<int:table>/grid/", grid_views.grid_page, name="grid"),
    path(
        "t/<int:tournament_id>/series/<int:number>/table/<int:table>/grid/preview/",
        grid_views.grid_preview,
        name="grid_preview",
    ),
]

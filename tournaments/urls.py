"""Director (staff) URLs. Public pages are in public_urls.py, table links in scoring/urls.py."""

from django.urls import path

from . import data_views, link_views, print_views, views

app_name = "tournaments"

urlpatterns = [
    path("", views.home, name="home"),
    path("t/new/", views.tournament_create, name="create"),
    path("t/<int:tournament_id>/", views.tournament_detail, name="detail"),
    path("t/<int:tournament_id>/progress/", views.progress, name="progress"),
    path("t/<int:tournament_id>/edit/", views.tournament_edit, name="edit"),
    path("t/<int:tournament_id>/players/", views.players, name="players"),
    path("t/<int:tournament_id>/players/<int:registration_id>/withdraw/", views.withdraw, name="withdraw"),
    path("t/<int:tournament_id>/draw/", views.draw, name="draw"),
    path("t/<int:tournament_id>/series/<int:number>/", views.series_detail, name="series"),
    path("t/<int:tournament_id>/series/<int:number>/swap/", views.swap, name="swap"),
    path("t/<int:tournament_id>/series/<int:number>/move/", views.move, name="move"),
    path("t/<int:tournament_id>/series/<int:number>/finish/", views.series_finish, name="finish"),
    path("t/<int:tournament_id>/standings/", views.standings_view, name="standings"),
    path(
        "t/<int:tournament_id>/series/<int:number>/tables/<int:table_number>/new-link/",
        link_views.reissue_table_link,
        name="reissue_link",
    ),
    path(
        "t/<int:tournament_id>/series/<int:number>/new-links/", link_views.reissue_series_links, name="reissue_links"
    ),
]

# Printed documents (tournaments/print_views.py): scoresheets, table cards, PIN slips, settlements,
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
    path("t/<int:tournament_id>/fees/", print_views.fee_account, name="fee_account"),
]

# Results as data: export, imports, statistics (tournaments/data_views.py).
urlpatterns += [
    path("t/<int:tournament_id>/export/", data_views.export, name="export"),
    path("t/<int:tournament_id>/export/league.xlsx", data_views.export_xlsx, name="export_xlsx"),
    path("t/<int:tournament_id>/export/<str:sheet>.csv", data_views.export_csv, name="export_csv"),
    path("t/<int:tournament_id>/players/import/", data_views.players_import, name="players_import"),
    path(
        "t/<int:tournament_id>/series/<int:number>/tables/<int:table>/import/",
        data_views.sheet_import,
        name="sheet_import",
    ),
    path("t/<int:tournament_id>/statistics/", data_views.statistics, name="statistics"),
    path(
        "t/<int:tournament_id>/statistics/<int:player_id>/",
        data_views.player_statistics_view,
        name="player_statistics",
    ),
]

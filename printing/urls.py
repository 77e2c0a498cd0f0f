"""Printing's URLs: every PDF of a tournament for its director (namespace ``director``) and
the published standings as a ranking list for everybody (namespace ``public``)."""

from django.urls import path

from . import views

director = [
    path("t/<int:tournament_id>/series/<int:number>/sheets.pdf", views.series_sheets, name="series_sheets_pdf"),
    path("t/<int:tournament_id>/series/<int:number>/cards.pdf", views.series_cards, name="series_cards_pdf"),
    path(
        "t/<int:tournament_id>/series/<int:number>/pin-slips.pdf",
        views.series_pin_slips,
        name="series_pin_slips_pdf",
    ),
    path(
        "t/<int:tournament_id>/series/<int:number>/settlement.pdf",
        views.series_settlement,
        name="series_settlement_pdf",
    ),
    path(
        "t/<int:tournament_id>/series/<int:number>/table/<int:table>/sheet.pdf",
        views.table_sheet,
        name="table_sheet_pdf",
    ),
    path(
        "t/<int:tournament_id>/series/<int:number>/table/<int:table>/settlement.pdf",
        views.table_settlement,
        name="table_settlement_pdf",
    ),
    path("t/<int:tournament_id>/standings.pdf", views.standings_pdf, name="standings_pdf"),
    path("t/<int:tournament_id>/prizes.pdf", views.prize_list_pdf, name="prizes_pdf"),
    path("t/<int:tournament_id>/certificates.pdf", views.certificates_pdf, name="certificates_pdf"),
    path("t/<int:tournament_id>/start-list.pdf", views.start_list_pdf, name="start_list_pdf"),
    path("t/<int:tournament_id>/start-cards.pdf", views.start_cards_pdf, name="start_cards_pdf"),
]

public = [
    path("<int:tournament_id>/standings.pdf", views.public_standings_pdf, name="standings_pdf"),
]

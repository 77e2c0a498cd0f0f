"""Referees' pages (login: the tournament's referees and directors; assigning: directors)."""

from django.urls import path

from . import views

app_name = "referees"

urlpatterns = [
    path("referees/", views.mine, name="mine"),
    path("t/<int:tournament_id>/referees/", views.board, name="board"),
    path("t/<int:tournament_id>/referees/corrections.csv", views.corrections_csv, name="corrections_csv"),
    path("t/<int:tournament_id>/referees/assign/", views.assign, name="assign"),
    path("t/<int:tournament_id>/referees/assign/<int:assignment_id>/remove/", views.unassign, name="unassign"),
    path("t/<int:tournament_id>/referees/disputes/new/", views.dispute_new, name="dispute_new"),
    path("t/<int:tournament_id>/referees/disputes/<int:dispute_id>/", views.dispute_detail, name="dispute"),
    path("t/<int:tournament_id>/referees/disputes/<int:dispute_id>/decide/", views.dispute_decide, name="decide"),
    path(
        "t/<int:tournament_id>/referees/disputes/<int:dispute_id>/withdraw/", views.dispute_withdraw, name="withdraw"
    ),
    path("t/<int:tournament_id>/referees/tables/<int:table_id>/", views.table_detail, name="table"),
    path("t/<int:tournament_id>/referees/tables/<int:table_id>/paper/", views.table_paper, name="table_paper"),
    path("t/<int:tournament_id>/referees/tables/<int:table_id>/accept/", views.table_accept, name="table_accept"),
    path("t/<int:tournament_id>/referees/tables/<int:table_id>/unlock/", views.table_unlock, name="table_unlock"),
    path("t/<int:tournament_id>/referees/tables/<int:table_id>/reopen/", views.table_reopen, name="table_reopen"),
    path("t/<int:tournament_id>/referees/tables/<int:table_id>/add/", views.table_add_deal, name="table_add_deal"),
    path("t/<int:tournament_id>/referees/games/<int:game_id>/correct/", views.game_correct, name="correct"),
    path("t/<int:tournament_id>/referees/games/<int:game_id>/void/", views.game_void, name="void"),
    path("t/<int:tournament_id>/referees/games/<int:game_id>/preview/", views.game_preview, name="preview"),
]

"""The scorekeepers' table links (namespace ``table``, with the sign-off's and the referees'
table dispute: config/urls.py): each token opens its own table and nothing else."""

from django.urls import path

from . import hall_views, views

table = [
    path("worker.js", views.table_worker, name="worker"),
    path("<str:token>/", views.table_sheet, name="sheet"),
    path("<str:token>/preview/", views.preview, name="preview"),
    path("<str:token>/correct/", views.correct_last, name="correct"),
    path("<str:token>/qr.svg", views.table_qr, name="qr"),
    # The connection check before play (tablelink.hall_views).
    path("<str:token>/ping/", hall_views.ping, name="ping"),
    path("<str:token>/hall-check/", hall_views.report, name="hall_check"),
]

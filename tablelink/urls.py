"""The scorekeepers' table links: each token opens its own table and nothing else."""

from django.urls import path

from . import views

app_name = "tables"

urlpatterns = [
    path("worker.js", views.table_worker, name="worker"),
    path("<str:token>/", views.table_sheet, name="sheet"),
    path("<str:token>/preview/", views.preview, name="preview"),
    path("<str:token>/correct/", views.correct_last, name="correct"),
    path("<str:token>/qr.svg", views.table_qr, name="qr"),
]

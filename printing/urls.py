"""Printing's public URL: the published standings as a ranking list PDF (in the ``public``
namespace with standings/urls.py, config/urls.py puts them together)."""

from django.urls import path

from . import views

public_urlpatterns = [
    path("<int:tournament_id>/standings.pdf", views.public_standings_pdf, name="standings_pdf"),
]

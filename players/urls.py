"""The player's pages (namespace ``player``, under /me/): his own page by its private
link, and the lookup by start number and surname that leads to it."""

from django.urls import path

from . import views

player = [
    path("find/<int:tournament_id>/", views.lookup, name="lookup"),
    path("<str:token>/", views.page, name="page"),
]

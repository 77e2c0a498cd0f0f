"""Public URLs: published standings and the projector page."""

from django.urls import path

from . import views

app_name = "public"

urlpatterns = [
    path("<int:tournament_id>/standings/", views.public_standings, name="standings"),
    path("<int:tournament_id>/live/", views.live, name="live"),
]

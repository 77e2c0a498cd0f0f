"""The rehearsal's URLs for the director (namespace ``director``, config/urls.py)."""

from django.urls import path

from . import views

director = [
    path("t/<int:tournament_id>/rehearsal/start/", views.start, name="rehearsal_start"),
    path("t/<int:tournament_id>/rehearsal/stop/", views.stop, name="rehearsal_stop"),
]

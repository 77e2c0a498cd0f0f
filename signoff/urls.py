"""The table link's sign-off URL (namespace ``table``, with the table link's own and the
referees' table dispute: config/urls.py)."""

from django.urls import path

from . import views as signoff_views

table = [
    path("<str:token>/confirm/", signoff_views.confirm, name="confirm"),
]

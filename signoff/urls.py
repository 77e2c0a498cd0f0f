"""The table link's sign-off URLs (namespace ``signoff``, with the referees' table dispute:
config/urls.py puts them together)."""

from django.urls import path

from . import views as signoff_views

urlpatterns = [
    path("<str:token>/confirm/", signoff_views.confirm, name="confirm"),
]

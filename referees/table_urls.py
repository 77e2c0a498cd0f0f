"""The table link's dispute (namespace ``signoff``, with scoring's confirm and paper:
config/urls.py puts them together): the token opens its own table and nothing else."""

from django.urls import path

from . import views

urlpatterns = [
    path("<str:token>/dispute/", views.table_dispute, name="dispute"),
]

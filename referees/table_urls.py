"""The table link's dispute (namespace ``table``, with the table link's own
and the sign-off: config/urls.py): the token opens its own table and nothing else."""

from django.urls import path

from . import views

table = [
    path("<str:token>/dispute/", views.table_dispute, name="dispute"),
]

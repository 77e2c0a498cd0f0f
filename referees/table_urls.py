"""The table link's sign-off and disputes: the token opens its own table and nothing else."""

from django.urls import path

from . import views

app_name = "signoff"

urlpatterns = [
    path("<str:token>/confirm/", views.confirm, name="confirm"),
    path("<str:token>/paper/", views.paper, name="paper"),
    path("<str:token>/dispute/", views.table_dispute, name="dispute"),
]

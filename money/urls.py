"""Money's URL for the director (namespace ``director``): the fee account and prize pool."""

from django.urls import path

from . import views

director = [
    path("t/<int:tournament_id>/fees/", views.fee_account, name="fee_account"),
]

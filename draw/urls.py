"""The director's URLs of the draw: drawing a series, seat changes, and the changes after
the draw. In the ``director`` namespace (config/urls.py)."""

from django.urls import path

from . import views

director = [
    path("t/<int:tournament_id>/draw/", views.draw, name="draw"),
    path("t/<int:tournament_id>/series/<int:number>/no-show/", views.no_show, name="no_show"),
    path("t/<int:tournament_id>/series/<int:number>/late-arrival/", views.late_arrival, name="late_arrival"),
    path("t/<int:tournament_id>/series/<int:number>/redraw/", views.redraw_series, name="redraw"),
    path("t/<int:tournament_id>/substitute/", views.substitute, name="substitute"),
    path(
        "t/<int:tournament_id>/players/<int:registration_id>/undo-withdrawal/",
        views.undo_withdrawal,
        name="undo_withdrawal",
    ),
    path("t/<int:tournament_id>/series/<int:number>/swap/", views.swap, name="swap"),
    path("t/<int:tournament_id>/series/<int:number>/move/", views.move, name="move"),
]

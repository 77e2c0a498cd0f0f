"""The tournament's own rules as services: creating a tournament, withdrawing a player.

Views call these and only say what happened; the rules live here, beside the models.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from . import hooks
from .models import Registration, Tournament

#: The common lost-game fee schedule (DOMAIN, "Fees"): 0.50 for the 1st-3rd lost game,
#: 1.00 from the 4th. A new tournament starts with it; the director edits the table.
DEFAULT_LOST_GAME_FEES = ((1, "0.50"), (4, "1.00"))


def create_tournament(form, director) -> Tournament:
    """Save a valid TournamentForm as a new tournament directed by ``director``, with the
    common lost-game fee schedule to start from."""
    with transaction.atomic():
        tournament = form.save()
        tournament.directors.add(director)
        tournament.lost_game_fees.bulk_create(
            [
                tournament.lost_game_fees.model(tournament=tournament, from_lost_game=start, amount=amount)
                for start, amount in DEFAULT_LOST_GAME_FEES
            ]
        )
    return tournament


def withdraw(registration: Registration) -> int:
    """Withdraw the player after the last drawn series and answer its number; before the
    first draw he is removed from the tournament instead (answer 0).

    The series already drawn stay as they are; later series are drawn without him.
    """
    with transaction.atomic():
        drawn = registration.tournament.series.count()
        if drawn == 0:
            registration.delete()
        else:
            Registration.objects.filter(pk=registration.pk).update(withdrawn_after_series=drawn)
            registration.withdrawn_after_series = drawn
    return drawn


def played_changes_refused(tournament: Tournament, *, series_count: int, rounds_per_series: int) -> dict[str, str]:
    """{field: why} for the changes of a tournament that would orphan what is played:
    fewer series than are drawn, or other rounds per series once a deal is entered (the
    sheets count their deals by it: fewer would leave entered deals beyond a sheet's end,
    more would reopen complete and confirmed sheets, 5.5.3). Empty: the change is fine.
    The director's edit form and the admin ask here."""
    refused = {}
    drawn = tournament.series.count()
    if series_count < drawn:
        refused["series_count"] = _("%(n)s series are already drawn.") % {"n": drawn}
    if rounds_per_series != tournament.rounds_per_series and hooks.deals_entered(tournament):
        refused["rounds_per_series"] = _(
            "Deals are entered already: rounds per series stay at %(rounds)s, or entered deals would fall "
            "outside their sheets and confirmed sheets would change (5.5.3). Finish a series early instead."
        ) % {"rounds": tournament.rounds_per_series}
    return refused

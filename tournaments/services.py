"""The tournament's own rules as services: creating a tournament, withdrawing a player,
replacing table links.

Views call these and only say what happened; the rules live here, beside the models.
"""

from __future__ import annotations

from django.db import transaction

from .models import Registration, Table, Tournament, new_token

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


def reissue_links(tables: list[Table]) -> None:
    """Give each table new unguessable tokens, in one transaction: the sheet's link and
    its second list's (a leaked card shows both QR codes)."""
    with transaction.atomic():
        for table in tables:
            table.token = new_token()
            table.control_token = new_token()
            table.save(update_fields=["token", "control_token"])

"""Between series: a team's reserve takes a player's place, and a withdrawal undone.

A substitution withdraws the player after the last drawn series and registers the
reserve for the team from the next one (DOMAIN: substitutions happen between series;
leagues.lineups does the same for a match day's roster), so the next draw seats the new
line-up and keeps team-mates apart. Undoing a withdrawal lets the player play on: at once
when the next series is not drawn yet; seated as a late arrival when it is drawn and
his table can still change (draw.arrivals); refused once it is played without him.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.db import transaction

from skat.rules import RuleError, gettext_noop
from tournaments import door, services
from tournaments.models import Registration, Series, Tournament

from . import arrivals, seating


@dataclass
class Substitution:
    out: Registration
    reserve: Registration
    from_series: int
    refund: Decimal


def substitute(registration: Registration, reserve: services.Entry) -> Substitution:
    """The reserve ``reserve`` (a new registration of the same team) replaces the player of
    ``registration`` from the next series not drawn. Raises RuleError (nothing changed)
    before series 1 is drawn, when every series is drawn, for a player without a team or
    one who does not play the next series; IntegrityError when the reserve is registered
    meanwhile (the caller says so)."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=registration.tournament_id)
        registration = Registration.objects.select_related("player", "team").get(pk=registration.pk)
        drawn = tournament.series.count()
        following = drawn + 1
        name = registration.player.name
        if drawn == 0:
            raise RuleError(
                "player",
                gettext_noop("no series is drawn yet: change {player}'s team on the players page instead"),
                "3.1.2",
                player=name,
            )
        if following > tournament.series_count:
            raise RuleError(
                "player",
                gettext_noop("all {count} series are drawn: no substitution is left"),
                "3.1.2",
                count=tournament.series_count,
            )
        if registration.team_id is None:
            raise RuleError(
                "player",
                gettext_noop("{player} plays for no team: a reserve replaces a team's player"),
                "3.1.2",
                player=name,
            )
        if not Registration.objects.filter(pk=registration.pk).playing_in(following).exists():
            raise RuleError(
                "player",
                gettext_noop("{player} does not play series {series}"),
                "3.1.2",
                player=name,
                series=following,
            )
        Registration.objects.filter(pk=registration.pk).update(withdrawn_after_series=drawn)
        registration.withdrawn_after_series = drawn
        reserve.team = registration.team.name
        reserve.first_series = following
        reserve.present = door.checkin_started(tournament)
        added = services.register(tournament, reserve)
    return Substitution(registration, added, following, door.refund(tournament, registration))


@dataclass
class Return:
    """A withdrawal undone: playing again from ``from_series``; ``change`` when he was
    seated in a drawn series."""

    from_series: int
    change: seating.Change | None = None


def undo_withdrawal(registration: Registration) -> Return:
    """The player plays on after his withdrawal. Raises RuleError (nothing changed) when he
    has not withdrawn, or when the series after it is drawn and cannot seat him."""
    tournament = registration.tournament
    with transaction.atomic():
        Tournament.objects.select_for_update().filter(pk=tournament.pk).order_by().values_list("pk").get()
        registration = Registration.objects.select_related("player").get(pk=registration.pk)
        withdrawn = registration.withdrawn_after_series
        if withdrawn is None:
            raise RuleError(
                "player", gettext_noop("{player} has not withdrawn"), "3.1.2", player=registration.player.name
            )
        following = withdrawn + 1
        if following > tournament.series_count:
            raise RuleError(
                "player",
                gettext_noop("{player} withdrew after the last series: no series is left to play"),
                "3.1.2",
                player=registration.player.name,
            )
        series = tournament.series.filter(number=following).first()
        if series is None:
            fields = {"withdrawn_after_series": None}
            if door.checkin_started(tournament):
                fields["present"] = True
            Registration.objects.filter(pk=registration.pk).update(**fields)
            return Return(from_series=max(following, registration.first_series))
        if series.status == Series.Status.FINISHED or tournament.series.filter(number__gt=following).exists():
            raise RuleError(
                "player",
                gettext_noop("series {series} is played without {player}: he cannot play on"),
                "3.1.2",
                series=following,
                player=registration.player.name,
            )
        arrival = arrivals.late_arrival(series, registration)
        if arrival.change is None:
            # Seated in no series: his withdrawal stays as it was.
            raise arrival.reason
        return Return(from_series=following, change=arrival.change)


def leaving(tournament: Tournament) -> list[Registration]:
    """The players a reserve may replace: of a team, playing the next series not drawn."""
    following = tournament.series.count() + 1
    if following > tournament.series_count or following == 1:
        return []
    return list(
        Registration.objects.filter(tournament=tournament, team__isnull=False)
        .playing_in(following)
        .select_related("player", "team")
        .order_by("team__name", "player__sort_key", "pk")
    )

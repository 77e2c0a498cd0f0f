"""After the draw: a player who does not turn up, and one who arrives late.

A no-show is taken off his table before a deal is entered there; the tables are
rebalanced (3.2.7: three or four players at a table): a four becomes a three; a three
left with two takes a player from the nearest open four, or its two join the two nearest
open threes. A late arrival sits down at the open three where he meets the fewest he
met before, club-mates and team-mates (as the draw weighs them); with only open fours
left, two of them and he are drawn onto three threes. Once no table can take him he
plays from the next series. Every change says which tables it changed (for reprints).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from skat.draw import Entrant
from skat.rules import RuleError, gettext_noop
from tournaments.door import checkin_started
from tournaments.models import Registration, Seat, Series, Tournament

from . import seating


@dataclass
class Arrival:
    """What a late arrival got: seated in series ``change.series`` (``change`` set), or
    registered for the next series ``from_series`` (why not seated: ``reason``)."""

    change: seating.Change | None = None
    from_series: int | None = None
    reason: RuleError | None = None


def no_show(series: Series, registration: Registration) -> seating.Change:
    """Take the player off his table of ``series`` and rebalance; he withdraws after the
    series before it (and is no longer present). Raises RuleError and changes nothing
    when a deal is entered at a table it would change or the tables cannot be balanced."""
    tournament = registration.tournament
    with transaction.atomic():
        hall = seating.lock(tournament, series)
        if hall.series.status == Series.Status.FINISHED:
            raise RuleError("series", gettext_noop("series {series} is finished"), "3.1.2", series=series.number)
        player = registration.player_id
        number = hall.table_of(player)
        if number is None:
            raise RuleError(
                "player",
                gettext_noop("{player} has no seat in series {series}"),
                "3.1.1",
                player=registration.player.name,
                series=series.number,
            )
        seating.refuse_started(hall, [number])
        rest = [p for p in hall.seats[number] if p != player]
        plan = _rebalance_after_leaving(hall, number, rest)
        change = seating.write(hall, plan)
        registration.withdrawn_after_series = series.number - 1
        registration.present = False
        Registration.objects.filter(pk=registration.pk).update(
            withdrawn_after_series=registration.withdrawn_after_series, present=False
        )
    return change


def _rebalance_after_leaving(hall: seating.Hall, number: int, rest: list[int]) -> dict[int, list[int]]:
    if len(rest) >= 3:  # a four becomes a three
        return {number: rest}
    penalties = hall.penalties()
    fours = [n for n in hall.open if n != number and len(hall.seats[n]) == 4]
    if fours:
        # The player of a nearby open four who fits best joins the two left.
        best = None
        for distance, n in enumerate(seating.nearest(fours, number)):
            for p in hall.seats[n]:
                others = [q for q in hall.seats[n] if q != p]
                cost = (penalties.table([*rest, p]) + penalties.table(others), distance)
                if best is None or cost < best[0]:
                    best = (cost, n, p)
        _cost, n, p = best
        return {number: [*rest, p], n: [q for q in hall.seats[n] if q != p]}
    threes = seating.nearest([n for n in hall.open if n != number and len(hall.seats[n]) == 3], number)
    if len(threes) >= 2:
        # The two left join the two nearest open threes, which become fours.
        a, b = threes[:2]
        x, y = rest
        first = {number: [], a: [*hall.seats[a], x], b: [*hall.seats[b], y]}
        second = {number: [], a: [*hall.seats[a], y], b: [*hall.seats[b], x]}
        return min(first, second, key=lambda plan: sum(penalties.table(t) for t in plan.values()))
    raise RuleError(
        "player",
        gettext_noop(
            "table {table} would keep {left} players, and no table without deals can give one or take them "
            "(tables have 3 or 4 players); redraw the series or swap players instead"
        ),
        "3.2.7",
        table=number,
        left=len(rest),
    )


def arriving(tournament: Tournament, series: Series) -> list[Registration]:
    """Who may arrive late for ``series``: registered, not seated in it, and not withdrawn
    before it (a no-show of this series may still come)."""
    seated = Seat.objects.filter(series=series).values("player_id")
    return list(
        Registration.objects.filter(tournament=tournament)
        .exclude(player_id__in=seated)
        .exclude(withdrawn_after_series__lt=series.number - 1)
        .select_related("player__club")
        .order_by("player__sort_key", "player__name", "pk")
    )


def late_arrival(series: Series, registration: Registration) -> Arrival:
    """Seat a player who arrives after the draw, before a deal is entered at the table he
    joins; else he plays from the next series. Raises RuleError (nothing changed) when
    there is no next series either."""
    tournament = registration.tournament
    with transaction.atomic():
        hall = seating.lock(tournament, series)
        registration = Registration.objects.select_related("player").get(pk=registration.pk)
        _check_arriving(hall, registration)
        plan, reason = _seat(hall, registration)
        fields = {"withdrawn_after_series": None}
        if checkin_started(tournament):
            fields["present"] = True
        has_played = Seat.objects.filter(series__tournament=tournament, player_id=registration.player_id).exists()
        if plan is not None:
            change = seating.write(hall, plan)
            if not has_played or registration.first_series > series.number:
                fields["first_series"] = series.number
            Registration.objects.filter(pk=registration.pk).update(**fields)
            return Arrival(change=change)
        following = series.number + 1
        if following > tournament.series_count:
            raise RuleError(
                "player",
                gettext_noop("no table of series {series} can take him, and it is the last series"),
                "3.1.2",
                series=series.number,
            )
        if not has_played or registration.first_series > following:
            fields["first_series"] = following
        Registration.objects.filter(pk=registration.pk).update(**fields)
        return Arrival(from_series=following, reason=reason)


def _check_arriving(hall: seating.Hall, registration: Registration) -> None:
    series = hall.series
    if series.status == Series.Status.FINISHED:
        raise RuleError("series", gettext_noop("series {series} is finished"), "3.1.2", series=series.number)
    if hall.table_of(registration.player_id) is not None:
        raise RuleError(
            "player",
            gettext_noop("{player} is seated in series {series} already"),
            "3.1.1",
            player=registration.player.name,
            series=series.number,
        )
    withdrawn = registration.withdrawn_after_series
    if withdrawn is not None and withdrawn < series.number - 1:
        raise RuleError(
            "player",
            gettext_noop("{player} withdrew after series {withdrawn}; undo the withdrawal on the players page"),
            "3.1.2",
            player=registration.player.name,
            withdrawn=withdrawn,
        )


def _seat(hall: seating.Hall, registration: Registration) -> tuple[dict[int, list[int]] | None, RuleError | None]:
    """The plan that seats him, or None and why not."""
    player = registration.player_id
    hall.entrants[player] = Entrant(player, club=registration.player.club_id, team=registration.team_id)
    hall.names[player] = registration.player.name
    penalties = hall.penalties()
    threes = [n for n in hall.open if len(hall.seats[n]) == 3]
    if threes:
        # The fewest conflicts; on a tie the last table (a late entry has no standing).
        best = min(threes, key=lambda n: (penalties.against(player, hall.seats[n]), -n))
        return {best: [*hall.seats[best], player]}, None
    fours = sorted((n for n in hall.open if len(hall.seats[n]) == 4), reverse=True)
    if len(fours) >= 2:
        a, b = fours[:2]
        players = [*hall.seats[a], *hall.seats[b], player]
        split = seating.best_split(hall, players, [3, 3, 3])
        new_number = max(hall.tables) + 1
        return {a: split[0], b: split[1], new_number: split[2]}, None
    if not hall.open:
        why = gettext_noop("deals are entered at every table of series {series}")
    else:
        why = gettext_noop("no table of series {series} without deals can take a fifth player")
    return None, RuleError("player", why, "3.1.2", series=hall.series.number)

"""A hall publishing its match day again after correcting deals: the server takes the
changed deals as audited corrections (:mod:`referees.corrections`, before and after kept,
"re-published by <host>"), so hall and server agree. Only deals change this way: a file
seated otherwise (other tables, players or seats) is refused, the league manager corrects
that. A binding match day refuses every correction (5.5.3); a checked one loses its check.

The corrections are made in the host's name: an inactive account per host (``host-<id>``,
no password) that nobody logs in with, so each correction says which host made it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.auth import get_user_model

from games.models import Game
from referees.corrections import CORRECTABLE_FIELDS, add_game, correct_game, restore_game, void_game
from skat.rules import RuleError
from tournaments.models import Seat, Table

from .models import Host, MatchDay
from .refusals import PublicationRefused

#: (series, table, deal)
DealKey = tuple[int, int, int]


@dataclass
class Plan:
    """The deals the file changes: their new fields, by (series, table, deal)."""

    changed: dict[DealKey, dict[str, object]] = field(default_factory=dict)
    added: dict[DealKey, dict[str, object]] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.changed or self.added)


def _person(player) -> str:
    return player.membership_number or player.name.casefold()


def _seating(tournament) -> dict[tuple[int, int], list[tuple[int, str]]]:
    seating: dict[tuple[int, int], list[tuple[int, str]]] = {}
    for seat in Seat.objects.filter(series__tournament=tournament).select_related("table", "series", "player"):
        seating.setdefault((seat.series.number, seat.table.number), []).append((seat.number, _person(seat.player)))
    return {key: sorted(seats) for key, seats in seating.items()}


def _deals(tournament) -> dict[DealKey, dict[str, object]]:
    fields = (*CORRECTABLE_FIELDS, "voided")
    return {
        (row["table__series__number"], row["table__number"], row["number"]): {f: row[f] for f in fields}
        for row in Game.objects.filter(table__series__tournament=tournament).values(
            "table__series__number", "table__number", "number", *fields
        )
    }


def plan(match_day: MatchDay, imported) -> Plan:
    """What the imported file changes in the match day's stored deals; refused when it
    differs in anything but deals."""
    stored = match_day.tournament
    if _seating(stored) != _seating(imported):
        raise PublicationRefused(
            409,
            f"file: match day {match_day.number} is seated otherwise on the server; a new publication "
            "corrects deals only, the league manager corrects the rest",
        )
    before, after = _deals(stored), _deals(imported)
    missing = sorted(set(before) - set(after))
    if missing:
        series, table, deal = missing[0]
        raise PublicationRefused(
            409, f"file: series {series}, table {table}, deal {deal} is on the server but not in the file"
        )
    result = Plan()
    for key, fields in after.items():
        if key not in before:
            result.added[key] = fields
        elif fields != before[key]:
            result.changed[key] = fields
    return result


def host_user(host: Host):
    """The inactive account a host's corrections are recorded under."""
    user, created = get_user_model().objects.get_or_create(
        username=f"host-{host.pk}", defaults={"first_name": host.name[:150], "is_active": False}
    )
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def apply(match_day: MatchDay, changes: Plan, host: Host) -> list[str]:
    """Make the planned corrections (each audited); answers what changed, one line a deal."""
    user = host_user(host)
    reason = f"re-published by {host.name}"
    games = {
        (g.table.series.number, g.table.number, g.number): g
        for g in Game.objects.filter(table__series__tournament=match_day.tournament).select_related("table__series")
    }
    done = []
    try:
        for key, fields in sorted(changes.changed.items()):
            game = games[key]
            edits = {f: v for f, v in fields.items() if f != "voided" and getattr(game, f) != v}
            version = game.version
            if edits:
                version = correct_game(game.pk, expected_version=version, changes=edits, user=user, reason=reason)
                version = version.version_after
            if fields["voided"] != game.voided:
                undo = void_game if fields["voided"] else restore_game
                undo(game.pk, expected_version=version, user=user, reason=reason)
            done.append("series {}, table {}, deal {}".format(*key))
        tables = {
            (t.series.number, t.number): t
            for t in Table.objects.filter(series__tournament=match_day.tournament).select_related("series")
        }
        for (series, table, deal), fields in sorted(changes.added.items()):
            added = {f: v for f, v in fields.items() if f != "voided"}
            add_game(tables[series, table].pk, number=deal, fields=added, user=user, reason=reason)
            done.append(f"series {series}, table {table}, deal {deal} (added)")
    except RuleError as error:
        raise PublicationRefused(409, f"file: {error}") from None
    return done

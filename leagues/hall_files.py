"""What the league server checks in a hall's file before it counts, and what it takes from it.

A host publishes only to its own match days: without ``--matchday`` the match day is the
host's one whose teams the file's teams are, on the file's date (:func:`resolve`); a file
that is no match day of the host is refused, never stored stand-alone (nothing then shows
on the front page under a match day's name, and a later ``--matchday`` publication is not
"already stored"). The file must follow the league's rule (:func:`attach`): its series and
rounds per series, only the match day's teams, every player on the roster of the team he
plays for. The hall's line-up history comes with it: a player who left after a series and
a reserve of the same team who came in for the next are the match day's substitution.

A hall publishing its match day again after correcting deals: the server takes the
changed deals as audited corrections (:mod:`referees.corrections`, before and after kept,
"re-published by <host>"), so hall and server agree (:func:`plan`, :func:`apply`). Only
deals change this way: a file seated otherwise (other tables, players or seats) is
refused, the league manager corrects that. A binding match day refuses every correction
(5.5.3); a checked one loses its check. The corrections are made in the host's name: an
inactive account per host (``host-<id>``, no password) that nobody logs in with, so each
correction says which host made it.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _

from referees.corrections import CORRECTABLE_FIELDS, add_missing_game, correct_game, restore_game, void_game
from scoring.models import Game
from skat.rules import RuleError
from tournaments.models import Player, Registration, Seat, Table, Team

from .models import Host, LeagueEvent, MatchDay, RosterEntry, Substitution


class PublicationRefused(Exception):
    """A publication the server does not store: the HTTP status and a message naming the reason."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


#: Match days listed in a refusal that asks the host to name one.
LISTED = 5


def resolve(host: Host, tournament) -> MatchDay:
    """The host's match day the file is: its teams hold the file's teams, on its date."""
    found = {name.casefold() for name in tournament.teams.values_list("name", flat=True)}
    days = list(
        MatchDay.objects.filter(host=host)
        .select_related("group__league", "tournament")
        .prefetch_related("teams")
        .order_by("date", "number")
    )
    fitting = [day for day in days if found and found <= {team.name.casefold() for team in day.teams.all()}]
    dated = [day for day in fitting if day.date == tournament.date]
    chosen = dated or fitting
    if len(chosen) == 1:
        return (
            MatchDay.objects.select_for_update(of=("self",))
            .select_related("group__league", "tournament")
            .get(pk=chosen[0].pk)
        )
    listed = "; ".join(f"{day.pk} ({day}, {day.date:%Y-%m-%d})" for day in (chosen or days)[:LISTED])
    why = "several match days fit the file" if chosen else "no match day of this host has the file's teams"
    raise PublicationRefused(
        400,
        f"matchday: {why}; publish with --matchday ID"
        + (f", the host's match days: {listed}" if listed else ": the league manager sets up the match day first"),
    )


def attach(match_day: MatchDay, tournament) -> None:
    """Check the imported file against the league's rule, make it the match day's result
    and take the hall's substitutions; refused (nothing kept) when it breaks the rule."""
    league = match_day.group.league
    rule = (league.series_per_matchday, league.rounds_per_series)
    if (tournament.series_count, tournament.rounds_per_series) != rule:
        raise PublicationRefused(
            400,
            f"file, Tournament: {tournament.series_count} series of {tournament.rounds_per_series} rounds; "
            f"{league} plays {league.series_per_matchday} series of {league.rounds_per_series} rounds "
            "a match day (the league's rule)",
        )
    teams = {team.name: team for team in match_day.teams.all()}
    _spelled_as_the_league(match_day, tournament, teams)
    _rostered(tournament, teams)
    old = match_day.tournament
    match_day.tournament = tournament
    match_day.save(update_fields=["tournament"])
    if old is not None:
        old.delete()  # set up on the server, never played there: the hall's file replaces it
    tournament.directors.add(*league.managers.all())
    _substitutions(match_day, tournament, teams)


def _spelled_as_the_league(match_day: MatchDay, tournament, teams: dict) -> None:
    """The file's teams are the match day's whatever their case ("kiel" is Kiel): each takes
    the league's spelling, so the results count for the league's team. Two teams of the file
    that differ only in case would be one team twice: refused, as is a team not of the match day."""
    spelled = {name.casefold(): name for name in teams}
    found = sorted(tournament.teams.values_list("pk", "name"), key=lambda row: row[1])
    seen: dict[str, str] = {}
    for _pk, name in found:
        if name.casefold() in seen:
            raise PublicationRefused(
                400,
                f"file, Players, Team: {seen[name.casefold()]} and {name} differ only in case; "
                "a match day's team is written one way",
            )
        seen[name.casefold()] = name
    strangers = [name for _pk, name in found if name.casefold() not in spelled]
    if strangers:
        raise PublicationRefused(
            400, f"file, Players, Team: {strangers[0]} does not play match day {match_day.number} of {match_day.group}"
        )
    for pk, name in found:
        if spelled[name.casefold()] != name:
            Team.objects.filter(pk=pk).update(name=spelled[name.casefold()])


def _rostered(tournament, teams: dict) -> None:
    """Every player plays for a team of the match day whose roster holds him. A player the
    file brings without a membership number the server knows is the roster's player of his
    name: his registration and seats become that player's."""
    rosters: dict[str, dict[int, Player]] = defaultdict(dict)
    for entry in RosterEntry.objects.filter(team__in=teams.values()).select_related("player", "team"):
        rosters[entry.team.name][entry.player_id] = entry.player
    registrations = list(Registration.objects.filter(tournament=tournament).select_related("player", "team"))
    # Roster players already in the file: a second hall player of the same name is not him again.
    taken = {registration.player_id for registration in registrations}
    for registration in registrations:
        player = registration.player
        if registration.team_id is None:
            raise PublicationRefused(
                400, f"file, Players: {player.name} plays for no team; on a match day each plays for his team"
            )
        team = registration.team.name
        if player.pk in rosters[team]:
            continue
        twin = next((p for p in rosters[team].values() if p.name.casefold() == player.name.casefold()), None)
        numbers = {player.membership_number, twin.membership_number} - {""} if twin else set()
        other_number = len(numbers) > 1
        made_here = not Registration.objects.filter(player=player).exclude(tournament=tournament).exists()
        if twin is None or other_number or not made_here:
            raise PublicationRefused(
                400, f"file, Players: {player.name} is not on the roster of {team}; a team fields its own roster"
            )
        if twin.pk in taken:
            raise PublicationRefused(
                400, f"file, Players: {player.name} plays twice; {twin.name} of {team} is in the file already"
            )
        taken.add(twin.pk)
        Registration.objects.filter(pk=registration.pk).update(player=twin)
        Seat.objects.filter(series__tournament=tournament, player=player).update(player=twin)
        player.delete()  # made by this import only, now unused


def _substitutions(match_day: MatchDay, tournament, teams: dict) -> None:
    """The hall's substitutions: per team, who left after series n and who came in for n + 1."""
    registrations = list(
        Registration.objects.filter(tournament=tournament).select_related("player", "team").order_by("pk")
    )
    left = defaultdict(list)
    for r in registrations:
        if r.withdrawn_after_series is not None:
            left[r.team.name, r.withdrawn_after_series + 1].append(r.player)
    for r in registrations:
        if r.first_series > 1 and left[r.team.name, r.first_series]:
            out = left[r.team.name, r.first_series].pop(0)
            Substitution.objects.create(
                match_day=match_day,
                team=teams[r.team.name],
                before_series=r.first_series,
                player_out=out,
                player_in=r.player,
            )
            note = f"{r.team.name}, series {r.first_series}: {r.player.name} for {out.name} (hall)"
            LeagueEvent.objects.create(match_day=match_day, kind=LeagueEvent.Kind.SUBSTITUTION, note=note)


# A match day published again: its changed deals as corrections.

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
    """Who sits there, as hall and server both know him: the roster's player of the hall's
    name (the hall may not have typed his membership number)."""
    return player.name.casefold()


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


#: The user name of a host's account: ``host-<id>``.
HOST_USER = "host-{}"


def host_user(host: Host):
    """The inactive account a host's corrections are recorded under."""
    user, created = get_user_model().objects.get_or_create(
        username=HOST_USER.format(host.pk), defaults={"first_name": host.name[:150], "is_active": False}
    )
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def who(user) -> str:
    """Who did a step, as a person reads it: a user's name, or for a host's account
    (:func:`host_user`, never logged in with) the hall's upload and the host's name, not
    the internal ``host-1``. Empty for nobody."""
    if user is None:
        return ""
    name = user.get_username()
    prefix = HOST_USER.format("")
    if name.startswith(prefix) and name[len(prefix) :].isdigit() and not user.is_active:
        return _("the hall's upload (%(host)s)") % {"host": user.first_name or name}
    return name


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
            add_missing_game(tables[series, table].pk, number=deal, fields=added, user=user, reason=reason)
            done.append(f"series {series}, table {table}, deal {deal} (added)")
    except RuleError as error:
        raise PublicationRefused(409, f"file: {error}") from None
    return done

"""What the league server checks in a hall's file before it counts, and what it takes from it.

A host publishes only to its own match days: without ``--matchday`` the match day is the
host's one whose teams the file's teams are, on the file's date (:func:`resolve`); a file
that is no match day of the host is refused, never stored stand-alone (nothing then shows
on the front page under a match day's name, and a later ``--matchday`` publication is not
"already stored"). The file must follow the league's rule (:func:`attach`): its series and
rounds per series, only the match day's teams, every player on the roster of the team he
plays for. The hall's line-up history comes with it: a player who left after a series and
a reserve of the same team who came in for the next are the match day's substitution.
"""

from __future__ import annotations

from collections import defaultdict

from tournaments.models import Player, Registration, Seat

from .models import Host, LeagueEvent, MatchDay, RosterEntry, Substitution
from .refusals import PublicationRefused

#: Match days listed in a refusal that asks the host to name one.
LISTED = 5


def resolve(host: Host, tournament) -> MatchDay:
    """The host's match day the file is: its teams hold the file's teams, on its date."""
    found = set(tournament.teams.values_list("name", flat=True))
    days = list(
        MatchDay.objects.filter(host=host)
        .select_related("group__league", "tournament")
        .prefetch_related("teams")
        .order_by("date", "number")
    )
    fitting = [day for day in days if found and found <= {team.name for team in day.teams.all()}]
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
    strangers = sorted(set(tournament.teams.values_list("name", flat=True)) - set(teams))
    if strangers:
        raise PublicationRefused(
            400, f"file, Players, Team: {strangers[0]} does not play match day {match_day.number} of {match_day.group}"
        )
    _rostered(tournament, teams)
    old = match_day.tournament
    match_day.tournament = tournament
    match_day.save(update_fields=["tournament"])
    if old is not None:
        old.delete()  # set up on the server, never played there: the hall's file replaces it
    tournament.directors.add(*league.managers.all())
    _substitutions(match_day, tournament, teams)


def _rostered(tournament, teams: dict) -> None:
    """Every player plays for a team of the match day whose roster holds him. A player the
    file brings without a membership number the server knows is the roster's player of his
    name: his registration and seats become that player's."""
    rosters: dict[str, dict[int, Player]] = defaultdict(dict)
    for entry in RosterEntry.objects.filter(team__in=teams.values()).select_related("player", "team"):
        rosters[entry.team.name][entry.player_id] = entry.player
    registrations = Registration.objects.filter(tournament=tournament).select_related("player", "team")
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

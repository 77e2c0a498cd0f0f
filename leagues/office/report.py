"""The match report (Spielbericht) as the captains sign it: the result, every player's
score per series with his table and seat and membership number, the substitutions, the
seating plan, the players not on a roster, the captains' remarks and protests, and where
and when it was signed.

A player's score in a series is his extended Seeger-Fabian rating at his table
(:func:`standings.places.rated_seats`), the number the team's game points add up
(leagues.results). Remarks and signings are kept row by row (who typed them, when):
a binding match day's report is closed (5.5.3), as its results are.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.db import transaction

from leagues.checks import roster_warnings
from leagues.lineups import seating_of
from leagues.models import LeagueTeam, MatchDay
from leagues.results import MatchDayResult, match_day_result
from leagues.seasons.models import Forfeit
from skat.rules import RuleError, gettext_noop
from standings.places import rated_seats, stored_seat_totals
from tournaments.models import Registration, Seat, Table

from .models import ReportRemark, ReportSigning


@dataclass(frozen=True)
class SeatLine:
    """One player's series: where he sat and what he scored."""

    table: int
    seat: int
    player: str
    membership_number: str
    team: str
    score: int


@dataclass
class Report:
    match_day: MatchDay
    result: MatchDayResult
    #: Per series (1..n drawn): its seats, by table and seat.
    series: list[list[SeatLine]]
    #: Each player's total over the match day: (team, player, membership number, series played, total).
    players: list[tuple[str, str, str, int, int]]
    substitutions: list
    plan: list | None
    warnings: list[str]
    remarks: list[ReportRemark]
    signings: list[ReportSigning] = field(default_factory=list)
    #: The forfeits in force: (team, reason); the team gets neither league nor game points.
    forfeits: list[tuple[str, str]] = field(default_factory=list)

    @property
    def signing(self) -> ReportSigning | None:
        """The signing that counts: the last one recorded."""
        return self.signings[-1] if self.signings else None

    @property
    def teams(self) -> list[LeagueTeam]:
        return [place.result.team for place in self.result.table]


def seat_lines(match_day: MatchDay) -> list[list[SeatLine]]:
    """Every seat of the match day's series with its score (three queries)."""
    tournament_id = match_day.tournament_id
    if tournament_id is None:
        return []
    rows = (
        Seat.objects.filter(series__tournament=tournament_id)
        .order_by("series__number", "table__number", "number")
        .values_list(
            "table_id",
            "number",
            "player_id",
            "table__size",
            "series__number",
            "table__number",
            "player__name",
            "player__membership_number",
        )
    )
    team_of = dict(
        Registration.objects.filter(tournament=tournament_id, team__isnull=False)
        .order_by()
        .values_list("player_id", "team__name")
    )
    totals = stored_seat_totals(Table.objects.filter(series__tournament=tournament_id))
    series: dict[int, list[SeatLine]] = {}
    for seat, rating in rated_seats(list(rows), totals):
        _table_id, number, player, _size, series_number, table, name, membership = seat
        line = SeatLine(table, number, name, membership, team_of.get(player, ""), rating.rating)
        series.setdefault(series_number, []).append(line)
    return [series[n] for n in sorted(series)]


def player_totals(series: list[list[SeatLine]]) -> list[tuple[str, str, str, int, int]]:
    """Each player's series played and total score, by team and then best total."""
    found: dict[tuple[str, str, str], list[int]] = {}
    for lines in series:
        for line in lines:
            found.setdefault((line.team, line.player, line.membership_number), []).append(line.score)
    rows = [(team, player, number, len(scores), sum(scores)) for (team, player, number), scores in found.items()]
    return sorted(rows, key=lambda row: (row[0], -row[4], row[1]))


def match_report(match_day: MatchDay) -> Report:
    """Everything the match report shows, in a fixed number of queries."""
    series = seat_lines(match_day)
    return Report(
        match_day=match_day,
        result=match_day_result(match_day),
        series=series,
        players=player_totals(series),
        substitutions=list(
            match_day.substitutions.select_related("team", "player_in", "player_out").order_by("before_series", "pk")
        ),
        plan=seating_of(match_day),
        warnings=roster_warnings(match_day),
        remarks=list(match_day.report_remarks.select_related("team", "made_by")),
        signings=list(match_day.report_signings.select_related("made_by")),
        forfeits=list(
            Forfeit.objects.filter(match_day=match_day, withdrawn_at__isnull=True)
            .order_by("team__name")
            .values_list("team__name", "reason")
        ),
    )


def _open(match_day: MatchDay) -> MatchDay:
    match_day = MatchDay.objects.select_for_update().get(pk=match_day.pk)
    if match_day.binding:
        raise RuleError(
            "match_day",
            gettext_noop("match day {number} is binding: its report is closed (5.5.3)"),
            "league",
            number=match_day.number,
        )
    return match_day


def add_remark(match_day: MatchDay, *, team: LeagueTeam | None, kind: str, text: str, user) -> ReportRemark:
    """A captain's remark or protest on the report (the host's when ``team`` is None)."""
    text = (text or "").strip()
    if not text:
        raise RuleError("text", gettext_noop("write the remark or protest"), "league")
    with transaction.atomic():
        match_day = _open(match_day)
        if team is not None and not match_day.teams.filter(pk=team.pk).exists():
            raise RuleError("team", gettext_noop("{team} does not play this match day"), "league", team=team.name)
        return ReportRemark.objects.create(match_day=match_day, team=team, kind=kind, text=text[:1000], made_by=user)


def sign(match_day: MatchDay, *, place: str, signed_at: datetime.datetime, user) -> ReportSigning:
    """Where and when the captains signed; a later signing is recorded beside the earlier."""
    place = " ".join((place or "").split())
    if not place:
        raise RuleError("place", gettext_noop("say where the report was signed"), "league")
    with transaction.atomic():
        match_day = _open(match_day)
        return ReportSigning.objects.create(match_day=match_day, place=place, signed_at=signed_at, made_by=user)

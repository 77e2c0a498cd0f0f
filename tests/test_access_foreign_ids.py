"""Another tournament's, league's or ranking's ids, swapped into every form and URL that takes one.

The access matrix (tests/test_access_matrix.py) asks who may open a page. This file asks
what a page does with an id that belongs to someone else: for every row of the matrix the
world's director may use, each object id in the URL and in the posted data is replaced by
the id of the like object of the other director's tournament, league or ranking (and by
one that exists nowhere), and so is each query parameter of a page that names an object.
The answer never names the foreign object (its player, team, league or ranking), never
crashes, and changes nothing.

A row whose URL or data carries an id this file does not know how to swap fails
its test: decide what a foreign one is, add it below.
"""

from __future__ import annotations

import datetime
import re
from types import SimpleNamespace

import pytest
from django.test import Client
from django.urls import reverse

from referees.models import Dispute, RefereeAssignment
from tests import factories
from tests.test_access_matrix import MATRIX, OK, REDIRECT, ROLES, Row, expected, help_site, snapshot, world
from tournaments.models import Registration, Seat, Series, Table

pytestmark = pytest.mark.django_db

__all__ = ["help_site", "world"]  # the matrix's fixtures, used here by name

#: Names only the other director's objects carry: none may appear on the world director's pages.
FOREIGN_NAMES = ["Xaver Fremdling", "Xenia Fremdling", "Xaver Geheim", "Xenia Geheim", "Fremde Asse", "Geheimliga"]
NOWHERE = 987654

#: URL keywords that name the scope the matrix already checks (another director's: 403/404).
SCOPES = {"tournament_id", "ranking_id", "league_id", "match_day_id"}


def foreign_world(w: SimpleNamespace) -> SimpleNamespace:
    """The other director's unpublished tournament with a played table, a dispute and a
    referee; his ranking with a decision; his league with a team, a match day, a host, a
    publication, a deduction and a forfeit."""
    from leagues.lineups import create_match_day
    from leagues.models import LeagueTeam, MatchDay, Publication
    from leagues.publication import new_host
    from leagues.seasons import services as season_services
    from rankings.models import Ranking
    from rankings.people import decide
    from rankings.services import add_tournament

    boss = w.users["other_director"]
    registrations = [
        Registration.objects.create(tournament=w.other, player=factories.player(name, club="SC Geheim"))
        for name in FOREIGN_NAMES[:4]
    ]
    series = Series.objects.create(tournament=w.other, number=1)
    table = Table.objects.create(series=series, number=1, size=4)
    for number, registration in enumerate(registrations, start=1):
        Seat.objects.create(table=table, series=series, number=number, player=registration.player)
    game = factories.game(table, 1, declarer_seat=2, contract="grand", tops=1, declarer_points=75)
    Series.objects.filter(pk=series.pk).update(status=Series.Status.RUNNING)
    dispute = Dispute.objects.create(table=table, description="Xaver Geheim revoked?", raised_by="Xenia")
    ranking = Ranking.objects.create(name="Geheimliga Cup", season="2027")
    ranking.directors.add(boss)
    entry = add_tournament(ranking, w.other, boss).entry
    decision = decide(ranking, registrations[0].player, registrations[1].player, boss, "two people", same=False)
    league, group, teams = factories.league_group(teams=2, roster=5, managers=[boss], name="Geheimliga")
    LeagueTeam.objects.filter(pk=teams[0].pk).update(name="Fremde Asse")
    day = create_match_day(group, number=1, date=datetime.date(2026, 9, 5), teams=teams)
    host, _token = new_host(league, "SV Geheim")
    MatchDay.objects.filter(pk=day.pk).update(host=host)
    publication = Publication.objects.create(host=host, digest="1" * 64, match_day=day, tournament=day.tournament)
    return SimpleNamespace(
        player=registrations[0].player_id,
        registration=registrations[0].pk,
        table=table.pk,
        game=game.pk,
        dispute=dispute.pk,
        assignment=RefereeAssignment.objects.get(tournament=w.other).pk,
        entry=entry.pk,
        decision=decision.pk,
        group=group.pk,
        team=teams[0].pk,
        roster_player=teams[0].roster.get(position=1).player_id,
        host=host.pk,
        publication=publication.pk,
        deduction=season_services.deduct(teams[0], 1, "late", user=boss).pk,
        forfeit=season_services.forfeit(day, teams[1], "absent", user=boss).pk,
        match_day=day.pk,
        tournament=w.other.pk,
        user=boss.pk,
    )


#: URL keyword -> the foreign object of its kind.
KWARGS = {
    "player_id": "player",
    "registration_id": "registration",
    "table_id": "table",
    "game_id": "game",
    "dispute_id": "dispute",
    "assignment_id": "assignment",
    "entry_id": "entry",
    "decision_id": "decision",
    "group_id": "group",
    "team_id": "team",
    "host_id": "host",
    "publication_id": "publication",
    "deduction_id": "deduction",
    "forfeit_id": "forfeit",
    "user_id": "user",
}
#: Posted field (digits in its name as <n>) -> the foreign object of its kind.
FIELDS = {
    "player": "player",
    "other": "player",
    "first": "player",
    "second": "player",
    "table": "table",
    "registration": "registration",
    "sub-out": "registration",
    "tournament": "tournament",
    "team": "team",
    "match_day": "match_day",
    "player_out": "roster_player",
    "player_in": "roster_player",
    "lineup-<n>-team": "team",
    "lineup-<n>-players": "roster_player",
    "group-<n>-teams": "team",
    "captain": "roster_player",
}
#: Query parameters that name an object (``?group=`` on the league's pages, ``?dispute=`` on
#: the referees'): swapped on every row of those URL namespaces.
QUERY = {"leagues:": "group", "seasons:": "group", "public:season": "group", "referees:": "dispute"}

#: Posted fields whose digits are numbers, not ids.
NUMBERS = {
    "number",
    "version",
    "declarer_seat",
    "tops",
    "declarer_points",
    "season",
    "series_count",
    "rounds_per_series",
    "series_per_matchday",
    "binding_days",
    "points",
    "pace",
    "force",
    "value",
    "minimum",
    "penalty",
    "individual_best",
    "individual_minimum",
    "same",
    "group-<n>-number",
    "level-<n>",
    "promotion-<n>",
    "relegation-<n>",
    "forfeit_fine",
    "prize_pool_percent",
    "list_fee",
    "sent",
    "received",
    "p<n>",
    "first_series",
    "start",
    "series",
    "seat",
    "pin",
    "deal",
    "active",
    "max",
    "start_number",
    "right",  # the office administrator's page only (no director uses it)
}


def field_kind(key: str) -> str:
    key = re.sub(r"\d+", "<n>", key)
    if re.fullmatch(r"[a-z]+-(<n>-)?[A-Z_]+|points-<n>-\w+|fees-<n>-\w+|roster-<n>-\w+", key):
        return "formset"
    return key


def is_digits(value) -> bool:
    values = value if isinstance(value, list) else [value]
    return bool(values) and all(isinstance(v, int) or (isinstance(v, str) and v.isdigit()) for v in values)


def director_rows(method: str) -> list[Row]:
    return [
        row
        for row in MATRIX
        if (profile := row.get if method == "get" else row.post) and expected(profile, "director") in {OK, REDIRECT}
    ]


def id_fields(row: Row, w) -> tuple[list[str], list[str]]:
    """The URL keywords and posted fields of ``row`` that carry an object id."""
    token = ROLES["director"].token(w)
    kwargs = [k for k in row.kwargs(w, token) if k.endswith("_id") and k not in SCOPES]
    data = row.data(w) if row.post else {}
    fields = [k for k, v in data.items() if is_digits(v) and field_kind(k) not in NUMBERS | {"formset"}]
    return kwargs, fields


def swapped_requests(row: Row, w, f: SimpleNamespace):
    """(method, url, data) for each id of the row replaced by a foreign one and by one of nowhere."""
    token = ROLES["director"].token(w)
    kwargs = row.kwargs(w, token)
    data = row.data(w) if row.post else None
    methods = [m for m in ("get", "post") if (row.get if m == "get" else row.post)]
    id_kwargs, id_data = id_fields(row, w)
    for key in id_kwargs:
        for value in (getattr(f, KWARGS[key]), NOWHERE):
            url = reverse(row.name, kwargs=kwargs | {key: value})
            for method in methods:
                yield method, url, data if method == "post" else None
    url = reverse(row.name, kwargs=kwargs)
    for prefix, parameter in QUERY.items():
        if row.name.startswith(prefix) and "get" in methods:  # a page's choice; a POST's is its form's
            for value in (getattr(f, parameter), NOWHERE):
                yield "get", f"{url}?{parameter}={value}", None
    for key in id_data:
        foreign = getattr(f, FIELDS[field_kind(key)])
        for value in (foreign, NOWHERE):
            yield "post", url, data | {key: [str(value)] if isinstance(data[key], list) else str(value)}


ROWS = list({(r.name, id(r)): r for r in director_rows("get") + director_rows("post")}.values())


@pytest.mark.parametrize("row", ROWS, ids=[f"{i:02d}-{r.name}" for i, r in enumerate(ROWS)])
def test_a_foreign_id_is_refused_without_naming_it(row: Row, world):
    row.prepare(world)
    kwargs, fields = id_fields(row, world)
    # A row whose URL or form carries an id this file cannot swap: say what its foreign twin is above.
    assert [k for k in kwargs if k not in KWARGS] + [k for k in fields if field_kind(k) not in FIELDS] == []
    if not kwargs and not fields and not (row.get and any(row.name.startswith(prefix) for prefix in QUERY)):
        pytest.skip("no object id in this row's URL or form")
    foreign = foreign_world(world)
    client = Client()
    client.force_login(world.users["director"])
    for method, url, data in swapped_requests(row, world, foreign):
        before = snapshot()
        response = getattr(client, method)(url, data, follow=True)
        assert response.status_code < 500, (method, url, data)
        body = response.content.decode(errors="replace")
        assert [name for name in FOREIGN_NAMES if name in body] == [], (method, url, data)
        assert snapshot() == before, f"{method} {url} {data} changed the database"

"""Who may open and post what: every URL of the project, role by role.

The matrix is the spec of access control. ``test_every_named_url_is_in_the_matrix``
walks the root URL resolver and fails for any named URL without a row, so a URL added
later breaks this test until someone decides who may use it.

Adding a URL: one ``Row`` in ``MATRIX``: the URL name, a kwargs builder
``(world, token) -> dict`` (``token`` is the table link the role holds, see ``Role``),
and the expectation per method: a profile such as ``STAFF`` (a dict role ->
expectation), or a profile with overrides (``STAFF | {"other_director": OK}``). For a
URL that writes, give ``post=`` and ``data=`` (valid data, so that a missing permission
check would really write), and ``prepare=`` if the world needs a state first.

Adding a role: one line in ``ROLES``: a client factory ``(world) -> Client``, the table
token the role holds (or None: it guesses one), and ``like=``: the existing role whose
expectation it shares wherever a profile does not name it.

Expectations: ``OK`` (GET 200; POST 200/302, and writes when the row writes), ``LOGIN``
(302 to a login page), ``REDIRECT`` (302 elsewhere), ``OWN_TABLE`` (the link works but only
on the role's own table: table 1 unchanged and never shown), or an exact status (403, 404,
405, 410). Every refused request changes nothing (a snapshot of all the project's rows
before and after), and no GET ever writes.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from referees.models import Dispute, RefereeAssignment
from scoring.models import Game
from signoff.models import PinFailure, SignOff
from signoff.pins import seat_pin
from tests import factories
from tournaments.models import Registration, Seat, Series, Table
from tournaments.player_links import player_token

pytestmark = pytest.mark.django_db

OK = "ok"
LOGIN = "login"
REDIRECT = "redirect"
OWN_TABLE = "own table"
FORBIDDEN = 403
NOT_FOUND = 404
NOT_ALLOWED = 405
GONE = 410

# Namespaces that belong to Django itself: checked below with a basic expectation
# (anonymous users are sent to the admin login), not row by row.
DJANGO_OWN_NAMESPACES = {"admin"}
#: Every app of the office's own (its folder in the project, nested ones such as
#: leagues/seasons too): their rows are the snapshot's.
PROJECT_APPS = {
    config.label
    for config in apps.get_app_configs()
    if Path(config.path) == Path(settings.BASE_DIR, *config.name.split("."))
}

TABLE_1_NAMES = ["Amalia Oneworth", "Adrian Oneworth", "Agnes Oneworth", "Anton Oneworth"]
TABLE_2_NAMES = ["Berta Twofield", "Bruno Twofield", "Britta Twofield"]


# --- the world: one tournament, one series, table 1 of four and table 2 of three -----------------


@pytest.fixture
def world() -> SimpleNamespace:
    add = Permission.objects.get(codename="add_tournament")
    director = factories.user("director")
    director.user_permissions.add(add)
    other_director = factories.user("other_director")
    other_director.user_permissions.add(add)
    superuser = factories.user("root", superuser=True)
    # One round per series: table 1 (four players) plays 4 deals, table 2 plays 3.
    t = factories.tournament(directors=[director], series_count=2, standings_public=False, rounds_per_series=1)
    other = factories.tournament(directors=[other_director], name="Other Open")
    referee = factories.user("referee")
    RefereeAssignment.objects.create(tournament=t, user=referee)
    referee_other = factories.user("referee_other")
    RefereeAssignment.objects.create(tournament=other, user=referee_other)
    factories.user("spare")
    registrations = [
        Registration.objects.create(tournament=t, player=factories.player(name))
        for name in TABLE_1_NAMES + TABLE_2_NAMES
    ]
    series = Series.objects.create(tournament=t, number=1)
    table1 = Table.objects.create(series=series, number=1, size=4)
    table2 = Table.objects.create(series=series, number=2, size=3)
    for index, registration in enumerate(registrations):
        table, number = (table1, index + 1) if index < 4 else (table2, index - 3)
        Seat.objects.create(table=table, series=series, number=number, player=registration.player)
    return SimpleNamespace(
        t=t,
        other=other,
        series=series,
        table1=table1,
        table2=table2,
        registrations=registrations,
        users={
            "director": director,
            "other_director": other_director,
            "superuser": superuser,
            "referee": referee,
            "referee_other": referee_other,
        },
    )


@pytest.fixture(autouse=True)
def help_site(tmp_path, settings) -> None:
    """A tiny built help site where the settings name it (DOCS_ROOT), so /help/ answers."""
    (tmp_path / "docs-site").mkdir()
    (tmp_path / "docs-site" / "index.html").write_text("<html><body>Help</body></html>")
    settings.DOCS_ROOT = tmp_path / "docs-site"


# --- roles ------------------------------------------------------------------------------------


def anonymous(world) -> Client:
    return Client()


def logged_in(key: str) -> Callable[[SimpleNamespace], Client]:
    def factory(world) -> Client:
        client = Client()
        client.force_login(world.users[key])
        return client

    return factory


@dataclass(frozen=True)
class Role:
    client: Callable[[SimpleNamespace], Client]
    #: The table link the role holds (None: it has none and can only guess one).
    token: Callable[[SimpleNamespace], str] | None = None
    #: The role whose expectation this one shares wherever a profile does not name it.
    like: str | None = None


ROLES: dict[str, Role] = {
    "anonymous": Role(anonymous),
    "scorekeeper_1": Role(anonymous, token=lambda w: w.table1.token),
    # Table 2's scorekeeper only knows table 2's link: "table 1's URLs" are his own.
    "scorekeeper_2": Role(anonymous, token=lambda w: w.table2.token),
    "other_director": Role(logged_in("other_director")),
    "director": Role(logged_in("director"), token=lambda w: w.table1.token),
    "superuser": Role(logged_in("superuser"), token=lambda w: w.table1.token),
    # From the referees' app: a player confirming table 1's sheet with his PIN, a referee
    # of this tournament and one of another tournament.
    "player_pin": Role(anonymous, token=lambda w: w.table1.token, like="scorekeeper_1"),
    "referee": Role(logged_in("referee"), like="other_director"),
    "referee_other": Role(logged_in("referee_other"), like="other_director"),
}


def expected(profile: dict[str, Any], role: str) -> Any:
    while role not in profile:
        role = ROLES[role].like
        assert role is not None, "a new role needs like= or an entry in every profile"
    return profile[role]


# --- profiles ---------------------------------------------------------------------------------

EVERYONE = dict.fromkeys(
    ["anonymous", "scorekeeper_1", "scorekeeper_2", "other_director", "director", "superuser"], OK
)
STAFF = {
    "anonymous": LOGIN,
    "scorekeeper_1": LOGIN,
    "scorekeeper_2": LOGIN,
    "other_director": FORBIDDEN,
    "director": OK,
    "superuser": OK,
}
# Public pages of a tournament whose standings are not published.
UNPUBLISHED = STAFF | {"anonymous": NOT_FOUND, "scorekeeper_1": NOT_FOUND, "scorekeeper_2": NOT_FOUND}
UNPUBLISHED |= {"other_director": NOT_FOUND}
TABLE_LINK = {
    "anonymous": NOT_FOUND,
    "scorekeeper_1": OK,
    "scorekeeper_2": OWN_TABLE,
    "other_director": NOT_FOUND,
    "director": OK,
    "superuser": OK,
}
POST_ONLY = dict.fromkeys(EVERYONE, NOT_ALLOWED)
# The referees' pages: the tournament's referees, its directors and superusers.
REFEREE = STAFF | {"referee": OK}
LOGGED_IN = STAFF | {"other_director": OK, "referee": OK}
# Entry through a link of a finished series: the sheet is closed (tablelink/links.py).
TABLE_LINK_CLOSED = TABLE_LINK | dict.fromkeys(["scorekeeper_1", "scorekeeper_2", "director", "superuser"], GONE)


# --- rows -------------------------------------------------------------------------------------


def tournament(w, token):
    return {"tournament_id": w.t.pk}


def series(w, token):
    return {"tournament_id": w.t.pk, "number": 1}


def player(w, token):
    return {"tournament_id": w.t.pk, "player_id": w.registrations[0].player_id}


def own_page(w, token):
    return {"token": player_token(w.registrations[0])}


def guessed_page(w, token):
    return {"token": f"{w.registrations[0].pk}-{'a' * 24}"}


def start_numbers(w) -> None:
    for number, registration in enumerate(w.registrations, start=1):
        Registration.objects.filter(pk=registration.pk).update(start_number=number)


def lookup_data(w) -> dict:
    return {"start_number": "1", "surname": "Oneworth"}


def upload(name: str, content: bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, content)


# Deal 1 of table 1 on paper: seat 1 deals and sits out, Adrian (seat 2) plays.
SHEET_OF_TABLE_1 = b"Nr;Alleinspieler;Spiel;Spitzen;Augen;Reizwert\n1;Adrian Oneworth;Kreuz;1;70;24\n"


def table_link(w, token):
    return {"token": token}


def game_data(**changes) -> Callable[[SimpleNamespace], dict]:
    def build(w) -> dict:
        data = {"number": "1", "client_id": str(uuid.uuid4()), "declarer_seat": "2", "contract": "grand"}
        data |= {"tops_kind": "with", "tops": "1", "declarer_points": "75"}
        return data | changes

    return build


def hall_report(w) -> dict:
    """What a phone measured before play (dashboard.hall.parse_report)."""
    return {"sent": "20", "received": "20", "p50": "40", "p95": "90", "max": "120"}


def tournament_data(w) -> dict:
    return {
        "name": "Renamed Open",
        "date": "2026-11-23",
        "series_count": "2",
        "rounds_per_series": "12",
        "entry_fee": "10.00",
        "list_fee": "0",
        "prize_pool_percent": "100",
    }


def tournament_and_fees(w) -> dict:
    fees = {"fees-TOTAL_FORMS": "1", "fees-INITIAL_FORMS": "0", "fees-MIN_NUM_FORMS": "0"}
    fees |= {"fees-MAX_NUM_FORMS": "1000", "fees-0-from_lost_game": "1", "fees-0-amount": "0.50"}
    return tournament_data(w) | fees


def games_at_both_tables(w) -> None:
    for table in (w.table1, w.table2):
        factories.game(table, 1, declarer_seat=2, contract="grand", tops=1, declarer_points=75)
    Series.objects.filter(pk=w.series.pk).update(status=Series.Status.RUNNING)


def series_finished(w) -> None:
    Series.objects.filter(pk=w.series.pk).update(status=Series.Status.FINISHED)


def table_1_complete(w) -> None:
    """Every deal of table 1 entered (4 at four; the dealer sits out, 3.2.7): ready to sign."""
    for number in range(1, 5):
        factories.game(w.table1, number, declarer_seat=number % 4 + 1, contract="grand", tops=1, declarer_points=75)
    Series.objects.filter(pk=w.series.pk).update(status=Series.Status.RUNNING)


def table_1_lists_differ(w) -> None:
    """Table 1 complete, its second list differing at deal 1: nobody confirms yet."""
    table_1_complete(w)
    factories.control_entry(w.table1, 1, declarer_seat=3, contract="grand", tops=1, declarer_points=75)


def table_1_pin_locked(w) -> None:
    table_1_complete(w)
    for _ in range(5):
        PinFailure.objects.create(table=w.table1, seat_number=1)


def table_1_confirmed(w) -> None:
    table_1_complete(w)
    SignOff.objects.create(table=w.table1, fingerprint="x", confirmed_by="test")


def a_dispute(w) -> None:
    games_at_both_tables(w)
    w.dispute = Dispute.objects.create(table=w.table1, description="Revoke in deal 1?", raised_by="Amalia")


def referee_game_data(w) -> dict:
    data = game_data(version="1", declarer_points="80")(w)
    return data | {"irregularity": "", "reason": "Recounted the tricks"}


def published(w) -> None:
    type(w.t).objects.filter(pk=w.t.pk).update(standings_public=True)


def a_league(w) -> None:
    """A league the director manages: one group of two teams (rosters of five), match day 1 set up."""
    import datetime

    from leagues.lineups import create_match_day

    w.league, w.group, w.teams = factories.league_group(
        teams=2, roster=5, managers=[w.users["director"]], series_per_matchday=2, rounds_per_series=1
    )
    w.match_day = create_match_day(w.group, number=1, date=datetime.date(2026, 9, 5), teams=w.teams)


def a_ranking(w, *, add: bool = True) -> None:
    """A ranking the director directs; the world's tournament in it (its players seated)."""
    from rankings.models import Ranking
    from rankings.services import add_tournament

    w.ranking = Ranking.objects.create(name="Jahreswertung", season="2027")
    w.ranking.directors.add(w.users["director"])
    if add:
        w.entry = add_tournament(w.ranking, w.t, w.users["director"]).entry


def an_empty_ranking(w) -> None:
    a_ranking(w, add=False)


def a_ranking_published(w) -> None:
    a_ranking(w)
    type(w.ranking).objects.filter(pk=w.ranking.pk).update(public=True)


def a_ranking_with_a_decision(w) -> None:
    from rankings.people import decide

    a_ranking(w)
    first, second = (r.player for r in w.registrations[:2])
    w.decision = decide(w.ranking, first, second, w.users["director"], "two people", same=False)


def ranking(w, token):
    return {"ranking_id": w.ranking.pk}


def ranking_data(w) -> dict:
    data = {"name": "Cup Nord", "season": "2027", "counts": "rating", "unit": "tournament", "aggregate": "sum"}
    data |= {"minimum": "0", "penalty": "0", "points-TOTAL_FORMS": "1", "points-INITIAL_FORMS": "0"}
    return data | {
        "points-MIN_NUM_FORMS": "0",
        "points-MAX_NUM_FORMS": "500",
        "points-0-place": "1",
        "points-0-points": "9",
    }


def tournament_file(w) -> dict:
    import io

    from transfer.exports.writers import league_xlsx

    out = io.BytesIO()
    league_xlsx(w.t, out)
    return {"file": upload("evening.xlsx", out.getvalue())}


def keep_apart(w) -> dict:
    first, second = (r.player_id for r in w.registrations[:2])
    return {"player": str(first), "other": str(second), "same": "0", "reason": "two people"}


def a_league_published(w) -> None:
    a_league(w)
    type(w.league).objects.filter(pk=w.league.pk).update(published=True)


def a_league_in_series_1(w) -> None:
    """Match day 1 lined up, series 1 drawn and played: a substitution and a check are possible."""
    from draw.series import draw_series
    from leagues.lineups import set_line_up

    a_league(w)
    for team in w.teams:
        set_line_up(w.match_day, team, [e.player for e in team.roster.filter(position__lte=4)])
    factories.play_series(draw_series(w.match_day.tournament))


def a_league_with_a_publication(w) -> None:
    """Match day 1 played and stored as its host's publication: the manager may remove it."""
    from leagues.models import MatchDay, Publication
    from leagues.publication import new_host

    a_league_in_series_1(w)
    w.host, _token = new_host(w.league, "SC Kreuz")
    MatchDay.objects.filter(pk=w.match_day.pk).update(host=w.host)
    w.publication = Publication.objects.create(
        host=w.host, digest="0" * 64, match_day=w.match_day, tournament=w.match_day.tournament
    )


def league(w, token):
    return {"league_id": w.league.pk}


def match_day(w, token):
    return {"match_day_id": w.match_day.pk}


def line_up_data(w) -> dict:
    team = w.teams[0]
    players = [str(e.player_id) for e in team.roster.filter(position__lte=4)]
    return {f"lineup-{team.pk}-team": str(team.pk), f"lineup-{team.pk}-players": players}


def substitution_data(w) -> dict:
    roster = {e.position: e.player_id for e in w.teams[0].roster.all()}
    return {"team": str(w.teams[0].pk), "player_out": str(roster[1]), "player_in": str(roster[5])}


def a_league_with_a_host(w) -> None:
    from leagues.publication import new_host

    a_league(w)
    w.host, _token = new_host(w.league, "SC Kreuz")


def a_league_with_a_hosted_match_day(w) -> None:
    """Match day 1 hosted by SC Kreuz: its package exists."""
    from leagues.models import MatchDay

    a_league_with_a_host(w)
    MatchDay.objects.filter(pk=w.match_day.pk).update(host=w.host)


def match_day_package_file(w) -> dict:
    """The package of the world's match day as another league (a new key): importing it writes."""
    import json

    from leagues.packages.export import host_match_days, package

    data = package(w.host, host_match_days(w.host))
    data["league"]["name"] = "Importliga"
    data["match_days"][0]["key"] = uuid.uuid4().hex
    return {"file": upload("package.json", json.dumps(data).encode())}


def a_league_with_a_co_manager(w) -> None:
    """The spare user manages the league too (and so directs its match day)."""
    from leagues.setup import add_manager

    a_league(w)
    w.spare = get_user_model().objects.get(username="spare")
    add_manager(w.league, w.spare)


def league_data(w) -> dict:
    return {
        "name": "Landesliga",
        "season": "2027",
        "tie": "split",
        "tie_break": "lot",
        "series_per_matchday": "3",
        "rounds_per_series": "12",
        "binding_days": "14",
    }


def season_rules_data(w) -> dict:
    data = {"forfeit_fine": "25", "individual_best": "0", "individual_minimum": "0", "individual_tie": "shared"}
    return data | {f"level-{w.group.pk}": "1", f"promotion-{w.group.pk}": "1", f"relegation-{w.group.pk}": "0"}


def a_league_with_a_deduction_and_a_forfeit(w) -> None:
    from leagues.seasons import services

    a_league(w)
    w.deduction = services.deduct(w.teams[0], 1, "late report", user=w.users["director"])
    w.forfeit = services.forfeit(w.match_day, w.teams[1], "did not come", user=w.users["director"])


def a_league_finished(w) -> None:
    """Match day 1 played and checked: the season may roll over."""
    from leagues.checks import check

    a_league_in_series_1(w)
    check(w.match_day, user=w.users["director"])


def team_data(w) -> dict:
    data = {"name": "Team A", "club": "Club A", "captain": "2"}
    data |= {f"roster-{k}_NUM_FORMS": "8" for k in ("MIN", "MAX")} | {"roster-TOTAL_FORMS": "8"}
    data["roster-INITIAL_FORMS"] = "8"
    for index in range(8):
        data |= {f"roster-{index}-name": f"A{index + 1}" if index < 6 else "", f"roster-{index}-club": ""}
    return data


def finished_with_games(w) -> None:
    games_at_both_tables(w)
    series_finished(w)


def late_comer(w) -> None:
    """A registered player without a seat in series 1, to seat late."""
    w.late = Registration.objects.create(tournament=w.t, player=factories.player("Lena Latecomer"))


def spare_directs(w) -> None:
    """The spare user directs the tournament too: the world's director may take him out."""
    w.spare = get_user_model().objects.get(username="spare")
    w.t.directors.add(w.spare)


def in_a_team(w) -> None:
    """Table 1's first player plays for a team: a reserve may replace him."""
    team = w.t.teams.create(name="Kreuz Bube")
    Registration.objects.filter(pk=w.registrations[0].pk).update(team=team)


def shared_person(w) -> None:
    """Table 1's first player plays in the other director's tournament too: a person shared by
    two tournaments, whose name, club and number only who runs both (or an administrator) changes."""
    w.shared = Registration.objects.create(tournament=w.other, player=w.registrations[0].player)


@dataclass(frozen=True)
class Row:
    name: str
    kwargs: Callable[[SimpleNamespace, str], dict] = lambda w, token: {}
    get: dict[str, Any] | None = None  # None: GET is not allowed (405 for everyone)
    post: dict[str, Any] | None = None  # None: the view does not write; a POST must change nothing
    data: Callable[[SimpleNamespace], dict] = lambda w: {}
    prepare: Callable[[SimpleNamespace], None] = lambda w: None
    writes: bool = True  # an allowed POST changes the database

    def __str__(self) -> str:
        return self.name


MATRIX: list[Row] = [
    # Django's own pages outside the admin.
    Row("login", get=EVERYONE, post=EVERYONE, data=lambda w: {"username": "x", "password": "y"}, writes=False),
    Row("logout", get=POST_ONLY, post=dict.fromkeys(EVERYONE, REDIRECT), writes=False),
    Row(
        "set_language",
        get=dict.fromkeys(EVERYONE, REDIRECT),
        post=dict.fromkeys(EVERYONE, REDIRECT),
        data=lambda w: {"language": "de", "next": "/"},
        writes=False,
    ),
    # The language switch as a link (config/language.py): a cookie for anyone, no form.
    Row("language", lambda w, token: {"code": "de"}, get=dict.fromkeys(EVERYONE, REDIRECT), writes=False),
    # The sign-offs' admin address before they moved to signoff: a permanent redirect for
    # everyone (the admin it leads to asks for a staff login).
    Row(
        "moved_admin_signoff",
        lambda w, token: {"app": "scoring", "model": "signoff", "rest": ""},
        get=dict.fromkeys(EVERYONE, 301),
        post=dict.fromkeys(EVERYONE, 301),
        writes=False,
    ),
    # The health check (config/health.py): public, for a monitor; it writes nothing.
    Row("healthz", get=EVERYONE),
    # The help pages (the built docs, config/help.py): everyone may read them.
    Row("help", lambda w, token: {"path": ""}, get=EVERYONE),
    # The director's pages.
    Row("director:home", get=EVERYONE),
    Row(
        "director:create",
        # Directors hold the add_tournament permission; a referee does not.
        get=STAFF | {"other_director": OK, "referee": FORBIDDEN, "referee_other": FORBIDDEN},
        post=STAFF | {"other_director": OK, "referee": FORBIDDEN, "referee_other": FORBIDDEN},
        data=tournament_data,
    ),
    Row("director:detail", tournament, get=STAFF),
    Row("director:progress", tournament, get=STAFF),
    # The hall check's map, refreshed on the dashboard during set-up (dashboard/hall.py).
    Row("director:hall", tournament, get=STAFF),
    Row("director:edit", tournament, get=STAFF, post=STAFF, data=tournament_and_fees),
    Row(
        "director:players",
        tournament,
        get=STAFF,
        post=STAFF,
        data=lambda w: {"name": "Late Comer", "first_series": "2"},
    ),
    Row(
        "director:withdraw",
        lambda w, token: {"tournament_id": w.t.pk, "registration_id": w.registrations[0].pk},
        post=STAFF,
    ),
    Row("director:draw", tournament, post=STAFF, data=lambda w: {"method": "random"}, prepare=series_finished),
    Row("director:series", series, get=STAFF),
    Row("director:table", lambda w, token: series(w, token) | {"table_number": 1}, get=STAFF),
    Row(
        "director:swap",
        series,
        post=STAFF,
        data=lambda w: {"first": w.registrations[0].player_id, "second": w.registrations[4].player_id},
    ),
    Row(
        "director:move",
        series,
        post=STAFF,
        data=lambda w: {"player": w.registrations[0].player_id, "table": w.table2.pk},
    ),
    Row("director:finish", series, post=STAFF, data=lambda w: {"force": "1"}),
    # A practice tournament's rehearsal (rehearsal/views.py): the world's tournament is a real
    # one, so its directors too are only told why not (a redirect) and nothing starts.
    Row("director:rehearsal_start", tournament, post=STAFF, data=lambda w: {"pace": "5"}, writes=False),
    Row("director:rehearsal_stop", tournament, post=STAFF, writes=False),
    # The standings only show results: the tournament's referees may read them too.
    Row("director:standings", tournament, get=REFEREE),
    # The door (tournaments/door_views.py, views.py): check-in, cash desk, corrections.
    Row("director:desk", tournament, get=STAFF),
    Row("director:desk_add", tournament, post=STAFF, data=lambda w: {"walkin-name": "Wanda Walkin"}),
    Row(
        "director:desk_toggle",
        lambda w, token: {"tournament_id": w.t.pk, "registration_id": w.registrations[0].pk, "flag": "paid"},
        post=STAFF,
        data=lambda w: {"value": "1"},
    ),
    Row(
        "director:player_edit",
        lambda w, token: {"tournament_id": w.t.pk, "registration_id": w.registrations[0].pk},
        get=STAFF,
        post=STAFF,
        data=lambda w: {"name": "Amalia Oneworth-Neu", "club": "", "membership_number": "", "team": ""},
    ),
    # The same player, renamed from the other tournament he plays in: its director runs
    # only that one, so he may open the form but not rename the person (422, nothing changed).
    Row(
        "director:player_edit",
        lambda w, token: {"tournament_id": w.other.pk, "registration_id": w.shared.pk},
        get=STAFF | {"director": FORBIDDEN, "other_director": OK, "referee": FORBIDDEN, "referee_other": FORBIDDEN},
        post=STAFF | {"director": FORBIDDEN, "other_director": 422, "referee": FORBIDDEN, "referee_other": FORBIDDEN},
        data=lambda w: {"name": "Renamed By Other", "club": "", "membership_number": "", "team": ""},
        prepare=shared_person,
    ),
    Row("director:category_add", tournament, post=STAFF, data=lambda w: {"name": "Damen"}),
    Row("director:delete", tournament, get=STAFF, post=STAFF, data=lambda w: {"confirm": "yes"}),
    # The directors (tournaments/director_views.py): named by user name, taken out (never the last).
    Row("director:directors", tournament, get=STAFF, post=STAFF, data=lambda w: {"username": "spare"}),
    Row(
        "director:director_remove",
        lambda w, token: tournament(w, token) | {"user_id": w.spare.pk},
        post=STAFF,
        prepare=spare_directs,
    ),
    Row("director:start_list_pdf", tournament, get=STAFF),
    Row("director:start_cards_pdf", tournament, get=STAFF),
    Row("director:reissue_link", lambda w, token: series(w, token) | {"table_number": 1}, post=STAFF),
    Row("director:reissue_links", series, post=STAFF),
    # After the draw (draw/views.py).
    Row("director:no_show", series, post=STAFF, data=lambda w: {"player": TABLE_1_NAMES[0]}),
    Row(
        "director:late_arrival",
        series,
        post=STAFF,
        prepare=late_comer,
        data=lambda w: {"registration": w.late.pk},
    ),
    Row("director:redraw", series, post=STAFF, data=lambda w: {"confirm": "on"}),
    Row(
        "director:substitute",
        tournament,
        get=STAFF,
        post=STAFF,
        prepare=in_a_team,
        data=lambda w: {"sub-out": w.registrations[0].pk, "sub-name": "Rita Reserve"},
    ),
    Row(
        "director:undo_withdrawal",
        lambda w, token: {"tournament_id": w.t.pk, "registration_id": w.registrations[0].pk},
        post=STAFF,
        prepare=lambda w: Registration.objects.filter(pk=w.registrations[0].pk).update(withdrawn_after_series=1),
    ),
    # Public pages (this tournament's standings are not published).
    Row("public:standings", tournament, get=UNPUBLISHED),
    Row("public:live", tournament, get=UNPUBLISHED),
    Row("public:standings", tournament, get=EVERYONE, prepare=published),
    Row("public:live", tournament, get=EVERYONE, prepare=published),
    # The standings' full list: the CSV also for the tournament's referees (they read the standings).
    Row("public:standings_csv", tournament, get=UNPUBLISHED | {"referee": OK}),
    Row("public:standings_csv", tournament, get=EVERYONE, prepare=published),
    Row("public:standings_pdf", tournament, get=UNPUBLISHED),
    Row("public:standings_pdf", tournament, get=EVERYONE, prepare=published),
    # The player's own page: whoever holds its private link (his start card's QR); a guessed
    # one is a 404. The lookup by start number and surname is open to everybody (throttled).
    Row("player:page", own_page, get=EVERYONE),
    Row("player:page", guessed_page, get=dict.fromkeys(EVERYONE, NOT_FOUND)),
    Row(
        "player:lookup", tournament, get=EVERYONE, post=EVERYONE, data=lookup_data, prepare=start_numbers, writes=False
    ),
    # The scorekeepers' table links.
    Row("table:sheet", table_link, get=TABLE_LINK, post=TABLE_LINK, data=game_data()),
    Row("table:preview", table_link, post=TABLE_LINK, data=game_data(), writes=False),
    Row(
        "table:correct",
        table_link,
        get=TABLE_LINK,
        post=TABLE_LINK,
        data=game_data(version="1", declarer_points="80"),
        prepare=games_at_both_tables,
    ),
    Row("table:qr", table_link, get=TABLE_LINK),
    # The connection check before play (tablelink/hall_views.py): a round trip, and its report.
    Row("table:ping", table_link, get=TABLE_LINK),
    Row("table:hall_check", table_link, post=TABLE_LINK, data=hall_report),
    # The table links' service worker: the same script for everyone, no token in it.
    Row("table:worker", get=EVERYONE, post=dict.fromkeys(EVERYONE, NOT_ALLOWED), writes=False),
    # The same links once the series is finished: the sheet reads, entry is gone.
    Row(
        "table:sheet",
        table_link,
        get=TABLE_LINK,
        post=TABLE_LINK_CLOSED,
        data=game_data(number="2"),
        prepare=finished_with_games,
    ),
    Row("table:preview", table_link, post=TABLE_LINK_CLOSED, data=game_data(), prepare=finished_with_games),
    Row(
        "table:correct",
        table_link,
        get=TABLE_LINK_CLOSED,
        post=TABLE_LINK_CLOSED,
        data=game_data(version="1", declarer_points="80"),
        prepare=finished_with_games,
    ),
    Row("table:qr", table_link, get=TABLE_LINK, prepare=finished_with_games),
    Row("table:ping", table_link, get=TABLE_LINK_CLOSED, prepare=finished_with_games),
    Row("table:hall_check", table_link, post=TABLE_LINK_CLOSED, data=hall_report, prepare=finished_with_games),
    # Printed documents (printing/views.py).
    Row("director:series_sheets_pdf", series, get=STAFF),
    Row("director:series_cards_pdf", series, get=STAFF),
    Row("director:series_pin_slips_pdf", series, get=STAFF),
    Row("director:series_settlement_pdf", series, get=STAFF),
    Row("director:table_sheet_pdf", lambda w, token: series(w, token) | {"table": 1}, get=STAFF),
    Row("director:table_settlement_pdf", lambda w, token: series(w, token) | {"table": 1}, get=STAFF),
    Row("director:standings_pdf", tournament, get=STAFF),
    Row("director:fee_account", tournament, get=STAFF),
    Row("director:prizes_pdf", tournament, get=STAFF),
    Row("director:certificates_pdf", tournament, get=STAFF),
    # The table link's sign-off and disputes (referees/table_urls.py).
    Row(
        "table:confirm",
        table_link,
        post=TABLE_LINK,
        data=lambda w: {"seat": "2", "pin": seat_pin(w.table1, 2)},
        prepare=table_1_complete,
    ),
    Row(
        "table:dispute",
        table_link,
        get=TABLE_LINK,
        post=TABLE_LINK,
        data=lambda w: {"deal": "", "description": "A card was exposed", "name": "Amalia"},
    ),
    # Results as data (transfer/views.py).
    Row("director:export", tournament, get=STAFF),
    Row("director:export_xlsx", tournament, get=STAFF),
    Row("director:export_csv", lambda w, token: tournament(w, token) | {"sheet": "results"}, get=STAFF),
    Row(
        "director:players_import",
        tournament,
        post=STAFF,
        data=lambda w: {"file": upload("players.csv", b"name,club,membership_number\nNina Neu,Club X,M-77\n")},
    ),
    Row(
        "director:sheet_import",
        lambda w, token: series(w, token) | {"table": 1},
        post=STAFF,
        data=lambda w: {"file": upload("sheet.csv", SHEET_OF_TABLE_1)},
    ),
    # The office grid (dashboard/grid_views.py): a table's paper list typed at the desk.
    Row(
        "director:grid",
        lambda w, token: series(w, token) | {"table": 1},
        get=REFEREE,
        post=REFEREE,
        data=lambda w: {"line-1": "2k1 70", "start": "1"},
    ),
    Row(
        "director:grid_preview",
        lambda w, token: series(w, token) | {"table": 1},
        post=REFEREE,
        data=lambda w: {"line-1": "2k1 70", "deal": "1"},
        writes=False,
    ),
    Row("director:statistics", tournament, get=STAFF),
    Row("director:player_statistics", player, get=STAFF),
    Row("public:statistics", tournament, get=UNPUBLISHED),
    Row("public:player_statistics", player, get=UNPUBLISHED),
    Row("public:statistics", tournament, get=EVERYONE, prepare=published),
    Row("public:player_statistics", player, get=EVERYONE, prepare=published),
    # The referees' pages (referees/urls.py).
    Row("referees:mine", get=LOGGED_IN),
    Row("referees:board", tournament, get=REFEREE),
    Row("referees:corrections_csv", tournament, get=REFEREE),
    Row("referees:assign", tournament, get=STAFF, post=STAFF, data=lambda w: {"username": "spare"}),
    Row(
        "referees:unassign",
        lambda w, token: (
            tournament(w, token)
            | {"assignment_id": RefereeAssignment.objects.get(tournament=w.t, user=w.users["referee"]).pk}
        ),
        post=STAFF,
    ),
    Row(
        "referees:dispute_new",
        tournament,
        get=REFEREE,
        post=REFEREE,
        data=lambda w: {
            "series": w.table1.series.number,
            "table": w.table1.number,
            "deal": "",
            "description": "A claim at table 1",
        },
    ),
    Row(
        "referees:dispute",
        lambda w, token: tournament(w, token) | {"dispute_id": w.dispute.pk},
        get=REFEREE,
        prepare=a_dispute,
    ),
    Row(
        "referees:decide",
        lambda w, token: tournament(w, token) | {"dispute_id": w.dispute.pk},
        post=REFEREE,
        data=lambda w: {"paragraph": "3.2.7", "effect": "stands", "decision": "As played."},
        prepare=a_dispute,
    ),
    Row(
        "referees:withdraw",
        lambda w, token: tournament(w, token) | {"dispute_id": w.dispute.pk},
        post=REFEREE,
        data=lambda w: {"note": "Settled at the table"},
        prepare=a_dispute,
    ),
    Row("referees:table", lambda w, token: tournament(w, token) | {"table_id": w.table1.pk}, get=REFEREE),
    Row(
        "referees:table_paper",
        lambda w, token: tournament(w, token) | {"table_id": w.table1.pk},
        post=REFEREE,
        data=lambda w: {"signed": "on"},
        prepare=table_1_complete,
    ),
    Row(
        "referees:table_accept",
        lambda w, token: tournament(w, token) | {"table_id": w.table1.pk},
        post=REFEREE,
        data=lambda w: {"reason": "Seat 1's list counts"},
        prepare=table_1_lists_differ,
    ),
    Row(
        "referees:table_unlock",
        lambda w, token: tournament(w, token) | {"table_id": w.table1.pk},
        post=REFEREE,
        data=lambda w: {"seat": "1"},
        prepare=table_1_pin_locked,
    ),
    Row(
        "referees:table_reopen",
        lambda w, token: tournament(w, token) | {"table_id": w.table1.pk},
        post=REFEREE,
        data=lambda w: {"reason": "Deal 4 was disputed"},
        prepare=table_1_confirmed,
    ),
    Row(
        "referees:table_add_deal",
        lambda w, token: tournament(w, token) | {"table_id": w.table1.pk},
        get=REFEREE,
        post=REFEREE,
        # Deal 2 (dealt by seat 2) after the series was finished with deal 1 only.
        data=lambda w: game_data(number="2", declarer_seat="3")(w) | {"irregularity": "", "reason": "Forgotten"},
        prepare=finished_with_games,
    ),
    Row(
        "referees:correct",
        lambda w, token: tournament(w, token) | {"game_id": w.table1.games.get(number=1).pk},
        get=REFEREE,
        post=REFEREE,
        data=referee_game_data,
        prepare=games_at_both_tables,
    ),
    # Rankings over many tournaments (rankings/urls.py: their directors; public: published ones).
    Row("rankings:list", get=LOGGED_IN),
    Row(
        "rankings:new",
        get=STAFF | {"other_director": OK, "referee": FORBIDDEN, "referee_other": FORBIDDEN},
        post=STAFF | {"other_director": OK, "referee": FORBIDDEN, "referee_other": FORBIDDEN},
        data=ranking_data,
    ),
    Row("rankings:ranking", ranking, get=STAFF, prepare=a_ranking),
    Row("rankings:tournaments", ranking, get=STAFF, prepare=a_ranking),
    Row("rankings:rules", ranking, get=STAFF, post=STAFF, data=ranking_data, prepare=a_ranking),
    Row("rankings:add", ranking, post=STAFF, data=lambda w: {"tournament": str(w.t.pk)}, prepare=an_empty_ranking),
    Row("rankings:import", ranking, post=STAFF, data=tournament_file, prepare=an_empty_ranking),
    Row(
        "rankings:remove", lambda w, token: ranking(w, token) | {"entry_id": w.entry.pk}, post=STAFF, prepare=a_ranking
    ),
    Row("rankings:refresh", ranking, post=STAFF, prepare=a_ranking),
    Row(
        "rankings:player",
        lambda w, token: ranking(w, token) | {"player_id": w.registrations[0].player_id},
        get=STAFF,
        prepare=a_ranking,
    ),
    Row("rankings:people", ranking, get=STAFF, prepare=a_ranking),
    Row("rankings:decide", ranking, post=STAFF, data=keep_apart, prepare=a_ranking),
    Row(
        "rankings:undo",
        lambda w, token: ranking(w, token) | {"decision_id": w.decision.pk},
        post=STAFF,
        prepare=a_ranking_with_a_decision,
    ),
    Row("rankings:file", lambda w, token: ranking(w, token) | {"kind": "pdf"}, get=STAFF, prepare=a_ranking),
    Row("public:rankings", get=EVERYONE, prepare=a_ranking_published),
    Row("public:ranking", ranking, get=UNPUBLISHED, prepare=a_ranking),
    Row(
        "public:ranking_player",
        lambda w, token: ranking(w, token) | {"player_id": w.registrations[0].player_id},
        get=UNPUBLISHED,
        prepare=a_ranking,
    ),
    Row(
        "public:ranking_file",
        lambda w, token: ranking(w, token) | {"kind": "pdf"},
        get=EVERYONE,
        prepare=a_ranking_published,
    ),
    # The leagues (leagues/urls.py: the managers; leagues/public_urls.py: published leagues).
    Row("leagues:league", league, get=STAFF, prepare=a_league),
    Row("leagues:season", league, get=STAFF, prepare=a_league),
    Row("leagues:season_pdf", league, get=STAFF, prepare=a_league),
    Row("leagues:season_xlsx", league, get=STAFF, prepare=a_league),
    Row(
        "leagues:season_csv", lambda w, token: league(w, token) | {"sheet": "match-days"}, get=STAFF, prepare=a_league
    ),
    Row(
        "leagues:match_day_new",
        lambda w, token: league(w, token) | {"group_id": w.group.pk},
        post=STAFF,
        data=lambda w: {
            f"group-{w.group.pk}-number": "2",
            f"group-{w.group.pk}-date": "2026-10-03",
            f"group-{w.group.pk}-teams": [str(t.pk) for t in w.teams],
        },
        prepare=a_league,
    ),
    Row("leagues:match_day", match_day, get=STAFF, prepare=a_league),
    Row(
        "leagues:line_up",
        lambda w, token: match_day(w, token) | {"team_id": w.teams[0].pk},
        post=STAFF,
        data=line_up_data,
        prepare=a_league,
    ),
    Row("leagues:substitute", match_day, post=STAFF, data=substitution_data, prepare=a_league_in_series_1),
    Row("leagues:check", match_day, post=STAFF, data=lambda w: {"note": "ok"}, prepare=a_league_in_series_1),
    Row("leagues:binding", match_day, post=STAFF, prepare=a_league_in_series_1, writes=False),
    # The league office (leagues/office/urls.py): the match report (the league's managers) and
    # the rights page (the office's administrator only: the world's director is refused).
    Row("leagueoffice:report", match_day, get=STAFF, prepare=a_league),
    Row("leagueoffice:report_pdf", match_day, get=STAFF, prepare=a_league),
    Row(
        "leagueoffice:remark",
        match_day,
        post=STAFF,
        data=lambda w: {"kind": "protest", "text": "Table 1, deal 2"},
        prepare=a_league,
    ),
    Row(
        "leagueoffice:signing",
        match_day,
        post=STAFF,
        data=lambda w: {"place": "Kiel", "signed_at": "2026-09-05T18:30"},
        prepare=a_league,
    ),
    Row(
        "leagueoffice:rights",
        get=STAFF | {"director": FORBIDDEN},
        post=STAFF | {"director": FORBIDDEN},
        data=lambda w: {"username": "spare", "right": str(w.league.pk)},
        prepare=a_league,
    ),
    Row(
        "leagueoffice:revoke",
        lambda w, token: {"user_id": w.spare.pk},
        post=STAFF | {"director": FORBIDDEN},
        data=lambda w: {"right": str(w.league.pk)},
        prepare=a_league_with_a_co_manager,
    ),
    Row(
        "leagues:remove_publication",
        lambda w, token: match_day(w, token) | {"publication_id": w.publication.pk},
        post=STAFF,
        data=lambda w: {"reason": "the wrong file"},
        prepare=a_league_with_a_publication,
    ),
    # Setting up a league: a new one needs the permission (the world's director lacks it).
    Row(
        "leagues:league_new",
        get=STAFF | {"director": FORBIDDEN},
        post=STAFF | {"director": FORBIDDEN},
        data=league_data,
        prepare=a_league,
    ),
    Row("leagues:settings", league, get=STAFF, post=STAFF, data=league_data, prepare=a_league),
    Row("leagues:group_new", league, post=STAFF, data=lambda w: {"group-name": "Staffel 2"}, prepare=a_league),
    Row(
        "leagues:group_edit",
        lambda w, token: league(w, token) | {"group_id": w.group.pk},
        get=STAFF,
        post=STAFF,
        data=lambda w: {"name": "Staffel Nord"},
        prepare=a_league,
    ),
    Row(
        "leagues:team_new",
        lambda w, token: league(w, token) | {"group_id": w.group.pk},
        post=STAFF,
        data=lambda w: {f"team-{w.group.pk}-name": "Team C", f"team-{w.group.pk}-club": ""},
        prepare=a_league,
    ),
    Row(
        "leagues:team_edit",
        lambda w, token: league(w, token) | {"team_id": w.teams[0].pk},
        get=STAFF,
        post=STAFF,
        data=team_data,
        prepare=a_league,
    ),
    Row("leagues:managers", league, get=STAFF, post=STAFF, data=lambda w: {"username": "spare"}, prepare=a_league),
    Row(
        "leagues:manager_remove",
        lambda w, token: league(w, token) | {"user_id": w.spare.pk},
        post=STAFF,
        prepare=a_league_with_a_co_manager,
    ),
    Row("leagues:hosts", league, get=STAFF, prepare=a_league),
    Row("leagues:host_new", league, post=STAFF, data=lambda w: {"name": "SV Herz"}, prepare=a_league),
    Row(
        "leagues:renew_host_token",
        lambda w, token: league(w, token) | {"host_id": w.host.pk},
        post=STAFF,
        prepare=a_league_with_a_host,
    ),
    Row(
        "leagues:host_active",
        lambda w, token: league(w, token) | {"host_id": w.host.pk},
        post=STAFF,
        data=lambda w: {"active": "0"},
        prepare=a_league_with_a_host,
    ),
    Row("leagues:publish", post=dict.fromkeys(EVERYONE, 401), prepare=a_league),
    # The end of a season (leagues/seasons/urls.py): the managers'; the individual ranking also public.
    Row("seasons:end", league, get=STAFF, prepare=a_league),
    Row("seasons:rules", league, post=STAFF, data=season_rules_data, prepare=a_league),
    Row(
        "seasons:deduction_new",
        league,
        post=STAFF,
        data=lambda w: {"team": str(w.teams[0].pk), "points": "1.5", "reason": "late report"},
        prepare=a_league,
    ),
    Row(
        "seasons:deduction_withdraw",
        lambda w, token: league(w, token) | {"deduction_id": w.deduction.pk},
        post=STAFF,
        data=lambda w: {"reason": "report was on time"},
        prepare=a_league_with_a_deduction_and_a_forfeit,
    ),
    Row(
        "seasons:forfeit_new",
        league,
        post=STAFF,
        data=lambda w: {"match_day": str(w.match_day.pk), "team": str(w.teams[0].pk), "reason": "did not come"},
        prepare=a_league,
    ),
    Row(
        "seasons:forfeit_withdraw",
        lambda w, token: league(w, token) | {"forfeit_id": w.forfeit.pk},
        post=STAFF,
        data=lambda w: {"reason": "they came late"},
        prepare=a_league_with_a_deduction_and_a_forfeit,
    ),
    Row("seasons:rollover", league, post=STAFF, data=lambda w: {"season": "2027"}, prepare=a_league_finished),
    Row("seasons:players", league, get=STAFF, prepare=a_league_in_series_1),
    Row("seasons:cross", league, get=STAFF, prepare=a_league_in_series_1),
    Row("public:league_cross", league, get=UNPUBLISHED, prepare=a_league),
    Row("public:league_cross", league, get=EVERYONE, prepare=a_league_published),
    Row("seasons:players_file", lambda w, token: league(w, token) | {"kind": "csv"}, get=STAFF, prepare=a_league),
    Row("public:league_players", league, get=UNPUBLISHED, prepare=a_league),
    Row("public:league_players", league, get=EVERYONE, prepare=a_league_published),
    Row(
        "public:league_players_file",
        lambda w, token: league(w, token) | {"kind": "pdf"},
        get=UNPUBLISHED,
        prepare=a_league,
    ),
    Row(
        "public:league_players_file",
        lambda w, token: league(w, token) | {"kind": "xlsx"},
        get=EVERYONE,
        prepare=a_league_published,
    ),
    # The match-day package (leagues/packages/urls.py): the host's token, the managers' download, the
    # hall's import (for whoever manages a league or may set one up; a new league needs that
    # permission: the superuser's, the director manages the world's league only).
    Row("packages:api_package", get=dict.fromkeys(EVERYONE, 401), prepare=a_league_with_a_hosted_match_day),
    Row("packages:match_day_package", match_day, get=STAFF, prepare=a_league_with_a_hosted_match_day),
    Row(
        "packages:import",
        get=STAFF,
        post=STAFF | {"director": 422},
        data=match_day_package_file,
        prepare=a_league_with_a_hosted_match_day,
    ),
    Row("public:season", league, get=UNPUBLISHED, prepare=a_league),
    Row("public:season_pdf", league, get=UNPUBLISHED, prepare=a_league),
    Row("public:season", league, get=EVERYONE, prepare=a_league_published),
    Row("public:season_pdf", league, get=EVERYONE, prepare=a_league_published),
    Row(
        "public:match_day",
        lambda w, token: league(w, token) | {"match_day_id": w.match_day.pk},
        get=UNPUBLISHED,
        prepare=a_league,
    ),
    Row(
        "public:team",
        lambda w, token: league(w, token) | {"team_id": w.teams[0].pk},
        get=UNPUBLISHED,
        prepare=a_league,
    ),
    Row(
        "public:team",
        lambda w, token: league(w, token) | {"team_id": w.teams[0].pk},
        get=EVERYONE,
        prepare=a_league_published,
    ),
    Row(
        "referees:void",
        lambda w, token: tournament(w, token) | {"game_id": w.table1.games.get(number=1).pk},
        post=REFEREE,
        data=lambda w: {"version": "1", "reason": "Misdeal found afterwards"},
        prepare=games_at_both_tables,
    ),
    Row(
        "referees:preview",
        lambda w, token: tournament(w, token) | {"game_id": w.table1.games.get(number=1).pk},
        post=REFEREE,
        data=referee_game_data,
        prepare=games_at_both_tables,
        writes=False,
    ),
]


# --- checks -----------------------------------------------------------------------------------


def snapshot_queries() -> list[tuple[str, str]]:
    """(label, SQL) reading every row of the project's tables in key order, and the users' rights.

    Plain SQL on one cursor: the ORM's compiling of some fifty querysets four times a test
    was two thirds of the matrix's time (the same rows, read through the same connection)."""
    quote = connection.ops.quote_name
    queries = [
        (model._meta.label, f"SELECT * FROM {quote(model._meta.db_table)} ORDER BY {quote(model._meta.pk.column)}")
        for model in apps.get_models(include_auto_created=True)
        if model._meta.app_label in PROJECT_APPS
    ]
    users = get_user_model()._meta
    queries.append(
        (
            "users",
            f"SELECT username, password, is_staff, is_superuser FROM {quote(users.db_table)}"
            f" ORDER BY {quote(users.pk.column)}",
        )
    )
    return queries


def snapshot() -> dict[str, list]:
    """Every row of the project's tables (who directs and manages what included), and the users' rights."""
    with connection.cursor() as cursor:
        state = {}
        for label, sql in snapshot_queries():
            cursor.execute(sql)
            state[label] = cursor.fetchall()
    return state


def table_1_state(w) -> tuple:
    return (
        list(Game.objects.filter(table=w.table1).order_by("pk").values_list()),
        list(Table.objects.filter(pk=w.table1.pk).values_list()),
        list(Seat.objects.filter(table=w.table1).order_by("pk").values_list()),
    )


def is_login_redirect(response) -> bool:
    if response.status_code != 302:
        return False
    target = response.url.split("?")[0]
    return target in {reverse("login"), reverse("admin:login")}


def check(response, expectation, method: str, w, before: dict, table1_before: tuple, row: Row) -> None:
    status = response.status_code
    after = snapshot()
    if expectation == OK:
        allowed = {200} if method == "get" else {200, 302}
        assert status in allowed and not is_login_redirect(response), status
        if method == "post" and row.writes:
            assert after != before, "the allowed POST wrote nothing: is the row's data valid?"
    elif expectation == OWN_TABLE:
        assert status in {200, 302}, status
        assert not is_login_redirect(response)
        body = response.content.decode(errors="replace")
        assert w.table1.token not in body
        assert not [name for name in TABLE_1_NAMES if name in body]
        assert table_1_state(w) == table1_before, "another table's link changed table 1"
    elif expectation == LOGIN:
        assert is_login_redirect(response), (status, response.get("Location"))
    elif expectation == REDIRECT:
        assert status == 302 and not is_login_redirect(response), status
    else:
        assert status == expectation
    if method == "get" or expectation not in {OK, OWN_TABLE}:
        assert after == before, "a GET or a refused request changed the database"


@pytest.mark.parametrize("role", list(ROLES))
@pytest.mark.parametrize("row", MATRIX, ids=[f"{i:02d}-{row.name}" for i, row in enumerate(MATRIX)])
def test_access(row: Row, role: str, world) -> None:
    row.prepare(world)
    spec = ROLES[role]
    client = spec.client(world)
    token = spec.token(world) if spec.token else secrets.token_urlsafe(16)
    url = reverse(row.name, kwargs=row.kwargs(world, token))
    for method in ("get", "post"):
        profile = row.get if method == "get" else row.post
        if profile is None:
            profile = POST_ONLY if method == "get" else None
        before, table1_before = snapshot(), table_1_state(world)
        response = getattr(client, method)(url, row.data(world) if method == "post" else None)
        assert response.status_code < 500
        # Every page: the Content-Security-Policy; every page a logged-in user gets (director,
        # referee, admin): never stored by a cache (config/headers.py).
        assert "script-src 'self'" in response.get("Content-Security-Policy", "")
        if "_auth_user_id" in client.session:
            assert "no-store" in response.get("Cache-Control", ""), (row.name, role, method)
        if profile is None:
            # A page that does not write: a POST changes nothing, whoever sends it.
            assert snapshot() == before, f"POST to {row.name} wrote; give the row post= and data="
            continue
        check(response, expected(profile, role), method, world, before, table1_before, row)


# --- the matrix covers every URL ----------------------------------------------------------------


def named_patterns(resolver: URLResolver | None = None, namespace: str = "") -> list[tuple[str, str, URLPattern]]:
    """(namespace, full name or "", pattern) for every URL the root resolver knows, recursively."""
    found = []
    for pattern in (resolver or get_resolver()).url_patterns:
        if isinstance(pattern, URLResolver):
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            found += named_patterns(pattern, inner)
        else:
            found.append((namespace, f"{namespace}{pattern.name}" if pattern.name else "", pattern))
    return found


def _own(namespace: str) -> bool:
    return namespace.split(":")[0] in DJANGO_OWN_NAMESPACES


def test_every_named_url_is_in_the_matrix():
    listed = {row.name for row in MATRIX}
    patterns = [(name, p) for namespace, name, p in named_patterns() if not _own(namespace)]
    missing = sorted(name for name, _pattern in patterns if name and name not in listed)
    assert missing == [], f"URLs without a row in tests/test_access_matrix.py MATRIX: {missing}"
    unnamed = [str(p.pattern) for name, p in patterns if not name]
    assert unnamed == [], f"give these URLs a name and a row in the matrix: {unnamed}"
    stale = sorted(listed - {name for name, _pattern in patterns})
    assert stale == [], f"rows for URLs that no longer exist: {stale}"


def test_every_role_has_an_expectation_in_every_profile():
    for row in MATRIX:
        for profile in (row.get, row.post):
            for role in ROLES:
                if profile is not None:
                    assert expected(profile, role) is not None


def test_the_admin_sends_everyone_but_staff_to_its_login(world):
    """Django's own admin: every page without arguments, a basic expectation per role."""
    names = [n for _ns, n, p in named_patterns() if n.startswith("admin:") and not p.pattern.regex.groups]
    assert "admin:index" in names
    users = {"anonymous": Client(), "director": logged_in("director")(world)}
    for role, client in users.items():
        for name in names:
            response = client.get(reverse(name))
            if name == "admin:login":
                assert response.status_code == 200
            else:
                assert response.status_code in {302, 405}, (role, name, response.status_code)
                if response.status_code == 302:
                    assert is_login_redirect(response) or response.url == reverse("admin:index"), (role, name)
    admin = logged_in("superuser")(world)
    assert admin.get(reverse("admin:index")).status_code == 200
    assert admin.get(reverse("admin:tournaments_tournament_changelist")).status_code == 200


def test_creating_a_tournament_needs_the_permission(world):
    client = Client()
    client.force_login(factories.user("just_logged_in"))
    before = snapshot()
    assert client.get(reverse("director:create")).status_code == FORBIDDEN
    assert client.post(reverse("director:create"), tournament_data(world)).status_code == FORBIDDEN
    assert snapshot() == before


# --- a table link reaches its own table only, for every URL under the token ------------------------


def token_patterns() -> list[str]:
    return sorted({name for _ns, name, p in named_patterns() if "token" in p.pattern.converters})


@pytest.mark.parametrize("name", token_patterns())
def test_a_table_link_never_reads_or_writes_another_table(name, world):
    """Every URL under a token, including ones added later: table 2's link with any
    data never shows or changes table 1, and a guessed token opens nothing."""
    games_at_both_tables(world)
    client = Client()
    attempts = [
        game_data()(world),
        game_data(number="2", declarer_seat="1")(world),
        game_data(version="1", declarer_points="90", table=str(world.table1.pk), token=world.table1.token)(world),
    ]
    own = reverse(name, kwargs={"token": world.table2.token})
    guessed = reverse(name, kwargs={"token": secrets.token_urlsafe(16)})
    revoked = world.table1.token
    for data in attempts:
        before = table_1_state(world)
        for response in (client.get(own), client.post(own, data)):
            assert response.status_code < 500
            body = response.content.decode(errors="replace")
            assert world.table1.token not in body
            assert not [n for n in TABLE_1_NAMES if n in body]
            assert table_1_state(world) == before
        everything = snapshot()
        assert client.get(guessed).status_code in {NOT_FOUND, NOT_ALLOWED}
        assert client.post(guessed, data).status_code == NOT_FOUND
        assert snapshot() == everything
    # A replaced link is dead on every URL.
    Table.objects.filter(pk=world.table1.pk).update(token=secrets.token_urlsafe(16))
    everything = snapshot()
    assert client.post(reverse(name, kwargs={"token": revoked}), attempts[0]).status_code == NOT_FOUND
    assert snapshot() == everything


# --- CSRF: every form refuses a post without the token ----------------------------------------------


def _allowed_role(row: Row) -> str | None:
    return next((role for role in ROLES if row.post and expected(row.post, role) in {OK, REDIRECT}), None)


@pytest.mark.parametrize("row", [r for r in MATRIX if _allowed_role(r)], ids=lambda r: r.name)
def test_every_form_refuses_a_post_without_the_csrf_token(row: Row, world):
    row.prepare(world)
    role = _allowed_role(row)
    client = ROLES[role].client(world)
    client.handler.enforce_csrf_checks = True
    token = ROLES[role].token(world) if ROLES[role].token else secrets.token_urlsafe(16)
    url = reverse(row.name, kwargs=row.kwargs(world, token))
    before = snapshot()
    response = client.post(url, row.data(world))
    assert response.status_code == FORBIDDEN
    assert snapshot() == before
    # The same post with the token goes through: the 403 was the missing token.
    client.get(reverse("login"))
    response = client.post(url, row.data(world) | {"csrfmiddlewaretoken": client.cookies["csrftoken"].value})
    assert response.status_code != FORBIDDEN


def test_a_new_role_needs_one_line():
    roles = ROLES | {"referee_of_another_tournament": Role(logged_in("other_director"), like="other_director")}
    assert expected(STAFF, "other_director") == FORBIDDEN
    try:
        ROLES.update(roles)
        assert expected(STAFF, "referee_of_another_tournament") == FORBIDDEN
        assert expected(TABLE_LINK, "referee_of_another_tournament") == NOT_FOUND
    finally:
        del ROLES["referee_of_another_tournament"]


def test_the_snapshot_reads_every_app_of_the_office_nested_ones_too():
    """An allowed POST must be seen writing: the snapshot reads the tables of every app in the
    project's folders, the league's nested apps included, and none of Django's own."""
    assert {"scoring", "signoff", "leagues", "seasons", "packages", "leagueoffice", "perf"} <= PROJECT_APPS
    assert not PROJECT_APPS & {"auth", "admin", "sessions", "contenttypes"}

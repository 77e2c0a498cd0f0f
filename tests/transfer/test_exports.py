"""The league export: the workbook's documented columns hold the standings and every game."""

from __future__ import annotations

import csv
import io
import random

import pytest
from openpyxl import load_workbook

from draw.series import draw_series
from scoring.models import Game
from signoff.models import SignOff
from standings.places import standings, team_standings
from tests import factories
from tests.standings.test_places import play
from tests.standings.test_team_standings import with_teams
from tournaments.models import Player, Series, Table
from transfer.exports import (
    GAMES_COLUMNS,
    PLAYERS_COLUMNS,
    RANKING_COLUMNS,
    RESULTS_COLUMNS,
    SHEETS,
    TABLES_COLUMNS,
    TEAMS_COLUMNS,
    csv_lines,
    league_csv,
    league_xlsx,
)

pytestmark = pytest.mark.django_db


def finished_tournament(players: int = 10, series: int = 2, seed: int = 3):
    t = factories.tournament(rounds_per_series=2, series_count=series, venue="Altenburg")
    for i, registration in enumerate(factories.registered(t, players, clubs=3)):
        Player.objects.filter(pk=registration.player_id).update(
            name=f"Spieler {i} Müller", membership_number=f"M{t.pk}-{i:03d}", nationality="DE"
        )
    rng = random.Random(seed)
    for number in range(1, series + 1):
        s = draw_series(t, Series.Method.SEEDED if number > 1 else Series.Method.RANDOM, provisional=True)
        play(s, rng)
        s.status = Series.Status.FINISHED
        s.save(update_fields=["status"])
    return t


def workbook_of(t):
    out = io.BytesIO()
    league_xlsx(t, out)
    out.seek(0)
    return load_workbook(out, read_only=True)


def sheet_rows(workbook, name):
    rows = list(workbook[name].iter_rows(values_only=True))
    # Empty trailing cells are not stored; pad every row to the header's width.
    return rows[0], [tuple(row) + (None,) * (len(rows[0]) - len(row)) for row in rows[1:]]


def test_the_workbook_has_the_documented_sheets_and_columns():
    t = finished_tournament()
    workbook = workbook_of(t)
    assert workbook.sheetnames == ["Ranking", "Teams", "Results", "Games", "Tournament", "Players", "Tables"]
    for name, columns in [
        ("Ranking", (*RANKING_COLUMNS, "Category")),
        ("Teams", TEAMS_COLUMNS),
        ("Results", RESULTS_COLUMNS),
        ("Games", GAMES_COLUMNS),
        ("Players", (*PLAYERS_COLUMNS, "Category")),
        ("Tables", TABLES_COLUMNS),
    ]:
        assert sheet_rows(workbook, name)[0] == columns
    assert RANKING_COLUMNS == (
        "Place",
        "Name",
        "Club",
        "Membership number",
        "Nationality",
        "Game points",
        "Won",
        "Lost",
        "Bonus",
        "Rating",
        "Tables",
    )


def test_the_ranking_sheet_is_the_standings():
    t = finished_tournament()
    _header, rows = sheet_rows(workbook_of(t), "Ranking")
    players = {p.pk: p for p in Player.objects.all()}
    expected = []
    for entry in standings(t):
        r, p = entry.rating, players[entry.item.player_id]
        counts = (r.points, r.won, r.lost, r.bonus, r.rating)
        expected.append((entry.place, p.name, p.club.name, p.membership_number, "DE", *counts, 2, None))
    assert rows == expected


def test_the_results_sheet_adds_up_to_the_ranking():
    t = finished_tournament()
    workbook = workbook_of(t)
    _h, ranking = sheet_rows(workbook, "Ranking")
    _h, results = sheet_rows(workbook, "Results")
    assert len(results) == 2 * len(ranking), "one row per player and series"
    for place, name, _club, number, _nat, points, won, lost, bonus, rating, _tables, _category in ranking:
        mine = [r for r in results if r[2] == number]
        assert [r[3] for r in mine] == [1, 2]
        assert {r[0] for r in mine} == {place} and {r[1] for r in mine} == {name}
        assert sum(r[6] for r in mine) == points
        assert sum(r[7] for r in mine) == won and sum(r[8] for r in mine) == lost
        assert sum(r[9] for r in mine) == bonus and sum(r[10] for r in mine) == rating


def test_the_games_sheet_holds_every_game_as_stored():
    t = finished_tournament()
    header, rows = sheet_rows(workbook_of(t), "Games")
    col = {name: i for i, name in enumerate(header)}
    games = list(
        Game.objects.filter(table__series__tournament=t)
        .select_related("table__series")
        .order_by("table__series__number", "table__number", "number")
    )
    assert len(rows) == len(games) > 0
    for row, game in zip(rows, games, strict=True):
        assert row[col["Series"]] == game.table.series.number
        assert row[col["Table"]] == game.table.number
        assert row[col["Deal"]] == game.number
        assert row[col["Score"]] == game.score
        assert row[col["Game value"]] == game.value
        assert row[col["Passed out"]] == ("x" if game.passed_out else None)
        assert row[col["Contract"]] == (game.contract or None)
        assert row[col["Won/lost"]] == ("won" if game.won else "lost" if game.lost else None)
        assert row[col["Hand"]] == ("x" if game.hand else None)
        assert row[col["Bid"]] == game.bid
        if game.declarer_seat:
            seat = game.table.seats.get(number=game.declarer_seat)
            assert row[col["Declarer"]] == seat.player.name
            assert row[col["Membership number"]] == seat.player.membership_number
        dealer = game.table.seats.get(number=game.dealer_seat)
        assert row[col["Dealer"]] == dealer.player.name


def test_csv_is_utf8_with_bom_and_semicolons_and_parses_back():
    t = finished_tournament()
    text = "".join(csv_lines(t, "Ranking"))
    assert text.startswith("\ufeffPlace;Name;Club;")
    rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff")), delimiter=";"))
    assert tuple(rows[0]) == (*RANKING_COLUMNS, "Category")
    ranked = standings(t)
    assert [(int(r[0]), int(r[9])) for r in rows[1:]] == [(e.place, e.rating.rating) for e in ranked]
    assert "Müller" in text


def test_the_teams_sheet_holds_the_team_standings():
    t = finished_tournament(players=10, series=2)
    with_teams(t, 3, 3)
    _columns, rows = sheet_rows(workbook_of(t), "Teams")
    assert rows == [
        (
            e.place,
            e.item.name,
            ", ".join(name for name, _rating in e.item.members),
            e.rating.points,
            e.rating.won,
            e.rating.lost,
            e.rating.bonus,
            e.rating.rating,
            e.item.tables,
        )
        for e in team_standings(t)
    ]
    assert len(rows) == 3 and all(row[2].count("Müller") == 3 for row in rows)


@pytest.mark.parametrize("sheet", list(SHEETS))
def test_every_sheet_writes_as_csv_with_its_columns(sheet):
    t = finished_tournament(players=7, series=1)
    with_teams(t, 3, 2)
    out = io.StringIO()
    league_csv(t, sheet, out)
    rows = list(csv.reader(io.StringIO(out.getvalue().lstrip("\ufeff")), delimiter=";"))
    assert tuple(rows[0]) == SHEETS[sheet][0]
    assert len(rows) > 1


def test_an_empty_tournament_exports_headers_only():
    t = factories.tournament()
    workbook = workbook_of(t)
    assert sheet_rows(workbook, "Games")[1] == []
    assert sheet_rows(workbook, "Ranking")[1] == []


def test_the_export_is_a_fixed_number_of_queries(django_assert_max_num_queries):
    small = finished_tournament(players=7, series=1)
    t = finished_tournament(players=11, series=2)
    for tournament in (small, t):
        # Three standings (Ranking, Teams, Results), each + the confirmed sheets; the teams + who
        # is in which; the Tournament sheet's four money tables and whether it is final.
        with django_assert_max_num_queries(23):
            league_xlsx(tournament, io.BytesIO())


def test_schwarz_announced_and_ouvert_mark_schneider_announced_too():
    """5.2.6: schwarz announced includes schneider announced, ouvert both (the PDF ticks them too)."""
    t = factories.tournament(rounds_per_series=1)
    factories.registered(t, 3)
    series = draw_series(t, Series.Method.RANDOM)
    table = series.tables.get()
    flags = {"contract": "hearts", "tops": 1, "hand": True}
    factories.game(table, 1, declarer_seat=1, schwarz_announced=True, declarer_points=100, **flags)
    factories.game(table, 2, declarer_seat=2, ouvert=True, declarer_points=120, declarer_tricks=10, **flags)
    factories.game(table, 3, declarer_seat=3, contract="null", ouvert=True, declarer_tricks=0)
    header, rows = sheet_rows(workbook_of(t), "Games")
    col = {name: i for i, name in enumerate(header)}
    marks = [(row[col["Schneider announced"]], row[col["Schwarz announced"]]) for row in rows]
    assert marks == [("x", "x"), ("x", "x"), (None, None)]  # null ouvert announces nothing (2.1.3)


def test_the_tournament_sheet_says_whether_the_results_are_final():
    """The league export marks provisional data (5.5.3: only confirmed sheets are final)."""
    t = finished_tournament(players=7, series=1)
    status = dict(sheet_rows(workbook_of(t), "Tournament")[1])["Standings"]
    assert status == "provisional: 2 of 2 sheets not confirmed"
    for table in Table.objects.filter(series__tournament=t):
        SignOff.objects.create(table=table, fingerprint="x", confirmed_by="test")
    assert dict(sheet_rows(workbook_of(t), "Tournament")[1])["Standings"] == "final"
    t.series_count = 2
    t.save()
    assert dict(sheet_rows(workbook_of(t), "Tournament")[1])["Standings"] == "provisional: series 2 not finished"


@pytest.mark.parametrize("sheet", ["Ranking", "Results", "Games", "Players", "Tables", "Tournament"])
def test_typed_in_text_is_never_a_formula_in_any_sheet(sheet):
    """Every sheet is written by core.tabular, which escapes every cell, whatever the column."""
    t = finished_tournament(players=6, series=1)
    t.venue = "@SUM(A1)"
    t.save(update_fields=["venue"])
    for i, player in enumerate(Player.objects.filter(registrations__tournament=t)):
        player.name, player.membership_number = "=1+1", f"-2+{i}"
        player.save(update_fields=["name", "membership_number"])
    for text in (
        "".join(csv_lines(t, sheet)),
        "\n".join(";".join(str(v) for v in row) for row in workbook_of(t)[sheet].iter_rows(values_only=True)),
    ):
        assert "'=1+1" in text or "'@SUM(A1)" in text
        assert ";=1+1" not in text and ";-2+" not in text and ";@SUM" not in text


def test_the_provisional_status_counts_one_sheet_in_the_singular():
    from types import SimpleNamespace

    from transfer.exports.tournament import standings_status

    state = SimpleNamespace(final=False, confirmed=0, sheets=1, unfinished=[])
    assert standings_status(state) == "provisional: 1 of 1 sheet not confirmed"


def test_the_ranking_and_players_sheets_name_each_players_category():
    """The best woman found in the spreadsheet too."""
    t = finished_tournament()
    women = t.categories.create(name="Damen")
    first = standings(t)[0].item.player_id
    t.registrations.filter(player_id=first).update(category=women)
    workbook = workbook_of(t)
    header, ranking = sheet_rows(workbook, "Ranking")
    assert ranking[0][header.index("Category")] == "Damen" and ranking[1][header.index("Category")] is None
    header, players = sheet_rows(workbook, "Players")
    categories = {row[0]: row[header.index("Category")] for row in players}
    assert categories[first] == "Damen" and list(categories.values()).count("Damen") == 1

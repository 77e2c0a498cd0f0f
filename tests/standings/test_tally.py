"""The standings kept up to date per process (standings.tally): after every kind of change
they equal the standings computed whole, and a deal costs its table, not the field."""

from __future__ import annotations

import random
import time
from datetime import timedelta

import pytest
from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from draw.series import draw_series
from office.demo import random_game
from scoring.models import Game, ResultsMark
from signoff.models import SignOff
from standings import counters, tally, tally_log
from standings.cache import results_mark
from standings.places import finality, standings
from standings.tables import rows
from tests import factories
from tournaments.models import Player, Registration, Seat, Series, Table, Tournament

pytestmark = pytest.mark.django_db


def whole(t: Tournament, series_number: int | None = None) -> list[dict]:
    """The oracle: the standings computed from nothing, flattened as the ranking list shows them."""
    return rows(standings(t, series_number))


def assert_current(t: Tournament) -> None:
    """The rows and how final they are, overall and per series, as computed whole."""
    assert tally.ranked(t) == (whole(t), finality(t))
    for number in t.series.values_list("number", flat=True):
        assert tally.ranked(t, number) == (whole(t, number), finality(t, number))


def counts_of(t: Tournament, series_number: int | None = None) -> tuple[int, int]:
    kept = tally._tally(t, series_number)
    return kept.builds, kept.updates


def deal(table, number: int, rng: random.Random) -> Game:
    game = random_game(rng, number, table.size)
    game.table = table
    game.save()
    return game


@pytest.fixture
def two_series():
    """19 players (4 tables of four, 1 of three) in two series; the first played, the second drawn."""
    t = factories.tournament(series_count=2, rounds_per_series=4, lot_seed=5)
    factories.registered(t, 19, clubs=4)
    rng = random.Random(11)
    first = draw_series(t)
    for table in first.tables.all():
        for number in range(1, table.deals + 1):
            deal(table, number, rng)
    Series.objects.filter(pk=first.pk).update(status=Series.Status.FINISHED)
    second = draw_series(t, Series.Method.SEEDED, provisional=True)
    return t, second, rng


def test_deal_by_deal_the_standings_equal_those_computed_whole(two_series):
    t, second, rng = two_series
    assert_current(t)
    builds = counts_of(t)[0]
    tables = list(second.tables.order_by("number"))
    for number in range(1, 9):
        for table in tables:
            deal(table, number, rng)
            assert tally.ranked_rows(t) == whole(t)
        assert tally.ranked_rows(t, 2) == whole(t, 2)
    # Every deal moved only its table: nothing was computed whole again.
    assert counts_of(t)[0] == builds
    assert counts_of(t)[1] >= 8 * len(tables)


def test_corrections_voids_and_deletions_move_the_players_back(two_series):
    t, second, rng = two_series
    table = second.tables.order_by("number").first()
    games = [deal(table, number, rng) for number in range(1, 7)]
    assert_current(t)
    declared = [g for g in games if g.declarer_seat]
    corrected = declared[0]
    corrected.declarer_seat = corrected.declarer_seat % table.size + 1
    corrected.save()
    assert_current(t)
    declared[1].voided = True
    declared[1].save()
    assert_current(t)
    Game.objects.filter(pk=declared[-1].pk).delete()
    assert_current(t)
    Game.objects.filter(table=table).delete()
    assert_current(t)


def test_a_confirmed_sheet_is_no_longer_provisional_and_a_withdrawn_one_is_again(two_series):
    t, second, rng = two_series
    table = second.tables.order_by("number").first()
    for number in range(1, table.deals + 1):
        deal(table, number, rng)
    seated = set(table.seats.values_list("player_id", flat=True))
    before = {row["player_id"]: row["unconfirmed"] for row in tally.ranked_rows(t)}
    signoff = SignOff.objects.create(table=table, fingerprint="x")
    after = {row["player_id"]: row["unconfirmed"] for row in tally.ranked_rows(t)}
    assert {player for player in after if after[player] != before[player]} == seated
    assert all(after[player] == before[player] - 1 for player in seated)
    assert_current(t)
    signoff.delete()
    assert tally.ranked_rows(t) == whole(t)
    assert {row["player_id"]: row["unconfirmed"] for row in tally.ranked_rows(t)} == before


def test_a_change_of_the_seats_or_names_computes_everything_again(two_series):
    t, second, rng = two_series
    deal(second.tables.order_by("number").first(), 1, rng)
    assert_current(t)
    builds = counts_of(t)[0]
    seat = Seat.objects.filter(series=second).order_by("pk").first()
    late = Registration.objects.create(tournament=t, player=factories.player("Late Comer")).player
    Seat.objects.filter(pk=seat.pk).update(player=late)  # a substitute takes the seat
    Player.objects.filter(pk=seat.player_id).update(name="Renamed Player")
    assert_current(t)
    assert counts_of(t)[0] == builds + 1
    assert {"Renamed Player", "Late Comer"} <= {row["name"] for row in tally.ranked_rows(t)}


def test_a_change_rolled_back_is_not_kept(two_series):
    t, second, rng = two_series
    table = second.tables.order_by("number").first()
    deal(table, 1, rng)
    assert_current(t)
    with pytest.raises(RuntimeError), transaction.atomic():
        deal(table, 2, rng)
        tally.ranked_rows(t)  # read while the deal is there, then it is rolled back
        raise RuntimeError
    assert tally.ranked_rows(t) == whole(t)
    deal(table, 2, rng)  # the same counter's value again, other figures
    assert tally.ranked_rows(t) == whole(t)


def test_a_row_once_given_out_never_changes(two_series):
    t, second, rng = two_series
    given = tally.ranked_rows(t)
    kept = [dict(row) for row in given]
    for table in second.tables.all():
        deal(table, 1, rng)
    assert tally.ranked_rows(t) != kept
    assert given == kept


def test_the_ties_are_broken_by_the_lot_as_computed_whole():
    """Before any deal every player stands at 0: the whole order is the lot's."""
    t, series = factories.drawn(12, lot_seed=42)
    assert tally.ranked_rows(t) == whole(t)
    assert [row["decided_by"] for row in tally.ranked_rows(t)][1:] == ["lot"] * 11
    table = series.tables.order_by("number").first()
    factories.game(table, 1, declarer_seat=2, contract="grand", tops=1, declarer_points=61)
    assert tally.ranked_rows(t) == whole(t)


def test_a_deal_costs_two_queries_whatever_the_field(django_assert_num_queries):
    for players in (12, 60):
        t, series = factories.drawn(players)
        tally.ranked_rows(t)
        factories.game(series.tables.order_by("number").first(), 1, passed_out=False, declarer_seat=2,
                       contract="grand", tops=1, declarer_points=61)  # fmt: skip
        with django_assert_num_queries(2):  # the counters, the seats of the table that changed
            tally.ranked_rows(t)
        with django_assert_num_queries(1):  # nothing changed: the counters only
            tally.ranked_rows(t)


def test_once_a_minute_the_log_says_how_often_the_process_computed(two_series, caplog, monkeypatch):
    t, second, rng = two_series
    tally.ranked_rows(t)
    # The last line a minute ago, at this process's counts so far.
    monkeypatch.setattr(tally_log, "_reported", {**tally.counts(), "at": time.monotonic() - tally_log.REPORT_EVERY})
    deal(second.tables.order_by("number").first(), 1, rng)
    with caplog.at_level("INFO", logger="standings.tally"):
        tally.ranked_rows(t)
        tally.ranked_rows(t)  # within the minute: no second line
    lines = [r.getMessage() for r in caplog.records if "moved by tables" in r.getMessage()]
    assert len(lines) == 1 and "moved by tables 1 times" in lines[0]


def test_the_projectors_count_of_deals_follows_every_table(two_series):
    t, second, rng = two_series

    def counted() -> list[tuple[int, bool, int]]:
        tables = second.tables.order_by().annotate(entered=Count("games"))
        return sorted(
            (size, signoff is not None, n) for size, signoff, n in tables.values_list("size", "signoff", "entered")
        )

    assert sorted(tally.sheets(t, 2)) == counted()
    tables = list(second.tables.order_by("number"))
    for number in range(1, 4):
        deal(tables[number], number, rng)
        assert sorted(tally.sheets(t, 2)) == counted()
    SignOff.objects.create(table=tables[1], fingerprint="x")
    Game.objects.filter(table=tables[2]).delete()
    assert sorted(tally.sheets(t, 2)) == counted()


def test_at_the_mark_of_the_last_refresh_no_counter_is_read_again(two_series, django_assert_num_queries):
    t, second, rng = two_series
    mark = results_mark(t)
    tally.ranked_rows(t, None, mark)
    with django_assert_num_queries(0):  # another page, another language: the same mark
        tally.ranked_rows(t, None, mark)
    deal(second.tables.order_by("number").first(), 1, rng)
    assert tally.ranked_rows(t, None, results_mark(t)) == whole(t)


def test_a_deal_reads_the_counters_that_moved_not_all_of_them(two_series, monkeypatch):
    t, second, rng = two_series
    assert_current(t)

    def read_all(tournament):
        raise AssertionError("every counter read again")

    monkeypatch.setattr(counters, "all_marks", read_all)
    for number, table in enumerate(second.tables.order_by("number"), start=1):
        deal(table, number, rng)
        assert tally.ranked_rows(t) == whole(t)
    kept = tally._tally(t, None)
    assert {scope: mark[0] for scope, mark in kept.counters.marks.items()} == {s: v for s, v, _at in marks_of(t)}


def declared(table, number: int) -> Game:
    """A deal that moves its declarer's figures (a random one may be passed out)."""
    seat = number % table.size + 1  # not the dealer, who sits out at a table of four
    return factories.game(table, number, declarer_seat=seat, contract="grand", tops=1, declarer_points=61)


def marks_of(t: Tournament) -> list[tuple]:
    return list(ResultsMark.objects.filter(tournament=t).values_list("scope", "version", "changed_at"))


def test_a_counter_moved_with_an_older_time_is_still_seen(two_series):
    """A transaction begun long before its commit counts with its start's time (PostgreSQL):
    older than the counters read since. The sum of the versions tells it moved."""
    t, second, rng = two_series
    tables = list(second.tables.order_by("number"))
    deal(tables[0], 1, rng)
    assert_current(t)
    declared(tables[1], 1)
    ResultsMark.objects.filter(tournament=t, scope=tables[1].pk).update(changed_at=timezone.now() - timedelta(hours=1))
    assert tally.ranked_rows(t) == whole(t)
    deal(tables[1], 2, rng)  # and the next deal there is seen as well
    assert tally.ranked_rows(t) == whole(t)


def test_a_change_read_then_rolled_back_long_ago_reads_every_counter_again(two_series):
    """The counter back at its value before, with its old time (older than what the tally
    looks at): only the sum of the versions tells that it went back."""
    t, second, _rng = two_series
    table = second.tables.order_by("number").first()
    declared(table, 1)
    assert_current(t)
    with pytest.raises(RuntimeError), transaction.atomic():
        declared(table, 2)
        tally.ranked_rows(t)  # read while the deal is there, then it is rolled back
        raise RuntimeError
    ResultsMark.objects.filter(tournament=t, scope=table.pk).update(changed_at=timezone.now() - timedelta(hours=1))
    assert tally.ranked_rows(t) == whole(t)
    kept = tally._tally(t, None)
    assert kept.counters.total == sum(version for _scope, version, _at in marks_of(t))


def test_how_final_the_standings_are_follows_every_sheet_and_series(two_series):
    t, second, rng = two_series
    tables = list(second.tables.order_by("number"))
    assert_current(t)
    for table in tables:
        for number in range(1, table.deals + 1):
            deal(table, number, rng)
        SignOff.objects.create(table=table, fingerprint="x")
        assert_current(t)
    assert not tally.ranked(t, 2)[1].final  # still running
    Series.objects.filter(pk=second.pk).update(status=Series.Status.FINISHED)
    assert_current(t)
    assert tally.ranked(t, 2)[1].final
    SignOff.objects.filter(table=tables[0]).delete()
    assert_current(t)


def test_a_sheet_without_players_counts_in_how_final_they_are(two_series):
    t, second, _rng = two_series
    empty = Table.objects.create(series=second, number=99, size=4)
    assert_current(t)
    SignOff.objects.create(table=empty, fingerprint="x")
    assert_current(t)
    SignOff.objects.filter(table=empty).delete()
    assert_current(t)

"""No-shows and late arrivals after the draw (draw.arrivals)."""

from __future__ import annotations

import pytest

from draw import arrivals
from skat.rules import RuleError
from tests import factories
from tournaments.models import Registration, Seat, Table

pytestmark = pytest.mark.django_db


def sizes(series) -> dict[int, int]:
    return dict(series.tables.order_by("number").values_list("number", "size"))


def seated(series) -> set[int]:
    return set(Seat.objects.filter(series=series).values_list("player_id", flat=True))


def registration_at(series, table_number: int, seat: int = 1) -> Registration:
    player_id = Seat.objects.get(series=series, table__number=table_number, number=seat).player_id
    return Registration.objects.get(tournament=series.tournament, player_id=player_id)


def assert_consistent(series) -> None:
    """Every table holds its size in seats numbered 1..n; nobody sits twice."""
    for table in series.tables.all():
        numbers = sorted(table.seats.values_list("number", flat=True))
        assert numbers == list(range(1, table.size + 1)), (table.number, numbers)
        assert table.size in (3, 4)


def test_a_no_show_at_a_four_leaves_a_three_and_only_that_table_changes():
    _t, series = factories.drawn(8)  # two fours
    gone = registration_at(series, 1, seat=2)
    untouched = Table.objects.get(series=series, number=2)
    change = arrivals.no_show(series, gone)
    assert sizes(series) == {1: 3, 2: 4}
    assert gone.player_id not in seated(series)
    assert change.reprint == [1] and [len(t.players) for t in change.tables] == [3]
    # The changed table has a new link (its old PINs stop working); the other keeps its own.
    assert Table.objects.get(series=series, number=2).token == untouched.token
    gone.refresh_from_db()
    assert gone.withdrawn_after_series == 0 and not gone.present
    assert not Registration.objects.playing_in(2).filter(pk=gone.pk).exists()
    assert_consistent(series)


def test_a_no_show_at_a_three_takes_a_player_from_the_nearest_open_four():
    _t, series = factories.drawn(7)  # a four and a three
    gone = registration_at(series, 2)
    change = arrivals.no_show(series, gone)
    assert sizes(series) == {1: 3, 2: 3}
    assert change.reprint == [1, 2]
    assert len(seated(series)) == 6
    assert_consistent(series)


def test_a_no_show_at_a_three_without_fours_sends_the_two_left_to_two_threes():
    _t, series = factories.drawn(9)  # three threes
    gone = registration_at(series, 2)
    change = arrivals.no_show(series, gone)
    assert sizes(series) == {1: 4, 3: 4}
    assert {(c.number, c.removed) for c in change.tables} == {(1, False), (2, True), (3, False)}
    assert len(seated(series)) == 8
    assert_consistent(series)


def test_a_no_show_is_refused_once_a_deal_is_entered_at_his_table():
    _t, series = factories.drawn(8)
    table = Table.objects.get(series=series, number=1)
    factories.game(table, 1, passed_out=True)
    with pytest.raises(RuleError, match="a deal is entered at table 1"):
        arrivals.no_show(series, registration_at(series, 1))
    assert sizes(series) == {1: 4, 2: 4}


def test_a_no_show_at_a_three_needing_a_started_four_is_refused_and_changes_nothing():
    _t, series = factories.drawn(7)
    factories.game(Table.objects.get(series=series, number=1), 1, passed_out=True)
    before = sorted(Seat.objects.filter(series=series).values_list("table__number", "number", "player_id"))
    with pytest.raises(RuleError, match="table 2 would keep 2 players"):
        arrivals.no_show(series, registration_at(series, 2))
    after = sorted(Seat.objects.filter(series=series).values_list("table__number", "number", "player_id"))
    assert before == after


def test_a_late_arrival_joins_a_three():
    t, series = factories.drawn(7)
    late = Registration.objects.create(tournament=t, player=factories.player("Late Larry"), first_series=2)
    assert late in arrivals.arriving(t, series)
    arrival = arrivals.late_arrival(series, late)
    assert arrival.change.reprint == [2] and "Late Larry" in arrival.change.tables[0].players
    assert sizes(series) == {1: 4, 2: 4}
    late.refresh_from_db()
    assert late.first_series == 1  # he plays series 1 after all
    assert_consistent(series)


def test_a_late_arrival_without_open_threes_makes_three_threes_of_two_fours():
    t, series = factories.drawn(8)
    late = Registration.objects.create(tournament=t, player=factories.player("Late Larry"), first_series=2)
    arrival = arrivals.late_arrival(series, late)
    assert sizes(series) == {1: 3, 2: 3, 3: 3}
    assert [c.added for c in arrival.change.tables] == [False, False, True]
    assert late.player_id in seated(series)
    assert_consistent(series)


def test_a_late_arrival_after_play_started_plays_from_the_next_series():
    t, series = factories.drawn(7, series_count=3)
    for table in series.tables.all():
        factories.game(table, 1, passed_out=True)
    late = Registration.objects.create(tournament=t, player=factories.player("Late Larry"))
    arrival = arrivals.late_arrival(series, late)
    assert arrival.change is None and arrival.from_series == 2
    assert "deals are entered at every table" in arrival.reason.message
    late.refresh_from_db()
    assert late.first_series == 2 and late.player_id not in seated(series)


def test_a_late_arrival_in_the_last_series_with_play_started_is_refused():
    t, series = factories.drawn(7, series_count=1)
    for table in series.tables.all():
        factories.game(table, 1, passed_out=True)
    late = Registration.objects.create(tournament=t, player=factories.player("Late Larry"))
    with pytest.raises(RuleError, match="it is the last series"):
        arrivals.late_arrival(series, late)


def test_a_no_show_who_comes_after_all_is_seated_again():
    t, series = factories.drawn(8)
    gone = registration_at(series, 1)
    arrivals.no_show(series, gone)
    assert gone in arrivals.arriving(t, series)
    arrivals.late_arrival(series, gone)
    gone.refresh_from_db()
    assert gone.withdrawn_after_series is None and gone.player_id in seated(series)
    assert sizes(series) == {1: 4, 2: 4}


def test_a_late_arrival_keeps_team_mates_apart():
    t, series = factories.drawn(10)  # a four... 4+3+3
    table3 = [s.player_id for s in Seat.objects.filter(series=series, table__number=3)]
    team = t.teams.create(name="Skatfreunde")
    Registration.objects.filter(tournament=t, player_id__in=table3).update(team=team)
    late = Registration.objects.create(tournament=t, player=factories.player("Mate"), team=team, first_series=1)
    arrivals.late_arrival(series, late)
    assert Seat.objects.get(series=series, player=late.player).table.number == 2


def test_a_no_show_rebalance_keeps_earlier_meetings_apart():
    from tournaments.models import Series

    t = factories.tournament(series_count=2)
    regs = factories.registered(t, 7)
    p = [r.player for r in regs]

    def table(series, number, players):
        made = Table.objects.create(series=series, number=number, size=len(players))
        for n, player in enumerate(players, start=1):
            Seat.objects.create(table=made, series=series, number=n, player=player)

    first = Series.objects.create(tournament=t, number=1, status=Series.Status.FINISHED)
    table(first, 1, [p[0], p[4], p[5]])  # p0 met p4 and p5 in series 1
    table(first, 2, [p[1], p[2], p[3], p[6]])
    second = Series.objects.create(tournament=t, number=2)
    table(second, 1, [p[0], p[1], p[2], p[3]])
    table(second, 2, [p[4], p[5], p[6]])
    arrivals.no_show(second, regs[6])
    # The four gives a player who has not met the two left: never p0, its first seat.
    assert Seat.objects.get(series=second, player=p[0]).table.number == 1
    assert sizes(second) == {1: 3, 2: 3}

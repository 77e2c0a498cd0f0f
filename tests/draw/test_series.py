"""Drawing series into the database, and seat changes before a series starts."""

from __future__ import annotations

import pytest

from draw.series import ProvisionalSeeding, draw_series, move_player, swap_players
from skat.rules import RuleError
from tests import factories
from tournaments.models import Registration, Seat, Series

pytestmark = pytest.mark.django_db


def seat_map(series: Series) -> dict[int, tuple[int, int]]:
    return {
        s.player_id: (s.table.number, s.number) for s in Seat.objects.filter(series=series).select_related("table")
    }


def test_the_first_series_seats_every_registered_player_once():
    t = factories.tournament()
    regs = factories.registered(t, 11, clubs=3)
    series = draw_series(t)
    assert series.number == 1 and series.status == "drawn"
    assert sorted(seat_map(series)) == sorted(r.player_id for r in regs)
    assert sorted(series.tables.values_list("size", flat=True)) == [3, 4, 4]
    for table in series.tables.all():
        assert sorted(table.seats.values_list("number", flat=True)) == list(range(1, table.size + 1))


def test_five_players_cannot_be_drawn_and_nothing_is_written():
    t = factories.tournament()
    factories.registered(t, 5)
    with pytest.raises(RuleError) as raised:
        draw_series(t)
    assert raised.value.field == "players"
    assert not t.series.exists()


def test_the_next_series_needs_the_last_one_finished_and_a_series_left():
    t, first = factories.drawn(8, series_count=2)
    with pytest.raises(RuleError, match="finish series 1"):
        draw_series(t)
    first.status = Series.Status.FINISHED
    first.save()
    second = draw_series(t, Series.Method.SEEDED, provisional=True)
    assert second.number == 2
    second.status = Series.Status.FINISHED
    second.save()
    with pytest.raises(RuleError, match="all 2 series"):
        draw_series(t)


def test_a_later_series_keeps_players_who_met_apart():
    t, first = factories.drawn(24, series_count=2)
    first.status = Series.Status.FINISHED
    first.save()
    second = draw_series(t)
    assert second.repeat_meetings == 0
    before = {}
    for table in first.tables.all():
        for seat in table.seats.all():
            before[seat.player_id] = table.pk
    for table in second.tables.all():
        old_tables = [before[s.player_id] for s in table.seats.all()]
        assert len(set(old_tables)) == len(old_tables)


def test_late_entries_and_withdrawals_change_the_next_draw():
    t, first = factories.drawn(8, series_count=2)
    first.status = Series.Status.FINISHED
    first.save()
    gone = Registration.objects.filter(tournament=t).first()
    gone.withdrawn_after_series = 1
    gone.save()
    late = Registration.objects.create(tournament=t, player=factories.player("Late"), first_series=2)
    second = draw_series(t, Series.Method.SEEDED, provisional=True)
    seated = set(seat_map(second))
    assert late.player_id in seated and gone.player_id not in seated
    assert len(seated) == 8


def test_swapping_two_players_exchanges_their_seats():
    _t, series = factories.drawn(8)
    seats = seat_map(series)
    a, b = sorted(seats)[:2]
    swap_players(series, a, b)
    after = seat_map(series)
    assert after[a] == seats[b] and after[b] == seats[a]


def test_moving_a_player_keeps_tables_of_three_and_four():
    _t, series = factories.drawn(7)  # a table of four and one of three
    four, three = series.tables.order_by("-size")
    mover = four.seats.get(number=2).player_id
    move_player(series, mover, three)
    four.refresh_from_db()
    three.refresh_from_db()
    assert (four.size, three.size) == (3, 4)
    assert list(four.seats.values_list("number", flat=True)) == [1, 2, 3]
    assert three.seats.get(player_id=mover).number == 4
    # Now table "four" has three players: moving one away would leave two.
    with pytest.raises(RuleError, match="tables have 3 or 4") as raised:
        move_player(series, four.seats.get(number=1).player_id, three)
    assert raised.value.paragraph == "3.2.7"
    four.refresh_from_db()
    assert four.size == 3 and four.seats.count() == 3


def test_seats_are_fixed_once_the_series_has_games():
    _t, series = factories.drawn(8)
    table = series.tables.first()
    factories.game(table, 1, passed_out=True)
    a, b = sorted(seat_map(series))[:2]
    with pytest.raises(RuleError, match="before the series starts"):
        swap_players(series, a, b)


def test_swap_and_move_refuse_strangers():
    _t, series = factories.drawn(8)
    stranger = factories.player()
    some = next(iter(seat_map(series)))
    with pytest.raises(RuleError):
        swap_players(series, some, stranger.pk)
    with pytest.raises(RuleError):
        swap_players(series, some, some)
    with pytest.raises(RuleError):
        move_player(series, stranger.pk, series.tables.first())


def test_the_largest_tournament_seed_still_draws():
    # The draw seed derives from the tournament's; it must fit the 32-bit column (PostgreSQL).
    t = factories.tournament(lot_seed=2**31 - 1)
    factories.registered(t, 6)
    series = draw_series(t)
    series.refresh_from_db()
    assert 0 <= series.seed < 2**31


def test_a_seeded_draw_on_unconfirmed_sheets_says_so_and_draws_nothing():
    """The standings a seeded draw uses are provisional while a sheet is unconfirmed."""

    t = factories.tournament(series_count=2)
    factories.registered(t, 8)
    first = draw_series(t)
    Series.objects.filter(pk=first.pk).update(status=Series.Status.FINISHED)
    with pytest.raises(ProvisionalSeeding) as refused:
        draw_series(t, Series.Method.SEEDED)
    assert refused.value.tables == [(1, 1), (1, 2)]
    assert t.series.count() == 1
    # A random draw does not rest on the standings; the director's word seeds anyway.
    assert draw_series(t, Series.Method.SEEDED, provisional=True).method == Series.Method.SEEDED

"""Drawing a series again before a deal is entered (draw.redraw)."""

from __future__ import annotations

import pytest

from draw.redraw import redraw_series
from draw.series import draw_series
from skat.rules import RuleError
from tests import factories
from tournaments.models import Registration, Seat, Table

pytestmark = pytest.mark.django_db


def seating(series) -> list[tuple[int, int, int]]:
    return sorted(Seat.objects.filter(series=series).values_list("table__number", "number", "player_id"))


def test_a_redraw_seats_the_same_players_anew_with_a_new_seed_and_new_links():
    _t, series = factories.drawn(13)
    before, tokens, seed = seating(series), set(series.tables.values_list("token", flat=True)), series.seed
    change = redraw_series(series)
    series.refresh_from_db()
    assert series.seed != seed
    assert seating(series) != before
    assert {p for _t, _s, p in seating(series)} == {p for _t, _s, p in before}
    assert sorted(series.tables.values_list("size", flat=True)) == [3, 3, 3, 4]
    assert set(series.tables.values_list("token", flat=True)).isdisjoint(tokens)
    assert change.reprint == [1, 2, 3, 4]


def test_a_redraw_seats_the_late_arrivals_present_and_leaves_out_the_no_shows():
    t, series = factories.drawn(8)
    Registration.objects.filter(tournament=t).update(present=True)
    gone = Registration.objects.filter(tournament=t).first()
    Registration.objects.filter(pk=gone.pk).update(present=False)
    late = Registration.objects.create(tournament=t, player=factories.player("Late Larry"), present=True)
    redraw_series(series)
    players = {p for _t, _s, p in seating(series)}
    assert late.player_id in players and gone.player_id not in players


def test_a_redraw_keeps_earlier_meetings_apart_as_the_draw_does():
    t = factories.tournament(series_count=2)
    factories.registered(t, 16)
    first = draw_series(t)
    factories.play_series(first)
    second = draw_series(t)
    redraw_series(second)
    second.refresh_from_db()
    assert second.repeat_meetings == 0  # 16 players over 4 tables can avoid every earlier pair


def test_a_redraw_is_refused_once_any_deal_is_entered_and_changes_nothing():
    _t, series = factories.drawn(8)
    factories.game(Table.objects.get(series=series, number=2), 1, passed_out=True)
    before = seating(series)
    with pytest.raises(RuleError, match="deals are entered at tables 2"):
        redraw_series(series)
    assert seating(series) == before


def test_a_finished_series_is_not_drawn_again():
    _t, series = factories.drawn(8)
    series.status = series.Status.FINISHED
    series.save()
    with pytest.raises(RuleError, match="series 1 is finished"):
        redraw_series(series)

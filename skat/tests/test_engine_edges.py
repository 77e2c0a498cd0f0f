"""Edges of the engine that the office's pages reach but the rule tests above did not:
here without Django, so the engine's own tests cover every branch of it."""

from __future__ import annotations

import runpy
import sys
from decimal import Decimal as D

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skat import draw, fees, league
from skat.paperline import parse_line

from .test_fees import RULES


def test_list_fee_refund_refuses_series_numbered_below_1():
    with pytest.raises(fees.FeeError, match="first_series: series are numbered from 1"):
        fees.list_fee_refund(RULES, series_count=3, first_series=0, withdrawn_after=0)


TABLES = st.builds(
    lambda size, lost, passed, entry, listed: fees.TableCounts(
        size=size, lost=tuple(lost[:size]), passed_out=passed, entry_due=min(entry, size), list_due=min(listed, size)
    ),
    st.sampled_from([3, 4]),
    st.lists(st.integers(0, 12), min_size=4, max_size=4),
    st.integers(0, 12),
    st.integers(0, 4),
    st.integers(0, 4),
)


@given(st.lists(TABLES, max_size=8))
def test_the_counted_account_of_many_tables_is_the_sum_of_their_seat_by_seat_accounts(tables):
    """tables_account counts instead of walking every seat: the same money."""
    expected = fees.Account()
    for table in tables:
        seats = table.size
        expected += fees.Account.of(
            fees.table_account(
                RULES,
                size=seats,
                lost=table.lost,
                places=list(range(1, seats + 1)),
                passed_out=table.passed_out,
                entry_due=[seat < table.entry_due for seat in range(seats)],
                list_due=[seat < table.list_due for seat in range(seats)],
            )
        )
    assert fees.tables_account(RULES, tables) == expected


def test_two_tables_with_as_many_passed_out_deals_both_pay_them():
    """A worked example beside the property above (which finds the same mistake only after
    seconds of shrinking): the passed-out fees are counted per table, not once per kind."""
    table = fees.TableCounts(size=4, lost=(0, 0, 0, 0), passed_out=6, entry_due=0, list_due=0)
    one = fees.tables_account(RULES, [table])
    assert one.passed_out_fees > 0
    assert fees.tables_account(RULES, [table, table]).passed_out_fees == 2 * one.passed_out_fees


def test_the_counted_account_refuses_wrong_shapes():
    with pytest.raises(fees.FeeError, match="size"):
        fees.tables_account(RULES, [fees.TableCounts(size=5, lost=(0,) * 5, passed_out=0, entry_due=0, list_due=0)])
    with pytest.raises(fees.FeeError, match="seats"):
        fees.tables_account(RULES, [fees.TableCounts(size=4, lost=(0,) * 3, passed_out=0, entry_due=0, list_due=0)])


TEAMS = {"Kreuz Bube": ["A1"], "Herz Dame": ["B1"]}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"teams": TEAMS, "lot_seed": 1.5, "series": [[]]}, "lot_seed: must be a whole number or a text"),
        ({"teams": TEAMS, "lot_seed": True, "series": [[]]}, "lot_seed: must be a whole number or a text"),
        (
            {"teams": {"Kreuz Bube": ["A1"], "Herz Dame": ["B1", 7]}, "series": [[]]},
            "teams, Herz Dame: must be a list",
        ),
        ({"teams": {"Kreuz Bube": ["A1"], "Herz Dame": " "}, "series": [[]]}, "teams, Herz Dame: must be a list"),
    ],
)
def test_a_match_day_names_the_field_it_refuses(data, message):
    with pytest.raises(league.LeagueError, match=message):
        league.evaluate_match_day(data)


def test_a_player_listed_as_meeting_himself_is_no_meeting():
    entrants = [draw.Entrant(id=n) for n in range(8)]
    with_self = draw.draw(entrants, seed=3, met=[(1, 1), (2, 2)])
    assert with_self.tables == draw.draw(entrants, seed=3).tables
    assert with_self.repeat_meetings == 0


def test_the_conflicts_of_a_table_weigh_teams_clubs_and_meetings():
    entrants = [draw.Entrant(id=1, club="SC"), draw.Entrant(id=2, club="SC"), draw.Entrant(id=3, team="T")]
    weighed = draw.conflicts([*entrants, draw.Entrant(id=4, team="T")], met=[(1, 3)])
    assert weighed.table([1, 2]) > 0 and weighed.table([3, 4]) >= draw.TEAM_WEIGHT
    assert weighed.against(1, [3]) > 0 and weighed.against(1, [1]) == 0
    assert weighed.table([2, 4]) == 0


def test_the_draw_stops_improving_after_its_rounds_even_while_it_still_could():
    """One round at most: the draw ends with what it has (max_rounds bounds the work).
    Three teams of four on three tables cannot all be kept apart: a round always swaps."""
    entrants = [draw.Entrant(id=n, team=n // 4) for n in range(12)]
    result = draw.draw(entrants, seed=3, max_rounds=1)
    assert result.swaps > 0
    assert sorted(p for table in result.tables for p in table) == list(range(12))


def test_a_lost_null_game_may_give_its_tricks():
    assert parse_line("2nv 0/3").declarer_tricks == 3


def test_python_m_skat_runs_the_command_line_tool(monkeypatch, capsys, tmp_path):
    games = tmp_path / "games.jsonl"
    games.write_text('{"contract": "clubs", "tops": 1, "declarer_points": 61}\n', encoding="utf-8")
    monkeypatch.setattr(sys, "argv", ["skat", str(games)])
    with pytest.raises(SystemExit) as exited:
        runpy.run_module("skat", run_name="__main__")
    assert exited.value.code == 0
    assert '"value": 24' in capsys.readouterr().out


def test_decimal_sums_stay_exact():
    assert fees.Account(list_fees=D("0.10")) + fees.Account(list_fees=D("0.20")) == fees.Account(list_fees=D("0.30"))

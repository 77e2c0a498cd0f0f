"""What a player's line of a ranking over many tournaments shows (skat/yearly.py): each
series' own result with its tournament, the dropped results in the order they were held,
and nothing for a player who played nothing. Figures worked out by hand in each docstring."""

from __future__ import annotations

from skat.yearly import Entry, Held, Rules, SeriesResult, compute, line_of

HELD = [Held("E1", (1, 2)), Held("E2", (1, 2)), Held("E3", (1, 2))]


def test_game_points_per_series_are_each_series_own_game_points():
    """Game points (the declarer's scores alone, 5.5.1) per series: Anna's 240 and 130 on E1
    and 310 on E2 are three results, 240 + 130 + 310 = 680; her ratings (999) do not count."""
    entries = {
        "Anna": [
            Entry("E1", 1, (SeriesResult(1, 999, 240, 1), SeriesResult(2, 999, 130, 2))),
            Entry("E2", 1, (SeriesResult(1, 999, 310, 1),)),
        ]
    }
    (line,) = compute(Rules(counts="game_points", unit="series"), HELD[:2], entries)
    assert line.value == 680
    assert [(r.tournament, r.series, r.value) for r in line.counted] == [
        ("E1", 1, 240),
        ("E1", 2, 130),
        ("E2", 1, 310),
    ]
    assert line.missed == 1  # E2's second series


def test_dropped_results_are_listed_in_the_order_held_not_by_value():
    """Best 1 of 3 by rating: Bert 100 on E1, 300 on E2, 500 on E3. E3 counts; E1 and E2
    are dropped and listed as held, E1 first (by value E2 would come first)."""
    entries = {
        "Bert": [
            Entry("E1", 3, (SeriesResult(1, 100, 0, 3),)),
            Entry("E2", 2, (SeriesResult(1, 300, 0, 2),)),
            Entry("E3", 1, (SeriesResult(1, 500, 0, 1),)),
        ]
    }
    (line,) = compute(Rules(best=1, planned=3), HELD, entries)
    assert line.value == 500 and [r.tournament for r in line.counted] == ["E3"]
    assert [(r.tournament, r.value) for r in line.dropped] == [("E1", 100), ("E2", 300)]


def test_a_player_who_played_nothing_has_nothing_for_any_tie_break():
    """No result: nothing counted, nothing played, no best and no latest result (0 each),
    three results missed at a penalty of 10 each: -30."""
    rules = Rules(penalty=10, tie_breaks=("counted", "played", "best", "latest"))
    line = line_of(rules, "Carl", [], 3)
    assert line.tie_key == (0, 0, 0, 0)
    assert (line.value, line.missed, line.penalty, line.played) == (-30, 3, 30, 0)
    assert line.counted == () and line.dropped == ()


def test_players_short_of_the_minimum_are_listed_by_results_played_then_figure_then_name():
    """Minimum 3 of 3 evenings, nobody reaches it. Listed without a place: Lena (2 played),
    then those with one evening: Bea and Karl (5000 each, by name), Max (100); Uwe (none) last."""
    entries = {
        "Uwe": [],
        "Max": [Entry("E1", 3, (SeriesResult(1, 100, 0, 3),))],
        "Karl": [Entry("E2", 1, (SeriesResult(1, 5000, 0, 1),))],
        "Lena": [Entry("E1", 1, (SeriesResult(1, 500, 0, 1),)), Entry("E2", 2, (SeriesResult(1, 500, 0, 2),))],
        "Bea": [Entry("E3", 1, (SeriesResult(1, 5000, 0, 1),))],
    }
    lines = compute(Rules(minimum=3), HELD, entries)
    assert [(line.person, line.place) for line in lines] == [
        ("Lena", None),
        ("Bea", None),
        ("Karl", None),
        ("Max", None),
        ("Uwe", None),
    ]

"""Rankings over many tournaments (skat/yearly.py): each rule on a worked example by hand.

Every expected figure below is computed in the docstring or a comment from the results
written out in the test, not by calling the module's own helpers.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from skat.yearly import (
    Entry,
    Held,
    RankingRuleError,
    Rules,
    SeriesResult,
    as_text,
    compute,
)

#: Three club evenings of two series each.
HELD = [Held("E1", (1, 2)), Held("E2", (1, 2)), Held("E3", (1, 2))]


def evening(key: str, place: int, *series: tuple[int, int, int]) -> Entry:
    """An evening's result: ``series`` as (rating, game points, place in the series)."""
    return Entry(key, place, tuple(SeriesResult(n, r, g, p) for n, (r, g, p) in enumerate(series, start=1)))


def by_person(lines):
    return {line.person: line for line in lines}


def test_sum_of_every_tournament_by_rating():
    """Anna: 1000+900 on E1, 800+700 on E2 -> 1900 + 1500 = 3400; Bert: 1200+1100 on E1 -> 2300,
    and nothing else. Everything counts: Anna first with 3400, Bert second with 2300."""
    entries = {
        "Anna": [evening("E1", 2, (1000, 400, 2), (900, 300, 1)), evening("E2", 1, (800, 200, 1), (700, 100, 1))],
        "Bert": [evening("E1", 1, (1200, 500, 1), (1100, 450, 2))],
    }
    lines = compute(Rules(), HELD[:2], entries)
    assert [(line.person, line.place, line.value) for line in lines] == [("Anna", 1, 3400), ("Bert", 2, 2300)]
    assert by_person(lines)["Bert"].missed == 1 and by_person(lines)["Bert"].dropped == ()


def test_best_two_of_three_drops_the_worst_evening_and_reports_it():
    """Game points per evening: Carl 300, 100, 500 -> best two 500 + 300 = 800, E2's 100 dropped."""
    entries = {
        "Carl": [
            evening("E1", 3, (0, 200, 3), (0, 100, 3)),
            evening("E2", 3, (0, 40, 3), (0, 60, 3)),
            evening("E3", 1, (0, 250, 1), (0, 250, 1)),
        ]
    }
    (line,) = compute(Rules(counts="game_points", best=2, planned=3), HELD, entries)
    assert line.value == 800
    assert [(r.tournament, r.value) for r in line.counted] == [("E1", 300), ("E3", 500)]
    assert [(r.tournament, r.value) for r in line.dropped] == [("E2", 100)]


def test_equal_results_drop_the_later_one():
    """Two evenings of 300 and best 1: the earlier one counts (a result kept is never moved)."""
    entries = {"Dora": [evening("E1", 1, (300, 0, 1)), evening("E2", 1, (300, 0, 1))]}
    (line,) = compute(Rules(best=1), HELD[:2], entries)
    assert [r.tournament for r in line.counted] == ["E1"] and [r.tournament for r in line.dropped] == ["E2"]


def test_average_per_series_with_a_penalty_per_missed_series():
    """Six series held. Emil played four: 1000, 800, 600, 500 -> average 2900 / 4 = 725,
    two missed at 50 each -> 725 - 100 = 625. Fritz played all six at 700 -> 700."""
    entries = {
        "Emil": [evening("E1", 1, (1000, 0, 1), (800, 0, 1)), evening("E2", 2, (600, 0, 2), (500, 0, 2))],
        "Fritz": [evening(e, 1, (700, 0, 1), (700, 0, 1)) for e in ("E1", "E2", "E3")],
    }
    lines = by_person(compute(Rules(unit="series", aggregate="average", penalty=50), HELD, entries))
    assert lines["Emil"].value == 625 and lines["Emil"].missed == 2 and lines["Emil"].penalty == 100
    assert lines["Fritz"].value == 700 and lines["Fritz"].place == 1 and lines["Emil"].place == 2


def test_an_average_keeps_its_fraction_and_prints_two_decimals():
    """1000 + 801 + 0 over three series = 1801 / 3 = 600.333... -> "600.33"."""
    entries = {"Gina": [evening("E1", 1, (1000, 0, 1), (801, 0, 1)), evening("E2", 1, (0, 0, 1))]}
    (line,) = compute(Rules(unit="series", aggregate="average"), HELD[:2], entries)
    assert line.value == Fraction(1801, 3) and as_text(line.value) == "600.33"


def test_printing_rounds_half_away_from_zero():
    assert as_text(Fraction(1, 8)) == "0.13"
    assert as_text(Fraction(-1, 8)) == "-0.13"
    assert as_text(Fraction(-7)) == "-7"


def test_points_per_place_from_the_table_and_zero_beyond_it():
    """Table 25, 20, 16. Hans: places 1 and 4 -> 25 + 0 = 25; Ida: 2 and 2 -> 40."""
    entries = {
        "Hans": [evening("E1", 1, (9, 9, 1)), evening("E2", 4, (9, 9, 4))],
        "Ida": [evening("E1", 2, (1, 1, 2)), evening("E2", 2, (1, 1, 2))],
    }
    lines = compute(Rules(counts="place_points", place_points=(25, 20, 16)), HELD[:2], entries)
    assert [(line.person, line.value) for line in lines] == [("Ida", 40), ("Hans", 25)]


def test_points_per_series_place():
    """Per series: Jan places 1, 3 -> 10 + 6 = 16 with the table 10, 8, 6."""
    entries = {"Jan": [evening("E1", 2, (0, 0, 1), (0, 0, 3))]}
    (line,) = compute(Rules(counts="place_points", unit="series", place_points=(10, 8, 6)), HELD[:1], entries)
    assert line.value == 16 and [r.series for r in line.counted] == [1, 2]


def test_the_minimum_lists_the_others_unranked_after_the_ranked():
    """Minimum 2 evenings: Karl (one evening, 5000) is listed after Lena (two, 1000) without a place."""
    entries = {
        "Karl": [evening("E1", 1, (5000, 0, 1))],
        "Lena": [evening("E1", 2, (500, 0, 2)), evening("E2", 1, (500, 0, 1))],
        "Max": [evening("E2", 2, (100, 0, 2))],
    }
    lines = compute(Rules(minimum=2), HELD[:2], entries)
    assert [(line.person, line.place) for line in lines] == [("Lena", 1), ("Karl", None), ("Max", None)]
    assert not lines[1].ranked and lines[0].ranked


def test_players_equal_on_everything_share_the_place():
    """Nora and Otto both 600 over one evening, Paul 500: places 1, 1, 3, listed by name."""
    entries = {
        "Otto": [evening("E1", 1, (600, 0, 1))],
        "Nora": [evening("E1", 1, (600, 0, 1))],
        "Paul": [evening("E1", 3, (500, 0, 3))],
    }
    lines = compute(Rules(), HELD[:1], entries)
    assert [(line.person, line.place, line.shared) for line in lines] == [
        ("Nora", 1, True),
        ("Otto", 1, True),
        ("Paul", 3, False),
    ]


def test_tie_breaks_in_the_order_given():
    """Equal sums of 1000: Quirin 1000 on one evening, Rita 500 + 500 on two.
    "counted" first: Rita (2 counted) before Quirin (1). "best" first: Quirin (best 1000)."""
    entries = {
        "Quirin": [evening("E1", 1, (1000, 0, 1))],
        "Rita": [evening("E1", 2, (500, 0, 2)), evening("E2", 1, (500, 0, 1))],
    }
    by_counted = compute(Rules(tie_breaks=("counted", "best")), HELD[:2], entries)
    assert [(line.person, line.decided_by) for line in by_counted] == [("Rita", None), ("Quirin", "counted")]
    by_best = compute(Rules(tie_breaks=("best",)), HELD[:2], entries)
    assert [(line.person, line.decided_by) for line in by_best] == [("Quirin", None), ("Rita", "best")]


def test_played_and_latest_tie_breaks():
    """Best 1 of two evenings, both at 700. Sven played both (E2: 100), Tina only E2 (700).
    "played": Sven (2) before Tina (1). "latest": Tina (700 on E2) before Sven (100 on E2)."""
    entries = {
        "Sven": [evening("E1", 1, (700, 0, 1)), evening("E2", 2, (100, 0, 2))],
        "Tina": [evening("E2", 1, (700, 0, 1))],
    }
    played = compute(Rules(best=1, tie_breaks=("played",)), HELD[:2], entries)
    assert [(line.person, line.decided_by) for line in played] == [("Sven", None), ("Tina", "played")]
    latest = compute(Rules(best=1, tie_breaks=("latest",)), HELD[:2], entries)
    assert [(line.person, line.decided_by) for line in latest] == [("Tina", None), ("Sven", "latest")]


def test_a_player_with_no_results_is_listed_unranked():
    (line,) = compute(Rules(), HELD[:1], {"Uwe": []})
    assert line.place is None and line.value == 0 and line.missed == 1


@pytest.mark.parametrize(
    ("rules", "field", "words"),
    [
        (Rules(best=8, planned=5), "best", "best 8 of 5"),
        (Rules(penalty=-5), "penalty", "negative"),
        (Rules(minimum=-1), "minimum", "negative"),
        (Rules(minimum=6, planned=5), "minimum", "6 results of 5"),
        (Rules(best=0), "best", "at least 1"),
        (Rules(planned=True), "planned", "at least 1"),
        (Rules(counts="wins"), "counts", "'wins'"),
        (Rules(unit="evening"), "unit", "'evening'"),
        (Rules(aggregate="median"), "aggregate", "'median'"),
        (Rules(counts="place_points"), "place_points", "first place"),
        (Rules(counts="place_points", place_points=(10, -1)), "place_points", "negative"),
        (Rules(tie_breaks=("lot",)), "tie_breaks", "'lot'"),
        (Rules(tie_breaks=("best", "best")), "tie_breaks", "once"),
    ],
)
def test_rules_that_cannot_be_computed_are_refused_naming_the_field(rules, field, words):
    with pytest.raises(RankingRuleError) as refused:
        compute(rules, HELD, {})
    assert refused.value.field == field and words in str(refused.value)


def test_more_held_than_planned_is_refused():
    with pytest.raises(RankingRuleError, match="planned: 3 results are held, more than the 2 planned"):
        compute(Rules(planned=2), HELD, {})


def test_a_tournament_twice_is_refused():
    with pytest.raises(RankingRuleError, match="tournaments: a tournament is in the ranking twice"):
        compute(Rules(), [HELD[0], HELD[0]], {})


@pytest.mark.parametrize("unit", ["tournament", "series"])
def test_a_result_of_a_tournament_not_held_is_refused(unit):
    with pytest.raises(RankingRuleError, match="tournaments: a result of Vera"):
        compute(Rules(unit=unit), HELD[:1], {"Vera": [evening("E9", 1, (1, 1, 1))]})


# Worked examples that tell line_of's arithmetic from three plausible slips: best N not
# capped by the results held so far, the "best" tie-break reading the worst counted
# result, an average over every result played instead of the counted ones.


def test_best_n_with_a_penalty_counts_only_the_results_held_so_far():
    """Best 3 of 5 planned, 20 per missed result; two evenings held so far.
    Results that should count: min(3, 2) = 2, not 3 (E3 to E5 are not played yet).
    Willi played E1 only (600): missed 2 - 1 = 1 -> penalty 1 x 20 = 20 -> 600 - 20 = 580.
    Xaver played both (300, 200): missed 0 -> 300 + 200 = 500, no penalty."""
    entries = {
        "Willi": [evening("E1", 1, (600, 0, 1))],
        "Xaver": [evening("E1", 2, (300, 0, 2)), evening("E2", 1, (200, 0, 1))],
    }
    lines = by_person(compute(Rules(best=3, planned=5, penalty=20), HELD[:2], entries))
    assert (lines["Willi"].missed, lines["Willi"].penalty, lines["Willi"].value) == (1, 20, 580)
    assert (lines["Xaver"].missed, lines["Xaver"].penalty, lines["Xaver"].value) == (0, 0, 500)


def test_an_average_of_the_best_n_divides_by_the_counted_results_only():
    """Best 2 of 3, average. Yvonne: 600, 200, 400 -> counted 600 and 400, 200 dropped:
    (600 + 400) / 2 = 500 (not 1000 / 3 over all three played)."""
    entries = {
        "Yvonne": [
            evening("E1", 1, (600, 0, 1)),
            evening("E2", 2, (200, 0, 2)),
            evening("E3", 1, (400, 0, 1)),
        ]
    }
    (line,) = compute(Rules(best=2, planned=3, aggregate="average"), HELD, entries)
    assert line.value == 500 and as_text(line.value) == "500"
    assert [r.value for r in line.counted] == [600, 400] and [r.value for r in line.dropped] == [200]


def test_the_best_tie_break_reads_the_highest_counted_result():
    """Equal sums of 1000 over two evenings each. Zora 700 + 300, Albert 400 + 600.
    "best": Zora's best 700 beats Albert's best 600, so Zora is first
    (their worst, 300 and 400, would put Albert first)."""
    entries = {
        "Albert": [evening("E1", 2, (400, 0, 2)), evening("E2", 1, (600, 0, 1))],
        "Zora": [evening("E1", 1, (700, 0, 1)), evening("E2", 2, (300, 0, 2))],
    }
    lines = compute(Rules(tie_breaks=("best",)), HELD[:2], entries)
    assert [(line.person, line.value, line.place, line.decided_by) for line in lines] == [
        ("Zora", 1000, 1, None),
        ("Albert", 1000, 2, "best"),
    ]

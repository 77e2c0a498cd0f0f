"""Every refusal of a ranking's rules (skat/yearly.py) in full: the field and the words, as
the rankings pages show them, and the untranslated template with its parameters, from
which the pages show the message in the reader's language."""

from __future__ import annotations

import pytest

from skat.yearly import Entry, Held, RankingRuleError, Rules, SeriesResult, compute

HELD = [Held("E1", (1, 2)), Held("E2", (1, 2)), Held("E3", (1, 2))]


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        (Rules(counts="wins"), "counts: must be one of rating, game_points, place_points, not 'wins'"),
        (Rules(unit="evening"), "unit: must be one of tournament, series, not 'evening'"),
        (Rules(aggregate="median"), "aggregate: must be one of sum, average, not 'median'"),
        (Rules(best=0), "best: must be at least 1 (or empty), not 0"),
        (Rules(best=2.5), "best: must be at least 1 (or empty), not 2.5"),
        (Rules(planned=True), "planned: must be at least 1 (or empty), not True"),
        (Rules(best=8, planned=5), "best: best 8 of 5 cannot be counted"),
        (Rules(minimum=-1), "minimum: must not be negative, not -1"),
        (Rules(penalty="5"), "penalty: must not be negative, not '5'"),
        (Rules(minimum=6, planned=5), "minimum: 6 results of 5 planned cannot be reached"),
        (Rules(counts="place_points"), "place_points: points per place need at least the first place's points"),
        (
            Rules(counts="place_points", place_points=(10, -1)),
            "place_points: the points of a place must not be negative",
        ),
        (
            Rules(counts="place_points", place_points=(10, 1.5)),
            "place_points: the points of a place must not be negative",
        ),
        (
            Rules(tie_breaks=("best", "lot", "dice")),
            "tie_breaks: must be among counted, played, best, latest, not 'lot'",
        ),
        (Rules(tie_breaks=("best", "best")), "tie_breaks: each tie-break may be named once"),
    ],
)
def test_rules_that_cannot_be_computed_are_refused_in_full(rules, message):
    with pytest.raises(RankingRuleError) as refused:
        compute(rules, HELD, {})
    assert str(refused.value) == message
    assert f"{refused.value.field}: {refused.value.message}" == message


def test_a_refusal_keeps_its_template_and_parameters_for_translation():
    with pytest.raises(RankingRuleError) as refused:
        Rules(best=8, planned=5).check()
    error = refused.value
    assert error.template == "best {best} of {planned} cannot be counted"
    assert error.params == {"best": 8, "planned": 5}
    assert error.template.format(**error.params) == error.message == "best 8 of 5 cannot be counted"


@pytest.mark.parametrize(
    ("held", "entries", "rules", "message"),
    [
        (HELD, {}, Rules(planned=2), "planned: 3 results are held, more than the 2 planned"),
        ([HELD[0], HELD[0]], {}, Rules(), "tournaments: a tournament is in the ranking twice"),
        (
            HELD[:1],
            {"Vera": [Entry("E9", 1, (SeriesResult(1, 1, 1, 1),))]},
            Rules(),
            "tournaments: a result of Vera is in a tournament not held",
        ),
        (
            HELD[:1],
            {"Vera": [Entry("E1", 1, (SeriesResult(3, 1, 1, 1),))]},
            Rules(unit="series"),
            "tournaments: a result of Vera is in a tournament not held",
        ),
    ],
)
def test_results_that_do_not_fit_the_tournaments_held_are_refused_in_full(held, entries, rules, message):
    with pytest.raises(RankingRuleError) as refused:
        compute(rules, held, entries)
    assert str(refused.value) == message


@pytest.mark.parametrize(
    "rules",
    [
        Rules(best=5, planned=5),  # best 5 of 5: every result counts
        Rules(minimum=5, planned=5),  # every result planned must be played
        Rules(counts="place_points", place_points=(10, 5, 0)),  # a place worth nothing
        Rules(minimum=0, penalty=0, best=1),
    ],
)
def test_rules_at_their_limits_are_accepted(rules):
    assert rules.check() is rules
    assert compute(rules, HELD, {}) == []

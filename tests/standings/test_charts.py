"""The running-score chart's layout, shared by the SVG page and the PDF appendix, computed by hand."""

from __future__ import annotations

import pytest

from standings.charts import Box, chart_layout, nice_step

#: Anna of test_statistics' small tournament: +24, +23 in series 1, +50 in series 2.
ANNA = [(1, 1, 24), (1, 2, 24), (1, 3, 47), (2, 1, 47), (2, 2, 97), (2, 3, 97)]


def test_svg_coordinates_y_down():
    layout = chart_layout(ANNA, Box(left=0, top=0, right=60, bottom=100))
    # Totals 0..97: step nice_step(97) = 20, so the axis runs 0..100 and y = 100 - value.
    assert (layout.low, layout.high, layout.step) == (0, 100, 20)
    assert layout.line == [(0, 100), (10, 76), (20, 76), (30, 53), (40, 53), (50, 3), (60, 3)]
    assert layout.y_ticks == [(0, 100), (20, 80), (40, 60), (60, 40), (80, 20), (100, 0)]
    assert layout.zero == 100
    assert layout.boundaries == [(1, 0), (2, 30)]
    assert layout.x_ticks == [], "no series reached its 12th deal"


def test_pdf_coordinates_y_up_in_an_offset_box():
    """On a canvas the top edge has the larger y: the same function maps the highest value there."""
    layout = chart_layout(ANNA, Box(left=100, top=300, right=160, bottom=200))
    assert layout.line == [(100, 200), (110, 224), (120, 224), (130, 247), (140, 247), (150, 297), (160, 297)]
    assert layout.y_ticks[0] == (0, 200) and layout.y_ticks[-1] == (100, 300)
    assert layout.boundaries == [(1, 100), (2, 130)]


def test_all_negative_totals_put_zero_at_the_top():
    points = [(1, 1, -10), (1, 2, -50), (1, 3, -43)]
    layout = chart_layout(points, Box(0, 0, 30, 50))
    # Span 50: step 10; low -50, high 0; y = 50 * (0 - value) / 50 = -value.
    assert (layout.low, layout.high, layout.step) == (-50, 0, 10)
    assert layout.line == [(0, 0), (10, 10), (20, 50), (30, 43)]
    assert [value for value, _y in layout.y_ticks] == [-50, -40, -30, -20, -10, 0]
    assert layout.zero == 0


def test_a_player_who_never_declared_gets_a_flat_line_on_a_unit_axis():
    points = [(1, n, 0) for n in range(1, 5)]
    layout = chart_layout(points, Box(0, 0, 40, 10))
    assert (layout.low, layout.high, layout.step) == (0, 1, 1)
    assert layout.line == [(0, 10), (10, 10), (20, 10), (30, 10), (40, 10)]
    assert layout.zero == 10


def test_a_single_game():
    layout = chart_layout([(3, 1, 24)], Box(0, 0, 10, 50))
    assert (layout.low, layout.high, layout.step) == (0, 25, 5)
    assert layout.line == [(0, 50), (10, 2)]
    assert layout.boundaries == [(3, 0)]


def test_no_deals_no_layout():
    assert chart_layout([], Box(0, 0, 10, 10)) is None


def test_every_twelfth_deal_is_ticked_and_labels_thinned_to_the_gap():
    points = [(s, d, 0) for s in (1, 2) for d in range(1, 49)]  # 96 deals over 96 points
    layout = chart_layout(points, Box(0, 0, 96, 10))
    assert [(deal, x) for deal, x, _labelled in layout.x_ticks] == [
        (12, 12),
        (24, 24),
        (36, 36),
        (48, 48),
        (12, 60),
        (24, 72),
        (36, 84),
        (48, 96),
    ]
    assert all(labelled for *_rest, labelled in layout.x_ticks)
    # Ticks 12 points apart, labels at least 20 apart: every other one, 24 and 48.
    thinned = chart_layout(points, Box(0, 0, 96, 10), label_gap=20)
    assert [deal for deal, _x, labelled in thinned.x_ticks if labelled] == [24, 48, 24, 48]


@pytest.mark.parametrize(("ticks", "step"), [(5, 200), (4, 500), (2, 500)])
def test_fewer_ticks_give_larger_steps(ticks, step):
    assert nice_step(1000, ticks) == step

"""The ranking list's appendix: one running-score chart per player, in ranking order."""

from __future__ import annotations

import io
import re

import pytest
from django.utils import translation
from pypdf import PdfReader

from printing.documents import APPENDIX_PLACES, standings_pdf, within_series
from printing.documents import appendix as sheet
from standings.charts import Box, chart_layout
from standings.places import standings
from standings.statistics import running_scores
from tests import factories
from tests.printing.test_pdf import pages, play
from tests.transfer.test_exports import finished_tournament
from tournaments.models import Seat, Series, Table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def pdf(t, **options) -> bytes:
    out = io.BytesIO()
    standings_pdf(t, out=out, **options)
    return out.getvalue()


@pytest.fixture
def open_120():
    """120 players at 30 tables of four, four deals each: 3 ranking pages."""
    t = factories.tournament()
    series = Series.objects.create(tournament=t, number=1)
    for number in range(1, 31):
        table = Table.objects.create(series=series, number=number, size=4)
        for seat in range(1, 5):
            Seat.objects.create(table=table, series=series, number=seat, player=factories.player())
        play(table, deals=4, seed=number)
    return t


def titles(page: str) -> list[tuple[str, str]]:
    """(place and name, final game points) of each chart on an appendix page, in reading order."""
    return re.findall(r"^(\d+\. .+?) (-?\d+) game points$", page, flags=re.MULTILINE)


def test_the_first_100_places_by_default_in_ranking_order(open_120):
    t = open_120
    ranked = standings(t)
    text = pages(pdf(t))
    charted = [e for e in ranked if e.place <= APPENDIX_PLACES]
    assert len(charted) == 100
    assert len(text) == 3 + 10
    appendix = text[3:]
    for i, page in enumerate(appendix, start=4):
        assert page.startswith("Running scores: overall") and f"page {i} of 13" in page
        assert "deal of the series" in page and "game points" in page
    shown = [title for page in appendix for title in titles(page)]
    assert shown == [(f"{e.place}. {e.item.name}", str(e.rating.points)) for e in charted]
    assert "page 1 of 13" in text[0], "the ranking pages count the appendix too"


def test_everybody_or_nobody(open_120):
    t = open_120
    everybody = pages(pdf(t, appendix=None))
    assert len(everybody) == 3 + 12
    assert [title[0].split(".")[0] for title in titles(everybody[-1])] == [str(p) for p in range(111, 121)]
    assert len(pages(pdf(t, appendix=0))) == 3
    five = pages(pdf(t, appendix=5))
    assert len(five) == 4 and len(titles(five[3])) == 5


def test_the_drawn_line_is_the_running_total(open_120):
    """The first chart's path in the page stream, read back through the axis, gives the running totals."""
    t = open_120
    first = standings(t)[0]
    totals = [0] + [total for _s, _d, total in running_scores(t)[first.item.player_id]]
    reader = PdfReader(io.BytesIO(pdf(t)))
    stream = reader.pages[3].get_contents().get_data().decode("latin-1")
    box = Box(
        sheet.MARGIN + sheet.PLOT_LEFT,
        sheet.GRID_TOP - sheet.PLOT_TOP,
        sheet.MARGIN + sheet.CELL_WIDTH - sheet.PLOT_RIGHT,
        sheet.GRID_TOP - sheet.CELL_HEIGHT + sheet.PLOT_BOTTOM,
    )
    layout = chart_layout(running_scores(t)[first.item.player_id], box, ticks=4)
    start = f"{box.left:.2f} "
    # The lines are the page's one path stroked in colour (RG): a subpath (m, l, l, ...) per chart.
    line_path = stream.split(" RG", 1)[1].split(" S", 1)[0]
    subpaths = [line for line in line_path.splitlines() if " m " in line]
    assert len(subpaths) == 10
    subpath = subpaths[0]
    assert subpath.startswith(start)
    numbers = [float(n) for n in re.findall(r"-?\d+\.\d+", subpath)]
    xs, ys = numbers[0::2], numbers[1::2]
    assert len(ys) == len(totals) == 5
    drawn = [layout.low + (y - box.bottom) / (box.top - box.bottom) * (layout.high - layout.low) for y in ys]
    assert drawn == pytest.approx(totals, abs=0.05)
    assert xs == pytest.approx([box.left + (box.right - box.left) * i / 4 for i in range(5)], abs=0.01)
    assert totals[-1] == first.rating.points


def test_a_series_alone_charts_that_series_from_zero():
    t = finished_tournament(players=10, series=2)
    text = pages(pdf(t, series_number=2))
    appendix = [page for page in text if page.startswith("Running scores: series 2 only")]
    assert len(appendix) == 1
    shown = titles(appendix[0])
    assert shown == [(f"{e.place}. {e.item.name}", str(e.rating.points)) for e in standings(t, 2)]
    assert "Series 1" not in appendix[0] and "Series 2" in appendix[0]
    running = running_scores(t)
    for entry in standings(t, 2):
        assert within_series(running[entry.item.player_id], 2)[-1][2] == entry.rating.points


def test_within_series_by_hand():
    points = [(1, 1, 24), (1, 2, 24), (1, 3, 47), (2, 1, 47), (2, 2, 97), (2, 3, 97), (3, 1, 60)]
    assert within_series(points, 1) == points[:3]
    assert within_series(points, 2) == [(2, 1, 0), (2, 2, 50), (2, 3, 50)]
    assert within_series(points, 3) == [(3, 1, -37)]
    assert within_series(points, 4) == []


def test_players_without_deals_get_a_note():
    t, _series = factories.drawn(players=7)
    text = pages(pdf(t))
    assert len(text) == 2 and text[1].count("No deals yet.") == 7


def test_a_fixed_number_of_queries(django_assert_max_num_queries):
    counts = []
    for size in (7, 14):
        t = finished_tournament(players=size, series=2)
        for options in ({}, {"appendix": None}, {"appendix": 3}, {"series_number": 2}):
            # 6: one of them counts the confirmed sheets and unfinished series (finality).
            with django_assert_max_num_queries(6) as captured:
                pdf(t, **options)
            counts.append(len(captured))
    assert counts[:4] == counts[4:]


def test_names_beyond_western_european_in_the_embedded_font():
    t, series = factories.drawn(players=7)
    seat = Seat.objects.filter(series=series).select_related("player").first()
    seat.player.name = "Łukasz Dvořák"
    seat.player.save()
    play(seat.table, deals=3)
    text = pages(pdf(t))
    assert "Łukasz Dvořák" in text[1] and "game points" in text[1]


def test_deal_ticks_and_narrow_series_in_a_drawn_chart():
    """Twelve series of 36 deals: every 12th deal ticked, labels thinned, series named by number only."""
    from printing.documents.appendix import ChartEntry
    from printing.documents.standings_list import write_standings_list

    points = [(s, d, s * d) for s in range(1, 13) for d in range(1, 37)]
    out = io.BytesIO()
    write_standings_list(
        [], out, tournament=factories.tournament(), series_number=None, charts=[ChartEntry(1, "Anna", 432, points)]
    )
    page = pages(out.getvalue())[1]
    assert "1. Anna 432 game points" in page
    assert "Series" not in page.replace("a series begins", "")
    layout = chart_layout(
        points,
        Box(sheet.MARGIN + sheet.PLOT_LEFT, 0, sheet.MARGIN + sheet.CELL_WIDTH - sheet.PLOT_RIGHT, 1),
        ticks=4,
        label_gap=14,
    )
    assert len(layout.x_ticks) == 36 and 0 < sum(labelled for *_r, labelled in layout.x_ticks) < 36


def test_the_svg_labels_the_deal_ticks():
    from standings.charts import running_score_svg

    svg = running_score_svg([(1, d, 0) for d in range(1, 49)])
    assert all(f">{deal}</text>" in svg for deal in (12, 24, 36, 48))

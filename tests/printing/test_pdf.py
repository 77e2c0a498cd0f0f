"""The printed documents, read back with pypdf: what a player or director would read on paper."""

from __future__ import annotations

import io
import os
import random
import re
from decimal import Decimal
from pathlib import Path

import pytest
from django.utils import translation
from pypdf import PdfReader

from money.ledger import settlements
from office.demo import random_game
from printing.documents import (
    qr,
    series_cards_pdf,
    series_pin_slips_pdf,
    series_settlement_pdf,
    series_sheets_pdf,
    standings_pdf,
    table_settlement_pdf,
    table_sheet_pdf,
)
from printing.documents.cards import draw_qr
from printing.documents.slips import COLUMNS, ROWS, Slip, layout
from referees import corrections
from scoring import tablesheet
from scoring.models import Game
from signoff.models import SignOff
from signoff.pins import seat_pin
from standings.places import standings
from tests import factories
from tournaments.models import Seat, Series, Table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    """The texts asserted are the English ones, whatever language an earlier test left active."""
    with translation.override("en"):
        yield


def pages(data: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]


def play(table: Table, deals: int | None = None, seed: int = 3) -> list[Game]:
    """Valid random games for ``table``, valued by the engine and stored."""
    rng = random.Random(seed)
    games = []
    for number in range(1, (deals or table.deals) + 1):
        game = random_game(rng, number, table.size)
        game.table = table
        games.append(game)
    return Game.objects.bulk_create(games)


def named_table(size: int, names: list[str], **tournament_fields) -> Table:
    table = factories.table_of(size, **tournament_fields)
    for seat, name in zip(table.seats.order_by("number"), names, strict=True):
        seat.player.name = name
        seat.player.save()
    return table


def rows(text: str, names: list[str]) -> list[list[str]]:
    """The deal rows of a filled page: lines that start with the dealer's name."""
    return [line.split() for line in text.splitlines() if len(line.split()) > 1 and line.split()[0] in names]


def column(values) -> str:
    return "\n".join(str(v) for v in values)


NAMES = ["Jürgen", "Käthe", "Björn", "Özil"]


def test_filled_sheet_of_four_prints_every_deal_and_the_engine_totals():
    table = named_table(4, NAMES)
    play(table)
    games = list(Game.objects.filter(table=table).order_by("number"))
    sheet = tablesheet.build(4, table.deals, games)

    text = pages(table_sheet_pdf(table, filled=True))
    assert len(text) == 1  # 48 deals on one page
    page = text[0]
    assert "1 Jürgen   2 Käthe   3 Björn   4 Özil" in page
    printed = rows(page, NAMES)
    assert len(printed) == 48
    for number, (game, row, line) in enumerate(zip(games, sheet.rows, printed, strict=True), start=1):
        assert line[0] == NAMES[(number - 1) % 4]  # the dealer (3.2.1)
        if game.passed_out:
            assert line[1:] == ["passed", "out"]
            continue
        assert line[1] == NAMES[game.declarer_seat - 1]
        score = f"+{game.score}" if game.score > 0 else str(game.score)
        # ... game value, won/lost, and the declarer's new running total last.
        value = line[-3].removeprefix("x")  # an overbid's tick sits right beside the value
        assert [value, *line[-2:]] == [str(game.value), score, str(row.totals[game.declarer_seat - 1])]
    # The foot, per player: won, lost, game points, +50 x won, -50 x lost, bonus, total.
    for r in sheet.ratings:
        assert column([r.won, r.lost, r.points, 50 * r.won, -50 * r.lost, r.bonus, r.rating]) in page
    for label in (
        "Games won",
        "Games lost",
        "Game points",
        "+ 50 x games won",
        "- 50 x games lost",
        "+ 30 x games lost by the others at the table",
        "Total (extended Seeger-Fabian rating)",
        "Scorekeeper",
    ):
        assert label in page


def test_a_deal_corrected_by_a_referee_is_starred_and_explained_under_the_grid():
    table = named_table(4, NAMES)
    play(table)
    assert "corrected by a referee" not in pages(table_sheet_pdf(table, filled=True))[0]
    game = table.games.filter(passed_out=False, number__gte=6).order_by("number").first()
    corrections.correct_game(
        game.pk, expected_version=game.version, changes={"hand": not game.hand}, user=factories.user(), reason="x"
    )
    page = pages(table_sheet_pdf(table, filled=True))[0]
    printed = rows(page, NAMES)
    assert len(printed) == 48
    starred = [number for number, line in enumerate(printed, start=1) if "*" in "".join(line)]
    assert starred == [game.number]
    assert printed[game.number - 1][1] == f"*{NAMES[game.declarer_seat - 1]}"  # the star ends the declarer cell
    assert "* corrected by a referee" in page


def test_blank_sheet_has_the_dealers_and_no_results():
    names = ["Anna", "Bernd", "Clara", "Dieter"]
    table = named_table(4, names)
    text = pages(table_sheet_pdf(table, filled=False))
    assert len(text) == 1
    # 3.2.1: seat 1 deals first, the deal passes on; each of the 48 rows names its dealer only.
    assert column(names[(n - 1) % 4] for n in range(1, 49)) in text[0]
    assert rows(text[0], names) == []
    assert "Total (extended Seeger-Fabian rating)" in text[0]


def test_three_players_and_a_partly_entered_sheet():
    names = ["Peter", "Maß", "Björn"]
    table = named_table(3, names)
    play(table, deals=10)
    text = pages(table_sheet_pdf(table, filled=True))
    assert len(text) == 1
    page = text[0]
    assert "3 players, 36 deals" in page
    assert len(rows(page, names)) == 10
    assert column(names[(n - 1) % 3] for n in range(11, 37)) in page  # the deals still to play
    assert "+ 40 x games lost by the others at the table" in page


def test_a_long_sheet_continues_with_the_totals_carried_forward():
    names = ["Anna", "Bernd", "Clara", "Dieter"]
    table = named_table(4, names, rounds_per_series=30)  # 120 deals
    play(table)
    games = list(Game.objects.filter(table=table).order_by("number"))
    sheet = tablesheet.build(4, 120, games)
    text = pages(table_sheet_pdf(table, filled=True))
    assert len(text) == 3  # 48 + 48 + 24
    assert [len(rows(page, names)) for page in text] == [48, 48, 24]
    assert all("4 players, 120 deals" in page for page in text)
    assert "page 2 of 3" in text[1] and "page 3 of 3" in text[2]
    assert "carried forward" in text[1] and "carried forward" not in text[0]
    assert " ".join(map(str, sheet.rows[47].totals)) in text[1]
    assert " ".join(map(str, sheet.rows[95].totals)) in text[2]
    assert "Total (extended Seeger-Fabian rating)" in text[2]
    assert "Total (extended Seeger-Fabian rating)" not in text[0]
    assert column([sheet.ratings[0].won, sheet.ratings[0].lost]) in text[2]


def test_series_sheets_one_page_per_table_in_a_fixed_number_of_queries(django_assert_max_num_queries):
    _t, series = factories.drawn(players=19)  # 4 tables of four, 1 of three
    for table in series.tables.all():
        play(table, deals=6)
    out = io.BytesIO()
    with django_assert_max_num_queries(3):
        series_sheets_pdf(series, filled=True, out=out)
    text = pages(out.getvalue())
    assert len(text) == 5
    assert [re.search(r"Table (\d+)", page).group(1) for page in text] == ["1", "2", "3", "4", "5"]
    blank = io.BytesIO()
    with django_assert_max_num_queries(2):
        series_sheets_pdf(series, filled=False, out=blank)
    assert len(pages(blank.getvalue())) == 5


def test_a_series_without_tables_prints_a_note():
    t = factories.tournament()
    series = Series.objects.create(tournament=t, number=1)
    out = io.BytesIO()
    series_sheets_pdf(series, filled=False, out=out)
    assert "No tables." in pages(out.getvalue())[0]


def test_names_beyond_western_european_switch_to_an_embedded_font():
    table = named_table(3, ["Łukasz Dvořák", "Jürgen", "Zoë"])
    text = pages(table_sheet_pdf(table, filled=False))[0]
    assert "Łukasz Dvořák" in text and "Zoë" in text


def test_the_font_for_every_alphabet_is_the_one_the_office_ships(monkeypatch):
    """On Windows and macOS there is no /usr/share/fonts; the shipped DejaVu Sans
    prints Ł, ř, ő, ø there too, and its licence travels with it."""
    from reportlab.pdfbase import pdfmetrics

    from printing.documents import common

    shipped = common.SHIPPED_FONTS
    assert shipped.is_relative_to(Path(common.__file__).resolve().parents[1])
    assert "Bitstream Vera" in (shipped / "LICENSE").read_text()
    monkeypatch.setattr(common, "FONT_DIRS", (shipped, Path("/nonexistent/fonts")))
    common._dejavu_available.cache_clear()
    try:
        assert common.choose_fonts(["Łukasz Dvořák"]) == common.DEJAVU
        for name in common.DEJAVU:
            assert Path(pdfmetrics.getFont(name).face.filename).parent == shipped
        table = named_table(4, ["Łukasz Wójcik", "Jiří Dvořák", "Pál Erdős", "Søren Ærø"])
        data = table_sheet_pdf(table, filled=False)
    finally:
        common._dejavu_available.cache_clear()
    text = pages(data)[0]
    for name in ("Łukasz Wójcik", "Jiří Dvořák", "Pál Erdős", "Søren Ærø"):
        assert name in text
    fonts = {
        str(font.get_object()["/BaseFont"])
        for font in PdfReader(io.BytesIO(data)).pages[0]["/Resources"]["/Font"].values()
    }
    assert any(font.endswith("DejaVuSans") for font in fonts)
    if os.environ.get("SKAT_PDF_OUT"):  # to look at: pdftoppm -png -r 80 $SKAT_PDF_OUT /tmp/names
        Path(os.environ["SKAT_PDF_OUT"]).write_bytes(data)


def test_german_sheet():
    table = named_table(3, ["Jürgen Müller", "Käthe Große", "Björn Weiß"])
    play(table, deals=3)
    with translation.override("de"):
        text = pages(table_sheet_pdf(table, filled=True))[0]
    assert "Tisch 1" in text
    assert "Jürgen Müller" in text and "Käthe Große" in text


def test_table_cards_print_no_pins():
    """The whole table reads the card: a PIN there would let one player confirm for all (5.5.3)."""
    _t, series = factories.drawn(players=7)
    out = io.BytesIO()
    series_cards_pdf(series, absolute_url=lambda path: "http://hall.local" + path, out=out)
    (page,) = pages(out.getvalue())  # two cards per page
    # Names ("Player 3537") and link tokens may hold any four digits by chance: the PINs
    # are looked for in what is left of the page without them.
    rest = page
    for table in series.tables.order_by("number"):
        assert f"Table {table.number}" in page
        assert table.token in page.replace("\n", "")
        for seat in table.seats.select_related("player"):
            assert seat.player.name in page
            rest = rest.replace(seat.player.name, "")
    rest = rest.replace("\n", "")
    for table in series.tables.all():
        rest = rest.replace(table.token, "")
    for table in series.tables.all():
        for seat in table.seats.all():
            assert not re.search(rf"(?<!\d){seat_pin(table, seat.number)}(?!\d)", rest)
    assert "PIN" not in page


def slips_of(data: bytes) -> list[dict]:
    """Each slip as the player reads it: tournament, place, name and PIN, page by page."""
    found = []
    for number, text in enumerate(pages(data), start=1):
        for match in SLIP.finditer(text):
            found.append({"page": number, **match.groupdict()})
    return found


SLIP = re.compile(
    r"(?P<tournament>[^\n]*)\nSeries (?P<series>\d+) · Table (?P<table>\d+) · Seat (?P<seat>\d)\n"
    r"(?P<name>[^\n]*)\nPIN\n(?P<pin>\d{4})\n"
)


def test_pin_slips_give_every_seated_player_his_own_pin():
    _t, series = factories.drawn(players=11, name="Großes Open")  # tables of 4, 4 and 3
    out = io.BytesIO()
    series_pin_slips_pdf(series, pin=seat_pin, out=out)
    slips = slips_of(out.getvalue())
    seats = Seat.objects.filter(series=series).select_related("table", "player").order_by("table__number", "number")
    assert [(int(s["table"]), int(s["seat"]), s["name"], s["pin"]) for s in slips] == [
        (seat.table.number, seat.number, seat.player.name, seat_pin(seat.table, seat.number)) for seat in seats
    ]
    assert all(s["tournament"] == "Großes Open" and s["series"] == "1" for s in slips)
    text = pages(out.getvalue())[0]
    assert text.count("Keep this PIN to yourself.") == 11
    assert "type it on the table phone to confirm the sheet (5.5.3)." in text.replace("\n", " ")


def test_pin_slips_of_one_table():
    _t, series = factories.drawn(players=11)
    out = io.BytesIO()
    series_pin_slips_pdf(series, pin=seat_pin, out=out, table_number=3)
    table = series.tables.get(number=3)
    assert [(s["table"], s["seat"], s["pin"]) for s in slips_of(out.getvalue())] == [
        ("3", str(seat), seat_pin(table, seat)) for seat in (1, 2, 3)
    ]


def test_no_table_is_split_across_pages():
    """Five tables to a page, each from a new row: the director hands out one table's slips together."""
    _t, series = factories.drawn(players=43)  # ten tables of four, one of three
    out = io.BytesIO()
    series_pin_slips_pdf(series, pin=seat_pin, out=out)
    slips = slips_of(out.getvalue())
    assert len(slips) == 43
    page_of = {}
    for s in slips:
        page_of.setdefault(s["table"], set()).add(s["page"])
    assert all(len(p) == 1 for p in page_of.values())
    assert [page_of[str(n)] for n in (1, 5, 6, 10, 11)] == [{1}, {1}, {2}, {2}, {3}]


def test_the_layout_keeps_tables_together_on_rows_of_their_own():
    def table(number, size):
        return [Slip("T", 1, number, seat, f"P{number}.{seat}", "0000") for seat in range(1, size + 1)]

    sizes = [3, 4, 3, 3, 4, 4, 3, 4]
    result = layout([table(n, size) for n, size in enumerate(sizes, start=1)])
    assert [len(page) for page in result] == [sum(sizes[:5]), sum(sizes[5:])]
    for page in result:
        assert len({(row, column) for row, column, _slip in page}) == len(page)
        assert all(0 <= row < ROWS and 0 <= column < COLUMNS for row, column, _slip in page)
        first = {}
        for row, column, slip in page:
            first.setdefault(slip.table, (row, column))
        assert all(column == 0 for _row, column in first.values())
    assert layout([]) == []


def test_pin_slips_shorten_long_names_and_print_any_alphabet():
    table = named_table(
        4, ["Hans-Joachim Freiherr von Müller-Lüdenscheidt zu Wolkenstein", "Łukasz Dvořák", "Zoë", "Käthe"]
    )
    out = io.BytesIO()
    series_pin_slips_pdf(table.series, pin=seat_pin, out=out)
    names = [s["name"] for s in slips_of(out.getvalue())]
    assert names[0].startswith("Hans-Joachim") and names[0].endswith("…")
    assert names[1:] == ["Łukasz Dvořák", "Zoë", "Käthe"]


def test_pin_slips_of_a_series_without_players():
    _t, series = factories.drawn(players=11)
    Seat.objects.filter(series=series).delete()
    out = io.BytesIO()
    series_pin_slips_pdf(series, pin=seat_pin, out=out)
    assert [page.strip() for page in pages(out.getvalue())] == ["No seated players."]


class RecordingCanvas:
    def __init__(self) -> None:
        self.literal = ""

    def addLiteral(self, literal: str) -> None:
        self.literal += literal


def test_the_qr_code_draws_exactly_the_dark_modules():
    url = "http://hall.local/s/abc/"
    canvas = RecordingCanvas()
    draw_qr(canvas, url, 10, 20, 100)
    matrix = qr.matrix(url)  # segno's modules with the office's fixed mask (tests/printing/test_qr.py)
    modules = len(matrix) + 8
    lines = canvas.literal.splitlines()
    # One transformation: module units, scaled to 100 points, at (10, 20); then filled.
    assert lines[0] == f"q 0 g {100 / modules:.5f} 0 0 {100 / modules:.5f} 10.000 20.000 cm"
    assert lines[-1] == "f Q"
    dark = set()
    for line in lines[1:-1]:
        x, y, w, h, op = line.split()
        assert op == "re" and h == "1"
        row = modules - 1 - int(y) - 4
        dark.update((row, col) for col in range(int(x) - 4, int(x) - 4 + int(w)))
    expected = {(r, c) for r, line in enumerate(matrix) for c, v in enumerate(line) if v}
    assert dark == expected


def test_ranking_list_pages_repeat_the_header():
    t = factories.tournament()
    series = Series.objects.create(tournament=t, number=1)
    for number in range(1, 31):  # 120 players
        table = Table.objects.create(series=series, number=number, size=4)
        for seat in range(1, 5):
            Seat.objects.create(table=table, series=series, number=seat, player=factories.player(club="Skatclub Süd"))
        play(table, deals=4, seed=number)
    ranked = standings(t)
    out = io.BytesIO()
    standings_pdf(t, appendix=0, out=out)  # the charts: test_ranking_appendix.py
    text = pages(out.getvalue())
    assert len(text) == 3
    for i, page in enumerate(text, start=1):
        assert "Place Name Club Game points Won Lost Bonus Rating Tables" in page
        assert f"page {i} of 3" in page
    first = ranked[0]
    line = next(line for line in text[0].splitlines() if line.startswith("1. "))
    r = first.rating
    assert line == f"1. {first.item.name} Skatclub Süd {r.points} {r.won} {r.lost} {r.bonus} {r.rating} 1"
    assert any(line.startswith("120. ") for line in text[2].splitlines())


def test_ranking_list_of_one_series_and_of_nothing():
    t = factories.tournament(name="Leer")
    out = io.BytesIO()
    standings_pdf(t, series_number=2, out=out)
    text = pages(out.getvalue())
    assert len(text) == 1 and "series 2 only" in text[0] and "No results yet." in text[0]


def money_rules(t) -> None:
    t.entry_fee = Decimal("10.00")
    t.list_fee = Decimal("2.00")
    t.prize_pool_percent = 90
    t.save()
    t.lost_game_fees.create(from_lost_game=1, amount="0.50")
    t.lost_game_fees.create(from_lost_game=4, amount="1.00")
    for place, amount in enumerate(["2.00", "1.20", "0.80", "0"], start=1):
        t.table_money.create(table_size=4, place=place, amount=amount)
    t.passed_out_fees.create(table_size=4, from_passed_out=1, amount="0.50")


def test_settlement_sheet_prints_5_5_5_and_the_fee_account():
    table = named_table(4, ["Anna", "Bernd", "Clara", "Dieter"])
    money_rules(table.series.tournament)
    factories.game(table, 1, declarer_seat=2, contract="grand", tops=1, declarer_points=70)  # +48 for Bernd
    factories.game(table, 2, declarer_seat=3, contract="hearts", tops=1, declarer_points=40)  # -40 for Clara
    factories.game(table, 3, passed_out=True)
    text = pages(table_settlement_pdf(table))[0]
    # a: 0, 48, -40, 0 (sum 8); d = 4 x total - 8
    assert "a. Individual totals 0 +48 -40 0 +8" in text
    assert "d. Settlement = b - c (game points) -8 +184 -168 -8" in text
    # The table of transactions: Anna receives 0 - 48 from Bernd, 0 + 40 from Clara, 0 from Dieter.
    assert "1 Anna -48 +40 0 -8" in text
    assert "2 Bernd +48 +88 +48 +184" in text
    # Clara lost one game: 0.50; one passed-out deal: 0.50 each; list fee 2.00; places by rating.
    assert "Lost-game fees 0.00 0.00 0.50 0.00 0.50" in text
    assert "Passed-out fees (1 passed out) 0.50 0.50 0.50 0.50 2.00" in text
    assert "Table money received" in text
    (item,) = settlements(table.series.tournament, [table.series])
    assert item.places[1] == 1  # Bernd won the only game
    assert f"Kept {item.account.kept:.2f}" in text


def test_series_settlement_in_a_fixed_number_of_queries(django_assert_max_num_queries):
    t, series = factories.drawn(players=11)  # two tables of four, one of three
    money_rules(t)
    for table in series.tables.all():
        play(table, deals=5)
    out = io.BytesIO()
    with django_assert_max_num_queries(8):
        series_settlement_pdf(series, out=out)
    assert len(pages(out.getvalue())) == 3


def ticks(row: list[str]) -> int:
    """The ticks in a row (neighbouring ticks read as one word, "xx")."""
    return sum(len(word) for word in row if set(word) == {"x"}) + sum(
        1 for w in row if w[0] == "x" and w[1:].isdigit()
    )


def test_announcements_and_ouvert_are_ticked_as_they_count():
    table = named_table(3, ["Anna", "Bernd", "Clara"])
    seat = table.seats.get(number=2)
    seat.player.club = factories.player(club="Skatclub Grün-Weiß").club
    seat.player.save()
    # Grand ouvert (5.2.6: includes schwarz and schneider announced), all tricks: with 1, hand.
    factories.game(
        table,
        1,
        declarer_seat=2,
        contract="grand",
        tops=1,
        hand=True,
        ouvert=True,
        declarer_points=120,
        declarer_tricks=10,
    )
    factories.game(table, 2, declarer_seat=3, contract="null", hand=True, declarer_tricks=0)
    factories.game(table, 3, declarer_seat=1, contract="clubs", tops=2, tops_kind="without", declarer_points=95)
    page = pages(table_sheet_pdf(table, filled=True))[0]
    grand, null, clubs = rows(page, ["Anna", "Bernd", "Clara"])
    # Hand, schneider, announced, schwarz, announced, ouvert: six ticks; with 1, game + those six: 8 x 24 = 192.
    assert grand[:4] == ["Anna", "Bernd", "24", "1"] and ticks(grand) == 6 and grand[-2:] == ["+192", "192"]
    assert (
        null[:3] == ["Bernd", "Clara", "Null"] and ticks(null) == 1 and null[-2:] == ["+35", "35"]
    )  # null hand: 35 (5.1.2)
    # Without 2, game, schneider: 4 x 12 = 48.
    assert clubs == ["Clara", "Anna", "12", "2", "x", "48", "+48", "48"]
    assert "Skatclub Grün-Weiß" in page


def test_long_entry_links_print_on_two_lines_and_no_tables_a_note():
    t, series = factories.drawn(players=3)
    out = io.BytesIO()
    host = "https://skat-turnier.landesverband-sachsen.example.org"
    series_cards_pdf(series, absolute_url=lambda path: host + path, out=out)
    page = pages(out.getvalue())[0]
    table = series.tables.get()
    assert host in page.splitlines() and table.entry_url() in page.splitlines()
    assert "At a table of four" not in page  # a table of three: everyone plays
    empty = Series.objects.create(tournament=t, number=2)
    out = io.BytesIO()
    series_cards_pdf(empty, absolute_url=lambda path: host + path, out=out)
    assert "No tables." in pages(out.getvalue())[0]


def test_without_dejavu_the_standard_fonts_are_used(monkeypatch):
    from printing.documents import common

    monkeypatch.setattr(common, "FONT_DIRS", ())
    common._dejavu_available.cache_clear()
    try:
        assert common.choose_fonts(["Łukasz"]) == common.STANDARD
    finally:
        common._dejavu_available.cache_clear()
    assert common.choose_fonts(["Jürgen Groß"]) == common.STANDARD


def test_wrapping_names_into_two_lines():
    from printing.documents.common import wrap

    assert wrap("Hans-Joachim Oberländer", "Helvetica", 8, 60) == ["Hans-Joachim", "Oberländer"]
    # A first word too long for a line is cut on the one line it gets.
    (line,) = wrap("Oberländer-Schimmelpfennig Hans", "Helvetica", 8, 60)
    assert line.endswith("…")
    assert wrap("", "Helvetica", 8, 60) == []


def test_a_table_being_reseated_has_no_settlement_yet():
    table = named_table(4, ["Anna", "Bernd", "Clara", "Dieter"])
    table.seats.get(number=4).delete()
    assert settlements(table.series.tournament, [table.series]) == []
    assert "No tables." in pages(table_settlement_pdf(table))[0]


def test_a_settlement_on_an_unconfirmed_sheet_says_it_is_provisional():
    """Only confirmed sheets are final (5.5.3), and money settled on one may go back."""
    table = named_table(3, ["Anna", "Bernd", "Clara"])
    factories.game(table, 1, declarer_seat=2, contract="grand", tops=1, declarer_points=70)
    assert "Provisional: this sheet is not confirmed yet (5.5.3)." in pages(table_settlement_pdf(table))[0]
    SignOff.objects.create(table=table, fingerprint="x", confirmed_by="test")
    assert "Provisional" not in pages(table_settlement_pdf(table))[0]


def test_long_names_are_printed_whole_on_two_lines_in_the_filled_sheets_heads():
    long = [
        "Hans-Joachim Oberländer-Schimmelpfennig",
        "Maximiliane Zuckerberg-Wittgenstein",
        "Bo",
        "Ulrike Anneliese Brandenburger",
    ]
    table = named_table(4, long)
    play(table, 4)
    text = pages(table_sheet_pdf(table, filled=True))[0]
    flat = re.sub(r"\s+", " ", text.replace("-\n", "-"))
    for name in long:
        # Whole in the line of seats and in its column head (the deal rows may shorten it).
        assert flat.count(name) >= 2, name


def test_wrapping_a_name_whole_shrinks_it_rather_than_cutting_it():
    from printing.documents.common import width, wrap_whole

    lines, size = wrap_whole("Hans-Joachim Oberländer", "Helvetica", 8, 60)
    assert (lines, size) == (["Hans-Joachim", "Oberländer"], 8)
    lines, size = wrap_whole("Oberländer-Schimmelpfennig Hans", "Helvetica", 8, 60)
    assert "".join(lines).replace(" ", "") == "Oberländer-SchimmelpfennigHans" and len(lines) <= 2
    assert all(width(line, "Helvetica", size) <= 60 for line in lines)
    lines, size = wrap_whole("Abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz", "Helvetica", 8, 30)
    assert "".join(lines) == "Abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz" and size == 5.5
    assert wrap_whole("", "Helvetica", 8, 60) == ([], 8)


@pytest.mark.parametrize("filled", [False, True])
def test_the_sheets_header_names_the_series_beside_the_table_however_long_the_venue(filled):
    """The series and the table stand where a long venue cannot cut them off."""
    # As long as the field holds (160 characters; PostgreSQL refuses more, SQLite does not).
    venue = ("Vereinsheim des Skatclubs Herz Dame Altenburg, großer Saal im ersten Obergeschoss " * 2)[:160]
    table = named_table(4, ["Anna", "Bernd", "Clara", "Dieter"], venue=venue)
    Series.objects.filter(pk=table.series_id).update(number=2)
    table.series.refresh_from_db()
    if filled:
        play(table, 4)
    text = pages(table_sheet_pdf(table, filled=filled))[0]
    assert "Series 2 · Table 1" in text

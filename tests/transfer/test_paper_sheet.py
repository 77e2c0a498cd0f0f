"""Importing a paper scoresheet: every row through the engine, all or nothing."""

from __future__ import annotations

import io

import pytest
from django.utils import translation
from openpyxl import Workbook

from core.spreadsheets import SpreadsheetError, flag, header_key, read_table
from scoring.models import Game
from tests import factories
from tournaments.models import Series
from transfer.paper_sheet import import_sheet

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    """Messages in English whatever language an earlier test left active."""
    with translation.override("en"):
        yield


HEADER = "deal;dealer;declarer;contract;with/without;tops;hand;declarer card points;declarer tricks;bid;passed out\n"


def upload(text: str, encoding: str = "utf-8") -> io.BytesIO:
    return io.BytesIO(text.encode(encoding))


def xlsx(rows: list[list[object]]) -> io.BytesIO:
    workbook = Workbook()
    for row in rows:
        workbook.active.append(row)
    out = io.BytesIO()
    workbook.save(out)
    out.seek(0)
    return out


@pytest.fixture
def table():
    return factories.table_of(3, rounds_per_series=1)  # 3 deals; seats Seat1..Seat3


def test_a_sheet_in_english_is_valued_by_the_engine(table):
    text = HEADER + "1;1;Seat2;clubs;with;2;;75;;36;\n2;Seat2;3;Grand;without;1;x;60;;;\n3;3;;;;;;;;;x\n"
    result = import_sheet(table, upload(text), "sheet.csv")
    assert result.errors == [] and result.games == 3
    games = list(table.games.order_by("number"))
    assert [(g.declarer_seat, g.contract, g.value, g.score, g.won) for g in games[:2]] == [
        (2, "clubs", 36, 36, True),
        (3, "grand", 72, -144, False),  # (1 without + game + hand) x 24, 60 points lose
    ]
    assert games[2].passed_out
    table.series.refresh_from_db()
    assert table.series.status == Series.Status.RUNNING


def test_a_german_xlsx_sheet_with_seat_numbers_and_ticks(table):
    rows = [
        [
            "Nr.",
            "Geber",
            "Alleinspieler",
            "Spiel",
            "mit/ohne",
            "Spitzen",
            "Hand",
            "Augen",
            "Stiche",
            "Reizwert",
            "Eingepasst",
        ],
        [1, "Seat1", 1, "Herz", "mit", 1, None, 61, None, 18, None],
        [2, None, "seat3", "Null", None, None, "ja", None, 0, 35, None],
        [3, 3, None, "eingepasst", None, None, None, None, None, None, None],
    ]
    result = import_sheet(table, xlsx(rows), "bogen.xlsx")
    assert result.errors == []
    games = list(table.games.order_by("number"))
    assert (games[0].contract, games[0].value) == ("hearts", 20)
    assert (games[1].contract, games[1].hand, games[1].value, games[1].won) == ("null", True, 35, True)
    assert games[2].passed_out


def test_an_overbid_game_is_lost_and_raised_to_the_bid(table):
    text = HEADER + "1;;Seat1;diamonds;with;1;;70;;27;\n"
    result = import_sheet(table, upload(text), "s.csv")
    assert result.errors == []
    game = table.games.get()
    assert (game.overbid, game.won, game.value, game.score) == (True, False, 27, -54)


def test_bad_rows_name_row_column_and_paragraph_and_nothing_is_written(table):
    text = (
        HEADER
        + "1;;Seat1;null;;;;;0;46;\n"  # null below its bid: no valid announcement
        + "2;;Seat2;grand;with;5;;70;;;\n"  # a grand has at most 4 tops
        + "3;;Nobody;spades;with;1;;70;;;\n"
    )
    result = import_sheet(table, upload(text), "s.csv")
    assert not table.games.exists()
    messages = dict(result.errors)
    assert set(messages) == {2, 3, 4}
    assert messages[2].startswith("bid: 3.4.4: ")
    assert messages[3].startswith("tops: 2.4.3: ") and "at most 4 tops" in messages[3]
    assert messages[4].startswith("declarer: ") and "Nobody" in messages[4] and "5.5.2" in messages[4]


@pytest.mark.parametrize(
    ("row", "column", "paragraph"),
    [
        ("2;;Seat1;clubs;with;1;;70;;;", "deal", "3.2.1"),  # deal 2 where deal 1 belongs
        ("1;Seat2;Seat1;clubs;with;1;;70;;;", "dealer", "3.2.1"),
        ("1;;Seat1;karo;mit;1;vielleicht;70;;;", "hand", None),
        ("1;;Seat1;clubs;with;1;;seventy;;;", "declarer card points", None),
        ("1;;Seat1;clubs;sometimes;1;;70;;;", "with/without", "2.4.1"),
        ("1;;Seat1;trumps;with;1;;70;;;", "contract", "2.1.1"),
        ("1;;Seat1;clubs;with;1;;70;;;x", "contract", "3.3.7"),
        ("1;;Seat1;;;;;;;;x", "declarer", "3.3.7"),
        ("1;;;clubs;with;1;;70;;;", "declarer", "5.5.1"),
    ],
)
def test_each_kind_of_bad_row(table, row, column, paragraph):
    result = import_sheet(table, upload(HEADER + row + "\n"), "s.csv")
    assert not table.games.exists()
    (number, message), *_ = result.errors
    assert number == 2 and message.startswith(f"{column}: ")
    if paragraph:
        assert paragraph in message


def test_the_dealer_sits_out_at_four():
    table = factories.table_of(4, rounds_per_series=1)
    result = import_sheet(table, upload(HEADER + "1;;Seat1;clubs;with;1;;70;;;\n"), "s.csv")
    assert result.errors == [(2, "declarer: 3.2.7: the dealer sits out at a table of four and cannot be declarer")]


def test_more_deals_than_the_table_plays(table):
    rows = "".join(f"{n};;{(n - 1) % 3 + 1};clubs;with;1;;70;;;\n" for n in range(1, 5))
    result = import_sheet(table, upload(HEADER + rows), "s.csv")
    assert result.errors and result.errors[0][0] == 5 and "3.2.1" in result.errors[0][1]
    assert not table.games.exists()


def test_a_written_game_value_is_checked(table):
    header = "deal;declarer;contract;tops;declarer card points;game value\n"
    result = import_sheet(table, upload(header + "1;Seat1;clubs;1;70;36\n"), "s.csv")
    assert result.errors == [
        (2, "game value: the sheet says 36, the rules give 24 (5.1-5.4); correct the sheet or the row")
    ]
    result = import_sheet(table, upload(header + "1;Seat1;clubs;1;70;24\n"), "s.csv")
    assert result.errors == [] and result.games == 1


def test_a_table_with_games_is_refused(table):
    factories.game(table, 1, passed_out=True)
    with pytest.raises(SpreadsheetError, match="already has 1 deal entered"):
        import_sheet(table, upload(HEADER + "1;;Seat1;clubs;with;1;;70;;;\n"), "s.csv")


def test_a_finished_series_is_refused(table):
    Series.objects.filter(pk=table.series_id).update(status=Series.Status.FINISHED)
    with pytest.raises(SpreadsheetError, match=r"5\.5\.3"):
        import_sheet(table, upload(HEADER + "1;;Seat1;clubs;with;1;;70;;;\n"), "s.csv")


@pytest.mark.parametrize(
    ("data", "name", "message"),
    [
        (b"", "s.csv", "empty"),
        (b"   \n", "s.csv", "empty"),
        (b"\xd0\xcf\x11\xe0 old excel", "s.xls", ".xls"),
        (b"PK\x03\x04 broken zip", "s.xlsx", "not a readable XLSX"),
        (b"%PDF-1.4 ...", "s.pdf", "not a CSV text file"),
        (b"\x00\x01\x02binary", "s.csv", "not a CSV"),
        (b"deal;contract\n1;clubs\n", "s.csv", "Missing columns: declarer"),
        (b"deal;declarer;contract;colour\n1;Seat1;clubs;red\n", "s.csv", "Unknown columns: colour"),
        (b"deal;declarer;contract;Deal\n", "s.csv", "appears twice"),
        (b"deal;declarer;contract\n", "s.csv", "no rows"),
    ],
)
def test_bad_files_get_a_clear_message(table, data, name, message):
    with pytest.raises(SpreadsheetError, match=message):
        import_sheet(table, io.BytesIO(data), name)
    assert not Game.objects.exists()


def test_a_huge_file_is_refused_before_reading(table):
    big = io.BytesIO(b"x")
    big.size = 50 * 2**20
    with pytest.raises(SpreadsheetError, match="too large"):
        import_sheet(table, big, "s.csv")
    with pytest.raises(SpreadsheetError, match="too large"):
        import_sheet(table, io.BytesIO(b"a" * (6 * 2**20)), "s.csv")


def test_windows_1252_csv_with_commas_is_read():
    data = "Name,Verein\nJürgen Groß,Skatfreunde Köln\n".encode("cp1252")
    rows = read_table(io.BytesIO(data), "p.csv", {"name": ("Name",), "club": ("Verein",)}, ["name"])
    assert rows[0].values == {"name": "Jürgen Groß", "club": "Skatfreunde Köln"}
    assert rows[0].number == 2


def test_flags_and_headers():
    assert [flag(v) for v in (None, "x", "X", "ja", "yes", "1", 1, "", "nein", "0", "vielleicht")] == [
        False,
        True,
        True,
        True,
        True,
        True,
        True,
        False,
        False,
        False,
        None,
    ]
    assert header_key(" Mitglieds-Nr. ") == "mitgliedsnr"
    assert header_key("Nationalität") == "nationalitat"


def test_the_import_sheet_command(tmp_path, table):
    from django.core.management import call_command
    from django.core.management.base import CommandError

    t = table.series.tournament
    bad = tmp_path / "bad.csv"
    bad.write_text(HEADER + "1;;Seat1;grand;with;5;;70;;;\n", encoding="utf-8")
    with pytest.raises(CommandError, match="Nothing imported: 1 problem\\."):
        call_command("import_sheet", t.pk, 1, 1, str(bad), stderr=io.StringIO())
    with pytest.raises(CommandError, match="no table 9"):
        call_command("import_sheet", t.pk, 1, 9, str(bad))
    with pytest.raises(CommandError, match="Nothing imported"):
        call_command("import_sheet", t.pk, 1, 1, str(tmp_path / "missing.csv"))
    good = tmp_path / "good.csv"
    good.write_text(HEADER + "1;;Seat1;clubs;with;1;;70;;;\n", encoding="utf-8")
    out = io.StringIO()
    call_command("import_sheet", t.pk, 1, 1, str(good), stdout=out)
    assert "Imported 1 deal into" in out.getvalue()
    assert table.games.get().entered_by == "import good.csv"


PRINTED = (
    "No.;Dealer;Declarer;Base value;Tops with;Tops without;Hand;Schneider;Schwarz;Ouvert;Overbid;"
    "Game value;Won / lost;Augen;Stiche;Reizwert\n"
)


def test_the_printed_sheets_columns_base_value_and_tops_with_or_without(table):
    text = (
        PRINTED
        + "1;Seat1;Seat1;12;2;;;;;;;36;36;75;;\n"  # clubs with 2: 3 x 12
        + "2;Seat2;Seat2;24;;1;x;x;;;;96;-192;30;;\n"  # grand hand without 1, schneidered: lost
        + "3;Seat3;Seat3;46;;;;;;x;;46;+;;0;\n"  # null ouvert, won
    )
    result = import_sheet(table, upload(text), "printed.csv")
    assert result.errors == []
    games = list(table.games.order_by("number"))
    assert [(g.contract, g.tops_kind, g.tops, g.value, g.score) for g in games] == [
        ("clubs", "with", 2, 36, 36),
        ("grand", "without", 1, 96, -192),
        ("null", "", None, 46, 46),
    ]


@pytest.mark.parametrize(
    ("row", "column", "message"),
    [
        ("1;;Seat1;13;1;;;;;;;;;70;;", "base value", "13 is not a base value"),
        ("1;;Seat1;46;;;;;;;;;;;0;", "base value", "worth 23, not 46 (5.1.2)"),  # null ouvert without the tick
        ("1;;Seat1;12;1;1;;;;;;;;70;;", "tops without", "written twice"),
        ("1;;Seat1;12;1;;;x;;;;;;70;;", "schneider", "the sheet says x, the rules give empty"),
        ("1;;Seat1;12;1;;;;;;;;-48;70;;", "score", "the sheet says -48, the rules give 24"),
        ("1;;Seat1;12;1;;;;;;;;verloren;70;;", "score", "the sheet says verloren"),
        ("1;;Seat1;12;1;;;;;;x;;;70;;", "overbid", "the sheet says x"),
        ("1;;Seat1;;1;;;;;;;;;70;;", "contract", "nothing is not a contract"),
    ],
)
def test_the_printed_sheets_results_are_checked_against_the_engine(table, row, column, message):
    result = import_sheet(table, upload(PRINTED + row + "\n"), "printed.csv")
    assert not table.games.exists()
    (number, problem), *_ = result.errors
    assert number == 2 and problem.startswith(f"{column}: ") and message in problem


def test_a_base_value_that_contradicts_the_contract(table):
    text = "deal;declarer;contract;base value;tops;declarer card points\n1;Seat1;Herz;12;1;70\n"
    result = import_sheet(table, upload(text), "s.csv")
    assert result.errors == [(2, "base value: base value 12 does not fit the contract Herz (5.1.1)")]


@pytest.mark.parametrize(
    ("row", "column", "rule"),
    [
        ("1;;Seat1;null;with;2;;;0;;", "tops", "2.4.3: null games have no tops"),
        ("1;;Seat1;clubs;with;1;;0;5;;", "declarer card points", "1.2.2: card points 0 and tricks 5 do not fit"),
        ("1;;Seat1;grand;with;1;;30;0;;", "declarer card points", "1.2.2: card points 30 and tricks 0 do not fit"),
    ],
)
def test_the_engine_refuses_a_paper_row_the_form_refuses(table, row, column, rule):
    result = import_sheet(table, upload(HEADER + row + "\n"), "s.csv")
    assert not table.games.exists()
    (number, message), *_ = result.errors
    assert number == 2 and message.startswith(f"{column}: {rule}")


def test_entered_by_is_a_code_in_no_language(table):
    """As the table link's: a German import stores what an English one does."""
    text = HEADER + "1;1;Seat2;clubs;with;2;;75;;36;\n"
    with translation.override("de"):
        import_sheet(table, upload(text), "s.csv")
    game = table.games.get()
    assert game.entered_by == "sheet-import"
    with translation.override("de"):
        assert game.entered_by_label == "Listenimport"

"""The round trip: export a tournament, import it into an empty database, same standings."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from openpyxl import load_workbook

from scoring.models import Game
from standings.places import standings
from tests.transfer.test_exports import finished_tournament
from tournaments.models import Club, Player, Registration, Seat, Series, Table, Tournament
from transfer.exports import GAMES_COLUMNS, league_xlsx
from transfer.tournament_file import TransferError, import_tournament

pytestmark = pytest.mark.django_db


def snapshot(t):
    """Everything the standings say, keyed by what survives a move: the membership number."""
    numbers = dict(Player.objects.values_list("pk", "membership_number"))
    return [
        (e.place, numbers[e.item.player_id], e.item.name, e.item.club, e.rating, e.item.tables, e.decided_by)
        for e in standings(t)
    ]


def empty_the_database():
    Tournament.objects.all().delete()
    Player.objects.all().delete()
    Club.objects.all().delete()
    assert not Game.objects.exists() and not Seat.objects.exists()


def export(t, path):
    with open(path, "wb") as out:
        league_xlsx(t, out)


def test_export_then_import_into_an_empty_database_gives_identical_standings(tmp_path):
    t = finished_tournament(players=13, series=3, seed=11)
    t.lost_game_fees.create(from_lost_game=1, amount="0.50")
    before = snapshot(t)
    per_series = [snapshot_series(t, n) for n in (1, 2, 3)]
    settings = (t.name, t.date, t.venue, t.series_count, t.rounds_per_series, t.lot_seed)
    games_before = Game.objects.count()
    path = tmp_path / "league.xlsx"
    export(t, path)
    empty_the_database()

    result = import_tournament(path)
    assert result.differences == []
    new = result.tournament
    assert (new.name, new.date, new.venue, new.series_count, new.rounds_per_series, new.lot_seed) == settings
    assert [str(f.amount) for f in new.lost_game_fees.all()] == ["0.50"]
    assert Game.objects.count() == result.games == games_before
    assert snapshot(new) == before
    assert [snapshot_series(new, n) for n in (1, 2, 3)] == per_series
    assert set(Series.objects.values_list("status", flat=True)) == {"finished"}
    assert Registration.objects.filter(tournament=new).count() == 13
    # The kept ids moved PostgreSQL's sequence on: a new player gets a fresh id.
    assert Player.objects.create(name="Newcomer").pk > max(
        Player.objects.exclude(name="Newcomer").values_list("pk", flat=True)
    )


def snapshot_series(t, number):
    numbers = dict(Player.objects.values_list("pk", "membership_number"))
    return [(e.place, numbers[e.item.player_id], e.rating) for e in standings(t, number)]


def test_the_commands_round_trip(tmp_path):
    t = finished_tournament(players=7, series=1)
    before = snapshot(t)
    path = tmp_path / "t.xlsx"
    out = io.StringIO()
    call_command("export_tournament", t.pk, str(path), stdout=out)
    empty_the_database()
    call_command("import_tournament", str(path), stdout=out)
    assert "0 values differing" in out.getvalue()
    assert snapshot(Tournament.objects.get()) == before
    with pytest.raises(CommandError, match="no tournament"):
        call_command("export_tournament", 999, str(path))
    with pytest.raises(CommandError, match="Unknown user"):
        call_command("import_tournament", str(path), "--director", "nobody")


def tamper(path, column: str, row: int, value) -> None:
    workbook = load_workbook(path)
    sheet = workbook["Games"]
    sheet.cell(row=row, column=GAMES_COLUMNS.index(column) + 1, value=value)
    workbook.save(path)


def played_row(path) -> int:
    workbook = load_workbook(path, read_only=True)
    for number, row in enumerate(workbook["Games"].iter_rows(min_row=2, values_only=True), start=2):
        if row[GAMES_COLUMNS.index("Contract")] in ("clubs", "spades", "hearts", "diamonds"):
            return number
    raise AssertionError("no suit game")


def test_the_files_values_are_never_trusted_only_compared(tmp_path):
    t = finished_tournament(players=7, series=1)
    before = snapshot(t)
    path = tmp_path / "t.xlsx"
    export(t, path)
    row = played_row(path)
    tamper(path, "Game value", row, 999)
    empty_the_database()
    result = import_tournament(path)
    assert len(result.differences) == 1
    assert result.differences[0].startswith(f"Games, row {row}, Game value: the file says 999, the rules give ")
    assert snapshot(result.tournament) == before


def test_a_game_the_engine_refuses_stops_the_import(tmp_path):
    t = finished_tournament(players=7, series=1)
    path = tmp_path / "t.xlsx"
    export(t, path)
    row = played_row(path)
    tamper(path, "Tops", row, 12)
    empty_the_database()
    with pytest.raises(TransferError, match=rf"Games, row {row}: tops: .* \(2.4.3\)"):
        import_tournament(path)
    assert not Tournament.objects.exists() and not Player.objects.exists() and not Table.objects.exists()


def test_existing_players_are_matched_by_membership_number(tmp_path):
    t = finished_tournament(players=7, series=1)
    path = tmp_path / "t.xlsx"
    export(t, path)
    players = Player.objects.count()
    result = import_tournament(path)
    assert Player.objects.count() == players, "the same players, matched by membership number"
    assert [e.rating for e in standings(result.tournament)] == [e.rating for e in standings(t)]


def test_not_a_workbook(tmp_path):
    path = tmp_path / "t.xlsx"
    path.write_bytes(b"not a zip")
    with pytest.raises(TransferError, match="not a readable XLSX"):
        import_tournament(path)
    with pytest.raises(CommandError, match="Nothing imported"):
        call_command("import_tournament", str(path))


@pytest.mark.parametrize("name", ["=HYPERLINK(1)", "'=HYPERLINK(1)", "''-2+3"])
def test_formula_like_names_are_text_in_the_file_and_survive_the_round_trip(tmp_path, name):
    """Also a name that starts with the guard's apostrophe itself comes back as it was."""
    t = finished_tournament(players=7, series=1)
    evil = t.registrations.first().player
    evil.name = name
    evil.save()
    path = tmp_path / "t.xlsx"
    export(t, path)
    workbook = load_workbook(path)
    names = [row[1] for row in workbook["Ranking"].iter_rows(min_row=2, values_only=True)]
    assert "'" + name in names
    assert all(cell.data_type != "f" for row in workbook["Ranking"].iter_rows() for cell in row)
    before = snapshot(t)
    empty_the_database()
    result = import_tournament(path)
    assert result.differences == []
    assert Player.objects.filter(name=name).exists()
    assert snapshot(result.tournament) == before


def edit(path, sheet: str, row: int, column: int, value) -> None:
    workbook = load_workbook(path)
    workbook[sheet].cell(row=row, column=column, value=value)
    workbook.save(path)


@pytest.mark.parametrize(
    ("sheet", "row", "column", "value", "message"),
    [
        ("Tournament", 4, 2, "someday", "Tournament, Date: 'someday' is not a date"),
        ("Tournament", 2, 2, 7, "this office reads format 1"),
        ("Tournament", 6, 2, "many", "Number of series: 'many' is not a whole number"),
        ("Tournament", 6, 2, "²", "Number of series: '²' is not a whole number"),
        ("Tournament", 6, 2, "9" * 5000, "Number of series: '9999"),
        ("Players", 2, 2, "  ", "Players, row 2, Name: empty"),
        ("Players", 3, 1, "=A2", "Players, row 3, Player ID"),
        ("Tables", 2, 6, 5, "Tables, row 2, Size: a table has 3 or 4 players, not 5 (3.2.7)"),
        ("Tables", 2, 7, 9, "Tables, row 2, Seat: 9 is not a seat"),
        ("Tables", 2, 8, 99999, "Tables, row 2, Player ID: 99999 is not on the Players sheet"),
        ("Tables", 2, 2, "paused", "unknown series status"),
        ("Games", 2, 2, 42, "Games, row 2: series 1, table 42 is not on the Tables sheet"),
        ("Games", 2, 3, 5, "Games, row 2, Deal: expected deal 1 of this table, not 5 (3.2.1)"),
        ("Games", 2, 10, "sometimes", "With/without"),
        ("Games", 2, 6, "two", "Declarer seat: 'two' is not a whole number"),
    ],
)
def test_a_broken_workbook_names_sheet_row_and_column_and_writes_nothing(tmp_path, sheet, row, column, value, message):
    t = finished_tournament(players=7, series=1)
    path = tmp_path / "t.xlsx"
    export(t, path)
    if sheet == "Games" and column == 10:
        row = played_row(path)
    edit(path, sheet, row, column, value)
    empty_the_database()
    with pytest.raises(TransferError, match=re.escape(message)):
        import_tournament(path)
    assert not Tournament.objects.exists() and not Player.objects.exists()


def test_a_missing_sheet_or_column(tmp_path):
    t = finished_tournament(players=7, series=1)
    path = tmp_path / "t.xlsx"
    export(t, path)
    workbook = load_workbook(path)
    workbook["Tables"].cell(row=1, column=7, value="Chair")
    del workbook["Games"]
    workbook.save(path)
    with pytest.raises(TransferError, match="sheet Tables: missing columns Seat"):
        import_tournament(path)
    workbook = load_workbook(path)
    del workbook["Tournament"]
    workbook.save(path)
    with pytest.raises(TransferError, match="sheet 'Tournament' is missing"):
        import_tournament(path)


def test_a_player_whose_number_now_belongs_to_another_name(tmp_path):
    t = finished_tournament(players=7, series=1)
    path = tmp_path / "t.xlsx"
    export(t, path)
    Player.objects.filter(membership_number__isnull=False).exclude(membership_number="").update(name="Somebody")
    with pytest.raises(TransferError, match="belongs to Somebody"):
        import_tournament(path)


def test_voided_games_and_irregularities_survive_the_round_trip(tmp_path):
    """A referee's void and a game ended by an irregularity (4.1.4) are part of the record."""
    t = finished_tournament(players=7, series=1, seed=5)
    played = Game.objects.filter(table__series__tournament=t, passed_out=False).order_by("table", "number")
    void, irregular = played[0], played[1]
    void.voided = True
    void.apply_rules(void.table.size)
    void.save()
    irregular.irregularity = "opponents"
    irregular.apply_rules(irregular.table.size)
    irregular.save()
    before = snapshot(t)
    keys = [(void.table.number, void.number), (irregular.table.number, irregular.number)]
    path = tmp_path / "league.xlsx"
    export(t, path)
    empty_the_database()

    result = import_tournament(path)
    assert result.differences == []
    assert snapshot(result.tournament) == before
    again = [Game.objects.get(table__series__tournament=result.tournament, table__number=n, number=d) for n, d in keys]
    assert again[0].voided and again[0].score == 0 and not (again[0].won or again[0].lost)
    assert again[1].irregularity == "opponents" and again[1].won


def test_the_money_tables_survive_the_round_trip(tmp_path):
    t = finished_tournament(players=7, series=1)
    t.passed_out_fees.create(table_size=3, from_passed_out=4, amount="0.50")
    t.passed_out_fees.create(table_size=4, from_passed_out=5, amount="0.50")
    for place, amount in enumerate(("2.00", "1.20", "0.80", "0.00"), start=1):
        t.table_money.create(table_size=4, place=place, amount=amount)
    t.prizes.create(place=1, percent="33.33")
    t.prizes.create(place=2, amount="25.00")
    rules, prizes = t.fee_rules(), t.prize_rules()
    path = tmp_path / "t.xlsx"
    export(t, path)
    empty_the_database()
    new = import_tournament(path).tournament
    assert new.fee_rules() == rules and new.prize_rules() == prizes


def test_a_categorys_own_prize_does_not_make_the_file_unreadable(tmp_path):
    """Place 1 of "Damen" beside place 1 overall: the file's Prizes are the overall ranking's
    (a category's own prizes are not in the file), so the import takes them instead of refusing place 1 twice."""
    t = finished_tournament(players=7, series=1)
    t.prizes.create(place=1, percent="50")
    t.prizes.create(place=1, percent="10", category=t.categories.create(name="Damen"))
    prizes = t.prize_rules()
    path = tmp_path / "t.xlsx"
    export(t, path)
    empty_the_database()
    assert import_tournament(path).tournament.prize_rules() == prizes


def tournament_row(path, field: str) -> int:
    sheet = load_workbook(path, read_only=True)["Tournament"]
    return next(i for i, row in enumerate(sheet.iter_rows(values_only=True), start=1) if row[0] == field)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("Passed-out fees", "5:4:0.50", "Passed-out fees, 5:4:0.50: a table of 3 or 4"),
        ("Passed-out fees", "3:4", "Passed-out fees: '3:4' is not size:from:amount"),
        ("Passed-out fees", "3:4:-1", "Passed-out fees, 3:4:-1: '-1' is not an amount of 0 to 9999.99 in cents"),
        ("Passed-out fees", "3:4:1e9", "'1e9' is not an amount"),
        ("Table money", "3:4:1.00", "Table money, 3:4:1.00: a place at a table of 3 or 4, each once"),
        ("Table money", "4:1:1 4:1:2", "Table money, 4:1:2: a place at a table of 3 or 4, each once"),
        ("Table money", "4:1:0.001", "'0.001' is not an amount"),
        ("Prizes", "1:60% 2:50%", "Tournament, Prizes: percent: the shares add up to 110 %"),
        ("Prizes", "1:10% 1:5", "Tournament, Prizes: place: place 1 has two prizes"),
        ("Prizes", "0:5", "Tournament, Prizes, 0:5: 0 is not a number from 1 to 32767"),
        ("Prizes", "1:NaN", "'NaN' is not an amount"),
        ("Prizes", "first:5", "Prizes, first:5: 'first' is not a whole number"),
        # Beyond a small integer column: PostgreSQL would refuse the row with a traceback.
        ("Prizes", "40000:5", "Prizes, 40000:5: 40000 is not a number from 1 to 32767"),
        ("Passed-out fees", "3:40000:0.50", "3:40000:0.50: 40000 is not a number from 1 to 32767"),
        ("Lost-game fees", "40000:0.50", "Lost-game fees, 40000:0.50: 40000 is not a number from 1 to 32767"),
        ("Lost-game fees", "1:-2", "Lost-game fees, 1:-2: '-2' is not an amount"),
    ],
)
def test_a_broken_money_table_is_named_and_nothing_written(tmp_path, field, value, message):
    t = finished_tournament(players=7, series=1)
    path = tmp_path / "t.xlsx"
    export(t, path)
    edit(path, "Tournament", tournament_row(path, field), 2, value)
    empty_the_database()
    with pytest.raises(TransferError, match=re.escape(message)):
        import_tournament(path)
    assert not Tournament.objects.exists()


def test_a_file_from_before_the_money_tables_still_imports(tmp_path):
    t = finished_tournament(players=7, series=1)
    path = tmp_path / "t.xlsx"
    export(t, path)
    workbook = load_workbook(path)
    sheet = workbook["Tournament"]
    sheet.delete_rows(tournament_row(path, "Passed-out fees"), 3)
    workbook.save(path)
    empty_the_database()
    new = import_tournament(path).tournament
    assert not new.passed_out_fees.exists() and not new.table_money.exists() and not new.prizes.exists()


def test_a_null_game_with_tops_stops_the_import(tmp_path):
    t = finished_tournament(players=7, series=1)
    path = tmp_path / "t.xlsx"
    export(t, path)
    row = played_row(path)
    tamper(path, "Contract", row, "null")
    tamper(path, "Declarer tricks", row, 0)
    tamper(path, "Declarer card points", row, "")
    empty_the_database()
    with pytest.raises(TransferError, match=rf"Games, row {row}: tops: null games have no tops \(2.4.3\)"):
        import_tournament(path)
    assert not Tournament.objects.exists() and not Game.objects.exists()


def test_impossible_card_points_for_the_tricks_stop_the_import(tmp_path):
    t = finished_tournament(players=7, series=1)
    path = tmp_path / "t.xlsx"
    export(t, path)
    row = played_row(path)
    tamper(path, "Declarer card points", row, 0)
    tamper(path, "Declarer tricks", row, 5)
    empty_the_database()
    with pytest.raises(TransferError, match=rf"Games, row {row}: declarer_points, declarer_tricks: .* \(1.2.2\)"):
        import_tournament(path)
    assert not Tournament.objects.exists()


def test_announcements_survive_the_round_trip(tmp_path):
    """The Games sheet marks schneider announced for schwarz announced (5.2.6); importing it values the same."""
    t = finished_tournament(players=7, series=1)
    game = Game.objects.filter(table__series__tournament=t, passed_out=False).exclude(contract="null").first()
    game.contract, game.tops, game.hand, game.schwarz_announced = "hearts", 1, True, True
    game.declarer_points, game.declarer_tricks, game.bid = 100, None, None
    game.apply_rules(game.table.size)
    game.save()
    before = snapshot(t)
    path = tmp_path / "t.xlsx"
    export(t, path)
    empty_the_database()
    result = import_tournament(path)
    assert result.differences == [] and snapshot(result.tournament) == before
    again = Game.objects.get(table__series__tournament=result.tournament, schwarz_announced=True)
    assert (again.schneider_announced, again.value, again.score) == (True, 70, -140)
    export(result.tournament, tmp_path / "again.xlsx")
    first, second = (load_workbook(p, read_only=True)["Games"] for p in (path, tmp_path / "again.xlsx"))
    assert [r for r in first.iter_rows(values_only=True)] == [r for r in second.iter_rows(values_only=True)]


@pytest.mark.parametrize(("column", "value"), [(2, "\u200b\u200b"), (2, "\u202eannA"), (3, "#N/A"), (6, "\u3164")])
def test_a_name_no_one_can_read_is_refused(tmp_path, column, value):
    t = finished_tournament(players=7, series=1)
    path = tmp_path / "t.xlsx"
    export(t, path)
    workbook = load_workbook(path)
    workbook["Players"].cell(row=2, column=column, value=value)
    workbook.save(path)
    count = Player.objects.count()
    with pytest.raises(TransferError, match=r"Players, row 2, (Name|Club|Team): "):
        import_tournament(path)
    assert Player.objects.count() == count


def test_the_list_fee_refund_share_survives_the_round_trip(tmp_path):
    t = finished_tournament(players=7, series=1, seed=3)
    Tournament.objects.filter(pk=t.pk).update(list_fee_refund_percent=40)
    t.refresh_from_db()
    path = tmp_path / "league.xlsx"
    export(t, path)
    empty_the_database()
    assert import_tournament(path).tournament.list_fee_refund_percent == 40


def test_the_players_categories_survive_the_round_trip(tmp_path):
    """A year built from imported evenings keeps its women's and juniors' rankings."""
    t = finished_tournament(players=7, series=1)
    damen, junioren = t.categories.create(name="Damen"), t.categories.create(name="Junioren")
    regs = list(Registration.objects.filter(tournament=t).order_by("start_number"))
    Registration.objects.filter(pk__in=[regs[0].pk, regs[3].pk]).update(category=damen)
    Registration.objects.filter(pk=regs[5].pk).update(category=junioren)
    before = sorted(
        Registration.objects.filter(tournament=t).values_list("player__membership_number", "category__name")
    )
    path = tmp_path / "t.xlsx"
    export(t, path)
    empty_the_database()
    new = import_tournament(path).tournament
    assert sorted(new.categories.values_list("name", flat=True)) == ["Damen", "Junioren"]
    after = sorted(
        Registration.objects.filter(tournament=new).values_list("player__membership_number", "category__name")
    )
    assert after == before


def test_a_file_without_the_category_column_still_imports(tmp_path):
    t = finished_tournament(players=7, series=1)
    path = tmp_path / "t.xlsx"
    export(t, path)
    workbook = load_workbook(path)
    sheet = workbook["Players"]
    header = [cell.value for cell in sheet[1]]
    sheet.delete_cols(header.index("Category") + 1)
    workbook.save(path)
    empty_the_database()
    new = import_tournament(path).tournament
    assert Registration.objects.filter(tournament=new, category__isnull=True).count() == 7

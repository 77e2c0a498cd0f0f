"""The tournament file's "Table money from": kept through a move, a file from before the
choice pays in full as it did, and a value the office does not know is named."""

from __future__ import annotations

import pytest
from openpyxl import load_workbook

from tests.transfer.test_exports import finished_tournament
from tests.transfer.test_tournament_file import edit, empty_the_database, export, tournament_row
from tournaments.models import Tournament
from transfer.tournament_file import TransferError, import_tournament

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("choice", [Tournament.TableMoneyFrom.TABLE, Tournament.TableMoneyFrom.FULL])
def test_the_choice_survives_the_round_trip(tmp_path, choice):
    t = finished_tournament(players=7, series=1)
    Tournament.objects.filter(pk=t.pk).update(table_money_from=choice)
    t.refresh_from_db()
    path = tmp_path / "t.xlsx"
    export(t, path)
    empty_the_database()
    assert import_tournament(path).tournament.table_money_from == choice


def test_a_file_from_before_the_choice_pays_table_money_in_full(tmp_path):
    t = finished_tournament(players=7, series=1)
    path = tmp_path / "t.xlsx"
    export(t, path)
    workbook = load_workbook(path)
    workbook["Tournament"].delete_rows(tournament_row(path, "Table money from"), 1)
    workbook.save(path)
    empty_the_database()
    new = import_tournament(path).tournament
    assert new.table_money_from == Tournament.TableMoneyFrom.FULL and not new.fee_rules().table_money_capped


@pytest.mark.parametrize("value", ["Table", "capped", "voll", "1"])
def test_an_unknown_choice_is_named_and_nothing_written(tmp_path, value):
    t = finished_tournament(players=7, series=1)
    path = tmp_path / "t.xlsx"
    export(t, path)
    edit(path, "Tournament", tournament_row(path, "Table money from"), 2, value)
    empty_the_database()
    with pytest.raises(TransferError, match=f"Tournament, Table money from: table or full, not '{value}'"):
        import_tournament(path)
    assert not Tournament.objects.exists()

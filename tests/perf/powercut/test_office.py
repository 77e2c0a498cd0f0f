"""What the run reads of the office's data folder after a cut: the deals the disk kept, the key."""

from __future__ import annotations

import sqlite3

from perf.powercut.office import DATABASE, KEY_FILE, Office


def office_in(tmp_path) -> Office:
    office = Office(tmp_path, processes=1, threads=1)
    office.fresh()
    return office


def test_the_deals_on_the_disk_are_read_by_table_and_number(tmp_path):
    office = office_in(tmp_path)
    db = sqlite3.connect(office.lower / DATABASE)
    db.execute("CREATE TABLE scoring_game (id INTEGER PRIMARY KEY, table_id INTEGER, number INTEGER)")
    db.executemany("INSERT INTO scoring_game (table_id, number) VALUES (?, ?)", [(7, 25), (7, 26), (8, 25)])
    db.commit()
    db.close()
    assert office.deals_on_disk() == {(7, 25), (7, 26), (8, 25)}


def test_a_database_whose_tables_never_reached_the_disk_holds_no_deal(tmp_path):
    office = office_in(tmp_path)
    sqlite3.connect(office.lower / DATABASE).close()  # an empty file: the migrations were lost
    assert office.deals_on_disk() == set()


def test_a_database_gone_or_damaged_is_said(tmp_path):
    office = office_in(tmp_path)
    assert office.deals_on_disk() == "the database file is gone"
    (office.lower / DATABASE).write_bytes(b"not a database" * 100)
    assert office.deals_on_disk().startswith("the database cannot be read: ")


def test_the_key_is_the_key_files_content_and_empty_when_missing(tmp_path):
    office = office_in(tmp_path)
    assert office.key(office.lower) == ""
    (office.lower / KEY_FILE).write_text("a-long-key\n")
    assert office.key(office.lower) == "a-long-key"

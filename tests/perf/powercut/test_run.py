"""The power-cut run's plan and report: which cuts come early, which disk model each gets, what fails the run."""

from __future__ import annotations

from perf.powercut.run import Cut, failures, is_early, names_at_once, report


def test_the_disk_models_alternate_from_names_at_once():
    assert [names_at_once(n) for n in (1, 2, 3, 4)] == [True, False, True, False]


def test_cut_one_and_every_nth_after_it_come_right_after_a_start():
    assert [n for n in range(1, 8) if is_early(n, 3)] == [1, 4, 7]
    assert not any(is_early(n, 0) for n in range(1, 8))


def test_a_clean_run_passes_and_its_table_totals_the_cuts():
    rows = [Cut(1, "names at once", True, 0.5, 3, 0), Cut(2, "strict", False, 6.2, 40, 0)]
    assert failures(rows) == []
    lines = report(rows)
    assert lines[2] == "| 1 | names at once | 0.5 s after the start | 3 | 0 | 0 | no |"
    assert lines[-1] == "| **2 cuts** | | | **43** | **0** | **0** | **0** |"


def test_a_lost_deal_a_failed_start_a_changed_key_and_a_lost_database_each_fail_the_run():
    rows = [
        Cut(1, "names at once", True, 0.5, 3, 2, key_changed=True),
        Cut(2, "strict", False, 6.2, 40, 0, start_failed="ValueError: Couldn't load manifest"),
        Cut(3, "names at once", False, 5.0, 10, 10, database="the database file is gone"),
    ]
    found = failures(rows)
    assert found[0] == "12 acknowledged deal(s) lost"
    assert found[1].startswith("1 start(s) failed after a cut: ValueError")
    assert found[2] == "the secret key changed after 1 cut(s)"
    assert found[3] == "1 database(s) unreadable after a cut: the database file is gone"
    row = "| 3 | names at once | 5.0 s after the start, amid deals | 10 | 10 (the database file is gone) | 0 | no |"
    assert row in report(rows)

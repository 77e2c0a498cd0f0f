"""``manage.py powercut``: power cuts amid an evening cost no acknowledged deal, no start and no key.

The short run (two cuts: one within two seconds of the first start, when the key file and
the static files' manifest were just written, one amid the deals) serves the office from
the simulated disk, so it needs FUSE; its options are checked without.
"""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"cuts": 0}, "--cuts must be at least 1"),
        ({"early_every": -1}, "--early-every must be 0 or more"),
        ({"processes": 0}, "--processes must be from 1 to"),
        ({"threads": 0}, "--threads must be at least 1"),
        ({"think": -1.0}, "--think must be 0 or more seconds"),
    ],
)
def test_a_wrong_option_is_refused_with_its_rule(options, message):
    with pytest.raises(CommandError, match=message):
        call_command("powercut", stdout=io.StringIO(), **options)


def test_keep_must_name_an_existing_folder(tmp_path):
    with pytest.raises(CommandError, match="is not a folder"):
        call_command("powercut", keep=tmp_path / "missing", stdout=io.StringIO())


def test_without_fuse_the_run_says_why(monkeypatch):
    from perf.powercut.management.commands import powercut

    monkeypatch.setattr(powercut, "available", lambda: "there is no /dev/fuse (a container without FUSE)")
    with pytest.raises(CommandError, match="cannot run here: there is no /dev/fuse"):
        call_command("powercut", stdout=io.StringIO())


def test_two_cuts_cost_no_acknowledged_deal_no_start_and_no_key(fuse_usable):
    out = io.StringIO()
    try:
        call_command("powercut", cuts=2, early_every=2, processes=2, threads=3, seed=3, stdout=out)
    finally:
        print(out.getvalue())  # the table, shown when it fails
    text = out.getvalue()
    assert "| 1 | names at once |" in text and "| 2 | strict |" in text
    assert "result: pass" in text

"""scoring.hooks.sheet_signed: scoring asks whether a sheet is signed off through it, and the
signoff app answers; without that answer no sheet is signed."""

from __future__ import annotations

import pytest

from scoring import hooks
from scoring.entry import _current
from scoring.lists import differing_deals
from scoring.models import ControlEntry
from signoff.models import SignOff
from tests import factories
from tournaments.models import Table

pytestmark = pytest.mark.django_db

HEARTS = {"declarer_seat": 2, "contract": "hearts", "tops": 1, "tops_kind": "with", "declarer_points": 70}


def _signed_table_whose_lists_differ() -> Table:
    table = factories.table_of(3)
    factories.game(table, 1, **HEARTS)
    entry = ControlEntry(table=table, number=1, **{**HEARTS, "declarer_seat": 3})  # another declarer
    entry.apply_rules(table.size)
    entry.save()
    SignOff.objects.create(table=table, fingerprint="f" * 64, confirmed_by="PINs")
    return table


def test_the_signoff_app_answers_which_sheets_are_signed():
    signed = _signed_table_whose_lists_differ()
    open_table = factories.table_of(3)
    assert hooks.sheet_signed.filled_by == "signoff.sheets.sheet_signed"
    tables = Table.objects.filter(pk__in=[signed.pk, open_table.pk])
    assert set(tables.filter(hooks.sheet_signed()).values_list("pk", flat=True)) == {signed.pk}
    assert set(tables.exclude(hooks.sheet_signed()).values_list("pk", flat=True)) == {open_table.pk}
    # The table link's lock and the second list read it: a signed sheet is locked and differs no more.
    assert _current(signed).signed and not _current(open_table).signed
    assert differing_deals([signed.pk]) == {}


def test_without_the_signoff_app_no_sheet_is_signed(monkeypatch):
    signed = _signed_table_whose_lists_differ()
    monkeypatch.setattr(hooks.sheet_signed, "_filled", None)  # as if signoff were not installed
    assert not hooks.sheet_signed.filled
    assert list(Table.objects.filter(pk=signed.pk).filter(hooks.sheet_signed())) == []
    assert not _current(signed).signed
    assert differing_deals([signed.pk]) == {signed.pk: [1]}  # deal 1: the declarers differ

"""The one place a deal is written: whatever a caller typed into the fields the engine
derives, the stored row carries the engine's value (ScoresheetLine.save, scoring.services).

The expected values are the Skatordnung's, worked out by hand in the comments: the base
value (5.2.x) times the multiplier (5.3.x), a lost game counts twice its value against
the declarer (5.3.4).
"""

from __future__ import annotations

import pytest
from django.db import IntegrityError

from scoring import services
from scoring.models import ControlEntry, Game, SeatTotal
from skat.rules import RuleError
from tests import factories

pytestmark = pytest.mark.django_db

#: Derived fields typed in by a careless caller: none of them is the engine's answer.
WRONG = {"value": 999, "score": -999, "won": False, "lost": True, "overbid": True, "multiplier": 77}


def grand_with_one(number: int = 1, **fields) -> dict:
    """A grand with 1 top, 70 card points: won; base 24 (5.2.1) x (1 top + 1 game = 2, 5.3.1) = 48."""
    return {"number": number, "declarer_seat": 1, "contract": "grand", "tops": 1, "declarer_points": 70, **fields}


def stored(game: Game) -> tuple:
    game = Game.objects.get(pk=game.pk)
    return (game.value, game.score, game.won, game.lost, game.overbid, game.multiplier)


def test_save_stores_the_engine_s_value_not_the_typed_one():
    table = factories.table_of(3)
    game = Game(table=table, **grand_with_one(), **WRONG)
    game.save()
    # 24 x 2 = 48, won: +48 (5.3.1).
    assert stored(game) == (48, 48, True, False, False, 2)


def test_create_stores_the_engine_s_value_too():
    table = factories.table_of(3)
    # Clubs with 2 tops, 50 card points: lost; base 12 (5.2.1) x (2 + 1 game = 3) = 36, lost -2 x 36 = -72 (5.3.4).
    game = Game.objects.create(
        table=table, number=1, declarer_seat=2, contract="clubs", tops=2, declarer_points=50, **WRONG
    )
    assert stored(game) == (36, -72, False, True, False, 3)


def test_a_save_of_some_fields_stores_what_the_engine_derives_from_them():
    table = factories.table_of(3)
    game = services.save_deal(Game(table=table, **grand_with_one()))
    game.declarer_points = 50  # the grand is lost now: -2 x 48 = -96 (5.3.4)
    game.save(update_fields=["declarer_points"])
    assert stored(game) == (48, -96, False, True, False, 2)


def test_save_refuses_what_the_engine_refuses_and_stores_nothing():
    table = factories.table_of(4)
    # Deal 3 at a table of four is dealt by seat 3, who sits out (3.2.7).
    with pytest.raises(RuleError) as refused:
        Game(table=table, **grand_with_one(3, declarer_seat=3)).save()
    assert refused.value.paragraph == "3.2.7"
    assert not Game.objects.exists()


def test_bulk_creation_values_every_row_and_the_triggers_keep_the_seat_totals():
    table = factories.table_of(3)
    games = [
        Game(table=table, **grand_with_one(1), **WRONG),
        # Hearts with 1 top, 70 card points, bid 50: overbid, lost at the smallest value
        # above the bid, 10 x 5 = 50 (5.4.1): -2 x 50 = -100 (5.3.4).
        Game(table=table, number=2, declarer_seat=1, contract="hearts", tops=1, declarer_points=70, bid=50, **WRONG),
        Game(table=table, number=3, passed_out=True, **WRONG),
    ]
    services.create_deals(games)
    rows = list(Game.objects.filter(table=table).order_by("number").values_list("number", "value", "score", "won"))
    assert rows == [(1, 48, 48, True), (2, 50, -100, False), (3, 0, 0, False)]
    # Seat 1: +48 - 100 = -52, one won, one lost; the passed-out deal belongs to no seat (5.5.1).
    assert list(SeatTotal.objects.filter(table=table).values_list("number", "points", "won", "lost")) == [
        (1, -52, 1, 1)
    ]


def test_bulk_creation_stores_nothing_when_the_engine_refuses_one_row():
    table = factories.table_of(3)
    games = [Game(table=table, **grand_with_one(1)), Game(table=table, number=2, contract="grand", tops=1)]
    with pytest.raises(RuleError, match="choose the declarer"):
        services.create_deals(games)
    assert not Game.objects.exists()


def test_bulk_creation_reads_the_sizes_of_tables_it_does_not_hold():
    table = factories.table_of(4)
    # Only the table's key: its size (4) is read. Deal 2 at four is dealt by seat 2 (3.2.1).
    services.create_deals([ControlEntry(table_id=table.pk, **grand_with_one(2))])
    entry = ControlEntry.objects.get(table=table)
    assert (entry.dealer_seat, entry.value, entry.score) == (2, 48, 48)


def test_rewriting_values_the_deal_and_refuses_a_stale_version():
    table = factories.table_of(3)
    game = services.save_deal(Game(table=table, **grand_with_one()))
    game.declarer_points = 50
    game.score = 1000  # typed in: never stored
    assert services.rewrite_deal(game, version=2, entered_by="desk") is False
    assert stored(game) == (48, 48, True, False, False, 2), "a stale version writes nothing"
    assert services.rewrite_deal(game, version=1, entered_by="desk") is True
    game.refresh_from_db()
    # 48 lost: -2 x 48 = -96 (5.3.4); the version moved on.
    assert (game.score, game.lost, game.version, game.entered_by) == (-96, True, 2, "desk")


def test_rewriting_stores_the_irregularity_the_engine_valued_the_deal_with():
    """A game's irregularity (4.1.4) is valued, so a rewrite stores it with the score: a
    deal read from a tournament file with one, then corrected at the table to passed out,
    keeps no irregularity beside its passed-out line."""
    table = factories.table_of(3)
    # 4.1.4: the declarer's irregularity, the opponents win; the grand's 48 lost: -2 x 48 = -96 (5.3.4).
    game = services.save_deal(Game(table=table, irregularity="declarer", **grand_with_one()))
    assert stored(game) == (48, -96, False, True, False, 2)
    game.passed_out = True
    assert services.rewrite_deal(game, version=1, entered_by="desk") is True
    game = Game.objects.get(pk=game.pk)
    assert (game.passed_out, game.score, game.irregularity) == (True, 0, "")


def test_a_deal_is_stored_once_per_table_and_number_whatever_writes_it():
    table = factories.table_of(3)
    services.save_deal(Game(table=table, number=1, passed_out=True))
    with pytest.raises(IntegrityError):
        services.create_deals([Game(table=table, number=1, passed_out=True)])

"""The fee account: counted from the stored seat totals, the same money as every table's settlement."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest

from draw.series import draw_series
from money.ledger import fee_account, settlements
from office.demo import random_game
from scoring.models import Game
from skat import fees
from tests import factories
from tournaments.models import Registration, Series

pytestmark = pytest.mark.django_db


def _play(series, deals: int, rng: random.Random) -> None:
    games = []
    for table in series.tables.all():
        for number in range(1, deals + 1):
            game = random_game(rng, number, table.size)
            game.table = table
            games.append(game)
    Game.objects.bulk_create(games)


@pytest.fixture
def priced():
    """11 players in two series (tables of four and three), games lost, passed out and
    voided, every fee table filled, some players paid at the desk."""
    t, first = factories.drawn(players=11, series_count=2, entry_fee=Decimal("10"), list_fee=Decimal("2"))
    rng = random.Random(7)
    _play(first, 9, rng)
    Series.objects.filter(pk=first.pk).update(status=Series.Status.FINISHED)
    second = draw_series(t, "random", provisional=True)
    _play(second, 6, rng)
    Game.objects.filter(table__series=first, number=2, passed_out=False).update(
        voided=True, score=0, won=False, lost=False
    )
    Game.objects.filter(table__series=first, number__in=[3, 5]).update(
        passed_out=True, declarer_seat=None, score=0, won=False, lost=False
    )
    for start, amount in ((1, "0.50"), (4, "1.00")):
        t.lost_game_fees.create(from_lost_game=start, amount=amount)
    for size in (3, 4):
        t.passed_out_fees.create(table_size=size, from_passed_out=1, amount="0.20")
        for place, amount in enumerate(["3.00", "1.50", "0.50", "0"][:size], start=1):
            t.table_money.create(table_size=size, place=place, amount=amount)
    pks = list(t.registrations.order_by("pk").values_list("pk", flat=True))
    Registration.objects.filter(pk__in=pks[:4]).update(paid=True, list_fees_paid=True)
    Registration.objects.filter(pk=pks[4]).update(list_fees_paid=True)  # the list fees only
    Registration.objects.filter(pk=pks[5]).update(first_series=2)  # pays his entry fee in series 2
    return t


def test_the_fee_account_is_every_table_settlement_summed(priced):
    account = fee_account(priced)
    assert [tables for _series, tables, _account in account.by_series] == [3, 3]
    for series, _tables, counted in account.by_series:
        # The oracle: every game of every table settled (money.ledger.settlements) and summed.
        summed = sum((table.account for table in settlements(priced, [series])), fees.Account())
        assert counted == summed
    assert account.total.lost_game_fees > 0 and account.total.passed_out_fees > 0


def test_tables_account_counts_what_table_account_gives_seat_by_seat():
    rules = fees.FeeRules(
        entry_fee=Decimal("10"),
        list_fee=Decimal("2"),
        lost_game_steps=((1, Decimal("0.50")), (4, Decimal("1.00"))),
        passed_out_steps={4: ((1, Decimal("0.20")),), 3: ((2, Decimal("0.30")),)},
        table_money={4: {1: Decimal("3"), 2: Decimal("1")}, 3: {1: Decimal("2")}},
    )
    tables = [((0, 5, 2, 1), 3, (True, False, False, False), (True, True, False, True)), ((4, 0, 1), 2, None, None)]
    seat_by_seat = fees.Account()
    counted = []
    for lost, passed, entry, listed in tables:
        size = len(lost)
        places = list(range(1, size + 1))
        accounts = fees.table_account(
            rules, size=size, lost=lost, places=places, passed_out=passed, entry_due=entry, list_due=listed
        )
        seat_by_seat = seat_by_seat + fees.Account.of(accounts)
        counted.append(
            fees.TableCounts(
                size=size,
                lost=lost,
                passed_out=passed,
                entry_due=sum(entry or ()),
                list_due=sum(listed) if listed else size,
            )
        )
    assert fees.tables_account(rules, counted) == seat_by_seat


def test_tables_account_refuses_a_table_of_five():
    with pytest.raises(fees.FeeError, match="size"):
        fees.tables_account(fees.FeeRules(), [fees.TableCounts(5, (0,) * 5, 0, 0, 0)])


def test_the_fee_account_reads_a_fixed_number_of_queries(django_assert_max_num_queries, priced):
    with django_assert_max_num_queries(12):
        fee_account(priced)

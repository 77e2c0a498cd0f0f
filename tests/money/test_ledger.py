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


def test_what_a_player_paid_in_another_tournament_counts_nothing_here(priced):
    """Who pays where is read from this tournament's registrations only: the same players
    registered in a second tournament, there paid in full or not at all, leave this
    account as it was, and it stays every table's settlement summed."""
    before = fee_account(priced)
    unpaid = list(priced.registrations.filter(paid=False).select_related("player"))
    paid = list(priced.registrations.filter(paid=True).select_related("player"))
    assert unpaid and paid
    other = factories.tournament(entry_fee=Decimal("10"), list_fee=Decimal("2"))
    for r in unpaid:
        Registration.objects.create(tournament=other, player=r.player, paid=True, list_fees_paid=True)
    for r in paid:
        Registration.objects.create(tournament=other, player=r.player, paid=False, list_fees_paid=False)
    after = fee_account(priced)
    assert after == before
    for series, _tables, counted in after.by_series:
        assert counted == sum((table.account for table in settlements(priced, [series])), fees.Account())


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


def test_a_withdrawal_leaves_the_desk_line_split_into_entry_and_list_fees():
    """Worked by hand: 3 players paid 10.00 entry and no list fee (list fee 0); one withdraws
    after series 1. The entry fee is not given back: the desk took 30.00 of entry fees from
    3 players and 0.00 of list fees (before, 20.00 from 2 players and 10.00 'list fees')."""
    t = factories.tournament(entry_fee=Decimal("10"), list_fee=Decimal("0"), series_count=3)
    regs = factories.registered(t, 4)
    Registration.objects.filter(pk__in=[r.pk for r in regs[:3]]).update(paid=True, list_fees_paid=True)
    Registration.objects.filter(pk=regs[0].pk).update(withdrawn_after_series=1)
    account = fee_account(t)
    assert account.paid_at_registration == 3
    assert account.at_registration == fees.Account(entry_fees=Decimal("30.00"), list_fees=Decimal("0.00"))


def test_table_money_at_most_what_the_tables_collect_or_in_full_as_the_tournament_chose():
    """Worked by hand, the federation's way (list fee 0): one table of three loses 1 game
    (0.50), table money 1.50/0.50. At most what it collects: 0.50 paid, the table keeps 0.
    In full: 2.00 paid, 1.50 of it from the entry fees, the table leaves -1.50."""
    from tournaments.models import Tournament

    t, series = factories.drawn(players=3, series_count=1, entry_fee=Decimal("0"), list_fee=Decimal("0"))
    t.lost_game_fees.create(from_lost_game=1, amount="0.50")
    for place, amount in ((1, "1.50"), (2, "0.50")):
        t.table_money.create(table_size=3, place=place, amount=amount)
    table = series.tables.get()
    # Hearts with 1, declarer 40 card points: lost (5.3.1), his one lost game costs 0.50.
    game = factories.game(table, 1, declarer_seat=1, contract="hearts", tops=1, tops_kind="with", declarer_points=40)
    assert game.lost
    capped = fee_account(t).total
    assert (capped.collected, capped.table_money, capped.kept) == (Decimal("0.50"), Decimal("0.50"), Decimal("0.00"))
    [settled] = settlements(t, [series])
    assert sum(a.table_money for a in settled.accounts) == Decimal("0.50")
    Tournament.objects.filter(pk=t.pk).update(table_money_from="full")
    t.refresh_from_db()
    full = fee_account(t).total
    assert (full.table_money, full.kept) == (Decimal("2.00"), Decimal("-1.50"))

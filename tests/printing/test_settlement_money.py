"""The settlement PDF's fee account with table money at most what the table collects."""

from __future__ import annotations

import io
from decimal import Decimal

import pytest
from django.utils import translation
from pypdf import PdfReader

from money.ledger import fee_account, settlements
from printing.documents import table_settlement_pdf
from tests import factories
from tournaments.models import Registration

pytestmark = pytest.mark.django_db


def test_table_money_covered_by_list_fees_paid_at_the_desk_is_said_on_the_sheet():
    """Worked by hand: list fee 1.00, table money 2.00/1.20/0.80/0, no game played. All
    four paid their list fees at the desk: the table takes nothing, yet its list fees are
    4.00 and pay its 4.00 of table money in full. The sheet says where the 4.00 came
    from, and the fee account pays the same 4.00 out."""
    table = factories.table_of(4, entry_fee=Decimal("0"), list_fee=Decimal("1.00"))
    t = table.series.tournament
    for place, amount in enumerate(["2.00", "1.20", "0.80", "0"], start=1):
        t.table_money.create(table_size=4, place=place, amount=amount)
    for seat in table.seats.all():
        Registration.objects.create(tournament=t, player=seat.player, paid=True, list_fees_paid=True)
    assert t.table_money_from == t.TableMoneyFrom.TABLE
    (item,) = settlements(t, [table.series])
    assert (item.account.collected, item.account.table_money) == (Decimal("0.00"), Decimal("4.00"))
    assert fee_account(t).total.table_money == Decimal("4.00")
    text = PdfReader(io.BytesIO(table_settlement_pdf(table))).pages[0].extract_text()
    assert "Of it from the list fees paid at the desk 4.00" in text


@pytest.mark.parametrize("capped", [True, False])
def test_the_german_lines_of_where_the_table_money_came_from_fit_uncut(capped):
    """The labels' column is 209 points: a German line cut with an ellipsis hides the rule."""
    table = factories.table_of(4, entry_fee=Decimal("10.00"), list_fee=Decimal("1.00"))
    t = table.series.tournament
    t.table_money.create(table_size=4, place=1, amount="9.00")
    for seat in table.seats.all():
        Registration.objects.create(tournament=t, player=seat.player, paid=seat.number > 1, list_fees_paid=True)
    if not capped:
        t.table_money_from = t.TableMoneyFrom.FULL
        t.save(update_fields=["table_money_from"])
    with translation.override("de"):
        text = PdfReader(io.BytesIO(table_settlement_pdf(table))).pages[0].extract_text()
    assert "…" not in text
    if capped:  # 4.00 of list fees, all paid at the desk: 4.00 of the 9.00
        assert "Tischgeld ausgezahlt (max. Tischeinnahmen) 4,00" in text
        assert "Davon aus Listengeld, an der Kasse bezahlt 4,00" in text
    else:  # 9.00 in full, nothing collected at the table but Seat1's entry fee
        assert "Tischgeld voll ausgezahlt 9,00" in text
        assert "Davon aus Startgeldern (Tisch reichte nicht) 9,00" in text

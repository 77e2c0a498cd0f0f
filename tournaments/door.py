"""The door: check-in and the cash desk (who is present, who paid what), and the
search that finds a registered player however his name is typed.

The desk takes the entry fee and the list fees of every series the player plays in one
payment; :mod:`money.ledger` then charges him neither at the tables. Amounts come
from the tournament's own fees, never constants.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.db import transaction
from django.db.models import Count, F, Q, Sum
from django.db.models.functions import Greatest
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from core.params import number_param
from skat import fees

from .models import Registration, Tournament
from .names import query_words

#: The rows of a page of the desk's list, with a query or without (core.paging).
SEARCH_LIMIT = 50


def search(registrations, query: str):
    """The registrations whose player matches every word of ``query`` at the start of a
    word of his name (any order, accents and umlauts folded), or whose start number or
    membership number is the query: one filtered query, nothing in Python."""
    query = query.strip()
    if not query:
        return registrations
    if query.isdigit():  # "²" too: a membership number only unless it spells a start number in ASCII
        number = number_param(query)
        membership = Q(player__membership_number=query)
        return registrations.filter(membership if number is None else membership | Q(start_number=number))
    for word in query_words(query):
        registrations = registrations.filter(player__search_key__contains=f" {word}")
    return registrations


def series_to_pay(tournament: Tournament, registration: Registration) -> int:
    """The series whose list fee the player pays at the desk: from his first to the last."""
    return max(tournament.series_count - registration.first_series + 1, 0)


def amount_due(tournament: Tournament, registration: Registration) -> Decimal:
    """Entry fee and the list fee of every series he plays: what the desk takes."""
    return tournament.entry_fee + tournament.list_fee * series_to_pay(tournament, registration)


def checkin_started(tournament: Tournament) -> bool:
    """Once anybody is marked present, the draw seats only the players present."""
    return tournament.registrations.filter(present=True).exists()


def set_present(registration: Registration, present: bool) -> None:
    Registration.objects.filter(pk=registration.pk).update(present=present)
    registration.present = present


def set_paid(registration: Registration, paid: bool) -> None:
    """Paid at the desk: entry fee and list fees in one; unpaid undoes both."""
    with transaction.atomic():
        Registration.objects.filter(pk=registration.pk).update(paid=paid, list_fees_paid=paid)
    registration.paid = registration.list_fees_paid = paid


def set_arrived(registration: Registration, arrived: bool) -> None:
    """The usual arrival in one tap: present and paid (entry fee and list fees)."""
    with transaction.atomic():
        Registration.objects.filter(pk=registration.pk).update(present=arrived, paid=arrived, list_fees_paid=arrived)
    registration.present = registration.paid = registration.list_fees_paid = arrived


def withdrawn_matching(registrations, query: str):
    """The withdrawn players the desk's query finds, when no player still in does: the
    desk says he withdrew (and offers him back) rather than inviting a duplicate."""
    if not query.strip():
        return registrations.none()
    return search(registrations.filter(withdrawn_after_series__isnull=False), query)


@dataclass(frozen=True)
class DeskTotals:
    """Registered, present and paid count the players still in the tournament (as the
    dashboard does); ``withdrawn`` those who left it, the cash what all of them paid."""

    registered: int
    present: int
    paid: int
    #: Taken at the desk, less what withdrawals got back.
    cash: Decimal
    #: List fees paid in advance and refunded to players who withdrew (the tournament's share).
    refunded: Decimal = Decimal("0.00")
    withdrawn: int = 0
    #: Who paid the entry fee at the desk, withdrawn players included: the entry fee is
    #: not given back, so it stays in the cash (and in the fee account's desk line).
    paid_entry_fees: int = 0


def totals(tournament: Tournament) -> DeskTotals:
    """Registered (still playing), present, paid and the cash taken at the desk: one query.

    A player who withdrew gets back the tournament's share of the list fees he paid for
    the series he no longer plays (skat.fees.list_fee_refund): the cash is net of it.
    """
    withdrawn = Q(list_fees_paid=True, withdrawn_after_series__isnull=False)
    playing = Q(withdrawn_after_series__isnull=True)
    row = tournament.registrations.aggregate(
        n_registered=Count("pk", filter=playing),
        n_withdrawn=Count("pk", filter=~playing),
        n_present=Count("pk", filter=playing & Q(present=True)),
        n_paid=Count("pk", filter=playing & Q(paid=True)),
        n_paid_all=Count("pk", filter=Q(paid=True)),
        list_series=Sum(tournament.series_count + 1 - F("first_series"), filter=Q(list_fees_paid=True)),
        unplayed=Sum(
            tournament.series_count - Greatest("withdrawn_after_series", F("first_series") - 1), filter=withdrawn
        ),
    )
    refunded = fees.refund_per_series(tournament.list_fee, tournament.list_fee_refund_percent) * max(
        row["unplayed"] or 0, 0
    )
    cash = tournament.entry_fee * row["n_paid_all"] + tournament.list_fee * (row["list_series"] or 0) - refunded
    return DeskTotals(
        row["n_registered"],
        row["n_present"],
        row["n_paid"],
        cash,
        refunded,
        withdrawn=row["n_withdrawn"],
        paid_entry_fees=row["n_paid_all"],
    )


def refund(tournament: Tournament, registration: Registration) -> Decimal:
    """What ``registration``, withdrawn, gets back of the list fees he paid at the desk."""
    if not registration.list_fees_paid or registration.withdrawn_after_series is None:
        return Decimal("0.00")
    return fees.list_fee_refund(
        fees.FeeRules(list_fee=tournament.list_fee, list_fee_refund_percent=tournament.list_fee_refund_percent),
        series_count=tournament.series_count,
        first_series=registration.first_series,
        withdrawn_after=registration.withdrawn_after_series,
    )


def refund_text(tournament: Tournament, registration: Registration) -> str:
    """What a withdrawn player who paid his list fees at the desk gets back, by the
    tournament's rule (skat.fees.list_fee_refund); empty when he paid none there, or the
    list fee is 0 (nothing was paid, so a refund, or its absence, is no news)."""
    if not registration.list_fees_paid or registration.withdrawn_after_series is None or not tournament.list_fee:
        return ""
    amount = refund(tournament, registration)
    if amount:
        return " " + _("Refund %(amount)s of the list fees he paid at the desk (the tournament's %(percent)s %%).") % {
            "amount": number_format(amount, 2),
            "percent": tournament.list_fee_refund_percent,
        }
    return " " + _("The list fees he paid at the desk are not refunded (the tournament's rule).")

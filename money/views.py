"""The director's money page: what the organiser collects per series and overall, the
prize pool and the prize list (the prize list PDF is printing's)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from skat.fees import FeeError
from standings.cache import cached_standings
from standings.places import finality
from tournaments.models import Tournament
from tournaments.permissions import director_required

from .ledger import tournament_money


@director_required
def fee_account(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """What the organiser collects per series and overall, the prize pool and the prize list."""
    tournament, account, payout = tournament_money(tournament, cached_standings(request, tournament))
    prize_error = str(payout) if isinstance(payout, FeeError) else None
    context = {
        "tournament": tournament,
        "rows": [{"series": s, "tables": n, "account": a} for s, n, a in account.by_series],
        "paid": account.paid_at_registration,
        "at_registration": account.at_registration,
        "total": account.total,
        "distribution": account.distribution,
        "payout": None if prize_error else payout,
        "prize_error": prize_error,
        "finality": finality(tournament),
    }
    return render(request, "money/fee_account.html", context)

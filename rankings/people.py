"""The director's word on who is who: doubtful matches answered, two records of one person
merged, a decision undone. Every decision is kept with who, when and why
(:class:`rankings.models.PersonDecision`); an undone one stays, marked undone."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.models import Player

from .compute import compute_lines, load
from .models import PersonDecision, Ranking, RankingTournament
from .services import RankingRefused

#: Why a pair is doubtful (rankings.matching), in the reader's language.
WHY = {
    "club": gettext_lazy("the same name in another club"),
    "initial": gettext_lazy("the same surname and initial in one club"),
    "spelling": gettext_lazy("names spelt alike in one club"),
}


@dataclass
class Doubt:
    player: Player
    other: Player
    why: str


#: Doubtful pairs shown at once on the who-is-who page (the rest are counted).
SHOWN = 100


def doubtful(ranking: Ranking, most: int = SHOWN) -> list[Doubt]:
    """The first ``most`` pairs waiting for the director's word, as the last computation
    found them, with both records (one query)."""
    pairs = ranking.doubtful_pairs[:most]
    players = Player.objects.select_related("club").in_bulk({pk for a, b, _why in pairs for pk in (a, b)})
    return [Doubt(players[a], players[b], str(WHY[why])) for a, b, why in pairs if a in players and b in players]


def contradicted(ranking: Ranking) -> list[tuple[Player, Player]]:
    """Merges not applied because both records played in one tournament added later."""
    pairs = ranking.contradicted_pairs
    players = Player.objects.select_related("club").in_bulk({pk for pair in pairs for pk in pair})
    return [(players[a], players[b]) for a, b in pairs if a in players and b in players]


def _check(ranking: Ranking, player: Player, other: Player, reason: str, *, same: bool) -> None:
    if player.pk == other.pk:
        raise RankingRefused(_("Choose two different player records."))
    if not reason.strip():
        raise RankingRefused(_("Why: say why (it is kept with the decision)."))
    loaded = load(ranking)
    missing = [p for p in (player, other) if p.pk not in loaded.records]
    if missing:
        raise RankingRefused(_("%(player)s has no result in this ranking.") % {"player": missing[0]})
    if not same:
        return
    if player.membership_number and other.membership_number:
        raise RankingRefused(
            _("%(a)s and %(b)s have different membership numbers (%(m)s, %(n)s): two people, not merged.")
            % {"a": player, "b": other, "m": player.membership_number, "n": other.membership_number}
        )
    shared = loaded.played_in.get(player.pk, set()) & loaded.played_in.get(other.pk, set())
    if shared:
        name = RankingTournament.objects.select_related("tournament").get(pk=min(shared)).tournament
        raise RankingRefused(
            _("%(a)s and %(b)s both played in %(tournament)s: two people, not merged.")
            % {"a": player, "b": other, "tournament": name}
        )


def decide(ranking: Ranking, player: Player, other: Player, user, reason: str, *, same: bool) -> PersonDecision:
    """Record that two records are one person (a merge) or two; compute the ranking again."""
    _check(ranking, player, other, reason, same=same)
    with transaction.atomic():
        decision = PersonDecision.objects.create(
            ranking=ranking, player=player, other=other, same=same, reason=reason.strip()[:300], decided_by=user
        )
        compute_lines(ranking)
    return decision


def undo(decision: PersonDecision, user) -> None:
    """Undo a decision (kept, marked undone); the ranking is computed without it."""
    if decision.undone_at is not None:
        raise RankingRefused(_("This decision is undone already."))
    with transaction.atomic():
        decision.undone_at = timezone.now()
        decision.undone_by = user
        decision.save(update_fields=["undone_at", "undone_by"])
        compute_lines(decision.ranking)

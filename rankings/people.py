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

from . import background
from .models import PersonDecision, Ranking, RankingResult, RankingTournament
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


#: The one answer for a record outside the ranking, whatever the id (no name, no "exists").
NOT_IN_RANKING = gettext_lazy("Player records: choose two records with a result in this ranking.")


def records_in(ranking: Ranking, ids: list[int]) -> dict[int, Player]:
    """The records among ``ids`` with a result in ``ranking``: no other player is ever loaded,
    so a refusal cannot name one from another director's tournament."""
    results = RankingResult.objects.filter(entry__ranking=ranking).values("player_id")
    return Player.objects.filter(pk__in=results).select_related("club").in_bulk(ids)


def _check(ranking: Ranking, player: Player, other: Player, reason: str, *, same: bool) -> None:
    if player.pk == other.pk:
        raise RankingRefused(_("Choose two different player records."))
    if not reason.strip():
        raise RankingRefused(_("Why: say why (it is kept with the decision)."))
    played_in: dict[int, set[int]] = {player.pk: set(), other.pk: set()}
    rows = RankingResult.objects.filter(entry__ranking=ranking, player_id__in=list(played_in))
    for player_id, entry_id in rows.values_list("player_id", "entry_id"):
        played_in[player_id].add(entry_id)
    if not all(played_in.values()):
        raise RankingRefused(str(NOT_IN_RANKING))
    if not same:
        return
    if player.membership_number and other.membership_number:
        raise RankingRefused(
            _("%(a)s and %(b)s have different membership numbers (%(m)s, %(n)s): two people, not merged.")
            % {"a": player, "b": other, "m": player.membership_number, "n": other.membership_number}
        )
    shared = played_in[player.pk] & played_in[other.pk]
    if shared:
        name = RankingTournament.objects.select_related("tournament").get(pk=min(shared)).tournament
        raise RankingRefused(
            _("%(a)s and %(b)s both played in %(tournament)s: two people, not merged.")
            % {"a": player, "b": other, "tournament": name}
        )


def decide(ranking: Ranking, player: Player, other: Player, user, reason: str, *, same: bool) -> PersonDecision:
    """Record that two records are one person (a merge) or two; the ranking is computed
    again in the background."""
    _check(ranking, player, other, reason, same=same)
    with transaction.atomic():
        decision = PersonDecision.objects.create(
            ranking=ranking, player=player, other=other, same=same, reason=reason.strip()[:300], decided_by=user
        )
        background.changed(ranking)
    return decision


def undo(decision: PersonDecision, user) -> None:
    """Undo a decision (kept, marked undone); the ranking is computed without it."""
    if decision.undone_at is not None:
        raise RankingRefused(_("This decision is undone already."))
    with transaction.atomic():
        decision.undone_at = timezone.now()
        decision.undone_by = user
        decision.save(update_fields=["undone_at", "undone_by"])
        background.changed(decision.ranking_id)

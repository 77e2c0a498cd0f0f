"""A referee's correction: the only way to change a confirmed sheet or a finished series.

Each change is one transaction: the game is locked and its version compared with the
version the referee saw (a second referee's change in between is refused and named, never
silently overwritten), the engine values the new version (Game.apply_rules), and a
:class:`Correction` row keeps the game before and after. Nothing is deleted: voiding keeps
the game, marked void and scoring nothing.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.db import models, transaction

from scoring.models import Game
from scoring.rules import RuleError, gettext_noop
from tournaments.models import Table

from . import hooks
from .models import Correction, Dispute

#: What a snapshot keeps: what was entered, the referee's marks, and what the engine derived.
SNAPSHOT_FIELDS: tuple[str, ...] = (
    *Game.ENTERED_FIELDS,
    "irregularity",
    "voided",
    "dealer_seat",
    *Game.COMPUTED_FIELDS,
)
#: What a correction may change (the rest is derived by the engine).
CORRECTABLE_FIELDS: tuple[str, ...] = (*Game.ENTERED_FIELDS, "irregularity")


def latest_reason() -> models.Subquery:
    """Each game's latest correction's reason, as a subquery of the games' own query
    (fills scoring.hooks.correction_reason: the sheets mark corrected deals)."""
    latest = Correction.objects.filter(game=models.OuterRef("pk")).order_by("-made_at", "-pk")
    return models.Subquery(latest.values("reason")[:1])


def snapshot(game: Game) -> dict[str, object]:
    """The game's fields as plain JSON values."""
    return {name: getattr(game, name) for name in SNAPSHOT_FIELDS}


def _apply(
    game_id: int,
    *,
    expected_version: int,
    changes: Mapping[str, object],
    kind: str,
    user,
    reason: str,
    dispute: Dispute | None,
) -> Correction:
    reason = (reason or "").strip()
    if not reason:
        raise RuleError("reason", gettext_noop("say why the game is changed"), "4.5.10")
    with transaction.atomic():
        # The table first, as game entry locks it: one table's writers queue in one order
        # (saving the game also updates its seats' totals, scoring.models.SeatTotal).
        Table.objects.lock(Game.objects.filter(pk=game_id).values("table_id")[:1])
        game = Game.objects.select_for_update().select_related("table").get(pk=game_id)
        if game.version != expected_version:
            raise RuleError(
                "version",
                gettext_noop(
                    "deal {deal} was changed by someone else meanwhile (version {seen} is now {now}); "
                    "reload it and check the change"
                ),
                "5.5.3",
                deal=game.number,
                seen=expected_version,
                now=game.version,
            )
        refused = hooks.correction_refused(game.table.series.tournament_id)
        if refused is not None:
            template, params = refused
            raise RuleError("game", template, "5.5.3", **params)
        if dispute is not None and dispute.table_id != game.table_id:
            raise RuleError("dispute", gettext_noop("the dispute is about another table"), "4.5.10")
        before = snapshot(game)
        for name, value in changes.items():
            setattr(game, name, value)
        game.apply_rules(game.table.size)  # the engine values it; RuleError leaves the database as it was
        after = snapshot(game)
        if after == before:
            raise RuleError("game", gettext_noop("the correction changes nothing"), "5.5.3")
        game.version = expected_version + 1
        game.save()
        return Correction.objects.create(
            game=game,
            dispute=dispute,
            kind=kind,
            made_by=user,
            reason=reason,
            before=before,
            after=after,
            score_before=before["score"],
            score_after=game.score,
            version_before=expected_version,
            version_after=game.version,
        )


def correct_game(
    game_id: int,
    *,
    expected_version: int,
    changes: Mapping[str, object],
    user,
    reason: str,
    dispute: Dispute | None = None,
) -> Correction:
    """Change the entered fields of a game (and its irregularity mark), with the reason."""
    unknown = set(changes) - set(CORRECTABLE_FIELDS)
    if unknown:
        raise RuleError(
            sorted(unknown)[0], gettext_noop("is derived by the engine and cannot be corrected by hand"), "5.5.2"
        )
    return _apply(
        game_id,
        expected_version=expected_version,
        changes=changes,
        kind=Correction.Kind.EDIT,
        user=user,
        reason=reason,
        dispute=dispute,
    )


def void_game(game_id: int, *, expected_version: int, user, reason: str, dispute: Dispute | None = None) -> Correction:
    """Mark a game void: it stays on the sheet and scores nothing (e.g. 3.2.11, 3.2.12)."""
    return _apply(
        game_id,
        expected_version=expected_version,
        changes={"voided": True},
        kind=Correction.Kind.VOID,
        user=user,
        reason=reason,
        dispute=dispute,
    )


def restore_game(
    game_id: int, *, expected_version: int, user, reason: str, dispute: Dispute | None = None
) -> Correction:
    """Undo a void: the game counts again, valued by the engine as entered."""
    return _apply(
        game_id,
        expected_version=expected_version,
        changes={"voided": False},
        kind=Correction.Kind.RESTORE,
        user=user,
        reason=reason,
        dispute=dispute,
    )

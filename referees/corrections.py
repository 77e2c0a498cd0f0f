"""A referee's correction: the only way to change a confirmed sheet or a finished series.

Each change is one transaction: the game is locked and its version compared with the
version the referee saw (a second referee's change in between is refused and named, never
silently overwritten), the engine values the new version as it is stored
(:func:`scoring.services.save_deal`, under the table's lock), and a
:class:`Correction` row keeps the game before and after. Nothing is deleted: voiding keeps
the game, marked void and scoring nothing. A deal the table missed is added the same way
(its ``before`` empty), and re-opening a confirmed sheet is recorded as a
:class:`Reopening`.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.db import models, transaction

from scoring import services
from scoring.models import Game
from signoff.models import SeatConfirmation, SignOff
from skat.rules import RuleError, gettext_noop
from tournaments.models import Series, Table

from . import disputes, hooks, paragraphs
from .models import Correction, Dispute, Reopening

#: What settling a dispute with a correction of each kind decides (4.5.10).
_EFFECT_OF = {
    Correction.Kind.EDIT: Dispute.Effect.CORRECTED,
    Correction.Kind.VOID: Dispute.Effect.VOIDED,
    Correction.Kind.RESTORE: Dispute.Effect.CORRECTED,
    Correction.Kind.ADD: Dispute.Effect.CORRECTED,
}

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


def corrected() -> models.Q:
    """The games a referee corrected (fills scoring.hooks.corrected)."""
    return models.Q(corrections__isnull=False)


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
    paragraph: str,
) -> Correction:
    reason = (reason or "").strip()
    if not reason:
        raise RuleError("reason", gettext_noop("say why the game is changed"), "4.5.10")
    _check_paragraph(dispute, paragraph)
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
        if dispute is not None:
            _check_open(dispute, game.table_id)
        before = snapshot(game)
        for name, value in changes.items():
            setattr(game, name, value)
        services.value(game, game.table.size)  # the engine values it; RuleError leaves the database as it was
        after = snapshot(game)
        if after == before:
            raise RuleError("game", gettext_noop("the correction changes nothing"), "5.5.3")
        game.version = expected_version + 1
        services.save_deal(game, locked=True)
        correction = Correction.objects.create(
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
        _corrected(game.table.series.tournament_id, game.table.series.number, game.table.number, game.number, user)
        if dispute is not None:
            # The change is the referee's decision: the dispute closes with it, or neither happens.
            disputes.decide(dispute, user=user, paragraph=paragraph, effect=_EFFECT_OF[kind], decision=reason)
        return correction


def _corrected(tournament_id: int, series: int, table: int, deal: int, user) -> None:
    """Tell the apps above (a league's check) that a result changed, in the same transaction."""
    note = f"series {series}, table {table}, deal {deal}"
    hooks.game_corrected(tournament_id, user=user, note=note)


def _check_paragraph(dispute: Dispute | None, paragraph: str) -> None:
    if dispute is not None and paragraph not in paragraphs.PARAGRAPHS:
        raise RuleError(
            "paragraph",
            gettext_noop("settling a dispute decides it; cite the paragraph of sections 3-5 it rests on"),
            "4.5.10",
        )


def _check_open(dispute: Dispute, table_id: int) -> None:
    """The dispute is the table's and still open, locked until the transaction ends."""
    locked = Dispute.objects.select_for_update().filter(pk=dispute.pk).values("table_id", "status").first()
    if locked is None or locked["table_id"] != table_id:
        raise RuleError("dispute", gettext_noop("the dispute is about another table"), "4.5.10")
    if locked["status"] != Dispute.Status.OPEN:
        raise RuleError(
            "dispute",
            gettext_noop("dispute {number} is closed already; a closed dispute is settled by nothing else"),
            "4.5.10",
            number=dispute.pk,
        )


def correct_game(
    game_id: int,
    *,
    expected_version: int,
    changes: Mapping[str, object],
    user,
    reason: str,
    dispute: Dispute | None = None,
    paragraph: str = "",
) -> Correction:
    """Change the entered fields of a game (and its irregularity mark), with the reason.

    With a ``dispute``, the change is its decision: the dispute closes (decided, citing
    ``paragraph``, effect "corrected", the reason as the decision) in the same transaction.
    """
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
        paragraph=paragraph,
    )


def void_game(
    game_id: int, *, expected_version: int, user, reason: str, dispute: Dispute | None = None, paragraph: str = ""
) -> Correction:
    """Mark a game void: it stays on the sheet and scores nothing (e.g. 3.2.11, 3.2.12); a
    ``dispute`` closes with it (effect "voided"), as with :func:`correct_game`."""
    return _apply(
        game_id,
        expected_version=expected_version,
        changes={"voided": True},
        kind=Correction.Kind.VOID,
        user=user,
        reason=reason,
        dispute=dispute,
        paragraph=paragraph,
    )


def restore_game(
    game_id: int, *, expected_version: int, user, reason: str, dispute: Dispute | None = None, paragraph: str = ""
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
        paragraph=paragraph,
    )


def add_missing_game(
    table_id: int,
    *,
    number: int,
    fields: Mapping[str, object],
    user,
    reason: str,
    dispute: Dispute | None = None,
    paragraph: str = "",
) -> Correction:
    """Add a deal the table missed to a confirmed or finished sheet (5.5.3: only a referee
    changes it then), recorded like a correction whose ``before`` is empty.

    Deals stay in order (3.2.1): the added deal is the sheet's next one, within the deals
    the table plays. An open sheet is the table link's to enter.
    """
    unknown = set(fields) - set(CORRECTABLE_FIELDS)
    if unknown:
        raise RuleError(
            sorted(unknown)[0], gettext_noop("is derived by the engine and cannot be corrected by hand"), "5.5.2"
        )
    reason = (reason or "").strip()
    if not reason:
        raise RuleError("reason", gettext_noop("say why the game is changed"), "4.5.10")
    _check_paragraph(dispute, paragraph)
    with transaction.atomic():
        Table.objects.lock(table_id)
        table = Table.objects.select_related("series").get(pk=table_id)
        if not (SignOff.objects.filter(table=table).exists() or table.series.status == Series.Status.FINISHED):
            raise RuleError(
                "number",
                gettext_noop("the sheet is still open: the table enters its deals through its link"),
                "5.5.3",
            )
        expected = (Game.objects.filter(table=table).aggregate(m=models.Max("number"))["m"] or 0) + 1
        if number != expected:
            raise RuleError(
                "number",
                gettext_noop("deal {expected} comes before deal {deal}"),
                "3.2.1",
                expected=expected,
                deal=number,
            )
        if number > table.deals:
            raise RuleError(
                "number",
                gettext_noop("this table plays {deals} deals; deal {deal} does not exist"),
                "3.2.1",
                deals=table.deals,
                deal=number,
            )
        refused = hooks.correction_refused(table.series.tournament_id)
        if refused is not None:
            template, params = refused
            raise RuleError("game", template, "5.5.3", **params)
        if dispute is not None:
            _check_open(dispute, table.pk)
        game = Game(table=table, number=number, entered_by=user.get_username()[:80], **fields)
        # The engine values it as it is stored; RuleError leaves the database as it was.
        services.save_deal(game, locked=True)
        correction = Correction.objects.create(
            game=game,
            dispute=dispute,
            kind=Correction.Kind.ADD,
            made_by=user,
            reason=reason,
            before={},
            after=snapshot(game),
            score_before=0,
            score_after=game.score,
            version_before=0,
            version_after=game.version,
        )
        _corrected(table.series.tournament_id, table.series.number, table.number, number, user)
        if dispute is not None:
            # Adding the deal is the referee's decision: the dispute closes with it (4.5.10).
            disputes.decide(
                dispute, user=user, paragraph=paragraph, effect=_EFFECT_OF[Correction.Kind.ADD], decision=reason
            )
        return correction


def reopen_sheet(table_id: int, *, user, reason: str) -> Reopening:
    """Re-open a confirmed sheet: its sign-off and the players' confirmations go, recorded
    with who, when and why; the players confirm it again (5.5.3)."""
    reason = (reason or "").strip()
    if not reason:
        raise RuleError("reason", gettext_noop("say why the sheet is re-opened"), "5.5.3")
    with transaction.atomic():
        Table.objects.lock(table_id)
        signoff = SignOff.objects.filter(table_id=table_id).first()
        if signoff is None:
            raise RuleError("table", gettext_noop("the sheet is not confirmed; there is nothing to re-open"), "5.5.3")
        undone = {
            "confirmed_at": signoff.confirmed_at.isoformat(),
            "on_paper": signoff.on_paper,
            "confirmed_by": signoff.confirmed_by,
            "fingerprint": signoff.fingerprint,
        }
        SeatConfirmation.objects.filter(table_id=table_id).delete()
        signoff.delete()
        return Reopening.objects.create(table_id=table_id, made_by=user, reason=reason, signoff=undone)

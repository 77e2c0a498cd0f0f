"""A dispute's life: raised, then decided or withdrawn (4.5.10: a claim is addressed at once,
a referee judges it).

Each step is one transaction. Closing is a conditional update of an open dispute only, so
two referees deciding at once (or one deciding while another withdraws) close it once: the
first wins, the second changes nothing and learns so from the result. The forms
(:mod:`referees.forms`) check what people typed; these functions keep the rules.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from scoring.models import Game
from tournaments.models import Table

from .models import Dispute


def raise_dispute(table: Table, *, game: Game | None = None, description: str, raised_by: str, user=None) -> Dispute:
    """4.5.10: record a claim about ``table`` (and perhaps one of its deals), open until a
    referee decides it or it is withdrawn.

    ``raised_by`` is the name shown (a player at the table link, a referee's user name);
    ``user`` is the account, when a referee or director raised it.
    """
    if game is not None and game.table_id != table.pk:
        raise ValueError(f"deal {game.number} is not of table {table.pk}")
    with transaction.atomic():
        return Dispute.objects.create(
            table=table, game=game, description=description, raised_by=raised_by, raised_by_user=user
        )


def decide(dispute: Dispute, *, user, paragraph: str, effect: str, decision: str) -> bool:
    """4.5.10: the referee judges the claim; the decision cites its paragraph and states its
    effect (:class:`Dispute.Effect`).

    Returns whether this call closed the dispute: False when it was already decided or
    withdrawn (meanwhile, by someone else), and then nothing is changed.
    """
    return _close(
        dispute,
        status=Dispute.Status.DECIDED,
        paragraph=paragraph,
        effect=effect,
        decision=decision,
        decided_by=user,
    )


def withdraw(dispute: Dispute, *, user, note: str = "") -> bool:
    """4.5.10: the claim is dropped without a judgement; ``note`` says why (it is kept as
    the dispute's decision text).

    Returns whether this call closed the dispute: False when it was already decided or
    withdrawn, and then nothing is changed.
    """
    return _close(dispute, status=Dispute.Status.WITHDRAWN, decision=note, decided_by=user)


def _close(dispute: Dispute, **fields) -> bool:
    fields["decided_at"] = timezone.now()
    with transaction.atomic():
        closed = Dispute.objects.filter(pk=dispute.pk, status=Dispute.Status.OPEN).update(**fields)
    if closed:
        for name, value in fields.items():
            setattr(dispute, name, value)
    return bool(closed)

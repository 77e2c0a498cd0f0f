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
from django.utils.translation import gettext as _

from scoring.models import Game
from tournaments.models import Table

from .models import Dispute

#: Open disputes a table link may have at once: the referee comes to the table anyway.
MAX_OPEN_FROM_LINK = 3
#: Characters of a claim raised at the table link (the rest is told to the referee).
MAX_LINK_TEXT = 1000


class DisputeRefused(ValueError):
    """The table link may not raise this dispute; the message says why, for the table."""


def too_many_open(table: Table) -> str | None:
    """Why the table link may raise no dispute now, or None."""
    open_ = Dispute.objects.filter(table=table, status=Dispute.Status.OPEN, raised_by_user__isnull=True).count()
    if open_ < MAX_OPEN_FROM_LINK:
        return None
    return _(
        "This table already has %(n)s open disputes; a referee is on the way. Tell him the rest at the table (4.5.10)."
    ) % {"n": open_}


def too_long(description: str) -> str | None:
    if len(description) <= MAX_LINK_TEXT:
        return None
    return _("At most %(limit)s characters (this text has %(length)s); tell the referee the rest at the table.") % {
        "limit": MAX_LINK_TEXT,
        "length": len(description),
    }


def raise_dispute(table: Table, *, game: Game | None = None, description: str, raised_by: str, user=None) -> Dispute:
    """4.5.10: record a claim about ``table`` (and perhaps one of its deals), open until a
    referee decides it or it is withdrawn.

    ``raised_by`` is the name shown (a player at the table link, a referee's user name);
    ``user`` is the account, when a referee or director raised it. Without one (the
    table link), at most :data:`MAX_OPEN_FROM_LINK` may be open at once, each of at most
    :data:`MAX_LINK_TEXT` characters; else :class:`DisputeRefused`. The table's row is
    locked while they are counted, so simultaneous posts cannot pass the limit together.
    """
    if game is not None and game.table_id != table.pk:
        raise ValueError(f"deal {game.number} is not of table {table.pk}")
    with transaction.atomic():
        if user is None:
            Table.objects.lock(table.pk)
            refusal = too_long(description) or too_many_open(table)
            if refusal:
                raise DisputeRefused(refusal)
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

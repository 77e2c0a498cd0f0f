"""referees.disputes: a dispute raised, then closed once, by a decision or a withdrawal (4.5.10)."""

from __future__ import annotations

import pytest

from referees import disputes
from referees.models import Dispute
from tests import factories

from .helpers import full_table, referee_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    return full_table(3)


@pytest.fixture
def referee(table):
    return referee_of(table.series.tournament, "ref")


def test_a_table_link_raises_a_dispute_about_a_deal(table):
    game = table.games.get(number=2)
    dispute = disputes.raise_dispute(
        table, game=game, description="Claim of a revoke.", raised_by="Seat1 (table link)"
    )
    stored = Dispute.objects.get()
    assert stored == dispute
    assert (stored.table, stored.game, stored.description) == (table, game, "Claim of a revoke.")
    assert (stored.raised_by, stored.raised_by_user, stored.status) == ("Seat1 (table link)", None, "open")
    assert stored.raised_at is not None and stored.decided_at is None


def test_a_referee_raises_a_dispute_about_the_table_with_the_account(table, referee):
    dispute = disputes.raise_dispute(table, description="Noise at the table.", raised_by="ref", user=referee)
    dispute.refresh_from_db()
    assert (dispute.game, dispute.raised_by_user, dispute.status) == (None, referee, "open")


def test_a_deal_of_another_table_is_refused(table):
    other = full_table(3)
    with pytest.raises(ValueError, match="not of table"):
        disputes.raise_dispute(table, game=other.games.get(number=1), description="x", raised_by="A")
    assert not Dispute.objects.exists()


def test_deciding_closes_it_with_the_paragraph_and_the_effect(table, referee):
    dispute = disputes.raise_dispute(table, game=table.games.get(number=2), description="x", raised_by="A")
    closed = disputes.decide(
        dispute, user=referee, paragraph="4.2.5", effect=Dispute.Effect.STANDS, decision="The cards were gathered."
    )
    assert closed is True
    assert (dispute.status, dispute.decided_by) == ("decided", referee)  # the instance follows
    dispute.refresh_from_db()
    assert (dispute.status, dispute.paragraph, dispute.effect) == ("decided", "4.2.5", "stands")
    assert (dispute.decision, dispute.decided_by) == ("The cards were gathered.", referee)
    assert dispute.decided_at is not None


def test_withdrawing_closes_it_with_the_note(table, referee):
    dispute = disputes.raise_dispute(table, description="x", raised_by="A")
    assert disputes.withdraw(dispute, user=referee, note="Resolved at the table.") is True
    dispute.refresh_from_db()
    assert (dispute.status, dispute.decision, dispute.decided_by) == ("withdrawn", "Resolved at the table.", referee)
    assert (dispute.paragraph, dispute.effect) == ("", "")
    assert dispute.decided_at is not None


@pytest.mark.parametrize("first", ["decide", "withdraw"])
def test_a_closed_dispute_is_not_closed_again(table, referee, first):
    dispute = disputes.raise_dispute(table, description="x", raised_by="A")
    if first == "decide":
        disputes.decide(dispute, user=referee, paragraph="4.2.5", effect="stands", decision="first")
    else:
        disputes.withdraw(dispute, user=referee, note="first")
    dispute.refresh_from_db()
    before = {f.name: getattr(dispute, f.name) for f in Dispute._meta.concrete_fields}
    other = factories.user("other")
    # Both from a stale copy that still reads "open": a second referee's request meanwhile.
    stale = Dispute.objects.get(pk=dispute.pk)
    stale.status = Dispute.Status.OPEN
    assert disputes.decide(stale, user=other, paragraph="4.1.4", effect="stands", decision="second") is False
    assert disputes.withdraw(stale, user=other, note="second") is False
    assert stale.status == "open" and stale.decided_by == referee  # a refused close leaves the instance alone
    dispute.refresh_from_db()
    assert {f.name: getattr(dispute, f.name) for f in Dispute._meta.concrete_fields} == before


def test_the_table_link_s_limits_hold_in_the_service_too():
    table = full_table(3)
    with pytest.raises(disputes.DisputeRefused, match="At most 1000 characters"):
        disputes.raise_dispute(table, description="x" * 1001, raised_by="A (table link)")
    for _ in range(disputes.MAX_OPEN_FROM_LINK):
        disputes.raise_dispute(table, description="x", raised_by="A (table link)")
    with pytest.raises(disputes.DisputeRefused, match="already has 3 open disputes"):
        disputes.raise_dispute(table, description="x", raised_by="A (table link)")
    # A referee's dispute has no such limit.
    disputes.raise_dispute(table, description="y" * 1500, raised_by="ref", user=referee_of(table.series.tournament))
    assert Dispute.objects.filter(table=table).count() == disputes.MAX_OPEN_FROM_LINK + 1

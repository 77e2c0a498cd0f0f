"""A burst of disputes from one table link at once: no more than MAX_OPEN_FROM_LINK are open.

Real threads with their own database connections, on SQLite and PostgreSQL: the table's
row is locked while the open disputes are counted.
"""

from __future__ import annotations

import pytest

from referees import disputes
from referees.models import Dispute
from tests.threads import in_parallel

from .helpers import full_table

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_burst_of_disputes_opens_no_more_than_the_limit():
    table = full_table(3)

    def raise_one(index: int) -> str:
        try:
            disputes.raise_dispute(table, description=f"claim {index}", raised_by="A (table link)")
        except disputes.DisputeRefused as refused:
            return str(refused)
        return "raised"

    answers = in_parallel(raise_one, 10)
    assert answers.count("raised") == disputes.MAX_OPEN_FROM_LINK
    assert Dispute.objects.filter(table=table, status=Dispute.Status.OPEN).count() == disputes.MAX_OPEN_FROM_LINK

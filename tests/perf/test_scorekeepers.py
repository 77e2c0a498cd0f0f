"""The load generators read the table link's answer: the whole sheet or only what changed,
either confirming the deal sent (perf.scorekeepers.wrong_answer)."""

from __future__ import annotations

import random
import uuid

import pytest
from django.urls import reverse

from perf.fixtures import shown_version
from perf.scorekeepers import lean, wrong_answer
from rehearsal.deals import deal_fields
from tests import factories


def answer(client, table, number: int, rng: random.Random, shown: bytes = b"") -> bytes:
    """The answer to a deal sent as the load generators send it, from a page (or answer) ``shown``."""
    data = deal_fields(rng, number, table.size) | {"number": str(number), "client_id": str(uuid.uuid4())}
    data |= shown_version(shown)
    response = client.post(reverse("table:sheet", args=[table.token]), data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    return response.content


@pytest.mark.django_db
def test_the_office_s_answers_confirm_the_deal_sent_whole_or_lean(client):
    table, rng = factories.table_of(3), random.Random(1)
    first = answer(client, table, 1, rng)
    second = answer(client, table, 2, rng, shown=first)  # the sheet's version the first answer shows
    assert not lean(first) and wrong_answer(first, 1) is None  # the first deal: the whole sheet
    assert lean(second) and wrong_answer(second, 2) is None
    assert wrong_answer(second, 3) == "the answer does not confirm it"
    assert not lean(answer(client, table, 3, rng))  # a page without the sheet's version: the whole sheet


def test_a_lean_answer_for_another_deal_is_told():
    body = b'\n<div id="sheet-delta" data-after="4" data-deal="5" hidden>Deal 7 entered: +30.</div>'
    assert lean(body)
    assert wrong_answer(body, 7) == "the answer adds deal 5 after deal 4"
    assert wrong_answer(body.replace(b'data-after="4" data-deal="5"', b'data-after="6" data-deal="7"'), 7) is None


def test_the_whole_sheet_is_no_lean_answer():
    body = b'<div id="sheet"><p class="messages-inline entered">Deal 3 entered: +30.</p></div>'
    assert not lean(body) and wrong_answer(body, 3) is None

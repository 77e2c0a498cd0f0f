"""A phone whose page is older than the sheet (a referee corrected or voided a deal
meanwhile, another device corrected the second list): the answer to its next deal must
leave the page as a fresh GET shows it, as the whole sheet answered before the lean
answer (tablelink.answers). The page's form carries the list's version
(scoring.sheet_versions); only a page at the version just before the deal is
answered lean."""

from __future__ import annotations

import random

import pytest

from referees.corrections import void_game
from rehearsal.deals import deal_fields
from scoring import services, sheet_versions
from scoring.models import ControlEntry, Game
from tests import factories
from tests.tablelink.test_entered_answer import enter, page, rows, version_of, whole

pytestmark = pytest.mark.django_db


def shown_after(before: str, answer: str) -> list[str]:
    """The rows the phone shows once the answer is in place: the whole sheet replaces the
    page's, a lean answer's rows are appended to it."""
    return rows(answer) if 'class="sheet"' in answer else rows(before) + rows(answer)


def three_deals(client, token: str, seed: int, size: int = 3) -> random.Random:
    rng = random.Random(seed)
    for number in range(1, 4):
        assert enter(client, token, number, deal_fields(rng, number, size)).status_code == 200
    return rng


def test_a_deal_corrected_by_a_referee_meanwhile_is_shown_corrected_after_the_next_deal(client):
    table = factories.table_of(3)
    rng = random.Random(11)
    for number in range(1, 4):
        assert enter(client, table.token, number, deal_fields(rng, number, 3)).status_code == 200
    before = page(client, table.token)  # the phone's page
    shown = version_of(before)
    deal = Game.objects.get(table=table, number=2)
    deal.declarer_seat, deal.contract, deal.tops_kind, deal.tops = 1, "grand", "with", 1
    deal.declarer_points, deal.schneider_announced, deal.schwarz_announced = 40, False, False
    assert services.rewrite_deal(deal, version=deal.version, entered_by="referee")
    response = enter(client, table.token, 4, deal_fields(rng, 4, 3), version=shown)
    assert response.status_code == 200
    answer = response.content.decode()
    after = page(client, table.token)
    assert rows(before) != rows(after)[:3]  # the correction shows on a fresh page
    assert shown_after(before, answer) == rows(after)


def test_a_deal_voided_by_a_referee_meanwhile_is_shown_voided_after_the_next_deal(client):
    table = factories.table_of(3)
    rng = three_deals(client, table.token, 13)
    before = page(client, table.token)
    deal = Game.objects.get(table=table, number=2)
    void_game(deal.pk, expected_version=deal.version, user=factories.user(), reason="misdeal")
    response = enter(client, table.token, 4, deal_fields(rng, 4, 3), version=version_of(before))
    assert response.status_code == 200 and whole(response)
    after = page(client, table.token)
    assert rows(before) != rows(after)[:3]
    assert shown_after(before, response.content.decode()) == rows(after)


def test_a_second_list_entry_corrected_on_another_device_meanwhile_is_shown_after_the_next_deal(client):
    table = factories.table_of(3)
    rng = three_deals(client, table.control_token, 14)
    before = page(client, table.control_token)
    other = ControlEntry.objects.get(table=table, number=2)
    other.declarer_seat, other.contract, other.tops_kind, other.tops = 2, "grand", "with", 1
    other.declarer_points, other.schneider_announced, other.schwarz_announced = 70, False, False
    assert services.rewrite_deal(other, version=other.version, entered_by="another phone")
    response = enter(client, table.control_token, 4, deal_fields(rng, 4, 3), version=version_of(before))
    assert response.status_code == 200 and whole(response)
    after = page(client, table.control_token)
    assert rows(before) != rows(after)[:3]
    assert shown_after(before, response.content.decode()) == rows(after)


@pytest.mark.parametrize("sent", [None, "", "garbage", "12abc", "-1", "999999"])
def test_a_form_without_the_sheet_s_version_or_with_another_gets_the_whole_sheet_and_the_deal_is_saved(client, sent):
    """An older phone, a deal queued offline on an older page, or a forged field: the
    deal is saved as ever, only the answer is the whole sheet."""
    table = factories.table_of(3)
    rng = three_deals(client, table.token, 15)
    response = enter(client, table.token, 4, deal_fields(rng, 4, 3), version=sent)
    assert response.status_code == 200 and whole(response)
    assert Game.objects.filter(table=table).count() == 4
    assert version_of(response.content.decode()) == sheet_versions.read(table)


@pytest.mark.parametrize("control", [False, True], ids=["sheet", "second-list"])
def test_each_lean_answer_s_form_carries_the_version_the_next_deal_is_answered_lean_on(client, control):
    """The phone keeps no page but the answers: each answer's form carries the list's
    version after its deal, and the next deal sent with it is answered lean again."""
    table = factories.table_of(4)
    token = table.control_token if control else table.token
    rng = random.Random(16)
    answer = enter(client, token, 1, deal_fields(rng, 1, 4)).content.decode()  # the first: whole
    for number in range(2, 8):
        response = enter(client, token, number, deal_fields(rng, number, 4), version=version_of(answer))
        answer = response.content.decode()
        assert response.status_code == 200 and 'id="sheet-delta"' in answer, number
        model = ControlEntry if control else Game
        assert version_of(answer) == sheet_versions.read(table, model) == version_of(page(client, token))


def test_the_sheet_s_version_moves_with_its_games_and_not_with_its_second_list(client):
    table = factories.table_of(3)
    rng = three_deals(client, table.token, 17)
    at_three = sheet_versions.read(table)
    assert enter(client, table.control_token, 1, deal_fields(rng, 1, 3)).status_code == 200
    assert sheet_versions.read(table) == at_three
    assert sheet_versions.read(table, ControlEntry) != "0.0.0"
    deal = Game.objects.get(table=table, number=3)  # written again: a new version of the deal
    assert services.rewrite_deal(deal, version=deal.version, entered_by="referee")
    assert sheet_versions.read(table) != at_three


def test_in_german_the_lean_answer_makes_the_fresh_german_page(client):
    from tests.tablelink.test_entered_answer import lean_parts, page_parts

    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "de"
    table = factories.table_of(4)
    rng = random.Random(12)
    assert enter(client, table.token, 1, deal_fields(rng, 1, 4)).status_code == 200
    for number in range(2, 6):
        before = page(client, table.token)
        answer = enter(client, table.token, number, deal_fields(rng, number, 4)).content.decode()
        assert 'id="sheet-delta"' in answer
        after = page(client, table.token)
        assert 'lang="de"' in after
        assert rows(before) + rows(answer) == rows(after)
        assert lean_parts(answer) == page_parts(after)

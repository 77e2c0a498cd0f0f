"""The answer to a deal appended at the table: only what changed, and the page it makes is
the page a fresh GET shows (tablelink.answers). Everything else answers with the whole sheet."""

from __future__ import annotations

import random
import re
import uuid

import pytest
from django.urls import reverse

from rehearsal.deals import deal_fields
from scoring.models import Game
from tests import factories

pytestmark = pytest.mark.django_db

HEARTS = {"declarer_seat": "1", "contract": "hearts", "tops_kind": "with", "tops": "2", "declarer_points": "80"}


#: enter()'s default: the version of the sheet as a fresh page shows it.
FRESH = object()


def enter(client, token: str, number: int, fields: dict, client_id: str | None = None, version=FRESH):
    """Post a deal as the phone's form does, from a page showing the sheet at ``version``
    (its form's sheet_version; None: a form without it)."""
    data = fields | {"number": str(number), "client_id": client_id or str(uuid.uuid4())}
    version = version_of(page(client, token)) if version is FRESH else version
    if version is not None:
        data["sheet_version"] = version
    return client.post(reverse("table:sheet", args=[token]), data, HTTP_HX_REQUEST="true")


def page(client, token: str) -> str:
    response = client.get(reverse("table:sheet", args=[token]))
    assert response.status_code == 200
    return response.content.decode()


def version_of(html: str) -> str | None:
    """The sheet's version a page's (or an answer's) form carries."""
    found = re.findall(r'name="sheet_version" value="([^"]*)"', html)
    assert len(found) <= 1, found
    return found[0] if found else None


def squeeze(html: str) -> str:
    """Markup without the layout's whitespace, the out-of-band marks, the client id and
    the CSRF token (new in every form): what the phone's page shows."""
    html = re.sub(r'\s*hx-swap-oob="[^"]*"', "", html)
    html = re.sub(r'name="client_id" value="[0-9a-f-]{36}"', 'name="client_id"', html)
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', 'name="csrfmiddlewaretoken"', html)
    return re.sub(r">\s+<", "><", html).strip()


def one(pattern: str, html: str) -> str:
    found = re.findall(pattern, html, re.S)
    assert len(found) == 1, (pattern, found)
    return squeeze(found[0])


def rows(html: str) -> list[str]:
    """The sheet's rows: of the page's sheet, or those an answer appends to it."""
    if 'class="sheet"' in html:
        body = re.search(r"<tbody>(.*?)</tbody>", html.split('class="sheet"', 1)[1], re.S).group(1)
    else:
        body = re.search(r'<tbody hx-swap-oob="beforeend:[^"]*">(.*?)</tbody>', html, re.S).group(1)
    return [squeeze(row) for row in re.findall(r"<tr.*?</tr>", body, re.S)]


#: The parts of the page an appended deal changes, and where each is found.
PARTS = {
    "progress": r'(<p class="progress".*?</p>)',
    "foot": r"(<tfoot.*?</tfoot>)",
    "form": r'(<section class="card entry".*?</section>)',
    "correct": r'(<p class="noprint correct-last".*?</p>)',
}


def lean_parts(answer: str) -> dict[str, str]:
    return {
        "progress": one(PARTS["progress"], answer),
        "foot": one(PARTS["foot"], answer),
        "form": one(PARTS["form"], answer),
        "correct": one(PARTS["correct"], answer),
    }


def page_parts(html: str) -> dict[str, str]:
    return {name: one(pattern, html) for name, pattern in PARTS.items()}


def assert_lean_answer_makes_the_fresh_page(client, token: str, number: int, fields: dict) -> str:
    before = page(client, token)
    response = enter(client, token, number, fields)
    assert response.status_code == 200
    answer = response.content.decode()
    assert 'id="sheet-delta"' in answer and 'class="sheet"' not in answer, "the whole sheet again"
    assert f'data-after="{number - 1}"' in answer
    after = page(client, token)
    # The new row is the fresh page's last; the rows before it are the page's as it was.
    new_rows = rows(answer)
    assert len(new_rows) == 1
    assert rows(after) == rows(before) + new_rows
    assert lean_parts(answer) == page_parts(after)
    assert f"Deal {number} entered" in answer
    return answer


def test_deals_appended_answer_with_what_changed_and_the_page_equals_a_fresh_get(client):
    table = factories.table_of(4)
    rng = random.Random(3)
    assert enter(client, table.token, 1, deal_fields(rng, 1, 4)).status_code == 200  # the first: whole
    for number in range(2, 12):
        assert_lean_answer_makes_the_fresh_page(client, table.token, number, deal_fields(rng, number, 4))


def test_the_second_list_answers_lean_with_the_lists_compared(client):
    table = factories.table_of(3)
    rng = random.Random(5)
    sheet = [deal_fields(rng, n, 3) for n in range(1, 8)]
    for number, fields in enumerate(sheet, start=1):
        assert enter(client, table.token, number, fields).status_code == 200
    assert enter(client, table.control_token, 1, sheet[0]).status_code == 200
    for number in range(2, 6):
        fields = sheet[number - 1] if number != 3 else HEARTS  # deal 3 differs from the sheet
        answer = assert_lean_answer_makes_the_fresh_page(client, table.control_token, number, fields)
        # The comparison as the fresh page shows it.
        sent = squeeze(re.search(r'<div id="lists-block"[^>]*>(.*?)</div>\s*<table>', answer, re.S).group(1))
        assert sent in squeeze(page(client, table.control_token))
        assert ("differs at 1 deal" in sent) == (number >= 3)


def test_the_sheet_s_page_gets_the_comparison_once_a_second_list_is_kept(client):
    table = factories.table_of(3)
    rng = random.Random(9)
    fields = [deal_fields(rng, n, 3) for n in range(1, 5)]
    enter(client, table.token, 1, fields[0])
    enter(client, table.control_token, 1, fields[0])
    answer = assert_lean_answer_makes_the_fresh_page(client, table.token, 2, fields[1])
    assert 'id="lists-block" hx-swap-oob="true"' in answer
    assert "Second list: 1 deal entered, the sheet 2" in answer


def test_without_a_second_list_the_comparison_is_not_sent(client, django_assert_max_num_queries):
    table = factories.table_of(3)
    rng = random.Random(2)
    enter(client, table.token, 1, deal_fields(rng, 1, 3))
    version = version_of(page(client, table.token))
    with django_assert_max_num_queries(9):
        answer = enter(client, table.token, 2, deal_fields(rng, 2, 3), version=version).content.decode()
    assert 'id="sheet-delta"' in answer and "lists-block" not in answer


def whole(response) -> bool:
    return 'class="sheet"' in response.content.decode() and "sheet-delta" not in response.content.decode()


def test_the_first_and_the_last_deal_answer_with_the_whole_sheet(client):
    table = factories.table_of(3)
    rng = random.Random(4)
    assert whole(enter(client, table.token, 1, deal_fields(rng, 1, 3)))
    for number in range(2, table.deals):
        factories.game(table, number, declarer_seat=1, contract="hearts", tops=1, declarer_points=70)
    # The last deal: the sheet is complete, the sign-off due, no next form.
    last = enter(client, table.token, table.deals, deal_fields(rng, table.deals, 3))
    assert last.status_code == 200 and whole(last) and "Awaiting confirmation" in last.content.decode()


def test_a_resend_a_refusal_and_a_deal_taken_answer_with_the_whole_sheet(client):
    table = factories.table_of(3)
    rng = random.Random(6)
    enter(client, table.token, 1, deal_fields(rng, 1, 3))
    fields, client_id = deal_fields(rng, 2, 3), str(uuid.uuid4())
    assert not whole(enter(client, table.token, 2, fields, client_id))
    resend = enter(client, table.token, 2, fields, client_id)
    assert resend.status_code == 200 and whole(resend)
    assert Game.objects.filter(table=table).count() == 2
    taken = enter(client, table.token, 2, fields)
    assert taken.status_code == 409 and whole(taken)
    refused = enter(client, table.token, 3, HEARTS | {"declarer_points": "121"})
    assert refused.status_code == 422 and whole(refused)


def test_a_list_that_moved_on_meanwhile_answers_with_the_whole_sheet(client, monkeypatch):
    """Another device entered the next deal between this deal's save and its answer."""
    from scoring import entry

    table = factories.table_of(3)
    rng = random.Random(8)
    enter(client, table.token, 1, deal_fields(rng, 1, 3))
    saving = entry.add_game

    def and_another(form, **kwargs):
        saved = saving(form, **kwargs)
        factories.game(table, saved.game.number + 1, declarer_seat=2, contract="clubs", tops=1, declarer_points=70)
        return saved

    monkeypatch.setattr(entry, "add_game", and_another)
    answer = enter(client, table.token, 2, deal_fields(rng, 2, 3))
    assert answer.status_code == 200 and whole(answer)

"""Random and near-valid posts to the referees' app: the table link's PIN confirmation,
"signed on paper" and dispute; the referee's disputes, decisions, corrections and voids,
table paper sign-off; the director's referee assignments.

Never a 500; a refused post changes nothing (a wrong PIN is recorded on purpose: it
counts towards the lock) and its message names the field or the paragraph.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse
from hypothesis import event, example, given
from hypothesis import strategies as st

from referees import paragraphs
from referees.models import Correction, Dispute, RefereeAssignment
from scoring.models import Game
from signoff.models import PinFailure, SeatConfirmation, SignOff
from signoff.pins import seat_pin
from tests import factories
from tests.referees.helpers import full_table, referee_of

from .strategies import FUZZ, GAME_FIELDS, assert_errors_name_their_field, form_data, game_data, junk, near, value
from .test_director_forms_fuzz import snapshot

pytestmark = pytest.mark.django_db

#: Huge and odd text: right-to-left marks, combining characters, astral planes, NULs.
odd_text = st.one_of(
    junk,
    st.text(min_size=1, max_size=60),
    st.sampled_from(["\u202eevil", "e\u0301" * 50, "\U0001f0a1" * 30, "x" * 2001, "ß" * 4001, "\r\n" * 5, "a\x00"]),
)
#: A field a human would fill in: mostly sensible, sometimes odd.
text = st.one_of(st.sampled_from(["Revoke at trick 5", "Karo statt Herz"]), odd_text)


def _messages(response) -> list:
    return list(get_messages(response.wsgi_request))


def post(client, url, data):
    """Post with no message left over from an earlier example (they queue in a cookie)."""
    client.cookies.pop("messages", None)
    return client.post(url, data)


PARAGRAPH = re.compile(r"\b\d+\.\d+(\.\d+)*\b")


def _state(*, pin_failures: bool = True) -> dict:
    """What a refused post must leave alone (a wrong PIN's failure record aside)."""
    state = snapshot()
    if not pin_failures:
        state.pop("signoff.PinFailure")
    return state


@pytest.fixture
def world():
    """A full table of three (awaiting confirmation), a second table, a referee's client."""
    table = full_table(3)
    t = table.series.tournament
    other = factories.table_of(3)  # another tournament's table
    client = Client()
    client.force_login(referee_of(t, "ref"))
    director = factories.user("boss")
    t.directors.add(director)
    boss = Client()
    boss.force_login(director)
    return table, other, client, boss


def _reset_signoff(table) -> None:
    SignOff.objects.filter(table=table).delete()
    SeatConfirmation.objects.filter(table=table).delete()
    PinFailure.objects.filter(table=table).delete()


# --- The table link ----------------------------------------------------------------------


def pin_data(table) -> st.SearchStrategy[dict]:
    seats = st.one_of(st.sampled_from(["1", "2", "3"]), junk)
    pins = st.one_of(
        st.sampled_from([seat_pin(table, s) for s in (1, 2, 3)]),
        st.from_regex(r"\A\s?\d{4}\s?\Z"),
        st.sampled_from(["0000", "12345", "12 34", "\uff11\uff12\uff13\uff14", "٣٣٣٣"]),
        junk,
    )
    right = st.sampled_from([{"seat": str(s), "pin": seat_pin(table, s)} for s in (1, 2, 3)])
    return st.one_of(
        right,
        right.flatmap(lambda base: near(base, {"seat": value(seats), "pin": value(pins)})),
        form_data({"seat": seats, "pin": pins}),
    )


@FUZZ
@given(data=st.data(), reset=st.booleans())
def test_confirming_the_sheet_with_a_pin(world, data, reset):
    table, _other, _client, _boss = world
    if reset:
        _reset_signoff(table)
    posted = data.draw(pin_data(table))
    before = _state(pin_failures=False)
    response = post(Client(), reverse("table:confirm", args=[table.token]), posted)
    assert response.status_code == 302
    errors = [str(m) for m in _messages(response) if m.level_tag == "error"]
    event(f"refused {bool(errors)}")
    if errors:
        assert _state(pin_failures=False) == before
        for message in errors:
            assert message.startswith(("Player: ", "PIN: ")) or "PIN" in message or PARAGRAPH.search(message), message


@FUZZ
@given(data=form_data({"x": junk}), complete=st.booleans(), signed=st.booleans(), ticked=st.booleans())
def test_marking_the_sheet_signed_on_paper(world, data, complete, signed, ticked):
    table, _other, client, _boss = world
    _reset_signoff(table)
    if not complete:
        Game.objects.filter(table=table, number=3).delete()
    if signed:
        SignOff.objects.create(table=table, fingerprint="x", confirmed_by="test")
    for url, who in ((reverse("referees:table_paper", args=[table.series.tournament_id, table.pk]), client),):
        before = _state()
        response = post(who, url, data | ({"signed": "on"} if ticked else {}))
        assert response.status_code == 302
        errors = [str(m) for m in _messages(response) if m.level_tag == "error"]
        assert bool(errors) == (signed or not complete or not ticked)
        if errors:
            assert _state() == before
            assert PARAGRAPH.search(errors[0]) or "last deal" in errors[0] or errors[0].startswith("Signatures: ")
        else:
            assert SignOff.objects.get(table=table).on_paper
            SignOff.objects.filter(table=table).delete()
    if not complete:
        factories.game(table, 3, passed_out=True)


DEALS = st.one_of(st.sampled_from(["", "1", "2", "3", "4"]), junk)
TABLE_DISPUTE_FIELDS = {"deal": DEALS, "description": text, "name": st.one_of(st.just("Anna"), odd_text)}


@FUZZ
@given(
    data=st.one_of(
        near({"deal": "2", "description": "Revoke", "name": "Anna"}, TABLE_DISPUTE_FIELDS),
        form_data(TABLE_DISPUTE_FIELDS),
    )
)
def test_a_dispute_from_the_table_link(world, data):
    table, _other, _client, _boss = world
    before = _state()
    response = post(Client(), reverse("table:dispute", args=[table.token]), data)
    event(f"status {response.status_code}")
    assert response.status_code in {302, 422}
    if response.status_code == 422:
        assert _state() == before
        assert response.context["form"].errors
        assert_errors_name_their_field(response.context["form"], response.content.decode())
    else:
        assert Dispute.objects.count() == len(before["referees.Dispute"]) + 1


# --- The referee's pages ------------------------------------------------------------------


@FUZZ
@given(data=st.data())
def test_a_referee_records_a_dispute(world, data):
    table, other, client, _boss = world
    numbers = st.one_of(st.sampled_from(["1", "2", str(table.pk), str(other.pk)]), junk)
    fields = {"series": numbers, "table": numbers, "deal": DEALS, "description": text}
    posted = data.draw(
        st.one_of(near({"series": "1", "table": "1", "deal": "1", "description": "Revoke"}, fields), form_data(fields))
    )
    before = _state()
    response = post(client, reverse("referees:dispute_new", args=[table.series.tournament_id]), posted)
    event(f"status {response.status_code}")
    assert response.status_code in {302, 422}
    if response.status_code == 422:
        assert _state() == before
        assert_errors_name_their_field(response.context["form"], response.content.decode())
    else:
        dispute = Dispute.objects.latest("pk")
        assert dispute.table == table
        assert len(dispute.description) <= 2000


PARAGRAPHS = list(paragraphs.PARAGRAPHS)
DECIDE_FIELDS = {
    "paragraph": st.one_of(st.sampled_from(PARAGRAPHS), st.sampled_from(["3", "4.1", "9.9.9", "4.1.4 "]), junk),
    "effect": st.one_of(st.sampled_from([e.value for e in Dispute.Effect]), junk),
    "decision": text,
}


@FUZZ
@given(
    data=st.one_of(
        near({"paragraph": "4.1.4", "effect": "stands", "decision": "The result stands."}, DECIDE_FIELDS),
        form_data(DECIDE_FIELDS),
    ),
    withdraw=st.one_of(st.none(), form_data({"note": text})),
    fresh=st.booleans(),
)
def test_deciding_or_withdrawing_a_dispute(world, data, withdraw, fresh):
    table, _other, client, _boss = world
    t = table.series.tournament_id
    dispute = Dispute.objects.filter(table=table).order_by("pk").last()
    if fresh or dispute is None:
        dispute = Dispute.objects.create(table=table, description="Revoke", raised_by="Anna")
    name, posted = ("withdraw", withdraw) if withdraw is not None else ("decide", data)
    before = _state()
    response = post(client, reverse(f"referees:{name}", args=[t, dispute.pk]), posted)
    event(f"{name} {response.status_code}")
    assert response.status_code in {302, 422}
    if response.status_code == 422:
        assert _state() == before
        form = response.context["withdraw_form" if name == "withdraw" else "decide_form"]
        assert_errors_name_their_field(form, response.content.decode())
    elif any(m.level_tag == "error" for m in _messages(response)):
        assert _state() == before
    else:
        dispute.refresh_from_db()
        assert dispute.status != Dispute.Status.OPEN
        if dispute.status == Dispute.Status.DECIDED:
            assert dispute.paragraph in paragraphs.PARAGRAPHS and dispute.effect and dispute.decision


def _assert_valued_by_the_engine(table) -> None:
    for game in Game.objects.filter(table=table):
        stored = [getattr(game, f) for f in Game.COMPUTED_FIELDS]
        game.apply_rules(table.size)
        assert [getattr(game, f) for f in Game.COMPUTED_FIELDS] == stored


def correction_data(game: Game, disputes: list[int]) -> st.SearchStrategy[dict]:
    versions = st.one_of(st.sampled_from([str(game.version), str(game.version - 1), str(game.version + 1)]), junk)
    referee_fields = {
        "version": versions,
        "reason": text,
        "irregularity": st.one_of(st.sampled_from(["", "declarer", "opponents"]), junk),
        "dispute": st.one_of(st.sampled_from([str(d) for d in disputes] or [""]), junk),
    }
    current = {"version": str(game.version), "reason": "Wrong card points", "number": str(game.number)}
    return st.one_of(
        game_data.map(lambda d: {**d, **current}),
        st.tuples(game_data, form_data(referee_fields)).map(lambda t: {**t[0], **t[1]}),
        game_data.flatmap(lambda d: near({**d, **current}, referee_fields | GAME_FIELDS)),
    )


@FUZZ
@given(data=st.data(), number=st.sampled_from([1, 2, 3]))
@example(data=None, number=2)
def test_a_referee_corrects_a_game(world, data, number):
    table, other, client, _boss = world
    game = Game.objects.get(table=table, number=number)
    disputes = [
        Dispute.objects.create(table=table, description="Revoke", raised_by="Anna").pk,
        Dispute.objects.create(table=other, description="Elsewhere", raised_by="Bob").pk,
    ]
    if data is None:  # the plain case: the stored game, with one change and a reason
        posted = {
            "number": "2",
            "version": str(game.version),
            "declarer_seat": "2",
            "contract": "hearts",
            "tops_kind": "with",
            "tops": "2",
            "declarer_points": "70",
            "reason": "Card points",
        }
    else:
        posted = data.draw(correction_data(game, disputes))
    before = _state()
    response = post(client, reverse("referees:correct", args=[table.series.tournament_id, game.pk]), posted)
    event(f"status {response.status_code}")
    assert response.status_code in {302, 422}
    if response.status_code == 422:
        assert _state() == before
        assert_errors_name_their_field(response.context["form"], response.content.decode())
    else:
        assert Correction.objects.count() == len(before["referees.Correction"]) + 1
        assert Game.objects.get(pk=game.pk).version == game.version + 1
    _assert_valued_by_the_engine(table)


@FUZZ
@given(data=st.data(), number=st.sampled_from([1, 2, 3]))
def test_a_referee_voids_or_restores_a_game(world, data, number):
    table, other, client, _boss = world
    game = Game.objects.get(table=table, number=number)
    disputes = [
        str(Dispute.objects.create(table=table, description="Revoke", raised_by="Anna").pk),
        str(Dispute.objects.create(table=other, description="Elsewhere", raised_by="Bob").pk),
    ]
    fields = {
        "version": st.one_of(st.sampled_from([str(game.version), str(game.version - 1), str(game.version + 1)]), junk),
        "reason": text,
        "dispute": st.one_of(st.sampled_from(["", *disputes]), junk),
    }
    posted = data.draw(st.one_of(near({"version": str(game.version), "reason": "3.2.11"}, fields), form_data(fields)))
    before = _state()
    response = post(client, reverse("referees:void", args=[table.series.tournament_id, game.pk]), posted)
    event(f"status {response.status_code}")
    assert response.status_code in {302, 422}
    if response.status_code == 422:
        assert _state() == before
        assert_errors_name_their_field(response.context["void_form"], response.content.decode())
    else:
        assert Game.objects.get(pk=game.pk).voided != game.voided
    _assert_valued_by_the_engine(table)


@FUZZ
@given(
    username=value(st.one_of(st.sampled_from(["ref", "boss", "nobody", " ref ", "REF", "helper"]), odd_text)),
    remove=st.one_of(st.none(), st.integers(-1, 10)),
)
def test_assigning_and_removing_referees(world, username, remove):
    table, _other, _client, boss = world
    t = table.series.tournament_id
    get_user_model().objects.get_or_create(username="helper")
    before = _state()
    if remove is not None:
        ids = sorted(RefereeAssignment.objects.filter(tournament_id=t).values_list("pk", flat=True))
        pk = ids[remove % len(ids)] if ids and remove >= 0 else 10**6
        response = post(boss, reverse("referees:unassign", args=[t, pk]), {"username": username})
        assert response.status_code in {302, 404}
        if response.status_code == 404:
            assert _state() == before
        return
    response = post(boss, reverse("referees:assign", args=[t]), {"username": username})
    event(f"status {response.status_code}")
    assert response.status_code in {302, 422}
    if response.status_code == 422:
        assert _state() == before
        assert_errors_name_their_field(response.context["form"], response.content.decode())

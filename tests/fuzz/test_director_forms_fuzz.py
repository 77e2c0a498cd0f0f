"""Random and malformed posts to the director's forms: tournament and fee schedule,
registration, draw, seat changes, finishing a series, and the standings' query.

Never a 500; a refused post changes nothing and shows every error on the page.
"""

from __future__ import annotations

import html

import pytest
from django.apps import apps
from django.contrib.messages import get_messages
from django.http import QueryDict
from django.test import Client
from django.urls import reverse
from hypothesis import event, example, given
from hypothesis import strategies as st

from core.name_checks import name_problem
from tests import factories
from tournaments.forms import LostGameFeeFormSet, TournamentForm
from tournaments.models import Registration, Series, Tournament
from tournaments.player_forms import RegistrationForm

from .strategies import FUZZ, NASTY, form_data, junk, near, small_int, value

pytestmark = pytest.mark.django_db


def snapshot() -> dict:
    return {
        m._meta.label: list(m.objects.order_by("pk").values_list())
        for m in apps.get_models()
        if m._meta.app_label in {"tournaments", "scoring", "signoff", "referees"}
    }


@pytest.fixture
def world():
    director = factories.user("director", superuser=True)
    t = factories.tournament(directors=[director], series_count=3)
    t.lost_game_fees.create(from_lost_game=1, amount="0.50")
    t.lost_game_fees.create(from_lost_game=4, amount="1.00")
    factories.registered(t, 7, clubs=2)
    client = Client()
    client.force_login(director)
    return t, client


def assert_shown(page: str, *forms) -> None:
    """Every error of every form (and formset) is on the page."""
    for form in forms:
        if form is None:
            continue
        errors = form.non_form_errors() if hasattr(form, "non_form_errors") else []
        for error in errors:
            assert html.escape(str(error)) in page, error
        for sub in getattr(form, "forms", [form]):
            for name, messages in sub.errors.items():
                for message in messages:
                    assert html.escape(str(message)) in page, (name, message)


decimal = st.one_of(st.decimals(-1000, 10**7, places=2).map(str), junk)
#: Names that must never be stored (core.name_checks): a bell, a line break, a
#: right-to-left override, invisible characters only, Unicode's line separator.
HOSTILE_NAMES = ["Anna\x07Bell", "Anna\nZeile", "Anna \u202eReversed", "\u200b\u200b", "Anna\u2028Zeile"]
names = st.one_of(
    st.text(max_size=200),
    st.sampled_from(HOSTILE_NAMES),
    st.tuples(st.sampled_from(HOSTILE_NAMES), st.text(max_size=20)).map("".join),
    junk,
)
TOURNAMENT_FIELDS = {
    "name": names,
    "date": st.one_of(st.dates().map(str), junk),
    "venue": names,
    "series_count": small_int(-1, 25),
    "rounds_per_series": small_int(-1, 35),
    "entry_fee": decimal,
    "list_fee": decimal,
    "prize_pool_percent": small_int(-5, 120),
    "standings_public": st.sampled_from(["on", ""]),
}
VALID_TOURNAMENT = {
    "name": "Club Open",
    "date": "2026-11-23",
    "series_count": "3",
    "rounds_per_series": "12",
    "entry_fee": "10.00",
    "list_fee": "0",
    "prize_pool_percent": "100",
}
tournament_data = st.one_of(near(VALID_TOURNAMENT, TOURNAMENT_FIELDS), form_data(TOURNAMENT_FIELDS))


def fee_data(fee_ids: list[int]) -> st.SearchStrategy[dict]:
    ids = st.one_of(st.sampled_from([str(i) for i in fee_ids]), junk) if fee_ids else junk
    per_form = {}
    for i in range(4):
        per_form |= {
            f"fees-{i}-id": ids,
            f"fees-{i}-from_lost_game": small_int(0, 6),
            f"fees-{i}-amount": decimal,
            f"fees-{i}-DELETE": st.sampled_from(["on", ""]),
        }
    management = {
        "fees-TOTAL_FORMS": st.one_of(st.sampled_from(["0", "1", "2", "3", "4"]), junk),
        "fees-INITIAL_FORMS": st.one_of(st.sampled_from(["0", "1", "2", "3", "4"]), junk),
    }
    steps = st.integers(1, 6).map(str)
    amounts = st.sampled_from(["0.50", "1.00", "1.5", "0"])
    plausible = st.fixed_dictionaries(
        {"fees-TOTAL_FORMS": st.just("3"), "fees-INITIAL_FORMS": st.just(str(len(fee_ids)))}
        | {f"fees-{i}-id": st.just(str(pk)) for i, pk in enumerate(fee_ids)}
        | {f"fees-{i}-from_lost_game": steps for i in range(3)}
        | {f"fees-{i}-amount": amounts for i in range(3)},
        optional={f"fees-{i}-DELETE": st.just("on") for i in range(3)},
    )
    return st.one_of(
        plausible,
        st.tuples(plausible, st.sampled_from(sorted(management | per_form)), junk).map(lambda t: {**t[0], t[1]: t[2]}),
        st.fixed_dictionaries({}, optional={k: value(v) for k, v in (management | per_form).items()}),
    )


def assert_readable_names() -> None:
    """No tournament was stored with a name or venue nobody can read."""
    for name, venue in Tournament.objects.values_list("name", "venue"):
        assert name_problem(name) is None and (not venue or name_problem(venue) is None), (name, venue)


@FUZZ
@given(data=tournament_data)
@example(data=VALID_TOURNAMENT | {"venue": "Anna \u202eReversed"})
@example(data=VALID_TOURNAMENT | {"name": "Anna\nZeile"})
@example(data=VALID_TOURNAMENT | {"name": "\u200b\u200b", "venue": "Anna\x07Bell"})
@example(data=VALID_TOURNAMENT | {"name": "Müller-Lüdenscheidt Open", "venue": "Zum Löwen"})
def test_creating_a_tournament(world, data):
    _t, client = world
    before = snapshot()
    asked = TournamentForm(as_posted(data))
    valid = asked.is_valid()
    response = client.post(reverse("director:create"), data)
    event(f"status {response.status_code}")
    assert response.status_code == (302 if valid else 200)
    if response.status_code == 200:
        assert snapshot() == before
        assert response.context["form"].errors
        assert_shown(response.content.decode(), response.context["form"])
    else:
        # What changed is what was asked: one new tournament, holding the form's cleaned values.
        old = {row[0] for row in before["tournaments.Tournament"]}
        (new,) = Tournament.objects.exclude(pk__in=old)
        assert stored_fields(new) == asked.cleaned_data
        assert snapshot()["tournaments.Tournament"][: len(old)] == before["tournaments.Tournament"]
    assert_readable_names()


def stored_fields(tournament: Tournament) -> dict:
    """The tournament's values of the fields its form edits."""
    return {name: getattr(tournament, name) for name in TournamentForm.Meta.fields}


#: The fee schedule's rows as every example of the edit test starts from them.
FEE_IDS = [9001, 9002]


def fee_rows(tournament: Tournament) -> dict[int, tuple]:
    return {
        pk: (step, amount)
        for pk, step, amount in tournament.lost_game_fees.values_list("pk", "from_lost_game", "amount")
    }


def asked_fees(formset, before: list[tuple]) -> list[tuple]:
    """The (from lost game, amount) rows a valid fee formset leaves: the rows it does not
    name as they were, its initial forms changed or deleted, its filled extra forms added."""
    rows = dict(before)
    for form in formset.initial_forms:
        if form.cleaned_data.get("DELETE"):
            rows.pop(form.instance.pk, None)
        else:
            rows[form.instance.pk] = (form.cleaned_data["from_lost_game"], form.cleaned_data["amount"])
    added = [
        (form.cleaned_data["from_lost_game"], form.cleaned_data["amount"])
        for form in formset.extra_forms
        if form.has_changed() and not form.cleaned_data.get("DELETE")
    ]
    return sorted([*rows.values(), *added])


def as_posted(data: dict) -> QueryDict:
    """The post as the view reads it: a list is several values of one key, anything else its text."""
    posted = QueryDict(mutable=True)
    for key, item in data.items():
        posted.setlist(key, [str(v) for v in item] if isinstance(item, list | tuple) else [str(item)])
    return posted


@FUZZ
@given(data=st.data())
def test_editing_the_tournament_and_its_fees(world, data):
    t, client = world
    # Every example starts from the same fee schedule with the same ids, so what is drawn
    # never depends on what an earlier example saved (hypothesis replays examples).
    t.lost_game_fees.all().delete()
    for pk, (step, amount) in zip(FEE_IDS, [(1, "0.50"), (4, "1.00")], strict=True):
        t.lost_game_fees.create(pk=pk, from_lost_game=step, amount=amount)
    fees = data.draw(fee_data(FEE_IDS))
    posted = data.draw(tournament_data) | fees
    before = snapshot()
    # The view's forms, bound to the same post before it is sent: their verdict and values.
    fees_before = fee_rows(t)
    asked = TournamentForm(as_posted(posted), instance=Tournament.objects.get(pk=t.pk))
    asked_fee_forms = LostGameFeeFormSet(as_posted(posted), instance=Tournament.objects.get(pk=t.pk), prefix="fees")
    valid = all([asked.is_valid(), asked_fee_forms.is_valid()])
    response = client.post(reverse("director:edit", args=[t.pk]), posted)
    event(f"status {response.status_code}")
    assert response.status_code == (302 if valid else 200)
    if response.status_code == 200:
        assert snapshot() == before
        assert_shown(response.content.decode(), response.context["form"], response.context["fees"])
    else:
        # What changed is what was asked: the tournament's fields and its fee schedule, nothing else.
        t.refresh_from_db()
        assert stored_fields(t) == {name: asked.cleaned_data[name] for name in TournamentForm.Meta.fields}
        assert sorted(fee_rows(t).values()) == asked_fees(asked_fee_forms, list(fees_before.items()))
        after = snapshot()
        for label in ("tournaments.Registration", "tournaments.Series", "tournaments.Player"):
            assert after[label] == before[label], label
    assert_readable_names()


REGISTRATION_FIELDS = {
    "name": st.one_of(st.text(max_size=150), st.sampled_from(HOSTILE_NAMES), junk),
    "club": st.one_of(st.sampled_from(["Club 0", "club 0", " Club  1 ", *HOSTILE_NAMES]), st.text(max_size=150), junk),
    "membership_number": st.one_of(st.sampled_from(["", "M1", " M1 ", "m1"]), st.text(max_size=40), junk),
    "nationality": st.one_of(st.sampled_from(["DE", "de", "AUT"]), junk),
    "team": st.one_of(st.sampled_from(["", "Team A", " Team A ", *HOSTILE_NAMES]), st.text(max_size=150), junk),
    "first_series": small_int(-1, 5),
}


@FUZZ
@given(
    data=st.one_of(
        near({"name": "Anna Sommer", "first_series": "1"}, REGISTRATION_FIELDS), form_data(REGISTRATION_FIELDS)
    )
)
def test_registering_a_player(world, data):
    t, client = world
    before = snapshot()
    asked = RegistrationForm(as_posted(data), tournament=t, user=client_user(client))
    valid = asked.is_valid()
    response = client.post(reverse("director:players", args=[t.pk]), data)
    event(f"status {response.status_code}")
    assert response.status_code == (302 if valid else 422)
    if response.status_code == 422:
        assert snapshot() == before
        assert_shown(response.content.decode(), response.context["form"])
    else:
        assert Registration.objects.filter(tournament=t).count() == len(before["tournaments.Registration"]) + 1
        newest = Registration.objects.filter(tournament=t).select_related("player__club", "team").latest("pk")
        # What changed is what was asked: this player, from this series on.
        entry = asked.entry()
        assert newest.first_series == entry.first_series
        if not entry.membership_number or newest.player.pk not in {r[0] for r in before["tournaments.Player"]}:
            assert (newest.player.name, newest.player.membership_number) == (entry.name, entry.membership_number)
        for name in (
            newest.player.name,
            newest.player.club and newest.player.club.name,
            newest.team and newest.team.name,
        ):
            assert not name or name_problem(name) is None, name


def client_user(client: Client):
    """The user the test client is logged in as."""
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(pk=client.session["_auth_user_id"])


def _messages(response) -> list:
    return list(get_messages(response.wsgi_request))


def post(client, url, data):
    """Post with no message left over from an earlier example (they queue in a cookie)."""
    client.cookies.pop("messages", None)
    return client.post(url, data)


def _refused_or_changed(response, before) -> None:
    """A redirect with an error message has changed nothing; one without has done its job."""
    assert response.status_code == 302
    levels = {m.level_tag for m in _messages(response)}
    if "error" in levels:
        assert snapshot() == before


@FUZZ
@given(method=value(st.one_of(st.sampled_from(["random", "seeded"]), junk)), finish_first=st.booleans())
def test_drawing_a_series(world, method, finish_first):
    t, client = world
    if finish_first:
        Series.objects.filter(tournament=t).update(status=Series.Status.FINISHED)
    before = snapshot()
    _refused_or_changed(post(client, reverse("director:draw", args=[t.pk]), {"method": method}), before)


@pytest.fixture
def drawn(world):
    t, client = world
    from draw.series import draw_series

    series = draw_series(t)
    players = [str(p) for p in series.seats.values_list("player_id", flat=True)]
    tables = [str(p) for p in series.tables.values_list("pk", flat=True)]
    return t, client, players, tables


@FUZZ
@given(data=st.data())
def test_swapping_and_moving_players(drawn, data):
    t, client, players, tables = drawn
    player = st.one_of(st.sampled_from(players), junk)
    table = st.one_of(st.sampled_from(tables), junk)
    swap = data.draw(form_data({"first": player, "second": player}))
    move = data.draw(form_data({"player": player, "table": table}))
    for name, posted in (("swap", swap), ("move", move)):
        before = snapshot()
        _refused_or_changed(post(client, reverse(f"director:{name}", args=[t.pk, 1]), posted), before)


@FUZZ
@given(force=value(junk), number=st.integers(0, 3))
def test_finishing_a_series(drawn, force, number):
    t, client, _players, _tables = drawn
    before = snapshot()
    response = post(client, reverse("director:finish", args=[t.pk, number]), {"force": force})
    if number != 1:
        assert response.status_code == 404
        assert snapshot() == before
    else:
        _refused_or_changed(response, before)


@FUZZ
@given(
    query=st.fixed_dictionaries(
        {"series": st.one_of(st.sampled_from(NASTY), value(st.one_of(st.sampled_from(NASTY), small_int(-1, 4))))},
        optional={
            "sort": value(st.one_of(st.sampled_from(["name", "-score", "rank", "members", "-rating"]), junk)),
            "page": value(junk),
            "view": value(st.one_of(st.sampled_from(["teams", "players", "TEAMS", ""]), junk)),
        },
    )
)
@example(query={"series": "²"})  # regression: "²".isdigit() but int("²") failed with a 500
@example(query={"series": "1", "view": "teams", "sort": "members"})
def test_the_standings_query(drawn, query):
    t, client, _players, _tables = drawn
    # Two of the players form a team, so the team ranking is offered and fuzzed too.
    if not t.teams.exists():
        team = t.teams.create(name="Fuzz Team")
        t.registrations.filter(pk__in=t.registrations.order_by("pk").values("pk")[:2]).update(team=team)
    for url in (reverse("director:standings", args=[t.pk]), reverse("public:live", args=[t.pk])):
        assert client.get(url, query).status_code == 200

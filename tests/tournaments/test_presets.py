"""Rule presets (tournaments/presets.py): a new tournament starts from a usual kind of event."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from tests import factories
from tournaments.models import Tournament
from tournaments.presets import BY_KEY, PRESETS, summary

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(client):
    user = factories.user("director")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    client.force_login(user)
    return user


def create(client, preset: str, **changes) -> Tournament:
    """Open the form from the preset, keep what it filled in (or change it), save."""
    form = client.get(reverse("director:create"), {"preset": preset}).context["form"]
    data = {name: form[name].value() for name in form.fields if form[name].value() is not None}
    data |= {"name": f"Preset {preset}", "date": "2026-11-27", "preset": preset} | changes
    data = {k: v for k, v in data.items() if v is not False}
    response = client.post(reverse("director:create"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return Tournament.objects.get(name=f"Preset {preset}")


def tables(t: Tournament) -> dict[str, object]:
    return {
        "rounds_per_series": t.rounds_per_series,
        "entry_fee": t.entry_fee,
        "list_fee": t.list_fee,
        "prize_pool_percent": t.prize_pool_percent,
        "standings_public": t.standings_public,
        "lost_game_fees": tuple((f.from_lost_game, f.amount) for f in t.lost_game_fees.order_by("from_lost_game")),
        "passed_out_fees": tuple(
            (f.table_size, f.from_passed_out, f.amount)
            for f in t.passed_out_fees.order_by("-table_size", "from_passed_out")
        ),
        "table_money": tuple(
            (m.table_size, m.place, m.amount) for m in t.table_money.order_by("-table_size", "place")
        ),
    }


def expected(key: str) -> dict[str, object]:
    p = BY_KEY[key]
    return p.fields() | {
        "lost_game_fees": p.lost_game_fees,
        "passed_out_fees": tuple(sorted(p.passed_out_fees, key=lambda s: (-s[0], s[1]))),
        "table_money": tuple(sorted(p.table_money, key=lambda s: (-s[0], s[1]))),
    }


@pytest.mark.parametrize("key", [p.key for p in PRESETS])
def test_choosing_a_preset_fills_exactly_its_tables(client, director, key):
    assert tables(create(client, key)) == expected(key)


def test_the_usual_presets_are_offered_with_what_they_set(client, director):
    page = client.get(reverse("director:create")).content.decode()
    assert "Federation tournament" in page and "Club evening" in page and "Short" in page
    assert summary(BY_KEY["federation"]).startswith("12 rounds: 48/36 deals; lost-game fee 0.50 from the 1., 1.00")
    assert "10 rounds: 40/30 deals; lost-game fee flat 1.00" in summary(BY_KEY["club"])
    assert summary(BY_KEY["short"]).startswith("8 rounds: 32/24 deals")


def test_what_the_director_changes_before_saving_is_kept(client, director):
    t = create(client, "club", rounds_per_series="9", entry_fee="7.50")
    assert (t.rounds_per_series, t.entry_fee) == (9, Decimal("7.50"))
    assert tables(t)["lost_game_fees"] == BY_KEY["club"].lost_game_fees


def test_edits_after_are_kept(client, director):
    t = create(client, "federation")
    t.directors.add(director)
    edit = client.get(reverse("director:edit", args=[t.pk]))
    data = {}
    for context_name, prefix in (("fees", "fees"), ("passed_out_fees", "passed"), ("table_money", "money")):
        formset = edit.context[context_name]
        data |= {f"{prefix}-{k}": v for k, v in formset.management_form.initial.items()}
        for i, form in enumerate(formset.forms):
            for name in form.fields:
                value = form[name].value()
                if value is not None and value is not False and value != "":
                    data[f"{prefix}-{i}-{name}"] = value
    form = edit.context["form"]
    data |= {name: form[name].value() for name in form.fields if form[name].value() is not None}
    data = {k: v for k, v in data.items() if v is not False}
    data |= {"rounds_per_series": "11", "fees-1-amount": "2.00", "money-0-amount": "3.00"}
    answer = client.post(reverse("director:edit", args=[t.pk]), data)
    assert answer.status_code == 302
    t.refresh_from_db()
    saved = tables(t)
    assert saved["rounds_per_series"] == 11
    assert saved["lost_game_fees"] == ((1, Decimal("0.50")), (4, Decimal("2.00")))
    assert (3, 1, Decimal("3.00")) in saved["table_money"]  # the form lists size 3 first
    assert saved["passed_out_fees"] == expected("federation")["passed_out_fees"]


def test_an_unknown_preset_is_none(client, director):
    t = create(client, "nonesuch")
    assert tables(t)["lost_game_fees"] == ((1, Decimal("0.50")), (4, Decimal("1.00")))  # the common schedule
    assert tables(t)["table_money"] == ()


def test_a_preset_publishes_the_standings_a_tournament_from_scratch_does_not(client, director):
    """The usual events show their standings to the hall."""
    assert create(client, "club").standings_public
    form = client.get(reverse("director:create")).context["form"]
    assert not form["standings_public"].value()


def test_the_new_tournament_form_leads_to_the_fee_and_prize_tables(client, director):
    """The fees and prizes are tables the new form cannot hold; it says so and
    its second button saves and opens them."""
    page = client.get(reverse("director:create")).content.decode()
    assert "Save and set fees and prizes" in page and "the prizes (overall and per category" in page
    response = client.post(
        reverse("director:create"),
        {
            "name": "Cup",
            "date": "2026-12-01",
            "series_count": 2,
            "rounds_per_series": 3,
            "entry_fee": "5",
            "list_fee": "0",
            "prize_pool_percent": 100,
            "next": "rules",
        },
    )
    t = Tournament.objects.get(name="Cup")
    assert response.status_code == 302 and response.url == reverse("director:edit", args=[t.pk])
